import Platform

/// The operators that hold tables: match (labels → outputs), step and interpolate (stops).
extension ExpressionCompiler {
    mutating func match(_ args: [JSONValue], path: String, depth: Int) throws -> Node {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw StyleError(path: path, reason: "'match' expects an input, label/output pairs and a fallback")
        }
        let input = try compile(args[0], path: "\(path)[1]", depth: depth + 1)
        var table: [StyleValue: Int] = [:], outputs: [Node] = []
        for i in stride(from: 1, to: args.count - 1, by: 2) {
            let labelPath = "\(path)[\(i + 1)]"
            let labels: [JSONValue]
            if case let .array(list) = args[i] {
                guard !list.isEmpty else { throw StyleError(path: labelPath, reason: "expected at least one branch label") }
                labels = list
            } else {
                labels = [args[i]]
            }
            for label in labels {
                let value: StyleValue
                switch label {
                case let .string(s): value = .string(s)
                case let .number(d) where d == d.rounded() && abs(d) <= 9_007_199_254_740_991: value = .number(d)
                case .number: throw StyleError(path: labelPath, reason: "numeric branch labels must be integers")
                default: throw StyleError(path: labelPath, reason: "branch labels must be strings or numbers")
                }
                guard table[value] == nil else { throw StyleError(path: labelPath, reason: "branch labels must be unique") }
                guard table.count < Self.maxItems else { throw StyleError(path: labelPath, reason: "too many branch labels (at most \(Self.maxItems))") }
                table[value] = outputs.count
            }
            outputs.append(try compile(args[i + 1], path: "\(path)[\(i + 2)]", depth: depth + 1))
        }
        let otherwise = try compile(args[args.count - 1], path: "\(path)[\(args.count)]", depth: depth + 1)
        return .match(input, table: table, outputs: outputs, otherwise: otherwise)
    }

    mutating func step(_ args: [JSONValue], path: String, depth: Int) throws -> Node {
        guard args.count >= 2, args.count % 2 == 0 else {
            throw StyleError(path: path, reason: "'step' expects an input, a first output and stop/output pairs")
        }
        let input = try compile(args[0], path: "\(path)[1]", depth: depth + 1)
        let first = try compile(args[1], path: "\(path)[2]", depth: depth + 1)
        let stops = try stops(args, from: 2, path: path, depth: depth)
        return .step(input, first: first, stops: stops)
    }

    mutating func interpolate(_ name: String, _ args: [JSONValue], path: String, depth: Int) throws -> Node {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw StyleError(path: path, reason: "'\(name)' expects an interpolation type, an input and stop/output pairs")
        }
        guard case let .array(type) = args[0], case let .string(kind)? = type.first else {
            throw StyleError(path: "\(path)[1]", reason: "expected an interpolation type such as [\"linear\"]")
        }
        let numbers = type.dropFirst().compactMap(\.number).filter(\.isFinite)
        let interpolation: Interpolation
        switch kind {
        case "linear": interpolation = .linear
        case "exponential" where numbers.count == 1 && type.count == 2: interpolation = .exponential(numbers[0])
        case "cubic-bezier" where numbers.count == 4 && type.count == 5:
            interpolation = .cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
        default: throw StyleError(path: "\(path)[1]", reason: "unknown interpolation type \(kind) (or wrong arguments)")
        }
        let input = try compile(args[1], path: "\(path)[2]", depth: depth + 1)
        let stops = try stops(args, from: 2, path: path, depth: depth)
        // interpolate-hcl and -lab blend in RGB here: an approximation.
        return .interpolate(interpolation, input, stops: stops)
    }

    /// Stop/output pairs from args[start...]: literal numbers in strictly ascending order.
    private mutating func stops(_ args: [JSONValue], from start: Int, path: String, depth: Int) throws -> [(Double, Node)] {
        guard (args.count - start) / 2 <= Self.maxItems else { throw StyleError(path: path, reason: "too many stops (at most \(Self.maxItems))") }
        var stops: [(Double, Node)] = []
        for i in stride(from: start, to: args.count, by: 2) {
            guard case let .number(input) = args[i] else {
                throw StyleError(path: "\(path)[\(i + 1)]", reason: "stop inputs must be literal numbers")
            }
            if let last = stops.last?.0, input <= last {
                throw StyleError(path: "\(path)[\(i + 1)]", reason: "stop inputs must be in strictly ascending order")
            }
            stops.append((input, try compile(args[i + 1], path: "\(path)[\(i + 2)]", depth: depth + 1)))
        }
        return stops
    }
}
