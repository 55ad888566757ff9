import FoundationEssentials
import MapGeometry
import Platform

extension TracksLayer {
    /// Takes the trail's new points: its file is added the first time it has a line (listed
    /// as "Trail"), then replaced, and only the tiles around the new stretch are drawn again.
    public mutating func follow(_ trail: inout Trail) {
        guard trail.pending > 0 else { return }
        let index = trailID.flatMap { id in files.firstIndex { $0.id == id } }
        // TRANSLATORS: the name of the track of your own position, recorded as you go.
        var file = index.map { files[$0] } ?? TrackFile(path: tr("Trail"), color: trail.style.color)
        file.isLive = true
        let region = trail.takeChanges(file: &file)
        guard !file.lines.isEmpty else { return }
        let from = revision
        trailID = replace(id: trailID, with: file)
        // A trail already drawn grew: only the tiles around the new stretch change.
        if index != nil, let region, revision == from + 1, !file.hidden {
            lastChange = TileChange(from: from, region: region, reach: trail.style.reach)
        }
    }
}

extension TracksLayer {
    /// Puts `file` where the file `id` is (adding it when there is none, removing that one
    /// when `file` is nil); returns the id now standing for it.
    public mutating func replace(id: Int?, with file: TrackFile?) -> Int? {
        let index = id.flatMap { id in files.firstIndex { $0.id == id } }
        switch (index, file) {
        case let (i?, f?): files[i] = f; changed(); return f.id
        case let (i?, nil): files.remove(at: i); changed(); return nil
        case let (nil, f?): add(f); return f.id
        case (nil, nil): return nil
        }
    }
}
