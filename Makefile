# Meridian — `make run` starts the map, `make test` runs every test. Both set up first.
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: run test setup setup-test pot build debug bench render clean basemap deb test-package fuzz soak memory hot-code compare docs

# What building and running need; test tools, packaging tools and X come with setup-test.
setup:
	@scripts/setup.sh

setup-test:
	@scripts/setup.sh --test

# The release build's flags (scripts/release-flags.sh says why each): as in the .deb.
build: setup
	flags=$$(scripts/release-flags.sh) && $(SWIFT) build $$flags
	scripts/po.sh mo

debug: setup
	$(SWIFT) build
	scripts/po.sh mo

# po/meridian.pot and po/POTFILES made again from the sources, every po/LL.po merged with it.
pot: setup
	scripts/po.sh pot

# MeridianKit's API documentation from the debug build's doc comments, with its coverage:
# .build/docs/MeridianKit.doccarchive and .build/docs/coverage.txt (scripts/docs.sh).
docs: setup
	$(SWIFT) build
	scripts/docs.sh

run: build
	.build/release/meridian

# Every test: the debug build's unit tests, the end-to-end tests (real X server, compositor
# and the release binary), the fuzz targets, the package and a clean install, in stages that
# keep both cores busy (scripts/test.sh says how, and each stage says how long it took).
test: setup
	scripts/test.sh

# Every fuzz target for SECONDS each (make fuzz FUZZ_SECONDS=300 for a longer hunt).
FUZZ_SECONDS ?= 60
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)

# meridian_VERSION_amd64.deb in .build-deb/ (release build, Swift runtime linked statically).
deb: setup-test
	scripts/build-deb.sh

# The package's checks and a clean Debian 12 install (debootstrap; needs root). `make test` runs it.
test-package: setup-test
	scripts/test-package.sh

bench: setup-test build
	scripts/bench.sh
	scripts/bench-extract.sh

# A day in ten minutes: the window driven for SOAK_MINUTES with what a day does, its memory,
# file descriptors and threads read every 30 s (not part of make test).
SOAK_MINUTES ?= 10
soak: setup-test build
	scripts/soak.py --minutes $(SOAK_MINUTES)

# Where the map scenario's memory goes, MiB by MiB (1280x800, loopback tiles at zoom 6).
memory: setup-test build
	scripts/memory-account.py

# Which functions the map runs (under callgrind), for the release link to lay out together:
# writes scripts/hot-code.order. Run again when much of the code has changed.
hot-code: setup-test build
	scripts/hot-code.py

# Meridian's render beside MapLibre Native's (PyPI mapli, software GL) over the Helsinki
# extract: times and pixels differing per view, north-up and turned, and which labels each
# places (not part of make test).
compare: setup-test build
	python3 -m pip install -q mapli pillow || python3 -m pip install -q --break-system-packages mapli pillow
	EGL_PLATFORM=surfaceless python3 scripts/maplibre-compare.py --meridian .build/release/meridian --json .build/compare.json
	for s in osm-bright built-in; do EGL_PLATFORM=surfaceless python3 scripts/maplibre-labels.py --meridian .build/release/meridian \
		--style $$s --json .build/compare-labels-$$s.json --out-dir .build/compare-labels || exit 1; done

# The README's screenshot.
render: build
	.build/release/meridian render --center 47.5,9 --zoom 5.2 --size 960x540 --out docs/screenshot.png

clean:
	rm -rf .build .build-deb

# Rebuilds the embedded basemap from its public sources (see Sources/basemap-builder/README.md).
basemap: setup
	scripts/fetch-basemap-sources.sh .cache/basemap-src
	$(SWIFT) build -c release --product basemap-builder
	.build/release/basemap-builder .cache/basemap-src Resources/basemap.mbtiles
	.build/release/basemap-builder places .cache/basemap-src Resources/places.tsv
