-- Protomaps basemap v4 schema for tilemaker 2.2: a stand-in for a Planetiler build of
-- protomaps/basemaps (tiles 4.15.2), for Meridian's tests. Written for this fixture from the
-- rules of that version's tiles/src/main/java/com/protomaps/basemap/layers/*.java: the same
-- layers, kinds, kind_detail, min_zoom, sort_rank and attribute names. What tilemaker cannot do
-- (merging, label grids, per-feature max zooms, Natural Earth and Daylight sources) is listed
-- in Tests/Fixtures/vector/README.md.

-- The name:xx keys Protomaps writes (OsmNames.ALLOWED_LANGS).
languages = { "ar", "cs", "bg", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "ga", "he", "hi", "hr",
	"hu", "id", "it", "ja", "ko", "lt", "lv", "ne", "nl", "no", "mr", "mt", "pl", "pt", "ro", "ru", "sk", "sl",
	"sv", "tr", "uk", "ur", "vi", "zh-Hans", "zh-Hant" }

function Set(list)
	local set = {}
	for _, v in ipairs(list) do set[v] = true end
	return set
end

function init_function() end
function exit_function() end

-- name and the allowed name:xx, from zoom z on; name:zh fills zh-Hans and zh-Hant where absent.
function SetNames(obj, z)
	local name = obj:Find("name")
	if name ~= "" then obj:Attribute("name", name, z) end
	for _, lang in ipairs(languages) do
		local v = obj:Find("name:" .. lang)
		if v == "" and (lang == "zh-Hans" or lang == "zh-Hant") then v = obj:Find("name:zh") end
		if v ~= "" then obj:Attribute("name:" .. lang, v, z) end
	end
end

function Numeric(obj, key, value, z)
	if value ~= nil then obj:AttributeNumeric(key, value, z or 0) end
end

-- ele as whole metres ("569", "569.5 m"), else nil.
function Elevation(s)
	local n = s:match("^%s*([+-]?%d*%.?%d+)%s*m?%s*$")
	n = n and tonumber(n)
	if n == nil then return nil end
	return math.floor(n + 0.5)
end

-- The zoom from which an area is `px` pixels across (Planetiler's minimum pixel size; none at
-- z15, the deepest). tilemaker 2.2 gives a way's area in m² but not where it is: pixels of a
-- 256-pixel tile at 60° N, this fixture's latitude (78,272 m at z0).
function SizeZoom(obj, px)
	local a = obj:Area()
	if a <= 0 then return 15 end
	return math.min(math.max(math.ceil(math.log(px * 78272 / math.sqrt(a)) / math.log(2)), 0), 15)
end

-- Brunnels (Roads, Water): is_bridge / is_tunnel from zoom 12.
function SetBrunnel(obj)
	local bridge, tunnel = obj:Find("bridge"), obj:Find("tunnel")
	if bridge ~= "" and bridge ~= "no" then obj:AttributeBoolean("is_bridge", true, 12)
	elseif tunnel ~= "" and tunnel ~= "no" then obj:AttributeBoolean("is_tunnel", true, 12) end
end

-------------------------------------------------------------------------------------------------
-- places (Places.java): named place nodes

