#!/usr/bin/env bash
# `make test`: every test, in stages that each say how long they took.
#
# Two cores do it in about a quarter of an hour by never leaving one idle while work waits:
#  - The release build the .deb ships compiles beside the debug build. Beside them, the test
#    tools install (apt) and a minimal Debian for the clean install downloads.
#  - Behind the tests (SCHED_IDLE: a test's processes always go first, so nothing a test times
#    is slowed by it) run the docs and the fuzz targets; the fuzz build (unoptimized) beside
#    them.
#  - The unit tests run beside the end of the release build and the end-to-end tests, which
#    run the release binary (the package's, unstripped): what users run, and half the CPU of
#    the debug one. Each suite runs in a process of its own, E2E_JOBS at a time (they mostly
#    wait on their app), but for its tests whose input the app times by the clock (drags
#    measured for flicks, wheel zooms, held keys and presses): those run one at a time,
#    alone, after. (Gestures a test waits out by the app's log stay in the queue.)
#  - The package is checked and installed on a clean Debian beside the unit tests.
#  - Each fuzz target gets FUZZ_SECONDS (5: its seeds, regressions and some thousands of new
#    inputs), three at a time behind the tests that run alone; `make fuzz` hunts longer.
#  - Nothing is compiled with debug information (-debug-info-format none): a failing test says
#    its file and line without it, and it is a sixth of the compiling.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
export NO_COLOR=1 # the logs are read and grepped
# The scripts behind the tests build with the same one (a path: lint-conversions finds swiftc beside it).
export SWIFT=$(command -v "${SWIFT:-swift}")
FUZZ_SECONDS=${FUZZ_SECONDS:-5}
E2E_JOBS=${E2E_JOBS:-5}
# Suite/test, the start of the names of the end-to-end tests that run alone.
E2E_ALONE="WindowTests/(slowDrag|oneWheelNotch|framesFlow)|StreetMapWindowTests/(aStreetMapIsDrawnAndFollowsADrag|aViewSettled)|HeldKeysTests/|PinWindowTests/(pressHoldMove|unchanged)|PinCrashTests/|ServerDrawnTests/(aDrag|aWheel)|DirectionsWindowTests/aRouteIsAskedByRightClick"
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
  # A session of its own is a scheduling group of its own where the kernel groups sessions
  # (autogroup): groups share the CPU equally whatever their tasks' policy, so SCHED_IDLE
  # alone left the work behind half the machine. The group's nice 19 leaves it what the tests
  # leave (where the kernel has autogroups and takes the setting; elsewhere SCHED_IDLE is all).
  # shellcheck disable=SC2016
  setsid sh -c '{ echo 19 >/proc/self/autogroup; } 2>/dev/null; exec chrt --idle 0 "$@"' behind "$@" >"$logs/$name.log" 2>&1 &
  behind[$name]=$!
}
beside() { # NAME CMD...: the same at the tests' own priority
  local name=$1
  shift
  setsid "$@" >"$logs/$name.log" 2>&1 &
  behind[$name]=$!
}
wait_behind() { # NAME [LINES]: waits for it; its failure is the test's (LINES: what to say of it then)
  local name=$1 status=0
  wait "${behind[$name]}" || status=$?
  unset "behind[$name]"
  if ((status)); then
    echo "make test: $name failed ($status):"
    grep -vE "^(◇|↳|✔ (Suite|Test) |\[[0-9]+/[0-9]+\] )" "$logs/$name.log" | tail -${2:-60}
    return 1
  fi
}
passed_in() { # LOG...: how many tests the Swift Testing runs they hold passed
  cat "$@" | awk '/Test run with [0-9]+ tests? in [0-9]+ suites? passed/ { n += $5 } END { print n + 0 }'
}
stop_behind() { for pid in "${behind[@]}"; do kill -- "-$pid" 2>/dev/null || true; done; }
trap stop_behind EXIT
# What the tests need beyond the build (X, the compositor, the package tools: five minutes
# of apt on a fresh Debian 12, measured in a chroot) installs behind the build, which needs none of it, and then
# a minimal Debian for the clean install downloads. Both need root (apt; debootstrap, chroot,
# mounts): as root, beside the build; otherwise through sudo, in the foreground (sudo's cached
# password belongs to the terminal, which a job in a session of its own has not).
# The package's build waits for them before packaging (dpkg-shlibdeps, chrpath): fd 8's lock,
# held by the job's shell only (what apt starts must not keep it).
exec 8>"$logs/tools.lock"
flock 8
if [ "$(id -u)" = 0 ]; then
  beside test-setup sh -c 'scripts/setup.sh --test-only 8>&- && scripts/test-clean-install.sh --fetch-only 8>&-'
  exec 8>&-
else
  exec 8>&-
  sudo -n true 2>/dev/null || { echo "make test: the clean-install test needs root or passwordless sudo (debootstrap, chroot, mounts)"; exit 1; }
  scripts/setup.sh --test-only
fi
# The fuzz build waits for the release build's lock: taken here, held by the release build
# until it ends, so the two never compete for the idle cores.
exec 9>"$logs/release.lock"
flock 9
export MERIDIAN_DEBUG_INFO=none
# Beside the debug build, not behind it: the release build is mostly one module after another
# (each compiled whole), so the two together keep both cores busy; behind, its last modules
# left one idle for a minute and a half.
beside release sh -c 'scripts/build-deb.sh --compile-only && flock "$0" scripts/build-deb.sh .build-deb' "$logs/tools.lock"
exec 9>&-
# Unoptimized (fuzz.sh's FUZZ_CONFIG): a smoke run of each target needs no more.
export FUZZ_CONFIG=debug
# At the tests' priority: behind them it had no CPU until the tests that run alone, and the
# fuzzing then ended well after them. (With fuzz.sh's flags: its own build finds it done.)
beside fuzz-build flock "$logs/release.lock" env MERIDIAN_FUZZ=1 "$SWIFT" build -c "$FUZZ_CONFIG" --scratch-path .build-fuzz \
  --sanitize=fuzzer --disable-index-store -debug-info-format "$MERIDIAN_DEBUG_INFO" --product meridian-fuzz

