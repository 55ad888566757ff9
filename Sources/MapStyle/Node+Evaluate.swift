import MapTiles
import Platform

extension Node {
    /// The value in `ctx`; `scope` holds the values of the enclosing `let`s.
    func evaluate(_ ctx: EvaluationContext, _ scope: inout [StyleValue]) -> StyleValue {
        switch self {
        case let .literal(v): return v
        case .object, .properties, .featureState: return .null
        case .zoom: return .number(ctx.zoom)
        case .id:
            guard let id = ctx.feature?.id else { return .null }
            return .number(Double(id))
        // Point, LineString or Polygon, for one part or several alike (as MapLibre's style
        // spec has it again since v23: Multi… broke too many styles' filters).
        case .geometryType: return ctx.feature.map { .string(Self.typeName($0, multi: false)) } ?? .null
        case .legacyType: return ctx.feature.map { .string(Self.typeName($0, multi: false)) } ?? .null
        case let .get(key, from):
            guard case let .string(k) = key.evaluate(ctx, &scope) else { return .null }
            return Self.lookup(k, in: from, ctx) ?? .null
        case let .has(key, from):
            guard case let .string(k) = key.evaluate(ctx, &scope) else { return .null }
            return .bool(Self.lookup(k, in: from, ctx) != nil)
        case let .all(items):
            for item in items {
                switch item.evaluate(ctx, &scope) {
                case .bool(true): continue
                case .bool(false): return .bool(false)
                default: return .null
                }
            }
            return .bool(true)
        case let .any(items):
            for item in items {
                switch item.evaluate(ctx, &scope) {
                case .bool(true): return .bool(true)
                case .bool(false): continue
                default: return .null
                }
            }
            return .bool(false)
        case let .caseOf(pairs, otherwise):
            for (condition, output) in pairs where condition.evaluate(ctx, &scope) == .bool(true) {
                return output.evaluate(ctx, &scope)
            }
            return otherwise.evaluate(ctx, &scope)
        case let .coalesce(items):
            for item in items {
                let v = item.evaluate(ctx, &scope)
                if !v.isNull { return v }
            }
            return .null
        case let .match(input, table, outputs, otherwise):
            let v = input.evaluate(ctx, &scope)
            if let i = table[v] { return outputs[i].evaluate(ctx, &scope) }
            return otherwise.evaluate(ctx, &scope)
        case let .inSet(input, set):
            return .bool(set.contains(input.evaluate(ctx, &scope)))
        case let .step(input, first, stops):
            guard case let .number(x) = input.evaluate(ctx, &scope) else { return .null }
            // The last stop at or below x; below the first stop (or NaN), the first output.
            guard let i = Self.lastStop(atOrBelow: x, stops) else { return first.evaluate(ctx, &scope) }
            return stops[i].1.evaluate(ctx, &scope)
        case let .interpolate(kind, input, stops):
            guard case let .number(x) = input.evaluate(ctx, &scope) else { return .null }
            guard let i = Self.lastStop(atOrBelow: x, stops) else { return stops[0].1.evaluate(ctx, &scope) }
            guard i + 1 < stops.count else { return stops[i].1.evaluate(ctx, &scope) }
            let t = kind.factor(x, from: stops[i].0, to: stops[i + 1].0)
            return Interpolate.between(stops[i].1.evaluate(ctx, &scope), stops[i + 1].1.evaluate(ctx, &scope), t)
        case let .bind(values, body):
            let bound = values.map { $0.evaluate(ctx, &scope) }
            scope += bound
            defer { scope.removeLast(bound.count) }
            return body.evaluate(ctx, &scope)
        case let .variable(slot):
            return slot < scope.count ? scope[slot] : .null
        case let .format(sections):
            var texts: [String] = [], total = 0
            for section in sections {
                guard let text = section.evaluate(ctx, &scope).displayString else { return .null }
                total += text.utf8.count
                guard total <= StyleValue.maxStringBytes else { return .null }
                texts.append(text)
            }
            return .formatted(texts)
        case let .numberFormat(input, minDigits, maxDigits):
            guard case let .number(n) = input.evaluate(ctx, &scope) else { return .null }
            return .string(NumberText.format(n, minFractionDigits: minDigits, maxFractionDigits: maxDigits))
        case let .call(op, args):
            var values: [StyleValue] = []
            values.reserveCapacity(args.count)
            for arg in args { values.append(arg.evaluate(ctx, &scope)) }
            return op.apply(values)
        }
    }

    /// Index of the last stop whose input is ≤ x (binary search); nil below the first or for NaN.
    static func lastStop(atOrBelow x: Double, _ stops: [(Double, Node)]) -> Int? {
        guard let first = stops.first, x >= first.0 else { return nil }
        var lo = 0, hi = stops.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if stops[mid].0 <= x { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// A property of the feature, or of an object literal given as `get`'s second argument.
    private static func lookup(_ key: String, in from: Node?, _ ctx: EvaluationContext) -> StyleValue? {
        switch from {
        case nil, .properties?: return ctx.property(key)
        case let .object(o)?: return o[key]
        default: return nil
        }
    }

    /// The geometry type's name; with `multi`, a feature of several parts (polygons: several
    /// outer rings) is Multi…, as MapLibre's `geometry-type` says; legacy `$type` never is.
    static func typeName(_ f: VectorTile.Feature, multi: Bool) -> String {
        switch f.type {
        case .unknown: return "Unknown"
        case .point: return multi && f.parts.count > 1 ? "MultiPoint" : "Point"
        case .lineString: return multi && f.parts.count > 1 ? "MultiLineString" : "LineString"
        case .polygon:
            guard multi, f.parts.count > 1 else { return "Polygon" }
            // Outer rings wind one way, holes the other: count the rings that wind as the first.
            let first = signedArea(f.parts[0])
            let outer = f.parts.dropFirst().filter { signedArea($0) * first > 0 }.count + 1
            return outer > 1 ? "MultiPolygon" : "Polygon"
        }
    }

    private static func signedArea(_ ring: [VectorTile.Point]) -> Double {
        guard ring.count > 2 else { return 0 }
        var sum = 0.0
        var prev = ring[ring.count - 1]
        for p in ring {
            sum += (Double(prev.x) * Double(p.y)) - (Double(p.x) * Double(prev.y))
            prev = p
        }
        return sum
    }
}
