#!/usr/bin/env python3
"""Writes Meridian's built-in MapLibre styles for the OpenMapTiles schema,
Resources/styles/streets.json (light) and streets-dark.json, from one description and two
palettes, so the two never drift apart. The JSON files are the data the app reads; run this
after changing it: python3 scripts/make-styles.py

Zooms are MapLibre's (512-point tiles): Meridian's zoom z shows the style at z - 1."""
import json, os

LIGHT = dict(
    land="#f4f1ea", water="#a8cde4", waterway="#93bedb", water_label="#4a7fa6",
    wood="#cfe2bd", grass="#dcebc8", farmland="#eef0dc", wetland="#d9e9d6", sand="#f2e8c9", ice="#f8fbfd", rock="#e6e1da",
    residential="#ede8df", commercial="#f2e5e0", industrial="#e9e2e9", cemetery="#d5e4cd", hospital="#f6e2e2",
    school="#f2eacf", pitch="#cfe7c0", park="#d3e8bf", park_outline="#b5d39c", parking="#ebe7e0",
    building="#dcd4c9", building_outline="#c9bfb1", aeroway="#dcd9e6",
    motorway="#f6bf78", motorway_case="#d1904a", trunk="#f9d38b", trunk_case="#cf9f58",
    primary="#fbe19a", primary_case="#cdae66", secondary="#fff2b6", secondary_case="#c8b681",
    street="#ffffff", street_case="#c9c0b2", service="#ffffff", service_case="#d3cbc0",
    track="#a88a62", path="#c0846c", cycleway="#4f79c9", rail="#8f8f95", rail_dash="#ffffff", ferry="#5f8fba",
    tunnel_fill="#f7f4ee", boundary="#9a86a8", boundary_state="#b9abc4",
    text="#2e2c34", text_minor="#55525c", street_text="#3d3a42", poi_text="#6a5a48", halo="#ffffff", house="#8a7f72",
)
DARK = dict(
    land="#1f2227", water="#15324a", waterway="#1d4260", water_label="#7fa8cc",
    wood="#1f3024", grass="#243227", farmland="#262a24", wetland="#203029", sand="#2e2c24", ice="#2c3137", rock="#2a2a2b",
    residential="#24262b", commercial="#2b2629", industrial="#28262d", cemetery="#223026", hospital="#2f2427",
    school="#2d2a22", pitch="#22352a", park="#1f3326", park_outline="#2c4a34", parking="#292b30",
    building="#33363d", building_outline="#40444c", aeroway="#2c2c37",
    motorway="#a36a2e", motorway_case="#1a1c20", trunk="#8c6a32", trunk_case="#1a1c20",
    primary="#7c6b3c", primary_case="#1a1c20", secondary="#5f5a45", secondary_case="#1a1c20",
    street="#474b53", street_case="#1a1c20", service="#3d4048", service_case="#1a1c20",
    track="#8a7658", path="#b07a66", cycleway="#6f8fd0", rail="#6d6f76", rail_dash="#2a2c31", ferry="#4b7399",
    tunnel_fill="#2c2f35", boundary="#8b7aa0", boundary_state="#5d566a",
    text="#e7e5ea", text_minor="#b9b5bf", street_text="#d6d3da", poi_text="#c4b39c", halo="#15171b", house="#9b968e",
)

def exp(base, *stops):
    """An exponential interpolation over zoom: stops as (zoom, value) pairs."""
    out = ["interpolate", ["exponential", base], ["zoom"]]
    for z, v in stops: out += [z, v]
    return out

def cls(*classes): return ["match", ["get", "class"], list(classes), True, False]
def brunnel(kind): return ["==", ["get", "brunnel"], kind]
def not_brunnel(): return ["!", ["match", ["get", "brunnel"], ["bridge", "tunnel"], True, False]]
def is_line(): return ["match", ["geometry-type"], ["LineString", "MultiLineString"], True, False]
def is_area(): return ["match", ["geometry-type"], ["Polygon", "MultiPolygon"], True, False]
def name(): return ["coalesce", ["get", "name:latin"], ["get", "name_en"], ["get", "name"]]

