import Glibc
import MapCore
import MapGeometry
@testable import MapRender
import Testing

/// A turned page's furniture: the north arrow points where the map's north is, and the
/// graticule's lines are meridians and parallels, turned with the map and cut at the frame.
struct TurnedPageFurnitureTests {
    let frame = ScreenSize(width: 515, height: 740)

    func camera(_ bearing: Double) -> Camera {
        Camera(center: Coordinate(latitude: 60.1705, longitude: 24.944), zoom: 15, viewportSize: frame, bearing: bearing)
    }

    /// Degrees clockwise from the page's up of the way from `a` to `b`.
    func heading(_ a: ScreenPoint, _ b: ScreenPoint) -> Double {
        let d = atan2(b.x - a.x, a.y - b.y) * 180 / .pi
        return d < 0 ? d + 360 : d
    }

    func apart(_ a: Double, _ b: Double) -> Double { abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180) }

    @Test("The north arrow points to north", arguments: [0.0, 30, 90, 135, 200, 359.5])
    func northArrowPointsNorth(bearing: Double) {
        let c = camera(bearing)
        let arrow = PagePrinter.northArrowPoints(centre: (x: 100, y: 50), degrees: c.northOnScreen)
        // From the notch to the tip.
        let pointing = heading(arrow[2], arrow[0])
        // North on the map: from the centre to a point a little north of it.
        let centre = c.screenPoint(for: c.centerCoordinate)
        let north = heading(centre, c.screenPoint(for: Coordinate(latitude: c.centerCoordinate.latitude + 0.001, longitude: c.centerCoordinate.longitude)))
        #expect(apart(pointing, north) < 0.01, "arrow \(pointing)°, north \(north)°")
        // The barbs either side of the tip, the same shape turned.
        #expect(abs(hypot(arrow[0].x - arrow[1].x, arrow[0].y - arrow[1].y) - hypot(arrow[0].x - arrow[3].x, arrow[0].y - arrow[3].y)) < 1e-9)
    }

    @Test func aNorthUpArrowIsAsItWas() {
        let p = PagePrinter.northArrowPoints(centre: (x: 100, y: 50), degrees: 0)
        #expect(p.map { [$0.x, $0.y] } == [[100, 39], [105, 53], [100, 50], [95, 53]])
    }

    @Test("Grid lines are meridians and parallels", arguments: [0.0, 30, 90, 250])
    func gridLinesAreMeridiansAndParallels(bearing: Double) {
        let c = camera(bearing)
        let lines = PagePrinter.gridLines(frame: frame, camera: c)
        #expect(lines.filter(\.meridian).count >= 2 && lines.filter { !$0.meridian }.count >= 2, "\(lines.count)")
        for line in lines {
            let a = c.coordinate(for: line.from), b = c.coordinate(for: line.to)
            if line.meridian {
                #expect(abs(a.longitude - b.longitude) < 1e-9, "\(line.label): \(a) \(b)")
            } else {
                #expect(abs(a.latitude - b.latitude) < 1e-9, "\(line.label): \(a) \(b)")
            }
            // Cut at the frame: both ends on its edge, the line across it.
            for p in [line.from, line.to] {
                #expect(p.x > -1e-6 && p.x < frame.width + 1e-6 && p.y > -1e-6 && p.y < frame.height + 1e-6, "\(p)")
                let onEdge = min(abs(p.x), abs(p.x - frame.width), abs(p.y), abs(p.y - frame.height))
                #expect(onEdge < 1e-6, "\(p)")
            }
            // Written where it meets the top or the left side.
            switch line.mark {
            case let .top(x): #expect(x >= 0 && x <= frame.width)
            case let .left(y): #expect(y >= 0 && y <= frame.height)
            case .none: break
            }
        }
        if bearing == 0 {
            // North up, as the page always had it: meridians written above, parallels up the left.
            for line in lines {
                switch line.mark {
                case .top: #expect(line.meridian, "\(line.label)")
                case .left: #expect(!line.meridian, "\(line.label)")
                case .none: Issue.record("\(line.label) is not written")
                }
            }
        }
        if bearing == 90 {
            // East up: meridians run across the page.
            #expect(lines.filter(\.meridian).allSatisfy { abs($0.from.y - $0.to.y) < 1e-6 })
        }
    }

    @Test func aLineIsCutAtTheFrame() {
        let cut = PagePrinter.clipped(ScreenPoint(x: -10, y: -10), ScreenPoint(x: 0, y: 0), width: 100, height: 50)
        #expect(cut.map { [$0.0.x, $0.0.y, $0.1.x, $0.1.y] } == [0, 0, 50, 50])
        #expect(PagePrinter.clipped(ScreenPoint(x: 200, y: 0), ScreenPoint(x: 200, y: 1), width: 100, height: 50) == nil)
    }
}
