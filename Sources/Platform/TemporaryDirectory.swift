import Glibc

/// A directory of its own, made with mkdtemp, under `folder` (else `$TMPDIR`, else /tmp): for
/// a program that writes its files where it runs, or work renamed into place when whole.
public enum TemporaryDirectory {
    public static func make(_ name: String, in folder: String? = nil) -> String? {
        let base = folder ?? getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(name).XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
    }
}
