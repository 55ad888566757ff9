#!/usr/bin/env python3
"""Writes Meridian's built-in MapLibre styles from one description and two palettes, so that
they never drift apart: for the OpenMapTiles schema Resources/styles/streets.json (light) and
streets-dark.json, for the Protomaps basemap schema (v4) protomaps.json and protomaps-dark.json,
and the sprite sheet they share (sprite.json/.png and sprite@2x.*: the one-way arrows). The JSON
and PNG files are the data the app reads; run this after changing it: python3 scripts/make-styles.py

The description (draw order, widths by zoom, casings, label sizes and priorities) is written
once; a schema class says which features each of its layers takes (source layer and filter),
so a Helsinki street looks the same drawn from either schema's tiles.

Zooms are MapLibre's (512-point tiles): Meridian's zoom z shows the style at z - 1."""
import json, os, struct, zlib

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
    oneway="#978c7f",
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
    oneway="#9aa0aa",
)

def exp(base, *stops):
    """An exponential interpolation over zoom: stops as (zoom, value) pairs."""
    out = ["interpolate", ["exponential", base], ["zoom"]]
    for z, v in stops: out += [z, v]
    return out

def is_line(): return ["match", ["geometry-type"], ["LineString", "MultiLineString"], True, False]
def is_area(): return ["match", ["geometry-type"], ["Polygon", "MultiPolygon"], True, False]
def is_point(): return ["match", ["geometry-type"], ["Point", "MultiPoint"], True, False]
def one_of(key, *values): return ["match", ["get", key], list(values), True, False]
def none_of(key, *values): return ["!", one_of(key, *values)]
def all_of(*tests): return ["all", *tests]

# The parts of the map, from small roads to big: (name, fill, casing, minzoom, widths of the fill).
ROADS = [
    ("service", "service", "service_case", 13, [(13, 0.6), (16, 3), (18, 8), (20, 20)]),
    ("minor", "street", "street_case", 12, [(12, 0.6), (14, 2), (16, 6), (18, 16), (20, 36)]),
    ("tertiary", "street", "street_case", 10, [(10, 0.6), (13, 1.8), (16, 8), (18, 20), (20, 44)]),
    ("secondary", "secondary", "secondary_case", 8, [(8, 0.5), (12, 1.8), (16, 10), (18, 24), (20, 50)]),
    ("primary", "primary", "primary_case", 7, [(7, 0.5), (12, 2.2), (16, 11), (18, 26), (20, 54)]),
    ("trunk", "trunk", "trunk_case", 5, [(5, 0.5), (12, 2.6), (16, 12), (18, 28), (20, 58)]),
    ("motorway", "motorway", "motorway_case", 4, [(4, 0.5), (8, 1), (12, 2.8), (16, 13), (18, 30), (20, 62)]),
]


