import Platform

/// The paint and layout properties of the layer types drawn here, from the MapLibre style
/// spec (v8): kinds, defaults, ranges. `-opacity`, `-translate`, `-pattern` and `-sort-key`
/// properties are alike for every type (see `lookup`).
extension PropertySpec {
    static let fill: [String: PropertySpec] = [
        "fill-antialias": bool(true), "fill-color": color("#000000"), "fill-outline-color": color(nil),
    ]

    static let line: [String: PropertySpec] = [
        "line-cap": oneOf(["butt", "round", "square"], "butt"),
        "line-join": oneOf(["bevel", "round", "miter"], "miter"),
        "line-miter-limit": number(2), "line-round-limit": number(1.05),
        "line-color": color("#000000"), "line-width": number(1, 0...Double.greatestFiniteMagnitude),
        "line-gap-width": number(0, 0...Double.greatestFiniteMagnitude), "line-offset": number(0),
        "line-blur": number(0, 0...Double.greatestFiniteMagnitude),
        "line-dasharray": numbers(nil, 0...Double.greatestFiniteMagnitude), "line-gradient": color(nil),
    ]

    static let circle: [String: PropertySpec] = [
        "circle-radius": number(5, 0...Double.greatestFiniteMagnitude), "circle-color": color("#000000"),
        "circle-blur": number(0), "circle-pitch-scale": oneOf(["map", "viewport"], "map"),
        "circle-pitch-alignment": oneOf(["map", "viewport"], "viewport"),
        "circle-stroke-width": number(0, 0...Double.greatestFiniteMagnitude), "circle-stroke-color": color("#000000"),
    ]

    static let raster: [String: PropertySpec] = [
        "raster-hue-rotate": number(0), "raster-brightness-min": number(0, 0...1), "raster-brightness-max": number(1, 0...1),
        "raster-saturation": number(0, -1...1), "raster-contrast": number(0, -1...1),
        "raster-resampling": oneOf(["linear", "nearest"], "linear"), "raster-fade-duration": number(300, 0...Double.greatestFiniteMagnitude),
    ]

    static let hillshade: [String: PropertySpec] = [
        "hillshade-illumination-direction": number(335, 0...359), "hillshade-illumination-anchor": oneOf(["map", "viewport"], "viewport"),
        "hillshade-exaggeration": number(0.5, 0...1), "hillshade-shadow-color": color("#000000"),
        "hillshade-highlight-color": color("#FFFFFF"), "hillshade-accent-color": color("#000000"),
    ]

    static let fillExtrusion: [String: PropertySpec] = [
        "fill-extrusion-color": color("#000000"),
        "fill-extrusion-height": number(0, 0...Double.greatestFiniteMagnitude),
        "fill-extrusion-base": number(0, 0...Double.greatestFiniteMagnitude),
        "fill-extrusion-vertical-gradient": bool(true),
    ]

    static let symbol: [String: PropertySpec] = {
        let alignment = ["map", "viewport", "auto"]
        let anchors = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]
        let positive = 0...Double.greatestFiniteMagnitude
        return [
            "symbol-placement": oneOf(["point", "line", "line-center"], "point"),
            "symbol-spacing": number(250, 1...Double.greatestFiniteMagnitude),
            "symbol-avoid-edges": bool(false), "symbol-z-order": oneOf(["auto", "viewport-y", "source"], "auto"),
            "icon-allow-overlap": bool(false), "icon-ignore-placement": bool(false), "icon-optional": bool(false),
            "icon-overlap": oneOf(["never", "always", "cooperative"], "never"),
            "icon-rotation-alignment": oneOf(alignment, "auto"), "icon-pitch-alignment": oneOf(alignment, "auto"),
            "icon-size": number(1, positive),
            "icon-text-fit": oneOf(["none", "width", "height", "both"], "none"),
            "icon-text-fit-padding": numbers([0, 0, 0, 0]),
            "icon-image": PropertySpec(kind: .image, defaultValue: .null, tokens: true),
            "icon-rotate": number(0), "icon-padding": PropertySpec(kind: .padding, defaultValue: .number(2)),
            "icon-keep-upright": bool(false), "icon-offset": numbers([0, 0]),
            "icon-anchor": oneOf(anchors, "center"),
            "icon-color": color("#000000"), "icon-halo-color": color(nil),
            "icon-halo-width": number(0, positive), "icon-halo-blur": number(0, positive),
            "text-pitch-alignment": oneOf(alignment, "auto"), "text-rotation-alignment": oneOf(alignment + ["viewport-glyph"], "auto"),
            "text-field": PropertySpec(kind: .formatted, defaultValue: .string(""), tokens: true),
            "text-font": PropertySpec(kind: .strings, defaultValue: .array([.string("Open Sans Regular"), .string("Arial Unicode MS Regular")])),
            "text-size": number(16, positive), "text-max-width": number(10, positive),
            "text-line-height": number(1.2), "text-letter-spacing": number(0),
            "text-justify": oneOf(["auto", "left", "center", "right"], "center"),
            "text-radial-offset": number(0), "text-anchor": oneOf(anchors, "center"),
            "text-variable-anchor": PropertySpec(kind: .strings, defaultValue: .null),
            "text-writing-mode": PropertySpec(kind: .strings, defaultValue: .null),
            "text-max-angle": number(45), "text-rotate": number(0),
            "text-padding": PropertySpec(kind: .padding, defaultValue: .number(2)),
            "text-keep-upright": bool(true), "text-transform": oneOf(["none", "uppercase", "lowercase"], "none"),
            "text-offset": numbers([0, 0]), "text-allow-overlap": bool(false), "text-ignore-placement": bool(false),
            "text-overlap": oneOf(["never", "always", "cooperative"], "never"), "text-optional": bool(false),
            "text-color": color("#000000"), "text-halo-color": color(nil),
            "text-halo-width": number(0, positive), "text-halo-blur": number(0, positive),
        ]
    }()
}
