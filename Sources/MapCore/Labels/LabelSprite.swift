import Platform

/// Text and the dots beside place names (labels, chrome and notices draw text).
public enum LabelSprite: SpriteSpec {
    case text(String, TextStyle)
    /// The small dot marking a place.
    case placeDot(capital: Bool)
}

extension SpriteKey {
    public static func text(_ s: String, _ style: TextStyle) -> SpriteKey { SpriteKey(LabelSprite.text(s, style)) }
    public static func placeDot(capital: Bool) -> SpriteKey { capital ? capitalDot : townDot }
    private static let capitalDot = SpriteKey(LabelSprite.placeDot(capital: true))
    private static let townDot = SpriteKey(LabelSprite.placeDot(capital: false))
}