class OpenMapTiles:
    """The OpenMapTiles schema (https://openmaptiles.org/schema/): `class`/`subclass`, a road's
    `brunnel`, names in `name:latin`/`name_en`/`name`."""
    source = "openmaptiles"
    about = "Meridian's street map for the OpenMapTiles schema; made by scripts/make-styles.py"
    source_json = {"type": "vector", "url": "https://tiles.openfreemap.org/planet",
                   "attribution": "OpenFreeMap © OpenMapTiles © OpenStreetMap contributors"}

    @staticmethod
    def cls(*classes): return ["match", ["get", "class"], list(classes), True, False]

    def name(self): return ["coalesce", ["get", "name:latin"], ["get", "name_en"], ["get", "name"]]

    # Roads and rails: (source layer, filter) of each part.
    ROAD_CLASSES = {"service": ["service", "track"], "minor": ["minor"], "tertiary": ["tertiary"], "secondary": ["secondary"],
                    "primary": ["primary"], "trunk": ["trunk"], "motorway": ["motorway"]}
    def road(self, part): return "transportation", self.cls(*self.ROAD_CLASSES[part])
    def level(self, kind):
        """Tunnels, ground level or bridges."""
        if kind == "road": return ["!", ["match", ["get", "brunnel"], ["bridge", "tunnel"], True, False]]
        return ["==", ["get", "brunnel"], kind]
    def not_tunnel(self): return ["!=", ["get", "brunnel"], "tunnel"]
    def path(self): return "transportation", [self.cls("path"), ["!=", ["get", "subclass"], "cycleway"]]
    def track(self): return "transportation", [self.cls("track"), True]
    def cycleway(self): return "transportation", all_of(self.cls("path"), ["==", ["get", "subclass"], "cycleway"])
    def rails(self): return [("transportation", self.cls("rail", "transit"))]
    def ferry(self): return "transportation", self.cls("ferry")
    def oneway(self): return "transportation", ["==", ["get", "oneway"], 1]

    # Ground, water and buildings.
    def landuse(self, *classes): return "landuse", self.cls(*classes)
    LANDCOVER = {"farmland": ["farmland"], "grass": ["grass"], "wood": ["wood", "forest"], "wetland": ["wetland"],
                 "sand": ["sand", "beach"], "rock": ["rock"], "ice": ["ice", "glacier"]}
    def landcover(self, part): return [("landcover", self.cls(*self.LANDCOVER[part]))]
    def earth(self): return None
    def park(self): return "park", None
    def waterway(self): return "waterway", ["!=", ["get", "brunnel"], "tunnel"]
    def waterway_width(self, big, small): return ["match", ["get", "class"], ["river", "canal"], big, small]
    def water(self): return "water", ["!=", ["get", "brunnel"], "tunnel"]
    def aeroway_area(self): return "aeroway", is_area()
    def runway(self): return "aeroway", all_of(is_line(), self.cls("runway", "taxiway"))
    def building(self): return "building", None
    def boundary_state(self):
        return "boundary", all_of([">=", ["get", "admin_level"], 3], ["<=", ["get", "admin_level"], 4], ["!=", ["get", "maritime"], 1])
    def boundary_country(self): return "boundary", all_of(["==", ["get", "admin_level"], 2], ["!=", ["get", "maritime"], 1])

    # Labels.
    def waterway_names(self): return "waterway", self.cls("river", "canal")
    def water_names(self): return "water_name", None
    def housenumbers(self): return "housenumber", None, ["get", "housenumber"]
    def pois(self, more): return "poi", [">" if more else "<=", ["get", "rank"], 20], None
    def street_names(self, part):
        return "transportation_name", {"minor": self.cls("minor", "service", "track", "path"),
                                       "major": self.cls("tertiary", "secondary", "primary", "trunk"),
                                       "motorway": self.cls("motorway")}[part]
    def places(self, part):
        return "place", {"neighbourhood": self.cls("neighbourhood", "quarter", "isolated_dwelling", "hamlet"),
                         "suburb": self.cls("suburb"), "village": self.cls("village"), "town": self.cls("town"),
                         "city": self.cls("city"), "state": self.cls("state"), "country": self.cls("country")}[part]
    def place_priority(self): return None


