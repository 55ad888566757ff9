import FoundationEssentials
import Platform

/// Bringing a saved area up to date from the map it was cut from.
extension SavedArea {
    /// What updating it from `source` means: nil when the source shows it is current (a
    /// remote archive with the ETag it was saved from); else an extract into its own path,
    /// replacing it when whole. A tile server under the same address is asked tile by tile
    /// whether each changed (the validators kept beside the area), and only what changed is
    /// downloaded; one whose address changed (OpenFreeMap's new planet), or an archive with a
    /// new ETag, is fetched whole.
    public func updater(from source: ExtractSource, restart: Bool = false) throws -> TileExtractor? {
        if source is ArchiveExtractSource, let now = source.revision, now == revision { return nil }
        if let online = source as? OnlineExtractSource, revision == nil || revision == online.revision {
            let archive = try PMTilesArchive(reader: try FileRangeReader(path: path), name: path)
            online.previous = .init(archive: archive, validators: TileValidators.read(for: path, token: validatorToken))
        }
        return try TileExtractor(source: source, area: try tileArea, output: path, title: title, restart: restart, updating: true)
    }
}
