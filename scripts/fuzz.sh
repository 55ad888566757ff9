#!/usr/bin/env bash
# Builds the libFuzzer executable (Package.swift adds it when MERIDIAN_FUZZ is set; it holds
# every target) and runs each target for a bounded time from its committed seeds
# (Fuzz/Corpus/TARGET), after replaying every crash ever found (Fuzz/Regressions/TARGET). New
# inputs go to a scratch folder, never into the repository. Usage:
# scripts/fuzz.sh [SECONDS_PER_TARGET [TARGET...]] (all targets unless some are named).
# A target runs as .build-fuzz/CONFIG/TARGET (a link to meridian-fuzz: the name picks it).
# FUZZ_CONFIG=debug (make test's few seconds a target) builds unoptimized: 40 % of the
# release build's compiling, for three quarters of its runs a second.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
seconds="${1:-20}"
export MERIDIAN_FUZZ=1
# A failed precondition traps (SIGILL); Swift's backtracer would take the signal first, and
# libFuzzer then writes no crash input for the report below.
export SWIFT_BACKTRACE=enable=no
# MERIDIAN_DEBUG_INFO=none (make test) builds without debug information: crashes then name
# functions but not lines.
build=("${SWIFT:-swift}" build -c "${FUZZ_CONFIG:-release}" --scratch-path .build-fuzz --sanitize=fuzzer --disable-index-store -debug-info-format "${MERIDIAN_DEBUG_INFO:-dwarf}")
"${build[@]}" --product meridian-fuzz >"${TMPDIR:-/tmp}/meridian-fuzz-build.log" 2>&1 \
  || { grep -E "error" "${TMPDIR:-/tmp}/meridian-fuzz-build.log" | head -40; echo "fuzz: the fuzz executable did not build"; exit 1; }
bin=$("${build[@]}" --show-bin-path)
[ -x "$bin/meridian-fuzz" ] || { echo "fuzz: the fuzz executable did not build"; exit 1; }
# The targets are those the executable holds (Fuzz/Targets/main.swift is the one list).
mapfile -t targets < <("$bin/meridian-fuzz" || echo "fuzz: meridian-fuzz cannot list its targets" >&2)
((${#targets[@]})) || { echo "fuzz: meridian-fuzz lists no target"; exit 1; }
for t in "${targets[@]}"; do
  ln -sf meridian-fuzz "$bin/$t"
  [ -d "Fuzz/Corpus/$t" ] || { echo "fuzz: $t has no seeds (Fuzz/Corpus/$t)"; exit 1; }
done
if (($# > 1)); then
  for t in "${@:2}"; do
    printf '%s\n' "${targets[@]}" | grep -qx -- "$t" || { echo "fuzz: no target $t (Fuzz/Targets/main.swift)"; exit 1; }
  done
  targets=("${@:2}")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One target a core at a time (libFuzzer runs one process each): what each says is printed
# in the targets' order once it is done, and any failure fails the whole.
jobs="${FUZZ_JOBS:-$(nproc)}"
fuzz_one() {
  local t=$1 status=0
  mkdir -p "$work/$t" "$work/$t-artifacts"
  local regressions=(Fuzz/Regressions/"$t"/*)
  if ((${#regressions[@]})); then
    "$bin/$t" "${regressions[@]}" >"$work/$t.replay.log" 2>&1 || { echo "fuzz: $t fails a regression case"; tail -20 "$work/$t.replay.log"; status=1; }
  fi
  if "$bin/$t" -max_total_time="$seconds" -seed=1 -rss_limit_mb=2048 -max_len=262144 -timeout="${FUZZ_TIMEOUT:-10}" \
       -artifact_prefix="$work/$t-artifacts/" "$work/$t" "Fuzz/Corpus/$t" >"$work/$t.log" 2>&1; then
    local runs
    runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$work/$t.log" | tail -1 || true)
    echo "fuzz: $t: ${runs:-done}, ${#regressions[@]} regression case(s) replayed, no crash"
  else
    echo "fuzz: $t crashed; the input is in the log below (add it to Fuzz/Regressions/$t once fixed)"
    tail -40 "$work/$t.log"
    for a in "$work/$t-artifacts"/*; do [ -e "$a" ] && base64 -w0 "$a" && echo; done
    status=1
  fi
  return $status
}
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  ( fuzz_one "$t" >"$work/$t.said" 2>&1; echo $? >"$work/$t.status" ) &
done
wait
status=0
for t in "${targets[@]}"; do
  cat "$work/$t.said"
  [ "$(cat "$work/$t.status" 2>/dev/null)" = 0 ] || status=1
done
exit $status