class Protomaps:
    """Protomaps' basemap schema, version 4 (https://docs.protomaps.com/basemaps/layers; the
    kinds as protomaps/basemaps' tiles/src/main/java/com/protomaps/basemap/layers/*.java write
    them): `kind`/`kind_detail`, a road's `is_bridge`/`is_tunnel`, names in `name`/`name:xx`.
    Which kinds go together follows OpenMapTiles' classes, so that each is drawn as above."""
    source = "protomaps"
    about = ("Meridian's street map for the Protomaps basemap schema (v4); made by scripts/make-styles.py. "
             "Which kinds of the schema are drawn alike draws on the Protomaps basemap styles "
             "(github.com/protomaps/basemaps, styles/src: design CC0, code BSD-3-Clause); see NOTICE beside this file.")
    # No tiles are named: Meridian draws the Protomaps archive it is given (--tiles FILE.pmtiles).
    source_json = {"type": "vector", "attribution": "Protomaps © OpenStreetMap contributors"}

    @staticmethod
    def kind(*kinds): return one_of("kind", *kinds)
    @staticmethod
    def flag(key): return ["to-boolean", ["get", key]]

    def name(self): return ["get", "name"]

    # A minor road's kind_detail is its highway tag, or service (or the service tag) for service roads.
    SERVICE = ["service", "parking_aisle", "driveway", "alley", "drive-through", "emergency_access"]
    BIG = {"trunk": ["trunk", "trunk_link"], "primary": ["primary", "primary_link"], "secondary": ["secondary", "secondary_link"]}
    def road(self, part):
        if part == "service":
            return "roads", ["any", all_of(self.kind("minor_road"), one_of("kind_detail", *self.SERVICE)),
                             all_of(self.kind("path"), ["==", ["get", "kind_detail"], "track"])]
        if part == "minor":
            # (A living street is of kind "other"; OpenMapTiles has it among the minor roads.)
            return "roads", ["any", all_of(self.kind("minor_road"), none_of("kind_detail", *self.SERVICE)),
                             all_of(self.kind("other"), ["==", ["get", "kind_detail"], "living_street"])]
        if part == "tertiary":
            return "roads", all_of(self.kind("major_road"), none_of("kind_detail", *sum(self.BIG.values(), [])))
        if part == "motorway": return "roads", self.kind("highway")
        return "roads", all_of(self.kind("major_road"), one_of("kind_detail", *self.BIG[part]))
    def level(self, kind):
        if kind == "road": return ["!", ["any", self.flag("is_bridge"), self.flag("is_tunnel")]]
        return self.flag("is_" + kind)
    def not_tunnel(self): return ["!", self.flag("is_tunnel")]
    def path(self): return "roads", [self.kind("path"), none_of("kind_detail", "cycleway", "track", "pier")]
    def track(self): return "roads", [self.kind("path"), ["==", ["get", "kind_detail"], "track"]]
    def cycleway(self): return "roads", all_of(self.kind("path"), ["==", ["get", "kind_detail"], "cycleway"])
    def rails(self):
        # Railways are in `roads` since v4; older archives had them in `transit`.
        live = all_of(self.kind("rail"), none_of("kind_detail", "disused", "abandoned", "razed", "proposed", "construction"))
        return [("roads", live), ("transit", live)]
    def ferry(self): return "roads", self.kind("ferry")
    def oneway(self): return "roads", one_of("oneway", "yes", "1", "true")

    def landuse(self, *classes):
        # OpenMapTiles' classes, and the kinds Protomaps gives the same land.
        same = {"retail": [], "garages": [], "suburb": [], "quarter": [], "neighbourhood": [], "track": [],
                "stadium": ["stadium"], "dam": ["dam"]}
        kinds = [k for c in classes for k in same.get(c, [c])]
        return "landuse", self.kind(*kinds)
    # Landcover is Protomaps' low-zoom land (z0-7); nearer, the same ground is in landuse.
    LANDUSE = {"farmland": ["farmland", "farmyard", "orchard"],
               "grass": ["grass", "grassland", "meadow", "allotments", "park", "village_green", "recreation_ground", "garden",
                         "golf_course", "dog_park", "scrub"],
               "wood": ["wood", "forest"], "wetland": ["wetland"], "sand": ["sand", "beach"], "rock": ["bare_rock"], "ice": ["glacier"]}
    LANDCOVER = {"farmland": ["farmland"], "grass": ["grassland", "scrub"], "wood": ["forest"], "wetland": [], "sand": ["barren"],
                 "rock": [], "ice": ["glacier"]}
    def landcover(self, part):
        out = [("landuse", self.kind(*self.LANDUSE[part]))]
        if self.LANDCOVER[part]: out.append(("landcover", self.kind(*self.LANDCOVER[part])))
        return out
    def earth(self): return "earth", is_area()
    def park(self): return "landuse", self.kind("national_park", "nature_reserve", "protected_area")
    def waterway(self): return "water", all_of(is_line(), none_of("tunnel", "yes", "culvert"))
    def waterway_width(self, big, small): return ["match", ["get", "kind"], ["river", "canal"], big, small]
    def water(self): return "water", all_of(is_area(), none_of("tunnel", "yes", "culvert"))
    def aeroway_area(self): return "landuse", self.kind("aerodrome", "runway", "taxiway")
    def runway(self): return "roads", all_of(self.kind("aeroway"), one_of("kind_detail", "runway", "taxiway"))
    def building(self): return "buildings", all_of(is_area(), self.kind("building", "building_part"))
    def boundary_state(self): return "boundaries", self.kind("region", "macroregion")
    def boundary_country(self): return "boundaries", self.kind("country")

    def waterway_names(self): return "water", all_of(is_line(), self.kind("river", "canal"))
    def water_names(self): return "water", is_point()
    def housenumbers(self): return "buildings", self.kind("address"), ["get", "addr_housenumber"]
    # OpenMapTiles ranks these classes 20 or better (shown from z15), the rest from z17;
    # Protomaps' min_zoom promotes some more (z15 and before).
    POI_FIRST = ["hospital", "station", "halt", "tram_stop", "subway_entrance", "bus_stop", "bus_station", "attraction",
                 "ferry_terminal", "marina", "harbour", "college", "university", "school", "kindergarten", "stadium", "zoo",
                 "townhall", "camp_site", "cemetery", "park", "library", "police", "post_office", "golf_course",
                 "supermarket", "grocery", "convenience", "fast_food", "department_store", "mall"]
    def pois(self, more):
        first = ["any", self.kind(*self.POI_FIRST), ["<=", ["to-number", ["get", "min_zoom"], 99], 15]]
        return "pois", ["!", first] if more else first, ["to-number", ["get", "min_zoom"], 99]
    def street_names(self, part):
        return "roads", {"minor": self.kind("minor_road", "path", "other"), "major": self.kind("major_road"),
                         "motorway": self.kind("highway")}[part]
    def places(self, part):
        detail = lambda *d: one_of("kind_detail", *d)
        locality = lambda *d: all_of(self.kind("locality"), detail(*d))
        return "places", {
            "neighbourhood": ["any", self.kind("macrohood"), all_of(self.kind("neighbourhood"), ["!", detail("suburb")]),
                              locality("hamlet", "isolated_dwelling", "farm", "allotments", "locality")],
            "suburb": all_of(self.kind("neighbourhood"), detail("suburb")),
            "village": locality("village"),
            # A place of another kind_detail (Overture's) by its population: a city from 200,000.
            "town": all_of(self.kind("locality"), ["any", detail("town"), all_of(
                none_of("kind_detail", "city", "village", "hamlet", "isolated_dwelling", "farm", "allotments", "locality"),
                ["<", ["to-number", ["get", "population_rank"], 0], 10])]),
            "city": all_of(self.kind("locality"), ["any", detail("city"), all_of(
                none_of("kind_detail", "town", "village", "hamlet", "isolated_dwelling", "farm", "allotments", "locality"),
                [">=", ["to-number", ["get", "population_rank"], 0], 10])]),
            "state": self.kind("region"), "country": self.kind("country")}[part]
    # The more people, the sooner a place's name is placed.
    def place_priority(self): return ["-", 20, ["to-number", ["get", "population_rank"], 0]]


