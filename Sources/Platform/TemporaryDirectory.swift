import Glibc

/// A directory of its own under `$TMPDIR` (else /tmp), made with mkdtemp: for a program that
/// writes its files where it runs.
public enum TemporaryDirectory {
    public static func make(_ name: String) -> String? {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(name).XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
    }
}
