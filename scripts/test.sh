#!/usr/bin/env bash
# `make test`: every test, in stages that each say how long they took (scripts/stage.sh).
#
# Two cores do it in a quarter of an hour by never leaving one idle while work waits:
#  - Behind the tests (SCHED_IDLE: a test's processes always go first, so nothing a test times
#    is slowed by it) run the release build the .deb ships and then the fuzz build; a minimal
#    Debian for the clean install is downloaded meanwhile.
#  - The end-to-end tests run the release binary (the package's, unstripped): what users run,
#    and half the CPU of the debug one. Their suites run in E2E_SHARDS processes (each runs two
#    tests at a time: a test waits on its app, and the test library runs as many tests as there
#    are cores), except those whose input the app times (drags, flicks, held keys and presses)
#    or that measure CPU and memory: those run one at a time, alone.
#  - Each fuzz target gets FUZZ_SECONDS (8), one a core at a time; `make fuzz` hunts longer.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-8}
E2E_SHARDS=${E2E_SHARDS:-2}
E2E_ALONE="WindowTests|StreetMapWindowTests|HeldKeysTests|PinWindowTests|PinCrashTests|ServerDrawnTests|HostileInputTests|SavedAreasWindowTests|WaylandTests|DirectionsWindowTests"
logs=.build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
# Runs one stage and says how long it took, so that where the quarter of an hour goes is in
# every log (and the closing notes can quote it). stage NAME CMD... (a command or a function)
stage() {
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  echo "make test: $name took $((SECONDS - start)) s$( ((status == 0)) || echo ", and failed ($status)")"
  return $status
}

# --- work behind the tests ----------------------------------------------------------------
declare -A behind=()
behind() { # NAME CMD...: started now in its own process group, at SCHED_IDLE; its output in $logs/NAME.log
  local name=$1
  shift
  setsid chrt --idle 0 "$@" >"$logs/$name.log" 2>&1 &
  behind[$name]=$!
}
wait_behind() { # NAME: waits for it (it has the cores to itself then); its failure is the test's
  local name=$1 status=0
  wait "${behind[$name]}" || status=$?
  unset "behind[$name]"
  if ((status)); then
    echo "make test: $name (behind the tests) failed ($status):"
    tail -60 "$logs/$name.log"
    return 1
  fi
}
stop_behind() { for pid in "${behind[@]}"; do kill -- "-$pid" 2>/dev/null || true; done; }
trap stop_behind EXIT
root=(); [ "$(id -u)" = 0 ] || root=(sudo -n) # debootstrap needs root

behind debian "${root[@]}" scripts/test-clean-install.sh --fetch-only
behind release scripts/build-deb.sh .build-deb

# --- the debug build, its unit tests, the catalogues and the docs --------------------------
stage build "$SWIFT" build --build-tests
scripts/po.sh mo
scripts/po.sh check
scripts/lint-messages.py
scripts/lint-conversions.sh
stage docs scripts/docs.sh
stage units "$SWIFT" test --skip-build --skip EndToEndTests

# --- end to end, against the release binary ----------------------------------------------
stage release wait_behind release
deb=$(tail -1 "$logs/release.log")
behind fuzz-build env MERIDIAN_FUZZ=1 "$SWIFT" build -c release --scratch-path .build-fuzz --sanitize=fuzzer --product meridian-fuzz
export MERIDIAN_BIN=$PWD/.build-deb/release/meridian MERIDIAN_LOCALE_DIR=$PWD/.build/locale
tests="$("$SWIFT" build --show-bin-path)/MeridianPackageTests.xctest"

end_to_end() {
  # The suites (all but those alone), most tests first, each to the shard with fewest so far.
  local -a shards=() counts=()
  local n suite i best
  for ((i = 0; i < E2E_SHARDS; i++)); do shards[i]=""; counts[i]=0; done
  while read -r n suite; do
    best=0
    for ((i = 1; i < E2E_SHARDS; i++)); do ((counts[i] < counts[best])) && best=$i; done
    shards[best]+="${shards[best]:+|}$suite"
    counts[best]=$((counts[best] + n))
  done < <("$tests" --testing-library swift-testing --list-tests | sed -n 's#^EndToEndTests\.\([A-Za-z0-9_]*\)/.*#\1#p' \
             | grep -vxE "$E2E_ALONE" | sort | uniq -c | sort -k1,1nr -k2)
  local -a pids=()
  for ((i = 0; i < E2E_SHARDS; i++)); do
    "$tests" --testing-library swift-testing --filter "EndToEndTests\.(${shards[i]})/" >"$logs/end-to-end-$i.log" 2>&1 &
    pids[i]=$!
  done
  local status=0
  for ((i = 0; i < E2E_SHARDS; i++)); do
    if wait "${pids[i]}"; then
      grep -E "^✔ Test run with" "$logs/end-to-end-$i.log" || true
    else
      status=1
      echo "end-to-end shard $i (${shards[i]}) failed:"
      grep -vE "^(◇|↳|✔ (Suite|Test) )" "$logs/end-to-end-$i.log" | tail -200
    fi
  done
  return $status
}
stage end-to-end end_to_end
stage end-to-end-alone "$SWIFT" test --skip-build --filter "EndToEndTests\.($E2E_ALONE)/" --no-parallel

# --- fuzzing and the package ---------------------------------------------------------------
stage fuzz-build wait_behind fuzz-build
stage fuzz scripts/fuzz.sh "$FUZZ_SECONDS"
stage debian wait_behind debian
stage package scripts/test-package.sh "$deb"
echo "make test: all passed in $SECONDS s"
