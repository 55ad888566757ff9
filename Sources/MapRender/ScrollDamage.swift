import MapCore
import MapGeometry
import Platform

/// What a frame of a sliding map needs drawn once the last frame is copied by the slide (the
/// server scrolls its frame, as a window system scrolls a window): the strips the copy leaves
/// uncovered at the edges, and whatever did not slide with the map (the chrome fixed on the
/// window, labels coming and going). The map's tiles and labels that slid are not drawn
/// again. Nil when the frames do not differ by a whole-pixel slide, or when so much changed
/// that drawing the whole frame costs as little.
struct ScrollDamage {
    /// The slide, in device pixels (right and down positive).
    let dx: Int32, dy: Int32
    /// What to draw after the copy: the uncovered strips (kept apart: merged with the rest
    /// into one box, an L of two strips would be the whole window), then what changed outside
    /// them. No two overlap (`mx_render_clip` draws a turned tile box by box).
    let boxes: [PixelBox]

    init?(from old: [DrawCommand], to new: [DrawCommand], _ k: Double, width: Int, height: Int, renewed: [PixelBox] = []) {
        self.init(from: old, Self.placed(old, k, width: width, height: height), to: new, Self.placed(new, k, width: width, height: height),
                  k, width: width, height: height, renewed: renewed)
    }

    /// Each command as where its pixels go (a compositor keeps a frame's for the next).
    static func placed(_ commands: [DrawCommand], _ k: Double, width: Int, height: Int) -> [Placed?] {
        guard k > 0, k.isFinite else { return [] }
        return commands.map { Placed($0, k, width: width, height: height) }
    }

    /// `was`, `now`: `placed(old)` and `placed(new)`.
    /// `renewed`: boxes of this frame to draw whatever the slide (pictures that changed).
    init?(from old: [DrawCommand], _ was: [Placed?], to new: [DrawCommand], _ now: [Placed?], _ k: Double, width: Int, height: Int,
          renewed: [PixelBox] = []) {
        guard width > 0, height > 0, k > 0, k.isFinite, was.count == old.count, now.count == new.count else { return nil }
        // The slide is that of the first tile drawn in both frames.
        var slide: (Int64, Int64)?
        search: for case let p? in now where p.isTile {
            for case let o? in was where o.isTile && o.content == p.content {
                slide = (p.x0 - o.x0, p.y0 - o.y0)
                break search
            }
        }
        guard let (qx, qy) = slide, qx % Placed.steps == 0, qy % Placed.steps == 0 else { return nil }
        let (sx, sy) = (qx / Placed.steps, qy / Placed.steps)
        guard abs(sx) < Int64(width), abs(sy) < Int64(height) else { return nil }
        dx = Int32(sx)
        dy = Int32(sy)

        // Which commands are in both frames, slid: matched through their keys sorted (a frame
        // does this sixty times a second; hashing each command into sets cost more than the
        // rest of the frame's drawing).
        let moved = was.map { $0?.shifted(qx, qy) }
        let (oldMatch, newMatch) = Self.match(moved, now)
        // What is in both and overlaps must be painted in the same order, or the copy differs
        // there (tiles side by side may come in any order).
        // Tiles of one grid (a layer's tiles of one zoom, turned alike) never overlap but for
        // their bounds, when turned, and their outsets' edge texels: their order is free (it
        // follows the distance to the centre, which a pan changes).
        let common = now.indices.compactMap { j in newMatch[j].map { (now[j]!, $0) } }
        for j in common.indices {
            let (b, bi) = common[j]
            for (a, ai) in common[..<j] where ai > bi && a.overlaps(b) && !a.sharesGrid(with: b) { return nil }
        }

        let w = Int32(clamping: width), h = Int32(clamping: height)
        var strips: [PixelBox] = []
        if dx > 0 { strips.append(PixelBox(x0: 0, y0: 0, x1: dx, y1: h)) }
        if dx < 0 { strips.append(PixelBox(x0: w + dx, y0: 0, x1: w, y1: h)) }
        // The rows uncovered, beside the columns already taken.
        let (left, right) = (max(dx, 0), w + min(dx, 0))
        if dy > 0 { strips.append(PixelBox(x0: left, y0: 0, x1: right, y1: dy)) }
        if dy < 0 { strips.append(PixelBox(x0: left, y0: h + dy, x1: right, y1: h)) }
        var damage = DamageRegion(width: width, height: height)
        for b in renewed { damage.add(b) }
        for (c, m) in zip(new, newMatch) where m == nil {
            damage.add(c.pixelBox(k, inside: width, height))
        }
        for (c, m) in zip(old, oldMatch) where m == nil {
            guard let b = c.pixelBox(k, inside: width, height) else { continue }
            let s = PixelBox(x0: max(b.x0 + dx, 0), y0: max(b.y0 + dy, 0), x1: min(b.x1 + dx, w), y1: min(b.y1 + dy, h))
            if s.x1 > s.x0, s.y1 > s.y0 { damage.add(s) }
        }
        guard !damage.isWhole else { return nil }
        boxes = strips + damage.boxes.flatMap { $0.uncovered(by: strips) }
    }

