import CZlib
import FoundationEssentials
import Glibc
import MapNetwork
import Platform

extension TileDiskCache {
    /// Entry file: "MTC1", expires (Float64 bits, little-endian), ETag and Last-Modified
    /// (each a 16-bit length and bytes), body length (32 bits), CRC-32 of the body, body.
    public static func encode(_ body: Data, _ f: HTTPFreshness) -> Data {
        var out = Data(Array("MTC1".utf8))
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        put(f.expires.bitPattern)
        for text in [f.etag ?? "", f.lastModified ?? ""] {
            let bytes = Array(text.utf8.prefix(512))
            put(UInt16(bytes.count))
            out.append(contentsOf: bytes)
        }
        put(UInt32(body.count))
        put(UInt32(body.withUnsafeBytes { crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, uInt($0.count)) }))
        out.append(body)
        return out
    }

    /// The entry in `data` (a cache file's bytes), or nil when anything about it is wrong.
    public static func decode(_ data: Data) -> Entry? {
        var at = data.startIndex
        func take(_ n: Int) -> Data? {
            guard n >= 0, data.endIndex - at >= n else { return nil }
            defer { at += n }
            return data[at..<at + n]
        }
        func get<T: FixedWidthInteger>(_: T.Type) -> T? {
            take(MemoryLayout<T>.size).map { d in T(littleEndian: d.withUnsafeBytes { $0.loadUnaligned(as: T.self) }) }
        }
        guard take(4).map(Array.init) == Array("MTC1".utf8), let bits = get(UInt64.self) else { return nil }
        let expires = Double(bitPattern: bits)
        guard expires.isFinite else { return nil }
        var texts: [String?] = []
        for _ in 0..<2 {
            guard let n = get(UInt16.self), let bytes = take(Int(n)) else { return nil }
            texts.append(bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
        }
        guard let length = get(UInt32.self), let sum = get(UInt32.self), let body = take(Int(length)), at == data.endIndex else { return nil }
        let actual = body.withUnsafeBytes { crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, uInt($0.count)) }
        guard UInt32(actual) == sum else { return nil }
        return Entry(freshness: HTTPFreshness(storable: true, expires: expires, etag: texts[0], lastModified: texts[1]), body: Data(body))
    }

    func touch(_ path: String, size: Int, at now: Double) {
        lock.lock(); defer { lock.unlock() }
        loadIndexLocked()
        total += size - (known?[path]?.size ?? 0)
        known?[path] = (size, now)
    }

    func forget(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        loadIndexLocked()
        if let old = known?.removeValue(forKey: path) { total -= old.size }
    }

    /// Deletes least recently used entries until the cache is at 90% of its capacity.
    func evictIfNeeded() {
        lock.lock()
        loadIndexLocked()
        guard total > capacity, let entries = known else { lock.unlock(); return }
        var victims: [String] = []
        var after = total
        for (path, e) in entries.sorted(by: { $0.value.used < $1.value.used }) where after > capacity * 9 / 10 {
            victims.append(path)
            after -= e.size
            known?[path] = nil
        }
        total = after
        lock.unlock()
        for p in victims { unlink(p) }
    }

    /// Whether the process that writes the temporary file `name` ("Y.tile.PID.SEQ.tmp", as
    /// `store` names it) still runs.
    static func writerIsRunning(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Reads what is on disk into the index, once: last use is the file's change time.
    func loadIndexLocked() {
        guard known == nil else { return }
        var found: [String: (size: Int, used: Double)] = [:]
        var sum = 0
        func walk(_ dir: String, depth: Int) {
            guard depth <= 3, let d = opendir(dir) else { return }
            defer { closedir(d) }
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let p = dir + "/" + name
                var st = stat()
                guard lstat(p, &st) == 0 else { continue }
                if (st.st_mode & S_IFMT) == S_IFDIR { walk(p, depth: depth + 1); continue }
                guard (st.st_mode & S_IFMT) == S_IFREG else { continue }
                if name.hasSuffix(".tmp") {
                    // Left by a crash when its writer is gone; a running writer's (another
                    // worker's, another Meridian's) is about to be renamed into place.
                    if !Self.writerIsRunning(name) { unlink(p) }
                    continue
                }
                guard name.hasSuffix(".tile") else { continue }
                found[p] = (Int(st.st_size), Double(st.st_ctim.tv_sec))
                sum += Int(st.st_size)
            }
        }
        walk(directory, depth: 0)
        known = found
        total = sum
    }
}
