import Platform

/// The part of a picture a frame changed, as a few boxes: what a pulse over a still map
/// redraws and presents instead of the whole window. Overlapping boxes merge into one, so
/// no pixel is drawn twice; past `maxBoxes`, or when the boxes cover most of the picture,
/// the region is the whole picture (one big copy is cheaper than many small ones then).
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
        guard !isWhole, var b = box, b.x1 > b.x0, b.y1 > b.y0 else { return }
        // Swallow every box it touches, until it touches none.
        var merged = true
        while merged {
            merged = false
            if let i = boxes.firstIndex(where: { $0.intersects(b) }) {
                b = b.union(boxes.remove(at: i))
                merged = true
            }
        }
        boxes.append(b)
        if boxes.count > Self.maxBoxes {
            boxes = [boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }]
        }
        let area = boxes.reduce(0) { $0 + $1.area }
        if Double(area) > Self.wholeShare * Double(width) * Double(height) { makeWhole() }
    }

    mutating func makeWhole() {
        isWhole = true
        boxes = [PixelBox(x0: 0, y0: 0, x1: width, y1: height)]
    }
}