function Places(node)
	local place, name = node:Find("place"), node:Find("name")
	if place == "" or name == "" then return end
	local kind, fallback = nil, 0
	if place == "country" then kind = "country"
	elseif place == "city" or place == "town" then kind = "locality"
	elseif place == "neighbourhood" or place == "suburb" then kind = "neighbourhood"
	elseif place == "quarter" then kind = "macrohood"
	elseif place == "village" or place == "locality" or place == "hamlet" or place == "isolated_dwelling"
		or place == "farm" or place == "allotments" then kind = "locality" end
	-- (state/province are regions only in US, CA, BR, IN, CN and AU: none here)
	if kind == nil then return end
	local fallbacks = { city = 5000, town = 10000, village = 2000, locality = 1000, hamlet = 200,
		isolated_dwelling = 100, farm = 50, allotments = 1000 }
	local population = math.floor(tonumber(node:Find("population")) or 0)
	if population == 0 then fallback = fallbacks[place] or 0 end

	local minzoom = 12
	if kind == "country" then minzoom = 5
	elseif kind == "locality" then
		minzoom = 11
		if fallback > 0 then minzoom = 12 end
		if place == "city" then minzoom = (fallback > 0) and 8 or 7
		elseif place == "town" then minzoom = (fallback > 0) and 9 or 7
		elseif place == "village" then minzoom = (population >= 2000) and 11 or 10
		elseif place == "hamlet" then minzoom = (population >= 200) and 12 or 11
		elseif place == "isolated_dwelling" or place == "farm" then minzoom = 13
		elseif place == "allotments" then minzoom = (population >= 100) and 14 or 13 end
		if (place == "isolated_dwelling" and population >= 100) or (place == "farm" and population >= 50) then minzoom = 14 end
	elseif kind == "macrohood" then minzoom = 10
	elseif kind == "neighbourhood" then minzoom = 12 end
	if population == 0 then population = fallback end

	local breaks = { 0, 200, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000, 5000000,
		10000000, 20000000, 50000000, 100000000, 1000000000 }
	local rank = 0
	for i, b in ipairs(breaks) do if population >= b then rank = i end end

	node:Layer("places", false)
	node:MinZoom(minzoom)
	node:Attribute("kind", kind)
	node:Attribute("kind_detail", place)
	Numeric(node, "min_zoom", minzoom + 1)
	if node:Find("capital") ~= "" then node:Attribute("capital", node:Find("capital")) end
	Numeric(node, "population", population)
	Numeric(node, "population_rank", rank)
	if node:Find("wikidata") ~= "" then node:Attribute("wikidata", node:Find("wikidata")) end
	SetNames(node, 0)
	local ref = node:Find("ref")
	if ref ~= "" and #ref < 5 and not tonumber(ref) then node:Attribute("ref", ref) end
end

-------------------------------------------------------------------------------------------------
-- pois (Pois.java): points and named areas

parkKinds = Set { "forest", "park", "protected_area", "nature_reserve", "village_green" }
lateKinds = Set { "clinic", "dentist", "doctors", "social_facility", "baby_hatch", "childcare", "car_sharing",
	"bureau_de_change", "emergency_phone", "karaoke", "karaoke_box", "money_transfer", "car_wash", "hunting_stand",
	"studio", "boat_storage", "gambling", "adult_gaming_centre", "sanitary_dump_station", "animal", "roller_coaster",
	"summer_toboggan", "carousel", "amusement_ride", "maze", "memorial", "district", "pitch", "playground", "slipway",
	"scuba_diving", "atv", "motorcycle", "snowmobile", "art", "bakery", "beauty", "bookmaker", "books", "butcher", "car",
	"car_parts", "car_repair", "clothes", "computer", "convenience", "fashion", "florist", "garden_centre", "gift",
	"golf", "greengrocer", "grocery", "hairdresser", "hifi", "jewelry", "lottery", "mobile_phone", "newsagent",
	"optician", "perfumery", "ship_chandler", "stationery", "tobacco", "travel_agency", "artwork", "hanami",
	"trail_riding_station", "bed_and_breakfast", "chalet", "guest_house", "hostel" }
unnamedLateKinds = Set { "atm", "bbq", "bench", "bicycle_parking", "bicycle_rental", "bicycle_repair_station",
	"boat_storage", "bureau_de_change", "car_rental", "car_sharing", "car_wash", "charging_station", "customs",
	"drinking_water", "fuel", "harbourmaster", "hunting_stand", "karaoke_box", "life_ring", "money_transfer",
	"motorcycle_parking", "parking", "picnic_table", "post_box", "ranger_station", "recycling", "sanitary_dump_station",
	"shelter", "shower", "taxi", "telephone", "toilets", "waste_basket", "waste_disposal", "water_point",
	"watering_place", "landmark", "wayside_cross", "dog_park", "firepit", "fishing", "pitch", "playground", "slipway",
	"swimming_area", "alpine_hut", "information", "picnic_site", "viewpoint", "wilderness_hut" }

