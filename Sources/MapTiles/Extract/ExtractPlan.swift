import FoundationEssentials
import Platform

/// Why an extract stopped.
public enum ExtractError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Stopped on request; what was fetched is kept for the next run.
    case cancelled
    /// The disk (or the file size limit) is full; what was fetched is kept for the next run.
    case diskFull(String)
    /// The source may not be bulk-downloaded, or the input is wrong.
    case refused(String)
    case failed(String)
    /// The output's `.part` folder holds an unfinished extract of another area or map (its
    /// `source`, and its `area` as written): finished, or begun afresh (`restart`), never mixed.
    case unfinished(folder: String, source: String, area: String)

    public var description: String {
        switch self {
        case .cancelled: return tr("stopped; run the same command again to go on where it stopped")
        // TRANSLATORS: %@ is the file and the system's reason ("/tmp/a.pmtiles: No space left on device").
        case let .diskFull(s): return tr("the disk is full (%@); free some space and run the same command again to go on where it stopped", s)
        case let .refused(s), let .failed(s): return s
        case let .unfinished(folder, source, area):
            // TRANSLATORS: %1$@ is a folder, %2$@ a map source's name, %3$@ its area ("24.90000,60.15000,24.98000,60.19000 z0–14").
            return tr("%1$@ holds an unfinished extract of %2$@ (%3$@), not this one: finish that one, or begin this one afresh", folder, source, area)
        }
    }
}

/// What an extract cuts, written first into its `.part` folder: a later run goes on only when
/// it is asked for the same thing, else it says so rather than mixing two extracts.
public struct ExtractPlan: Codable, Equatable, Sendable {
    public var version = 1
    public var source: String
    public var bbox: [Double]
    public var minzoom: Int
    public var maxzoom: Int
    public var title: String?
    /// The source's revision when the extract began (`ExtractSource.revision`).
    public var revision: String?
    /// An update of the saved area at the output: its unchanged tiles are kept.
    public var updating: Bool?

    public init(source: String, area: TileArea, title: String?, revision: String? = nil, updating: Bool = false) {
        self.source = source
        bbox = [area.west, area.south, area.east, area.north]
        minzoom = area.zooms.lowerBound
        maxzoom = area.zooms.upperBound
        self.title = title
        self.revision = revision
        self.updating = updating ? true : nil
    }

    /// Whether `other` cuts the same tiles of the same map.
    public func sameCut(as other: ExtractPlan) -> Bool {
        source == other.source && bbox == other.bbox && minzoom == other.minzoom && maxzoom == other.maxzoom
    }

    /// The area it names, checked as a command line's would be.
    public var area: TileArea {
        get throws {
            guard bbox.count == 4, minzoom <= maxzoom else { throw ExtractError.failed(tr("the plan's box or zooms are malformed")) }
            return try TileArea(west: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3], zooms: minzoom...maxzoom)
        }
    }

    /// Reads a plan file (small; anything else is an error naming the file).
    public static func read(_ path: String) throws -> ExtractPlan {
        try decode(try FileIO.read(path, limit: 1 << 16), path: path)
    }

    /// A plan from the bytes of the file at `path`.
    public static func decode(_ data: Data, path: String) throws -> ExtractPlan {
        do {
            let plan = try JSONDecoder().decode(ExtractPlan.self, from: data)
            guard plan.version == 1 else { throw ExtractError.failed(tr("%1$@: plan version %2$@ is not this program's", path, plan.version)) }
            _ = try plan.area
            return plan
        } catch let e as ExtractError {
            throw e
        } catch {
            throw ExtractError.failed(tr("%1$@: not an extract plan (%2$@)", path, error))
        }
    }

    public func write(_ path: String) throws {
        let data = try JSONEncoder().encode(self)
        do { try AtomicFile.write(data, to: URL(fileURLWithPath: path)) } catch { throw ExtractError.failed("\(error)") }
    }
}