def where(*tests):
    """`all` of the tests that say something (a lone test as it is)."""
    tests = [t for t in tests if t is not None and t is not True]
    return tests[0] if len(tests) == 1 else ["all", *tests]

def road_layers(s, p, kind):
    """Casings then fills of every part, for tunnels, ground level or bridges."""
    layers = []
    for part, fill, case, minz, widths in ROADS:
        layer, test = s.road(part)
        casing = [(z, w + (1.2 if z < 14 else 2.2) + w * 0.15) for z, w in widths]
        paint = {"line-color": p[case], "line-width": exp(1.4, *casing)}
        if kind == "tunnel": paint["line-dasharray"] = [0.6, 0.4]
        layers.append({"id": f"{kind}-{part}-casing", "type": "line", "source": s.source,
                       "source-layer": layer, "minzoom": max(minz, 11 if part in ("minor", "service") else minz),
                       "filter": ["all", s.level(kind), test, is_line()],
                       "layout": {"line-cap": "butt" if kind != "road" else "round", "line-join": "round"}, "paint": paint})
    for part, fill, case, minz, widths in ROADS:
        layer, test = s.road(part)
        layers.append({"id": f"{kind}-{part}", "type": "line", "source": s.source, "source-layer": layer,
                       "minzoom": minz, "filter": ["all", s.level(kind), test, is_line()],
                       "layout": {"line-cap": "round", "line-join": "round"},
                       "paint": {"line-color": p["tunnel_fill"] if kind == "tunnel" else p[fill], "line-width": exp(1.4, *widths)}})
    return layers

