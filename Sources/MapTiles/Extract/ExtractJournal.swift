import CZlib
import FoundationEssentials
import Glibc
import Platform

/// What an extract has fetched so far, kept so that an interrupted extract (Ctrl+C, kill -9, a
/// power cut, a full disk) goes on where it stopped. It lives in a folder beside the output,
/// `OUT.part/`: `plan.json` (what is being cut), `tiles` (tile bytes, appended as they come)
/// `journal` (one 32-byte record per tile) and `validators` (a line per tile the server gave
/// an ETag or date for, what a later update asks with). Tile bytes are made durable before the
/// records that point at them are written, so a record on disk always has its bytes; a
/// record torn by a crash fails its checksum and is dropped with everything after it.
public final class ExtractJournal: @unchecked Sendable { // written only under its extractor's lock
    /// One tile's fate: its bytes in `tiles` at `offset`, or absent from the source.
    public struct Record: Sendable, Equatable {
        public var tileID: UInt64
        public var offset: UInt64
        public var length: UInt32
        /// CRC-32 of the tile's bytes (0 when absent).
        public var crc: UInt32
        public var absent: Bool
        public init(tileID: UInt64, offset: UInt64, length: UInt32, crc: UInt32, absent: Bool) {
            self.tileID = tileID; self.offset = offset; self.length = length; self.crc = crc; self.absent = absent
        }
    }

    public static let recordSize = 32
    /// Written and synced at least this often while tiles come in.
    static let commitBytes = 1 << 20
    static let commitSeconds = 1.0

    public let folder: String
    private let dataFD: Int32, journalFD: Int32
    private var dataEnd: UInt64
    /// Bytes of whole records committed to the journal.
    private var journalEnd: UInt64 = 0
    private var pendingData = [UInt8]()
    private var pendingRecords = [UInt8]()
    private var pendingValidators = [UInt8]()
    private let validatorFD: Int32
    private var validatorEnd: off_t = 0
    private var lastCommit = MonotonicClock.now
    /// Every tile recorded (as it will be on disk after the next commit).
    public private(set) var records: [Record]
    /// The server's ETag or date of the tiles that had one, by tile id.
    public private(set) var validators: [UInt64: String]

    /// Opens `folder` (made if missing): reads what an earlier run left, drops a torn tail,
    /// and truncates both files to what is whole.
    public init(folder: String) throws {
        self.folder = folder
        // TRANSLATORS: a file or folder, and what is wrong with it ("/tmp/x: Permission denied").
        if let problem = FileIO.makeDirectories(folder) { throw ExtractError.failed(tr("%@: %@", folder, problem)) }
        dataFD = open(folder + "/tiles", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard dataFD >= 0 else { throw ExtractError.failed(tr("%@: %@", folder + "/tiles", FileIO.reason())) }
        journalFD = open(folder + "/journal", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard journalFD >= 0 else { close(dataFD); throw ExtractError.failed(tr("%@: %@", folder + "/journal", FileIO.reason())) }
        // One extract at a time writes here: a second (the same command in another terminal,
        // a second window) would append from its own end and interleave the two.
        guard flock(journalFD, LOCK_EX | LOCK_NB) == 0 else {
            close(dataFD); close(journalFD)
            throw ExtractError.refused(tr("%@ is being written by another extract of the same area; wait for it to finish", folder))
        }
        var st = stat()
        fstat(dataFD, &st)
        let dataSize = UInt64(max(0, st.st_size))
        let journal = try FileIO.read(folder + "/journal", limit: 1 << 34)
        let (records, whole) = Self.parse(journal, dataSize: dataSize)
        self.records = records
        dataEnd = records.reduce(0) { max($0, $1.offset + UInt64($1.length)) }
        // What lies past the whole records was never durable: cut it, so appends go on from there.
        if ftruncate(journalFD, off_t(whole)) != 0 || ftruncate(dataFD, off_t(dataEnd)) != 0 {
            // TRANSLATORS: %1$@ is a folder, %2$@ the system's reason.
            throw ExtractError.failed(tr("%1$@: cannot trim an interrupted journal: %2$@", folder, FileIO.reason()))
        }
        lseek(journalFD, off_t(whole), SEEK_SET)
        lseek(dataFD, off_t(dataEnd), SEEK_SET)
        journalEnd = UInt64(whole)
        // Validators only help an update ask less; one lost in a crash costs a download.
        validators = TileValidators.parse((try? FileIO.read(folder + "/validators", limit: 1 << 30)) ?? Data(), known: Set(records.map(\.tileID)))
        validatorFD = open(folder + "/validators", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard validatorFD >= 0 else { throw ExtractError.failed(tr("%@: %@", folder + "/validators", FileIO.reason())) }
        // Written back at once, whole lines only (a torn tail and lines for tiles the journal
        // lost are dropped): a run that adds nothing leaves them as they were.
        let kept = TileValidators.lines(validators)
        if ftruncate(validatorFD, 0) == 0, kept.withUnsafeBytes({ FileIO.writeAll(validatorFD, $0) }) {
            validatorEnd = off_t(kept.count)
        } else {
            _ = ftruncate(validatorFD, 0)
            lseek(validatorFD, 0, SEEK_SET)
            pendingValidators = kept
        }
    }

    deinit { close(dataFD); close(journalFD); close(validatorFD) }

    /// The whole records at the start of `journal`: each must pass its checksum and point
    /// inside the `dataSize` bytes of tiles. Returns them and how many bytes they take; what
    /// follows the first bad one is not trusted.
    public static func parse(_ journal: Data, dataSize: UInt64) -> (records: [Record], bytes: Int) {
        var out = [Record]()
        let bytes = [UInt8](journal)
        out.reserveCapacity(bytes.count / recordSize)
        var at = 0
        while at + recordSize <= bytes.count {
            let r = bytes[at..<at + recordSize]
            func u(_ i: Int, _ n: Int) -> UInt64 { (0..<n).reduce(UInt64(0)) { $0 | UInt64(r[r.startIndex + i + $1]) << (8 * UInt64($1)) } }
            let sum = r.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 28) }
            guard UInt64(sum) == u(28, 4) else { break }
            let flags = u(24, 4)
            let record = Record(tileID: u(0, 8), offset: u(8, 8), length: UInt32(u(16, 4)), crc: UInt32(u(20, 4)), absent: flags & 1 == 1)
            guard flags <= 1, record.offset <= dataSize, UInt64(record.length) <= dataSize - record.offset,
                  !record.absent || record.length == 0 else { break }
            out.append(record)
            at += recordSize
        }
        return (out, at)
    }

    /// The 32 bytes of `r` on disk: id, offset, length, CRC of the tile, flags, CRC of the record.
    public static func encode(_ r: Record) -> [UInt8] {
        var b = [UInt8]()
        b.reserveCapacity(recordSize)
        func put(_ v: UInt64, _ n: Int) { for i in 0..<n { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        put(r.tileID, 8); put(r.offset, 8); put(UInt64(r.length), 4); put(UInt64(r.crc), 4); put(r.absent ? 1 : 0, 4)
        put(UInt64(b.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 28) }), 4)
        return b
    }

    /// Records tile `id`: its bytes, or nil when the source has none. Commits when enough has
    /// gathered. Not thread-safe: one collector calls it.
    public func add(_ id: UInt64, _ data: Data?, validator: String? = nil) throws {
        var record = Record(tileID: id, offset: dataEnd, length: 0, crc: 0, absent: data == nil)
        if let data {
            record.length = UInt32(data.count)
            record.crc = UInt32(data.withUnsafeBytes { crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, uInt($0.count)) })
            pendingData.append(contentsOf: data)
            dataEnd += UInt64(data.count)
        }
        pendingRecords += Self.encode(record)
        records.append(record)
        if let validator = TileValidators.checked(validator) {
            validators[id] = validator
            TileValidators.append(id, validator, to: &pendingValidators)
        }
        if pendingData.count >= Self.commitBytes || MonotonicClock.now - lastCommit >= Self.commitSeconds { try commit() }
    }