-- kind and kind_detail, or nil for no POI; later rules override earlier ones, as in Pois.java.
function PoiKind(obj)
	local aeroway, amenity, attraction = obj:Find("aeroway"), obj:Find("amenity"), obj:Find("attraction")
	local boundary, craft, highway, historic = obj:Find("boundary"), obj:Find("craft"), obj:Find("highway"), obj:Find("historic")
	local landuse, leisure, natural = obj:Find("landuse"), obj:Find("leisure"), obj:Find("natural")
	local railway, shop, tourism = obj:Find("railway"), obj:Find("shop"), obj:Find("tourism")
	local wanted = aeroway == "aerodrome" or amenity ~= "" or attraction ~= ""
		or boundary == "national_park" or boundary == "protected_area" or craft ~= "" or highway == "bus_stop"
		or historic ~= "" or Set { "cemetery", "recreation_ground", "winter_sports", "quarry", "park", "forest",
			"military", "village_green", "allotments" }[landuse]
		or leisure ~= "" or natural == "beach" or natural == "peak" or railway == "station" or shop ~= ""
		or (tourism ~= "" and historic ~= "district")
	if not wanted then return nil end
	local kind, detail = "other", nil
	if boundary ~= "" then kind = boundary end
	if historic ~= "" and historic ~= "yes" then kind = historic end
	for _, v in ipairs({ tourism, shop, highway, railway, natural, leisure, landuse, aeroway, craft, attraction, amenity }) do
		if v ~= "" then kind = v end
	end
	if landuse == "forest" then kind = "forest" end
	if boundary == "national_park" then
		kind = "park"
		local pc, title = obj:Find("protect_class"), obj:Find("protection_title")
		if pc == "2" or pc == "3" or obj:Find("designation") == "national_park" or title == "National Park" then
			kind = "national_park"
		end
	end
	if natural == "peak" then kind = "peak" end
	if highway == "bus_stop" then kind = "bus_stop" end
	if tourism == "attraction" or tourism == "camp_site" or tourism == "hotel" then kind = tourism end
	if shop == "grocery" or shop == "supermarket" then kind = shop end
	if Set { "golf_course", "marina", "stadium", "park" }[leisure] then kind = leisure end
	if landuse == "military" then
		kind = "military"
		local m = obj:Find("military")
		if m == "naval_base" or m == "airfield" then kind = m end
	end
	if landuse == "cemetery" then kind = "cemetery" end
	if aeroway == "aerodrome" then
		kind = "aerodrome"
		if obj:Find("aerodrome") ~= "" then detail = obj:Find("aerodrome") end
	end
	for _, key in ipairs({ "sport", "religion", "cuisine" }) do
		if obj:Find(key) ~= "" then detail = obj:Find(key) end
	end
	return kind, detail
end

function PointMinZoom(obj, kind)
	local z = 15
	if Set { "university", "college", "cemetery", "park", "grocery", "supermarket" }[kind] then z = 14 end
	if Set { "aerodrome", "library", "post_office", "townhall", "golf_course", "marina", "stadium", "peak" }[kind] then z = 13 end
	if kind == "hospital" then z = 12 end
	if kind == "national_park" then z = 11 end
	if kind == "aerodrome" and obj:Find("iata") ~= "" then z = 11 end
	if kind == "bus_stop" then z = 17 end
	if lateKinds[kind] then z = 16 end
	if obj:Find("name") == "" and unnamedLateKinds[kind] then z = 16 end
	return z
end