# Road classes from small to big: (classes, fill, casing, minzoom, widths of the fill).
ROADS = [
    (["service", "track"], "service", "service_case", 13, [(13, 0.6), (16, 3), (18, 8), (20, 20)]),
    (["minor"], "street", "street_case", 12, [(12, 0.6), (14, 2), (16, 6), (18, 16), (20, 36)]),
    (["tertiary"], "street", "street_case", 10, [(10, 0.6), (13, 1.8), (16, 8), (18, 20), (20, 44)]),
    (["secondary"], "secondary", "secondary_case", 8, [(8, 0.5), (12, 1.8), (16, 10), (18, 24), (20, 50)]),
    (["primary"], "primary", "primary_case", 7, [(7, 0.5), (12, 2.2), (16, 11), (18, 26), (20, 54)]),
    (["trunk"], "trunk", "trunk_case", 5, [(5, 0.5), (12, 2.6), (16, 12), (18, 28), (20, 58)]),
    (["motorway"], "motorway", "motorway_case", 4, [(4, 0.5), (8, 1), (12, 2.8), (16, 13), (18, 30), (20, 62)]),
]

def road_layers(p, kind):
    """Casings then fills of every class, for tunnels, ground level or bridges."""
    where = {"tunnel": brunnel("tunnel"), "road": not_brunnel(), "bridge": brunnel("bridge")}[kind]
    layers = []
    for classes, fill, case, minz, widths in ROADS:
        casing = [(z, w + (1.2 if z < 14 else 2.2) + w * 0.15) for z, w in widths]
        paint = {"line-color": p[case], "line-width": exp(1.4, *casing)}
        if kind == "tunnel": paint["line-dasharray"] = [0.6, 0.4]
        layers.append({"id": f"{kind}-{classes[0]}-casing", "type": "line", "source": "openmaptiles",
                       "source-layer": "transportation", "minzoom": max(minz, 11 if classes[0] in ("minor", "service") else minz),
                       "filter": ["all", where, cls(*classes), is_line()],
                       "layout": {"line-cap": "butt" if kind != "road" else "round", "line-join": "round"}, "paint": paint})
    for classes, fill, case, minz, widths in ROADS:
        layers.append({"id": f"{kind}-{classes[0]}", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
                       "minzoom": minz, "filter": ["all", where, cls(*classes), is_line()],
                       "layout": {"line-cap": "round", "line-join": "round"},
                       "paint": {"line-color": p["tunnel_fill"] if kind == "tunnel" else p[fill], "line-width": exp(1.4, *widths)}})
    return layers