# --- the debug build, its unit tests, the catalogues and the docs --------------------------
# The tests' bundle and the examples they run (the app itself: the release build's).
debug_build() {
  local product
  for product in MeridianPackageTests hello-map own-loop; do
    "$SWIFT" build --product "$product" -debug-info-format "$MERIDIAN_DEBUG_INFO" || return
  done
}
stage build debug_build
[ "$(id -u)" != 0 ] || stage test-setup wait_behind test-setup
scripts/po.sh mo
scripts/po.sh check
scripts/lint-messages.py
scripts/lint-conversions.sh
scripts/lint-imports.py
# (Asked before the unit tests start: SwiftPM holds the build folder while they run.)
tests="$("$SWIFT" build --show-bin-path)/MeridianPackageTests.xctest"

# --- the unit tests beside the end-to-end ones (those against the release binary) ---------
behind docs scripts/docs.sh
# Beside the release build's end, which leaves a core idle (its last module and link).
beside units "$SWIFT" test --skip-build --skip EndToEndTests
stage release wait_behind release
deb=$(tail -1 "$logs/release.log")
# The package's checks and its clean install (apt, mostly waiting on the disk) beside them.
if [ "$(id -u)" = 0 ]; then
  beside package scripts/test-package.sh "$deb"
fi
export MERIDIAN_BIN=$PWD/.build-deb/release/meridian MERIDIAN_LOCALE_DIR=$PWD/.build/locale

end_to_end() {
  # The suites, each in a process of its own but for its tests that run alone: the longest
  # first, so that none is left running alone at the end — windows (their tests wait on
  # frames), then by how many tests.
  "$tests" --testing-library swift-testing --list-tests >"$logs/e2e-list" || { echo "end-to-end: the tests cannot be listed"; return 1; }
  sed -n 's#^EndToEndTests\.\([A-Za-z0-9_]*/.*\)#\1#p' "$logs/e2e-list" | grep -vE "^($E2E_ALONE)" | cut -d/ -f1 \
    | sort | uniq -c | awk '{ print ($2 ~ /Window/ ? 1000 : 0) + $1, $2 }' | sort -k1,1nr -k2 | awk '{print $2}' >"$logs/e2e-suites"
  [ -s "$logs/e2e-suites" ] || { echo "end-to-end: no suite found"; return 1; }
  : >"$logs/e2e-failed"
  # shellcheck disable=SC2016
  xargs -P "$E2E_JOBS" -I_SUITE_ sh -c '"$0" --testing-library swift-testing --filter "EndToEndTests\.$3/" --skip "EndToEndTests\.($2)" \
    >"$1/e2e-$3.log" 2>&1 || echo "$3" >>"$1/e2e-failed"' "$tests" "$logs" "$E2E_ALONE" _SUITE_ <"$logs/e2e-suites" \
    || { echo "end-to-end: the queue stopped"; return 1; }
  local passed
  passed=$(passed_in "$logs"/e2e-*.log)
  echo "end-to-end: ${passed:-0} tests in $(wc -l <"$logs/e2e-suites") suites passed"
  [ -s "$logs/e2e-failed" ] || return 0
  for suite in $(cat "$logs/e2e-failed"); do
    echo "end-to-end: $suite failed:"
    grep -vE "^(◇|↳|✔ (Suite|Test) )" "$logs/e2e-$suite.log" | tail -200
  done
  return 1
}
stage end-to-end end_to_end
stage units wait_behind units 300
grep -E "^Test Suite 'All tests' (passed|failed)|Executed [0-9]+ tests|Test run with [0-9]+ tests" "$logs/units.log" | tail -3 || true
if [ "$(id -u)" = 0 ]; then
  stage package wait_behind package
  grep -E "^test-(package|clean-install): ok" "$logs/package.log" || true
else
  stage package scripts/test-package.sh "$deb"
fi

# --- the tests that run alone, and the fuzz targets and the docs behind them -------------
# Nothing at the tests' priority is left to run beside those alone.
stage fuzz-build wait_behind fuzz-build
# Behind the tests a fuzzer may wait seconds for a core: an input is a hang after 60 s, not 10.
# A target's seconds are the clock's, not the CPU's: three at a time fit the minute of the
# tests alone (those use little of the two cores).
behind fuzz env FUZZ_TIMEOUT=60 FUZZ_JOBS=3 scripts/fuzz.sh "$FUZZ_SECONDS"
stage end-to-end-alone "$SWIFT" test --skip-build --filter "EndToEndTests\.($E2E_ALONE)" --no-parallel 2>&1 | tee "$logs/alone.log"
stage docs wait_behind docs
tail -1 "$logs/docs.log" || true
stage fuzz wait_behind fuzz
grep "^fuzz: " "$logs/fuzz.log" || true
# The count in the plain form any reader of test logs knows (only reached when all passed).
passed=$(passed_in "$logs/units.log" "$logs"/e2e-*.log "$logs/alone.log")
echo "tests: $passed passed, 0 failed"
echo "make test: all passed in $SECONDS s"