    /// For each of `old` and of `new`, the index of the same command in the other frame (the
    /// first not yet matched), or nil.
    static func match(_ old: [Placed?], _ new: [Placed?]) -> (old: [Int?], new: [Int?]) {
        var oldMatch = [Int?](repeating: nil, count: old.count), newMatch = [Int?](repeating: nil, count: new.count)
        // Each key with the command's index in its low bits, sorted as plain integers: equal
        // keys come together, in the order of their commands. (Sorting pairs through a closure
        // cost a frame 40,000 instructions.) Keys alike but for those bits are compared as
        // equal: two commands then fail to match at worst, and are drawn again.
        let bits: UInt64 = 24, low: UInt64 = (1 << bits) - 1
        guard old.count <= low, new.count <= low else { return (oldMatch, newMatch) }
        func keyed(_ ps: [Placed?]) -> [UInt64] {
            var out: [UInt64] = []
            out.reserveCapacity(ps.count)
            for (i, p) in ps.enumerated() { if let p { out.append(p.key & ~low | UInt64(i)) } }
            out.sort()
            return out
        }
        let a = keyed(old), b = keyed(new)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            let ka = a[i] >> bits, kb = b[j] >> bits
            if ka < kb { i += 1; continue }
            if ka > kb { j += 1; continue }
            // Equal keys: the same command, unless two commands' keys collide.
            let oi = Int(a[i] & low), ni = Int(b[j] & low)
            if old[oi] == new[ni] {
                oldMatch[oi] = ni
                newMatch[ni] = oi
            }
            i += 1
            j += 1
        }
        return (oldMatch, newMatch)
    }

    /// A command as where its pixels go: what it draws (as a 64-bit hash of it: a frame
    /// compares a few hundred of these, and hashing sprite keys each time cost more than the
    /// scroll saved; two commands alike in hash and place are never met in practice), and its
    /// device rectangle in 1/64 pixels (two frames' points never agree to the last bit; where
    /// their pixels go does).
    struct Placed: Equatable {
        static let steps: Int64 = 64
        /// The hash of what it draws, tagged by kind; the clear's is its own (it never slides).
        let content: Int
        let isTile: Bool
        let isClear: Bool
        /// A tile's layer, source, zoom, opacity and turn together (0: not a tile).
        let grid: Int
        var x0: Int64, y0: Int64, x1: Int64, y1: Int64

        init?(_ c: DrawCommand, _ k: Double, width: Int, height: Int) {
            let r: ScreenRect
            var h = Hasher()
            var tile = false
            var g = 0
            switch c {
            case let .clear(color):
                h.combine(0); h.combine(color)
                (content, isTile, isClear, grid) = (h.finalize(), false, true, 0)
                (x0, y0, x1, y1) = (0, 0, Int64(width) * Self.steps, Int64(height) * Self.steps)
                return
            case let .fillRect(rect, color): h.combine(1); h.combine(color); r = rect
            case let .tile(id, layer, source, rect, opacity, degrees):
                h.combine(2); h.combine(id); h.combine(layer); h.combine(source); h.combine(opacity); h.combine(degrees)
                r = rect.turnedBounds(degrees)
                tile = true
                var gh = Hasher()
                gh.combine(layer); gh.combine(source); gh.combine(id.z); gh.combine(opacity); gh.combine(degrees)
                g = gh.finalize() | 1
            case let .sprite(key, rect, opacity): h.combine(3); h.combine(key); h.combine(opacity); r = rect
            case let .rotatedSprite(key, rect, opacity, degrees): h.combine(4); h.combine(key); h.combine(opacity); h.combine(degrees); r = rect
            }
            (content, isTile, isClear, grid) = (h.finalize(), tile, false, g)
            func q(_ v: Double) -> Int64? {
                let s = v * k * Double(Self.steps)
                // Far off the window (a million points away) is not worth matching.
                guard s.isFinite, abs(s) < 1e15 else { return nil }
                return Int64(saturating: s.rounded())
            }
            guard let a = q(r.x), let b = q(r.y), let c = q(r.maxX), let d = q(r.maxY) else { return nil }
            (x0, y0, x1, y1) = (a, b, c, d)
        }

        /// What and where mixed into one number, to sort by.
        var key: UInt64 {
            func mix(_ h: UInt64, _ v: Int64) -> UInt64 {
                let m = (h ^ UInt64(bitPattern: v)) &* 0x100_0000_01B3
                return m ^ (m >> 29)
            }
            let h = UInt64(bitPattern: Int64(content)) ^ (isClear ? 0x9E37_79B9 : 0)
            return mix(mix(mix(mix(h, x0), y0), x1), y1)
        }

        func overlaps(_ o: Placed) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }

        func sharesGrid(with o: Placed) -> Bool { grid != 0 && grid == o.grid }

        /// The same command where the map slid by `qx`, `qy` (in 1/64 pixels); the clear stays.
        func shifted(_ qx: Int64, _ qy: Int64) -> Placed {
            if isClear { return self }
            var p = self
            p.x0 += qx; p.x1 += qx; p.y0 += qy; p.y1 += qy
            return p
        }
    }
}