def style(p, title):
    L = []
    src = {"type": "vector", "url": "https://tiles.openfreemap.org/planet",
           "attribution": "OpenFreeMap © OpenMapTiles © OpenStreetMap contributors"}
    L.append({"id": "background", "type": "background", "paint": {"background-color": p["land"]}})
    def fill(id_, layer, color, filt=None, minzoom=0, opacity=None, outline=None):
        d = {"id": id_, "type": "fill", "source": "openmaptiles", "source-layer": layer, "minzoom": minzoom,
             "paint": {"fill-color": p[color]}}
        if filt is not None: d["filter"] = filt
        if opacity is not None: d["paint"]["fill-opacity"] = opacity
        if outline: d["paint"]["fill-outline-color"] = p[outline]
        L.append(d)
    fill("landuse-residential", "landuse", "residential", cls("residential", "suburb", "quarter", "neighbourhood"), 6)
    fill("landuse-commercial", "landuse", "commercial", cls("commercial", "retail"), 11)
    fill("landuse-industrial", "landuse", "industrial", cls("industrial", "garages", "dam", "railway"), 11)
    fill("landuse-hospital", "landuse", "hospital", cls("hospital"), 11)
    fill("landuse-school", "landuse", "school", cls("school", "university", "college", "kindergarten"), 11)
    fill("landuse-cemetery", "landuse", "cemetery", cls("cemetery"), 11)
    fill("landuse-pitch", "landuse", "pitch", cls("pitch", "stadium", "playground", "track"), 12)
    fill("landcover-farmland", "landcover", "farmland", cls("farmland"), 8)
    fill("landcover-grass", "landcover", "grass", cls("grass"), 8)
    fill("landcover-wood", "landcover", "wood", cls("wood", "forest"), 0, exp(1, (5, 0.5), (10, 1)))
    fill("landcover-wetland", "landcover", "wetland", cls("wetland"), 10)
    fill("landcover-sand", "landcover", "sand", cls("sand", "beach"), 10)
    fill("landcover-rock", "landcover", "rock", cls("rock"), 10)
    fill("landcover-ice", "landcover", "ice", cls("ice", "glacier"), 0)
    fill("park", "park", "park", None, 8, exp(1, (8, 0.6), (12, 1)), "park_outline")
    L.append({"id": "waterway", "type": "line", "source": "openmaptiles", "source-layer": "waterway", "minzoom": 8,
              "filter": ["!=", ["get", "brunnel"], "tunnel"],
              "layout": {"line-cap": "round", "line-join": "round"},
              "paint": {"line-color": p["waterway"], "line-width": ["match", ["get", "class"], ["river", "canal"],
                        exp(1.3, (8, 0.8), (12, 1.6), (16, 6), (20, 18)), exp(1.3, (12, 0.5), (16, 2), (20, 6))]}})
    fill("water", "water", "water", ["!=", ["get", "brunnel"], "tunnel"])
    fill("aeroway", "aeroway", "aeroway", is_area(), 11)
    L.append({"id": "aeroway-runway", "type": "line", "source": "openmaptiles", "source-layer": "aeroway", "minzoom": 11,
              "filter": ["all", is_line(), cls("runway", "taxiway")],
              "paint": {"line-color": p["street"], "line-width": exp(1.5, (11, 2), (14, 12), (18, 80))}})
    L.append({"id": "building", "type": "fill", "source": "openmaptiles", "source-layer": "building", "minzoom": 13,
              "paint": {"fill-color": p["building"], "fill-outline-color": p["building_outline"],
                        "fill-opacity": exp(1, (13, 0.5), (14.5, 1))}})
    L += road_layers(p, "tunnel")
    for (cl, color, dash, minz, w) in [("path", "path", [2, 2], 14, [(14, 0.5), (16, 0.9), (18, 1.4), (20, 2.4)]),
                                        ("track", "track", [3, 1.5], 13, [(13, 0.8), (16, 1.6), (20, 4)])]:
        L.append({"id": f"road-{cl}", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": minz,
                  "filter": ["all", cls(cl), ["!=", ["get", "subclass"], "cycleway"] if cl == "path" else True, ["!=", ["get", "brunnel"], "tunnel"]],
                  "layout": {"line-join": "round"},
                  "paint": {"line-color": p[color], "line-width": exp(1.3, *w), "line-dasharray": dash,
                            "line-opacity": exp(1, (minz, 0.5), (minz + 2, 0.8))}})
    L.append({"id": "road-cycleway", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 13,
              "filter": ["all", cls("path"), ["==", ["get", "subclass"], "cycleway"]],
              "layout": {"line-join": "round"},
              "paint": {"line-color": p["cycleway"], "line-width": exp(1.3, (13, 0.8), (16, 1.5), (20, 3)), "line-dasharray": [2, 1.2]}})
    L += road_layers(p, "road")
    L.append({"id": "rail", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 8,
              "filter": ["all", cls("rail", "transit"), ["!=", ["get", "brunnel"], "tunnel"]],
              "paint": {"line-color": p["rail"], "line-width": exp(1.4, (8, 0.6), (14, 1.6), (20, 4))}})
    L.append({"id": "rail-hatching", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 14,
              "filter": ["all", cls("rail", "transit"), ["!=", ["get", "brunnel"], "tunnel"]],
              "paint": {"line-color": p["rail_dash"], "line-width": exp(1.4, (13, 0.6), (20, 2)), "line-dasharray": [3, 3]}})
    L.append({"id": "ferry", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 10,
              "filter": cls("ferry"), "paint": {"line-color": p["ferry"], "line-width": 1, "line-dasharray": [4, 3]}})
    L += road_layers(p, "bridge")
    L.append({"id": "boundary-state", "type": "line", "source": "openmaptiles", "source-layer": "boundary", "minzoom": 3,
              "filter": ["all", [">=", ["get", "admin_level"], 3], ["<=", ["get", "admin_level"], 4], ["!=", ["get", "maritime"], 1]],
              "layout": {"line-join": "round"},
              "paint": {"line-color": p["boundary_state"], "line-width": exp(1.3, (3, 0.6), (12, 1.6)), "line-dasharray": [3, 2]}})
    L.append({"id": "boundary-country", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
              "filter": ["all", ["==", ["get", "admin_level"], 2], ["!=", ["get", "maritime"], 1]],
              "layout": {"line-join": "round", "line-cap": "round"},
              "paint": {"line-color": p["boundary"], "line-width": exp(1.3, (2, 0.8), (8, 1.6), (14, 3))}})

    halo = {"text-halo-color": p["halo"], "text-halo-width": 1.6}
    def label(id_, layer, filt, minzoom, size, color, font="Noto Sans Regular", extra=None, paint_extra=None, maxzoom=None):
        d = {"id": id_, "type": "symbol", "source": "openmaptiles", "source-layer": layer, "minzoom": minzoom,
             "layout": {"text-field": name(), "text-font": [font], "text-size": size, "text-max-width": 8},
             "paint": dict(halo, **{"text-color": p[color]})}
        if filt is not None: d["filter"] = filt
        if maxzoom is not None: d["maxzoom"] = maxzoom
        if extra: d["layout"].update(extra)
        if paint_extra: d["paint"].update(paint_extra)
        L.append(d)
    label("waterway-name", "waterway", cls("river", "canal"), 12, 11, "water_label", "Noto Sans Italic",
          {"symbol-placement": "line", "symbol-spacing": 350, "text-letter-spacing": 0.1})
    label("water-name", "water_name", None, 5, exp(1.2, (5, 11), (14, 14)), "water_label", "Noto Sans Italic", {"text-letter-spacing": 0.1})
    label("housenumber", "housenumber", None, 16, 9.5, "house", extra={"text-field": ["get", "housenumber"]},
          paint_extra={"text-halo-width": 1})
    # Streets come after the points of interest: placed first, they are the map's frame.
    label("poi", "poi", ["<=", ["get", "rank"], 20], 15, 10.5, "poi_text", extra={"text-anchor": "top", "text-offset": [0, 0.2]})
    label("poi-more", "poi", [">", ["get", "rank"], 20], 17, 10.5, "poi_text", extra={"text-anchor": "top", "text-offset": [0, 0.2]})
    label("street-name-minor", "transportation_name", cls("minor", "service", "track", "path"), 14, exp(1.2, (14, 10), (18, 13)),
          "street_text", extra={"symbol-placement": "line", "symbol-spacing": 300})
    label("street-name", "transportation_name", cls("tertiary", "secondary", "primary", "trunk"), 12, exp(1.2, (12, 10), (18, 14)),
          "street_text", extra={"symbol-placement": "line", "symbol-spacing": 350})
    label("motorway-name", "transportation_name", cls("motorway"), 11, 10.5, "street_text", "Noto Sans Bold",
          {"symbol-placement": "line", "symbol-spacing": 450})
    label("place-neighbourhood", "place", cls("neighbourhood", "quarter", "isolated_dwelling", "hamlet"), 13,
          exp(1.2, (13, 10.5), (16, 13)), "text_minor", extra={"text-transform": "uppercase", "text-letter-spacing": 0.1})
    label("place-suburb", "place", cls("suburb"), 11, exp(1.2, (11, 11), (15, 14)), "text_minor",
          extra={"text-transform": "uppercase", "text-letter-spacing": 0.12})
    label("place-village", "place", cls("village"), 9, exp(1.2, (9, 10.5), (15, 15)), "text")
    label("place-town", "place", cls("town"), 7, exp(1.2, (7, 11), (15, 17)), "text")
    label("place-city", "place", cls("city"), 4, exp(1.2, (4, 11.5), (14, 20)), "text", "Noto Sans Bold")
    label("place-state", "place", cls("state"), 4, 11, "text_minor", maxzoom=8, extra={"text-transform": "uppercase", "text-letter-spacing": 0.15})
    label("place-country", "place", cls("country"), 1, exp(1.2, (1, 11), (7, 17)), "text", "Noto Sans Bold", maxzoom=9)
    return {"version": 8, "name": title,
            "metadata": {"meridian:about": "Meridian's street map for the OpenMapTiles schema; made by scripts/make-styles.py"},
            "sources": {"openmaptiles": src}, "layers": L}

root = os.path.join(os.path.dirname(__file__), "..", "Resources", "styles")
for fname, palette, title in [("streets.json", LIGHT, "Meridian Streets"), ("streets-dark.json", DARK, "Meridian Streets (dark)")]:
    with open(os.path.join(root, fname), "w") as f:
        json.dump(style(palette, title), f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote", fname)