def style(s, p, title, arrow):
    L = []
    L.append({"id": "background", "type": "background", "paint": {"background-color": p["land"]}})
    def fill(id_, where_, color, minzoom=0, opacity=None, outline=None):
        layer, filt = where_
        d = {"id": id_, "type": "fill", "source": s.source, "source-layer": layer, "minzoom": minzoom,
             "paint": {"fill-color": p[color]}}
        if filt is not None: d["filter"] = filt
        if opacity is not None: d["paint"]["fill-opacity"] = opacity
        if outline: d["paint"]["fill-outline-color"] = p[outline]
        L.append(d)
    if s.earth(): fill("earth", s.earth(), "land")
    fill("landuse-residential", s.landuse("residential", "suburb", "quarter", "neighbourhood"), "residential", 6)
    fill("landuse-commercial", s.landuse("commercial", "retail"), "commercial", 11)
    fill("landuse-industrial", s.landuse("industrial", "garages", "dam", "railway"), "industrial", 11)
    fill("landuse-hospital", s.landuse("hospital"), "hospital", 11)
    fill("landuse-school", s.landuse("school", "university", "college", "kindergarten"), "school", 11)
    fill("landuse-cemetery", s.landuse("cemetery"), "cemetery", 11)
    fill("landuse-pitch", s.landuse("pitch", "stadium", "playground", "track"), "pitch", 12)
    for part, minzoom, opacity in [("farmland", 8, None), ("grass", 8, None), ("wood", 0, exp(1, (5, 0.5), (10, 1))),
                                   ("wetland", 10, None), ("sand", 10, None), ("rock", 10, None), ("ice", 0, None)]:
        for i, w in enumerate(s.landcover(part)):
            fill(f"landcover-{part}" + ("-low" if i else ""), w, part, minzoom if i == 0 else 0, opacity)
    fill("park", s.park(), "park", 8, exp(1, (8, 0.6), (12, 1)), "park_outline")
    layer, test = s.waterway()
    L.append({"id": "waterway", "type": "line", "source": s.source, "source-layer": layer, "minzoom": 8,
              "filter": test,
              "layout": {"line-cap": "round", "line-join": "round"},
              "paint": {"line-color": p["waterway"], "line-width": s.waterway_width(
                        exp(1.3, (8, 0.8), (12, 1.6), (16, 6), (20, 18)), exp(1.3, (12, 0.5), (16, 2), (20, 6)))}})
    fill("water", s.water(), "water")
    fill("aeroway", s.aeroway_area(), "aeroway", 11)
    layer, test = s.runway()
    L.append({"id": "aeroway-runway", "type": "line", "source": s.source, "source-layer": layer, "minzoom": 11,
              "filter": test,
              "paint": {"line-color": p["street"], "line-width": exp(1.5, (11, 2), (14, 12), (18, 80))}})
    layer, test = s.building()
    L.append({"id": "building", "type": "fill", "source": s.source, "source-layer": layer, "minzoom": 13,
              **({"filter": test} if test is not None else {}),
              "paint": {"fill-color": p["building"], "fill-outline-color": p["building_outline"],
                        "fill-opacity": exp(1, (13, 0.5), (14.5, 1))}})
    L += road_layers(s, p, "tunnel")
    for (cl, color, dash, minz, w) in [("path", "path", [2, 2], 14, [(14, 0.5), (16, 0.9), (18, 1.4), (20, 2.4)]),
                                        ("track", "track", [3, 1.5], 13, [(13, 0.8), (16, 1.6), (20, 4)])]:
        layer, (test, more) = getattr(s, cl)()
        L.append({"id": f"road-{cl}", "type": "line", "source": s.source, "source-layer": layer, "minzoom": minz,
                  "filter": ["all", test, more, s.not_tunnel()],
                  "layout": {"line-join": "round"},
                  "paint": {"line-color": p[color], "line-width": exp(1.3, *w), "line-dasharray": dash,
                            "line-opacity": exp(1, (minz, 0.5), (minz + 2, 0.8))}})
    layer, test = s.cycleway()
    L.append({"id": "road-cycleway", "type": "line", "source": s.source, "source-layer": layer, "minzoom": 13,
              "filter": test,
              "layout": {"line-join": "round"},
              "paint": {"line-color": p["cycleway"], "line-width": exp(1.3, (13, 0.8), (16, 1.5), (20, 3)), "line-dasharray": [2, 1.2]}})
    L += road_layers(s, p, "road")
    for i, (layer, test) in enumerate(s.rails()):
        suffix = "" if i == 0 else "-" + layer
        L.append({"id": "rail" + suffix, "type": "line", "source": s.source, "source-layer": layer, "minzoom": 8,
                  "filter": ["all", test, s.not_tunnel()],
                  "paint": {"line-color": p["rail"], "line-width": exp(1.4, (8, 0.6), (14, 1.6), (20, 4))}})
        L.append({"id": "rail-hatching" + suffix, "type": "line", "source": s.source, "source-layer": layer, "minzoom": 14,
                  "filter": ["all", test, s.not_tunnel()],
                  "paint": {"line-color": p["rail_dash"], "line-width": exp(1.4, (13, 0.6), (20, 2)), "line-dasharray": [3, 3]}})
    layer, test = s.ferry()
    L.append({"id": "ferry", "type": "line", "source": s.source, "source-layer": layer, "minzoom": 10,
              "filter": test, "paint": {"line-color": p["ferry"], "line-width": 1, "line-dasharray": [4, 3]}})
    L += road_layers(s, p, "bridge")
    layer, test = s.boundary_state()
    L.append({"id": "boundary-state", "type": "line", "source": s.source, "source-layer": layer, "minzoom": 3,
              "filter": test,
              "layout": {"line-join": "round"},
              "paint": {"line-color": p["boundary_state"], "line-width": exp(1.3, (3, 0.6), (12, 1.6)), "line-dasharray": [3, 2]}})
    layer, test = s.boundary_country()
    L.append({"id": "boundary-country", "type": "line", "source": s.source, "source-layer": layer,
              "filter": test,
              "layout": {"line-join": "round", "line-cap": "round"},
              "paint": {"line-color": p["boundary"], "line-width": exp(1.3, (2, 0.8), (8, 1.6), (14, 3))}})

    # One-way streets' arrows, first of the symbols: every label is placed before them.
    layer, test = s.oneway()
    L.append({"id": "oneway", "type": "symbol", "source": s.source, "source-layer": layer, "minzoom": 16,
              "filter": ["all", test, ["any", *[s.road(part)[1] for part, *_ in ROADS]], is_line()],
              "layout": {"symbol-placement": "line", "symbol-spacing": 110, "icon-image": arrow,
                         "icon-size": exp(1.2, (16, 0.75), (18, 1))}})

    halo = {"text-halo-color": p["halo"], "text-halo-width": 1.6}
    def label(id_, where_, minzoom, size, color, font="Noto Sans Regular", extra=None, paint_extra=None, maxzoom=None, sort=None):
        layer, filt = where_[:2]
        d = {"id": id_, "type": "symbol", "source": s.source, "source-layer": layer, "minzoom": minzoom,
             "layout": {"text-field": s.name(), "text-font": [font], "text-size": size, "text-max-width": 8},
             "paint": dict(halo, **{"text-color": p[color]})}
        if filt is not None: d["filter"] = filt
        if maxzoom is not None: d["maxzoom"] = maxzoom
        if sort is not None: d["layout"]["symbol-sort-key"] = sort
        if extra: d["layout"].update(extra)
        if paint_extra: d["paint"].update(paint_extra)
        L.append(d)
    label("waterway-name", s.waterway_names(), 12, 11, "water_label", "Noto Sans Italic",
          {"symbol-placement": "line", "symbol-spacing": 350, "text-letter-spacing": 0.1})
    label("water-name", s.water_names(), 5, exp(1.2, (5, 11), (14, 14)), "water_label", "Noto Sans Italic", {"text-letter-spacing": 0.1})
    layer, test, number = s.housenumbers()
    label("housenumber", (layer, test), 16, 9.5, "house", extra={"text-field": number},
          paint_extra={"text-halo-width": 1})
    # Streets come after the points of interest: placed first, they are the map's frame.
    for more in (False, True):
        layer, test, sort = s.pois(more)
        label("poi-more" if more else "poi", (layer, test), 17 if more else 15, 10.5, "poi_text", sort=sort,
              extra={"text-anchor": "top", "text-offset": [0, 0.2]})
    label("street-name-minor", s.street_names("minor"), 14, exp(1.2, (14, 10), (18, 13)),
          "street_text", extra={"symbol-placement": "line", "symbol-spacing": 300})
    label("street-name", s.street_names("major"), 12, exp(1.2, (12, 10), (18, 14)),
          "street_text", extra={"symbol-placement": "line", "symbol-spacing": 350})
    label("motorway-name", s.street_names("motorway"), 11, 10.5, "street_text", "Noto Sans Bold",
          {"symbol-placement": "line", "symbol-spacing": 450})
    order = s.place_priority()
    label("place-neighbourhood", s.places("neighbourhood"), 13,
          exp(1.2, (13, 10.5), (16, 13)), "text_minor", extra={"text-transform": "uppercase", "text-letter-spacing": 0.1}, sort=order)
    label("place-suburb", s.places("suburb"), 11, exp(1.2, (11, 11), (15, 14)), "text_minor",
          extra={"text-transform": "uppercase", "text-letter-spacing": 0.12}, sort=order)
    label("place-village", s.places("village"), 9, exp(1.2, (9, 10.5), (15, 15)), "text", sort=order)
    label("place-town", s.places("town"), 7, exp(1.2, (7, 11), (15, 17)), "text", sort=order)
    label("place-city", s.places("city"), 4, exp(1.2, (4, 11.5), (14, 20)), "text", "Noto Sans Bold", sort=order)
    label("place-state", s.places("state"), 4, 11, "text_minor", maxzoom=8, extra={"text-transform": "uppercase", "text-letter-spacing": 0.15})
    label("place-country", s.places("country"), 1, exp(1.2, (1, 11), (7, 17)), "text", "Noto Sans Bold", maxzoom=9, sort=order)
    return {"version": 8, "name": title, "metadata": {"meridian:about": s.about},
            # The sheet beside the style (Meridian reads it relative to the style file).
            "sprite": "sprite",
            "sources": {s.source: s.source_json}, "layers": L}