    /// Makes what was added durable: the tiles' bytes first, then the records pointing at them.
    public func commit() throws {
        lastCommit = MonotonicClock.now
        guard !pendingRecords.isEmpty else { return }
        try write(dataFD, pendingData, what: "tiles")
        guard fdatasync(dataFD) == 0 else { throw Self.failure(errno, folder + "/tiles") }
        try write(journalFD, pendingRecords, what: "journal")
        guard fdatasync(journalFD) == 0 else { throw Self.failure(errno, folder + "/journal") }
        journalEnd += UInt64(pendingRecords.count)
        pendingData.removeAll(keepingCapacity: true)
        pendingRecords.removeAll(keepingCapacity: true)
        // After the records: a validator never names a tile the journal lacks. Not synced: a
        // torn last line is dropped when read.
        guard !pendingValidators.isEmpty else { return }
        if pendingValidators.withUnsafeBytes({ FileIO.writeAll(validatorFD, $0) }) {
            validatorEnd += off_t(pendingValidators.count)
            pendingValidators.removeAll(keepingCapacity: true)
        } else {
            // No half line may stay for the next to join; they are written again next time.
            _ = ftruncate(validatorFD, validatorEnd)
            lseek(validatorFD, validatorEnd, SEEK_SET)
        }
    }

    private func write(_ fd: Int32, _ bytes: [UInt8], what: String) throws {
        let ok = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0) }
        guard ok else {
            let code = errno
            // Nothing half-written may stay: the next run (or a retry) must find whole
            // records only, each once.
            let keep = fd == dataFD ? dataEnd - UInt64(pendingData.count) : journalEnd
            _ = ftruncate(fd, off_t(keep))
            lseek(fd, off_t(keep), SEEK_SET)
            throw Self.failure(code, folder + "/" + what)
        }
    }

    static func failure(_ code: Int32, _ path: String) -> ExtractError {
        code == ENOSPC || code == EFBIG || code == EDQUOT
            ? .diskFull(tr("%@: %@", path, FileIO.reason(code)))
            : .failed(tr("%@: %@", path, FileIO.reason(code)))
    }

    /// Reads a recorded tile's bytes back, checked against its CRC.
    public func data(of r: Record) throws -> Data {
        var d = Data(count: Int(r.length))
        let n = d.withUnsafeMutableBytes { pread(dataFD, $0.baseAddress, Int(r.length), off_t(r.offset)) }
        // TRANSLATORS: %1$@ is a file, %2$@ a byte offset in it.
        guard n == Int(r.length) else { throw ExtractError.failed(tr("%1$@: short read at %2$@", folder + "/tiles", r.offset)) }
        let crc = UInt32(d.withUnsafeBytes { crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, uInt($0.count)) })
        // TRANSLATORS: %1$@ is a file, %2$@ a tile's number, %3$@ a byte offset; CRC is a checksum.
        guard crc == r.crc else { throw ExtractError.failed(tr("%1$@: tile %2$@ at %3$@ is damaged (CRC)", folder + "/tiles", r.tileID, r.offset)) }
        return d
    }
}
