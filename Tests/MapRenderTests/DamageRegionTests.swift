@testable import MapRender
import Testing

struct DamageRegionTests {
    func box(_ x0: Int32, _ y0: Int32, _ x1: Int32, _ y1: Int32) -> PixelBox { PixelBox(x0: x0, y0: y0, x1: x1, y1: y1) }

    @Test func overlappingBoxesMergeAndApartOnesStayApart() {
        var d = DamageRegion(width: 1000, height: 1000)
        d.add(box(0, 0, 10, 10))
        d.add(box(100, 100, 110, 110))
        #expect(d.boxes.count == 2)
        // Touches the first only; their union then touches nothing else.
        d.add(box(5, 5, 20, 20))
        #expect(d.boxes.contains(box(0, 0, 20, 20)) && d.boxes.contains(box(100, 100, 110, 110)) && d.boxes.count == 2)
        // A box over both swallows them.
        d.add(box(15, 15, 105, 105))
        #expect(d.boxes == [box(0, 0, 110, 110)])
        d.add(nil)
        d.add(box(3, 3, 3, 9))
        #expect(d.boxes == [box(0, 0, 110, 110)] && !d.isWhole)
    }

    @Test func manyBoxesMergeTheClosestAndMostOfThePictureBecomesTheWhole() {
        // Small boxes spread over the picture (labels come and go across a slide): past the
        // limit, the two closest merge, not all of them into one that spans the picture.
        var d = DamageRegion(width: 1000, height: 1000)
        var added: [PixelBox] = []
        for i in 0..<Int32(DamageRegion.maxBoxes + 3) {
            let x = (i * 397) % 900, y = (i * 211) % 900
            added.append(box(x, y, x + 30, y + 12))
            d.add(added.last)
        }
        #expect(!d.isWhole && d.boxes.count <= DamageRegion.maxBoxes)
        for a in added { #expect(d.boxes.contains { $0.x0 <= a.x0 && $0.y0 <= a.y0 && a.x1 <= $0.x1 && a.y1 <= $0.y1 }, "\(a) not covered") }
        for (i, a) in d.boxes.enumerated() { for b in d.boxes[(i + 1)...] { #expect(!a.intersects(b)) } }
        #expect(d.boxes.reduce(0) { $0 + $1.area } < 1000 * 1000 / 10)
        // In a row, neighbours merge.
        var row = DamageRegion(width: 1000, height: 1000)
        for i in 0..<Int32(DamageRegion.maxBoxes + 1) { row.add(box(i * 20, 0, i * 20 + 5, 5)) }
        #expect(row.boxes.count == DamageRegion.maxBoxes && row.boxes.contains(box(0, 0, 25, 5)))
        var big = DamageRegion(width: 100, height: 100)
        big.add(box(0, 0, 100, 60))
        #expect(big.isWhole && big.boxes == [box(0, 0, 100, 100)])
        #expect(DamageRegion(width: 10, height: 10).isEmpty)
    }

    @Test func uncoveredPartsAreExactlyWhatNoCoverHolds() {
        let area = box(0, 0, 100, 80)
        let covers = [box(10, 10, 50, 50), box(40, 30, 90, 70), box(-20, -20, 5, 5), box(200, 200, 300, 300)]
        let parts = area.uncovered(by: covers)
        // Every pixel is in exactly one part or under a cover, never both.
        var count = [Int](repeating: 0, count: 100 * 80)
        for p in parts {
            #expect(p.x0 >= 0 && p.y0 >= 0 && p.x1 <= 100 && p.y1 <= 80)
            for y in p.y0..<p.y1 { for x in p.x0..<p.x1 { count[Int(y) * 100 + Int(x)] += 1 } }
        }
        var wrong = 0
        for y in Int32(0)..<80 {
            for x in Int32(0)..<100 {
                let covered = covers.contains { x >= $0.x0 && x < $0.x1 && y >= $0.y0 && y < $0.y1 }
                if count[Int(y) * 100 + Int(x)] != (covered ? 0 : 1) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(area.uncovered(by: [box(-1, -1, 101, 81)]).isEmpty)
        #expect(area.uncovered(by: []) == [area])
    }
}