# --- The sprite sheet: one-way arrows, pointing along their line (+x), for each palette.

def png(width, height, rgba):
    """An RGBA PNG of `rgba` (rows of bytes), deterministic."""
    rows = b"".join(b"\x00" + bytes(rgba[y * width * 4:(y + 1) * width * 4]) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))

def arrow_coverage(x, y):
    """Whether the point (in a 16x8 box) is in the arrow: a shaft and a head pointing right."""
    if 1.5 <= x <= 10 and 3.2 <= y <= 4.8: return True
    # The head: a triangle from (8.5, 1) and (8.5, 7) to (15, 4).
    return 8.5 <= x <= 15 and abs(y - 4) <= (15 - x) * 3 / 6.5

def sprite(ratio, colors):
    """The sheet at `ratio` device pixels a point: one 16x8-point arrow per colour, side by side."""
    w, h, n = 16 * ratio, 8 * ratio, len(colors)
    pixels = bytearray(w * n * h * 4)
    index = {}
    ss = 4   # samples a pixel across, for smooth edges
    for i, (name, hexcolor) in enumerate(colors):
        r, g, b = (int(hexcolor[k:k + 2], 16) for k in (1, 3, 5))
        index[name] = {"x": i * w, "y": 0, "width": w, "height": h, "pixelRatio": ratio}
        for py in range(h):
            for px in range(w):
                inside = sum(arrow_coverage((px + (sx + 0.5) / ss) / ratio, (py + (sy + 0.5) / ss) / ratio)
                             for sx in range(ss) for sy in range(ss))
                if inside:
                    o = (py * w * n + i * w + px) * 4
                    pixels[o:o + 4] = bytes((r, g, b, round(255 * inside / (ss * ss))))
    return index, png(w * n, h, pixels)


root = os.path.join(os.path.dirname(__file__), "..", "Resources", "styles")
def write(fname, data):
    with open(os.path.join(root, fname), "wb") as f: f.write(data)
    print("wrote", fname)

for fname, schema, palette, arrow, title in [
        ("streets.json", OpenMapTiles(), LIGHT, "oneway", "Meridian Streets"),
        ("streets-dark.json", OpenMapTiles(), DARK, "oneway-dark", "Meridian Streets (dark)"),
        ("protomaps.json", Protomaps(), LIGHT, "oneway", "Meridian Streets (Protomaps)"),
        ("protomaps-dark.json", Protomaps(), DARK, "oneway-dark", "Meridian Streets (Protomaps, dark)")]:
    write(fname, (json.dumps(style(schema, palette, title, arrow), indent=1, ensure_ascii=False) + "\n").encode())
for ratio in (1, 2):
    index, picture = sprite(ratio, [("oneway", LIGHT["oneway"]), ("oneway-dark", DARK["oneway"])])
    stem = "sprite" if ratio == 1 else "sprite@2x"
    write(stem + ".json", (json.dumps(index, indent=1) + "\n").encode())
    write(stem + ".png", picture)
