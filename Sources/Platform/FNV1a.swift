/// The 64-bit FNV-1a hash of a string's UTF-8 bytes: stable across runs and machines (unlike
/// `Hasher`), for names of files that stand for a key (cache entries, indexes, saved areas).
public enum FNV1a {
    public static func hash(_ s: String) -> UInt64 {
        s.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
