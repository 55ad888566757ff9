# Meridian — `make run` starts the map, `make test` runs every test. Both set up first.
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: run test setup build debug bench render clean basemap deb test-package

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build -c release

debug: setup
	$(SWIFT) build

run: build
	.build/release/meridian

# Unit tests run in parallel; end-to-end tests (real X server, compositor and binary) one at
# a time, so that timing-sensitive input is not starved of CPU by other tests.
test: debug
	$(SWIFT) test --skip EndToEndTests
	$(SWIFT) test --filter EndToEndTests --no-parallel
	scripts/test-package.sh

# meridian_VERSION_amd64.deb in .build-deb/ (release build, Swift runtime linked statically).
deb: setup
	scripts/build-deb.sh

# The package's checks and a clean Debian 12 install (debootstrap; needs root). `make test` runs it.
test-package: setup
	scripts/test-package.sh

bench: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then .build/release/meridian bench; \
	else xvfb-run -a -s "-screen 0 1920x1080x24" .build/release/meridian bench; fi

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