-- Named areas by size (Pois.java grades by the envelope in units of 70 m² at the equator;
-- tilemaker gives the area, in m² of the ground: ×4 for Mercator's scale at 60° N).
function grade(a, steps)
	local z = nil
	for _, s in ipairs(steps) do if a >= s[1] then z = s[2] end end
	return z
end

function AreaMinZoom(obj, kind)
	local a = obj:Area() * 4 / 70
	local height = tonumber(obj:Find("height")) or 0
	local z = grade(a, { { 10, 14 }, { 500, 13 }, { 2000, 12 }, { 1e4, 11 } }) or 15
	if kind == "playground" then z = 17 end
	if kind == "allotments" then z = (a >= 10) and 15 or 16 end
	if a >= 10 and a < 2000 then
		if height >= 100 then z = 11 elseif height >= 20 then z = 12 elseif height >= 10 then z = 13 end
		if height >= 20 and height < 100 and Set { "hotel", "hostel", "parking", "bank", "place_of_worship", "jewelry", "yes",
			"restaurant", "coworking_space", "clothes", "art", "school" }[kind] then z = 13 end
		if kind == "storage_rental" then z = 14 end
		if kind == "university" then z = 13 end
	end
	if kind == "cemetery" or kind == "school" then
		z = grade(a, { { 0, 16 }, { 10, 15 }, { 100, 14 }, { 1000, 13 }, { 5000, 12 } })
	elseif kind == "national_park" then
		z = grade(a, { { 0, 17 }, { 250, 14 }, { 1000, 13 }, { 5000, 12 }, { 2e4, 11 }, { 1e5, 10 }, { 2.5e5, 9 },
			{ 2e6, 8 }, { 1e7, 7 }, { 2.5e7, 6 }, { 3e8, 5 } })
	elseif kind == "college" or kind == "university" then
		z = grade(a, { { 0, 15 }, { 5000, 14 }, { 2e4, 13 }, { 5e4, 12 }, { 1e5, 11 }, { 1.5e5, 10 }, { 2.5e5, 9 },
			{ 5e6, 8 }, { 2e7, 7 } })
	elseif parkKinds[kind] then
		z = grade(a, { { 0, 17 }, { 1, 16 }, { 10, 15 }, { 250, 14 }, { 1000, 13 }, { 5000, 12 }, { 1.5e4, 11 },
			{ 2.5e5, 10 }, { 1e6, 9 }, { 4e6, 8 }, { 1e7, 7 } })
	elseif Set { "aerodrome", "golf_course", "military", "naval_base", "stadium", "zoo" }[kind] then
		z = grade(a, { { 250, 14 }, { 1000, 13 }, { 5000, 12 }, { 2e4, 11 }, { 1e5, 10 }, { 2.5e5, 9 }, { 5e6, 8 },
			{ 2e7, 7 } }) or z
	end
	if kind == "aerodrome" then
		if obj:Find("iata") ~= "" then z = math.max(z - 2, 10) else z = math.max(z, 12) end
	end
	if kind == "nature_reserve" and obj:Find("name"):find("Wilderness") then z = z + 1 end
	if z < 14 then
		local n = #obj:Find("name")
		if n > 45 then z = z + 2 elseif n > 30 then z = z + 1 end
	end
	return z
end

function Pois(obj, isArea)
	local kind, detail = PoiKind(obj)
	if kind == nil then return end
	local z
	if isArea then
		z = AreaMinZoom(obj, kind)
		obj:LayerAsCentroid("pois")
	else
		z = PointMinZoom(obj, kind)
		obj:Layer("pois", false)
	end
	obj:MinZoom(math.min(z, 15))
	obj:Attribute("kind", kind)
	Numeric(obj, "min_zoom", z + 1)
	if obj:Find("iata") ~= "" then obj:Attribute("iata", obj:Find("iata")) end
	Numeric(obj, "elevation", Elevation(obj:Find("ele")))
	if detail then obj:Attribute("kind_detail", detail) end
	SetNames(obj, 0)
end

-------------------------------------------------------------------------------------------------
-- buildings (Buildings.java): outlines, and address points (z15 only, number only)

function Address(obj, isArea)
	local number = obj:Find("addr:housenumber")
	if number == "" then return end
	if isArea then obj:LayerAsCentroid("buildings") else obj:Layer("buildings", false) end
	obj:MinZoom(15)
	obj:Attribute("addr_housenumber", number)
	obj:Attribute("kind", "address")
end

function Buildings(way)
	local building, part = way:Find("building"), way:Find("building:part")
	if not ((building ~= "" and building ~= "no") or (part ~= "" and part ~= "no")) then return end
	local height = tonumber(way:Find("height"))
	local levels = tonumber(way:Find("building:levels"))
	if height == nil and levels ~= nil then height = math.max(levels, 1) * 3 + 2 end
	way:Layer("buildings", true)
	if part ~= "" then
		way:MinZoom(math.max(14, SizeZoom(way, 1)))
		way:Attribute("kind", "building_part")
		way:Attribute("kind_detail", part)
		Numeric(way, "min_height", tonumber(way:Find("min_height")))
	else
		way:MinZoom(math.max(11, SizeZoom(way, 1)))
		way:Attribute("kind", "building")
	end
	local layer = tonumber(way:Find("layer"))
	if layer then Numeric(way, "layer", math.floor(layer), 13) end
	Numeric(way, "height", height)
	Numeric(way, "sort_rank", 400)
end

-------------------------------------------------------------------------------------------------
-- roads (Roads.java)

majorZooms = { -- min zoom, names from, refs from
	trunk = { 6, 12, 8 }, trunk_link = { 6, 12, 12 }, primary = { 7, 12, 10 }, primary_link = { 7, 13, 11 },
	secondary = { 9, 12, 11 }, secondary_link = { 9, 14, 13 }, tertiary = { 9, 13, 12 }, tertiary_link = { 9, 14, 13 } }
links = Set { "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link" }

function Highway(way, highway)
	if Set { "proposed", "abandoned", "razed", "demolished", "removed", "construction", "elevator" }[highway] then return end
	local kind, detail = "other", highway
	if highway == "motorway" or highway == "motorway_link" then kind = "highway"
	elseif majorZooms[highway] then kind = "major_road"
	elseif Set { "residential", "unclassified", "road", "raceway", "service" }[highway] then kind = "minor_road"
	elseif Set { "pedestrian", "track", "corridor", "path", "cycleway", "bridleway", "footway", "steps" }[highway] then kind = "path" end
	local service, footway = way:Find("service"), way:Find("footway")
	if service ~= "" then detail = service end
	if highway == "service" then detail = "service" end
	if highway == "footway" and (footway == "sidewalk" or footway == "crossing") then detail = footway end
	if highway == "corridor" then detail = "corridor" end

	local z, zName, zRef = 14, 14, 12
	if kind == "highway" then z, zName, zRef = 3, 11, (highway == "motorway_link") and 12 or 7
	elseif kind == "major_road" then
		local t = majorZooms[highway]
		z, zName, zRef = t[1], t[2], t[3]
	elseif kind == "minor_road" then z = (detail == "service") and 13 or 12
	elseif kind == "path" then
		z = 12
		if Set { "path", "cycleway", "bridleway", "footway", "steps" }[detail] then z = 13 end
		if Set { "sidewalk", "crossing", "corridor" }[detail] then z = 14 end
	end
	local access = way:Find("access")
	if access == "private" or access == "no" then z = math.max(z, 15) end

	way:Layer("roads", false)
	way:MinZoom(math.min(z, 15))
	way:Attribute("kind", kind)
	Numeric(way, "min_zoom", z + 1)
	if way:Find("ref") ~= "" then way:Attribute("ref", way:Find("ref"), zRef) end
	if way:Find("oneway") ~= "" then way:Attribute("oneway", way:Find("oneway"), 14) end
	if access ~= "" then way:Attribute("access", access, 15) end
	Numeric(way, "sort_rank", 400)
	way:Attribute("kind_detail", detail)
	if kind == "other" and service ~= "" then way:Attribute("service", service) end
	if links[highway] then way:AttributeBoolean("is_link", true) end
	SetBrunnel(way)
	SetNames(way, zName)
end

-- Railways, cable cars, piers, ferries, runways: also in roads.
function NonHighway(way)
	if way:Find("building") ~= "" then return end
	local railway = way:Find("railway")
	if Set { "abandoned", "razed", "demolished", "removed", "construction", "platform", "platform_edge", "proposed" }[railway] then return end
	local kind, detail, z = nil, nil, 11
	if railway ~= "" then
		kind, detail = "rail", railway
		if railway == "service" then z = (way:Find("service") ~= "") and 14 or 13 end
		if Set { "funicular", "light_rail", "miniature", "monorail", "narrow_gauge", "preserved", "subway", "tram" }[railway] then z = 14 end
		if railway == "disused" then z = 15 end
		if Set { "yard", "siding", "crossover" }[way:Find("service")] then z = 13 end
	end
	if way:Find("aerialway") == "cable_car" then kind, detail, z = "aerialway", "cable_car", 11 end
	if way:Find("man_made") == "pier" then kind, detail, z = "path", "pier", 13 end
	if way:Find("route") == "ferry" then kind, z = "ferry", 11 end
	local aeroway = way:Find("aeroway")
	if aeroway == "taxiway" then kind, detail, z = "aeroway", "taxiway", 10 end
	if aeroway == "runway" then kind, detail, z = "aeroway", "runway", 9 end
	if kind == nil then return end

	way:Layer("roads", false)
	way:MinZoom(z)
	way:Attribute("kind", kind)
	Numeric(way, "min_zoom", z + 1)
	for _, key in ipairs({ "network", "ref", "route", "service" }) do
		if way:Find(key) ~= "" then way:Attribute(key, way:Find(key)) end
	end
	Numeric(way, "sort_rank", 400)
	if detail then way:Attribute("kind_detail", detail) end
	SetBrunnel(way)
	SetNames(way, 12)
end

-------------------------------------------------------------------------------------------------
-- water (Water.java): polygons, waterway lines, label points

function WaterKind(obj)
	local kind, detail, z, keepPolygon = nil, nil, nil, true
	local natural, waterway, water = obj:Find("natural"), obj:Find("waterway"), obj:Find("water")
	if natural == "reef" then
		kind = "reef"
		if Set { "coral", "rock", "sand" }[obj:Find("reef")] then detail = obj:Find("reef") end
	end
	local lines = { drain = 15, ditch = 15, stream = 13, river = 9, canal = 10 }
	if lines[waterway] then kind, z = waterway, lines[waterway] end
	if waterway == "canal" and obj:Find("boat") == "yes" then z = 9 end
	if obj:Find("amenity") == "swimming_pool" or obj:Find("leisure") == "swimming_pool" then kind = "swimming_pool" end
	if obj:Find("landuse") == "reservoir" then kind = "lake" end
	if obj:Find("landuse") == "basin" then kind = "basin" end
	if natural == "fjord" or natural == "strait" or natural == "bay" then kind, keepPolygon = natural, false end
	if natural == "water" then
		kind = "water"
		if Set { "basin", "canal", "ditch", "drain", "lake", "river", "stream" }[water] then detail = water end
		if Set { "lagoon", "oxbow", "pond", "reservoir", "wastewater" }[water] then detail = "lake" end
	end
	if obj:Find("amenity") == "fountain" then kind = "fountain" end
	if waterway == "dock" then kind = "dock" end
	if waterway == "riverbank" then kind = "riverbank" end
	if obj:Find("covered") == "yes" then kind = nil end
	if obj:Find("place") == "ocean" then kind, z = "ocean", 0 end
	return kind, detail, z, keepPolygon
end

function Water(obj, geometry)
	local kind, detail, z, keepPolygon = WaterKind(obj)
	if kind == nil then return end
	if geometry == "area" then
		if keepPolygon then
			obj:Layer("water", true)
			obj:MinZoom(math.max(6, SizeZoom(obj, 1)))
			obj:Attribute("kind", kind)
			if detail then obj:Attribute("kind_detail", detail) end
			Numeric(obj, "sort_rank", 200)
			if obj:Find("bridge") ~= "" then obj:Attribute("bridge", obj:Find("bridge"), 14) end
			if obj:Find("tunnel") ~= "" then obj:Attribute("tunnel", obj:Find("tunnel"), 14) end
			local layer = tonumber(obj:Find("layer"))
			if layer then Numeric(obj, "layer", math.floor(layer), 14) end
		end
		if obj:Find("name") ~= "" then
			-- A label point, from the zoom at which the area is large enough (70,000 m² units).
			local a, labelZoom = obj:Area() * 4 / 70000, 15
			for i = 6, 14 do if a > 4 ^ (15 - i) then labelZoom = i; break end end
			labelZoom = z or labelZoom
			obj:LayerAsCentroid("water")
			obj:MinZoom(labelZoom)
			obj:Attribute("kind", kind)
			if detail then obj:Attribute("kind_detail", detail) end
			Numeric(obj, "min_zoom", labelZoom + 1)
			Numeric(obj, "sort_rank", 200)
			SetNames(obj, 0)
		end
	elseif geometry == "line" then
		z = z or 12
		obj:Layer("water", false)
		obj:MinZoom(z)
		obj:Attribute("kind", kind)
		Numeric(obj, "min_zoom", z + 1)
		local layer = tonumber(obj:Find("layer"))
		if layer then Numeric(obj, "layer", math.floor(layer), 14) end
		Numeric(obj, "sort_rank", 200)
		SetNames(obj, 0)
	else
		z = z or 15
		obj:Layer("water", false)
		obj:MinZoom(z)
		obj:Attribute("kind", kind)
		Numeric(obj, "min_zoom", z + 1)
		SetNames(obj, 0)
	end
end

-------------------------------------------------------------------------------------------------
-- landuse (Landuse.java)

function LanduseKind(way)
	local kind = nil
	local amenity, landuse, leisure, natural = way:Find("amenity"), way:Find("landuse"), way:Find("leisure"), way:Find("natural")
	if Set { "hospital", "school", "kindergarten", "university", "college" }[amenity] then kind = amenity end
	if Set { "recreation_ground", "industrial", "railway", "cemetery", "commercial", "grass", "farmland", "residential",
		"military", "village_green", "allotments", "forest", "meadow" }[landuse] then kind = landuse end
	if Set { "aerodrome", "runway" }[way:Find("aeroway")] then kind = way:Find("aeroway") end
	if Set { "park", "garden", "golf_course", "dog_park", "playground", "pitch", "nature_reserve" }[leisure] then kind = leisure end
	if way:Find("man_made") == "pier" then kind = "pier" end
	if Set { "beach", "wood", "glacier", "grassland", "scrub", "sand", "wetland", "bare_rock" }[natural] then kind = natural end
	if (way:Find("highway") == "pedestrian" or way:Find("highway") == "footway") and way:Find("area") == "yes" then kind = "pedestrian" end
	if way:Find("waterway") == "dam" then kind = "dam" end
	if way:Find("railway") == "platform" then kind = "platform" end
	if way:Find("tourism") == "zoo" then kind = "zoo" end
	if landuse == "military" and Set { "airfield", "naval_base" }[way:Find("military")] then kind = way:Find("military") end
	if landuse == "brownfield" then kind = "industrial" end
	if landuse == "farmyard" or landuse == "orchard" then kind = "farmland" end
	if way:Find("man_made") == "bridge" then kind = "pedestrian" end
	if Set { "taxiway", "runway" }[way:Find("area:aeroway")] then kind = way:Find("area:aeroway") end
	if way:Find("place") == "neighbourhood" then kind = "other" end
	if way:Find("boundary") == "national_park" then kind = "park" end
	return kind
end

function Landuse(way)
	local kind = LanduseKind(way)
	if kind == nil then return end
	way:Layer("landuse", true)
	way:MinZoom(math.max(2, SizeZoom(way, 2)))
	way:Attribute("kind", kind)
	Numeric(way, "sort_rank", 189)
end

-------------------------------------------------------------------------------------------------
-- earth (Earth.java): land from the prepared polygons (config), cliffs and islands

function Earth(way, isArea)
	if not isArea and way:Find("natural") == "cliff" then
		way:Layer("earth", false)
		way:MinZoom(12)
		Numeric(way, "min_zoom", 13)
		way:Attribute("kind", "cliff")
		SetNames(way, 0)
	end
	if isArea and way:Find("place") == "island" then
		way:LayerAsCentroid("earth")
		way:MinZoom(6)
		way:Attribute("kind", "island")
		SetNames(way, 0)
	end
end

-------------------------------------------------------------------------------------------------
-- boundaries (Boundaries.java): ways of administrative boundary relations

function relation_scan_function(relation)
	local b = relation:Find("boundary")
	local level = tonumber(relation:Find("admin_level"))
	if relation:Find("type") == "boundary" and (b == "administrative" or b == "disputed" or b == "claim")
		and level and level <= 8 then
		relation:Accept()
	end
end

function Boundaries(way)
	if way:Find("natural") == "coastline" or way:Find("maritime") == "yes" then return end
	local level, disputed = nil, false
	while true do
		local rel = way:NextRelation()
		if not rel then break end
		local l = tonumber(way:FindInRelation("admin_level"))
		if l and (level == nil or l < level) then level = l end
		if way:FindInRelation("boundary") == "disputed" or way:FindInRelation("disputed") == "yes"
			or way:FindInRelation("disputed_by") ~= "" or way:FindInRelation("claimed_by") ~= "" then disputed = true end
	end
	if level == nil then return end
	local kinds = { [2] = { "country", 6 }, [3] = { "region", 6 }, [4] = { "region", 6 }, [5] = { "county", 8 }, [6] = { "county", 8 } }
	local k = kinds[level] or { "locality", 10 }
	disputed = disputed or Set { "disputed", "claim" }[way:Find("boundary")] or way:Find("disputed") == "yes"
		or way:Find("disputed_by") ~= "" or way:Find("claimed_by") ~= ""
	way:Layer("boundaries", false)
	way:MinZoom(k[2])
	way:Attribute("kind", k[1])
	Numeric(way, "kind_detail", level)
	Numeric(way, "sort_rank", disputed and 288 or 289)
	if disputed then way:AttributeBoolean("disputed", true) end
end

-------------------------------------------------------------------------------------------------

node_keys = { "addr:housenumber", "aeroway", "amenity", "attraction", "boundary", "craft", "highway", "historic",
	"landuse", "leisure", "natural", "place", "railway", "shop", "tourism", "waterway" }

function node_function(node)
	Places(node)
	Pois(node, false)
	Water(node, "point")
	Address(node, false)
end

function way_function(way)
	local isArea = way:IsClosed() and way:Find("area") ~= "no"
	local highway = way:Find("highway")
	-- A closed highway is a line unless it says area=yes (as Planetiler reads it).
	local isLine = not way:IsClosed() or (way:Find("area") ~= "yes" and (highway ~= "" or way:Find("railway") ~= ""
		or way:Find("waterway") ~= "" or way:Find("barrier") ~= "" or way:Find("natural") == "cliff"))
	if isLine then
		if highway ~= "" then Highway(way, highway) end
		NonHighway(way)
		Boundaries(way)
		Earth(way, false)
	end
	if isArea then
		Buildings(way)
		Landuse(way)
		Earth(way, true)
		if way:Find("name") ~= "" then Pois(way, true) end
	end
	if isArea and not (isLine and way:Find("waterway") ~= "") then Water(way, "area")
	elseif isLine and not isArea then Water(way, "line") end
	if isArea then Address(way, true) end
end

-- The prepared land and sea polygons (see scripts/make-protomaps-fixture.sh).
function attribute_function(attr, layer)
	if layer == "land" then return { kind = "earth" } end
	return { kind = "ocean", sort_rank = 200 }
end
