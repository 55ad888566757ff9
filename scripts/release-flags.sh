#!/bin/sh
# The release build's flags, for `make build` and the .deb alike (scripts/build-deb.sh):
#  - the Swift runtime linked statically and relocations packed (DT_RELR, glibc ≥ 2.36): less
#    dynamic linking at start;
#  - no global -Osize: Package.swift builds each target for size or speed (`small`/`osize`),
#    and an -Xswiftc -Osize here comes after and overrides the targets left at -O for their
#    hot loops (MapData's GPX reader: a 1M-point track read at twice the CPU);
#  - nothing exported (the Swift runtime finds types through its own sections);
#  - identical functions folded into one (--icf=all, as Apple's linker does by default);
#  - every function in a section of its own, laid out in the order scripts/hot-code.order
#    lists: the code a map runs sits together, so the pages it touches (and the 64 KiB the
#    kernel maps around each) hold little else. scripts/hot-code.py writes that list.
root=$(cd "$(dirname "$0")/.." && pwd)
echo -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
  -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic -Xlinker --icf=all \
  -Xlinker --symbol-ordering-file="$root/scripts/hot-code.order" -Xlinker --no-warn-symbol-ordering
