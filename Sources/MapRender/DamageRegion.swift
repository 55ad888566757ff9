import Platform

/// The part of a picture a frame changed, as a few boxes: what a pulse over a still map
/// redraws and presents instead of the whole window. Overlapping boxes merge into one, so
/// no pixel is drawn twice; past `maxBoxes`, the two boxes whose union adds the least are
/// merged (labels coming and going across a sliding map's frame stay a few small boxes, not one
/// that spans it); when the boxes cover most of the picture, the region is the whole picture
/// (one big copy is cheaper than many small ones then).
struct DamageRegion {
    let width: Int32
    let height: Int32
    private(set) var boxes: [PixelBox] = []
    private(set) var isWhole = false
    static let maxBoxes = 16
    /// Past this share of the picture, the whole picture is redrawn.
    static let wholeShare = 0.5

    init(width: Int, height: Int) {
        self.width = Int32(clamping: width)
        self.height = Int32(clamping: height)
    }

    var isEmpty: Bool { !isWhole && boxes.isEmpty }

    mutating func add(_ box: PixelBox?) {
        guard !isWhole, let b = box, b.x1 > b.x0, b.y1 > b.y0 else { return }
        insert(b)
        while boxes.count > Self.maxBoxes {
            // The pair whose union covers the least more than they do (at most 17·16/2 pairs).
            var best = (i: 0, j: 1, extra: Int.max)
            for i in boxes.indices {
                for j in boxes.indices where j > i {
                    let extra = boxes[i].union(boxes[j]).area - boxes[i].area - boxes[j].area
                    if extra < best.extra { best = (i, j, extra) }
                }
            }
            let u = boxes[best.i].union(boxes[best.j])
            boxes.remove(at: best.j)
            boxes.remove(at: best.i)
            insert(u)
        }
        let area = boxes.reduce(0) { $0 + $1.area }
        if Double(area) > Self.wholeShare * Double(width) * Double(height) { makeWhole() }
    }

    /// Adds `b`, swallowing every box it touches until it touches none.
    private mutating func insert(_ box: PixelBox) {
        var b = box
        while let i = boxes.firstIndex(where: { $0.intersects(b) }) { b = b.union(boxes.remove(at: i)) }
        boxes.append(b)
    }

    mutating func makeWhole() {
        isWhole = true
        boxes = [PixelBox(x0: 0, y0: 0, x1: width, y1: height)]
    }
}
