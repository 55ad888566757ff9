import FoundationEssentials
import MapCore
import Platform

/// Reads FIT files (Garmin's binary activity format, also written by Wahoo, Coros and
/// others), written from the public protocol description: one track per session (or one
/// for a file without sessions) of the records that have a position, split into segments
/// where the timer was stopped; a course's points become waypoints. Several FIT files
/// chained in one are read one after another. A damaged or cut file keeps what came before
/// the damage and says so in `problems`; a file that is not FIT at all throws.
public struct FITReader {
    let file: String
    public init(file: String) { self.file = file }

    /// Whether `data` starts like a FIT file (".FIT" at bytes 8…11).
    public static func looksLikeFIT(_ data: Data) -> Bool {
        data.count >= 12 && data.dropFirst(8).prefix(4).elementsEqual(".FIT".utf8)
    }

    public func read(_ data: Data) throws -> GeoDocument {
        try readActivity(data).document
    }

    /// The document and what the device said of the activity (sessions, laps, totals).
    public func readActivity(_ data: Data) throws -> (document: GeoDocument, activity: Activity) {
        try data.withUnsafeBytes { raw in
            var parser = FITParser(bytes: raw, file: file)
            try parser.run()
            return parser.finish()
        }
    }

    /// What the file says of itself and of its sessions and laps, as the device counted them.
    public struct Activity: Sendable, Equatable {
        /// file_id's type (4 activity, 6 course…), manufacturer and product numbers.
        public var fileType: Int?
        public var manufacturer: Int?
        public var product: Int?
        /// Seconds since 1970.
        public var created: Double?
        /// A course's name.
        public var courseName: String?
        public var sessions: [Summary] = []
        public var laps: [Summary] = []
        /// Record messages read, with a position or not, and the first and last time among them.
        public var records = 0
        public var firstRecordTime: Double?
        public var lastRecordTime: Double?

        public init() {}
    }

    /// A session or lap as the device summed it up.
    public struct Summary: Sendable, Equatable {
        /// Seconds since 1970: when it started and when it was written (its end).
        public var start: Double?
        public var end: Double?
        /// FIT's sport number (1 running, 2 cycling…).
        public var sport: Int?
        /// Seconds from start to end, and with the timer running.
        public var elapsed: Double?
        public var timerTime: Double?
        /// Metres.
        public var distance: Double?
        public var calories: Int?
        /// Metres.
        public var ascent: Double?
        public var descent: Double?
        /// Beats a minute and watts.
        public var averageHeartRate: Int?
        public var maxHeartRate: Int?
        public var averagePower: Int?
        public var maxPower: Int?

        public init() {}

        /// The sport in words, for the common ones.
        public var sportName: String? { sport.flatMap(FITReader.sportName) }
    }

    /// FIT's sport numbers in words, for the common ones; nil for the rest (and generic).
    public static func sportName(_ sport: Int) -> String? {
        switch sport {
        case 1: return trc("sport", "Running")
        case 2: return trc("sport", "Cycling")
        // TRANSLATORS: the change between two sports of a triathlon.
        case 3: return trc("sport", "Transition")
        case 5: return trc("sport", "Swimming")
        case 11: return trc("sport", "Walking")
        case 12: return trc("sport", "Cross-country skiing")
        case 13: return trc("sport", "Alpine skiing")
        case 15: return trc("sport", "Rowing")
        case 16: return trc("sport", "Mountaineering")
        case 17: return trc("sport", "Hiking")
        case 19: return trc("sport", "Paddling")
        case 21: return trc("sport", "E-biking")
        case 41: return trc("sport", "Kayaking")
        default: return nil
        }
    }
}
