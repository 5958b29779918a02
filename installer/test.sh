#!/usr/bin/env bash
# README command 2 (and what CI runs): install what is missing, then build and run
# the whole test suite in three stages:
#   1. preset `asan` - everything (GUI offscreen, SDK, libpva's Python module,
#                      benchmarks' smoke runs) under AddressSanitizer + UBSan,
#                      warnings are errors, the standard library bounds-checked;
#   2. preset `tsan` - ThreadSanitizer over the threaded tests only (a few
#                      minutes): the engine's tile thread pool, a debug session
#                      paused from another thread, one ReportSource shared by
#                      threads, the GUI's background loaders and workers and
#                      the debugger's worker thread (tests/sanitizers/tsan.supp
#                      says what is ignored);
#   3. preset `fuzz` - clang + libFuzzer: the report reader fuzzed for 60 s and,
#                      in parallel, the GUI's data path and the saved-executable
#                      reader for 45 s each, from corpora of real reports and
#                      executables, damaged ones and garbage (tests/fuzz).
# Exits non-zero on the first failing stage and says which one it was.
#
#   installer/test.sh                            # all three stages
#   TESSERA_TEST_STAGES=asan installer/test.sh   # only some of them (asan, tsan, fuzz;
#                                                # also ci, debug, release)
# One build of everything, not a release build and a sanitizer build: on CI's
# two cores each cold build of everything costs 20 minutes or more.
set -euo pipefail

REPO="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

JOBS="${TESSERA_JOBS:-2}"
STAGES="${TESSERA_TEST_STAGES:-asan tsan fuzz}"
LOGDIR="$REPO/build/test-logs"
export QT_QPA_PLATFORM=offscreen
# Sanitizer settings for the asan stage (the asan test preset sets the same and
# appends anything already in the environment).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

log() { printf '\n[test] %s\n' "$*"; }
SUMMARY=() # one line per stage, printed at exit
DETAILS=() # lines a stage wants shown under its own summary line

finish() {
    local rc=$?
    printf '\n[test] ================ summary ================\n'
    local line
    for line in "${SUMMARY[@]}"; do
        printf '[test] %s\n' "$line"
    done
    if [[ $rc -eq 0 ]]; then
        printf '[test] ALL STAGES PASSED\n'
    else
        printf '[test] FAILED (exit %d) - see the stage marked FAILED above; logs in %s\n' \
            "$rc" "$LOGDIR"
    fi
}
trap finish EXIT

# run_stage NAME COMMAND...: runs a step, records it in the summary, stops on failure.
run_stage() {
    local name="$1"
    shift
    log ">>> stage: $name"
    local start=$SECONDS
    DETAILS=()
    if "$@"; then
        SUMMARY+=("ok      $name ($((SECONDS - start)) s)" "${DETAILS[@]}")
    else
        local rc=$?
        SUMMARY+=("FAILED  $name (exit $rc)" "${DETAILS[@]}")
        printf '\n[test] !!! stage FAILED: %s (exit %d)\n' "$name" "$rc" >&2
        exit "$rc"
    fi
}

# run_ctest PRESET: runs ctest with the test preset, keeps a log, and puts its
# summary lines into the final summary.
run_ctest() {
    local preset="$1"
    local logfile="$LOGDIR/ctest-$preset.log"
    local rc=0
    ctest --preset "$preset" 2>&1 | tee "$logfile" || rc=$?
    local line
    while IFS= read -r line; do
        DETAILS+=("        $line")
    done < <(grep -E 'tests passed|tests failed out of|Total Test time|\(Failed\)|\(Timeout\)|\(SEGFAULT\)|\(Subprocess aborted\)|\(Not Run\)|No tests were found' "$logfile" || true)
    return "$rc"
}

run_stage "dependencies (installer/install-deps.sh)" bash "$REPO/installer/install-deps.sh"
mkdir -p "$LOGDIR"

for preset in $STAGES; do
    case "$preset" in
        ci | asan | tsan | fuzz | debug | release) ;;
        *) echo "[test] unknown stage '$preset' (use ci, asan, tsan, fuzz, debug or release)" >&2; exit 2 ;;
    esac
    run_stage "$preset: configure" cmake --preset "$preset"
    run_stage "$preset: build" cmake --build --preset "$preset" -j "$JOBS"
    run_stage "$preset: test" run_ctest "$preset"
done
