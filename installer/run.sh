#!/usr/bin/env bash
# README command 1: install what is missing, build the release preset, capture the
# demo workload (matmul) into a report and open it in the GUI. With no display it
# prints the report's summary instead and says where the report is.
#
#   installer/run.sh [REPORT.tsr]
#
# The report goes to $1, else $TESSERA_DEMO_OUT, else <repo>/build/demo/matmul.tsr.
set -euo pipefail

REPO="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '[run] %s\n' "$*"; }
fail() { printf '[run] FAILED: %s\n' "$*" >&2; exit 1; }

OUT="${1:-${TESSERA_DEMO_OUT:-$REPO/build/demo/matmul.tsr}}"
case "$OUT" in
    /*) ;;
    *) OUT="$PWD/$OUT" ;; # relative to where the user ran the script
esac
cd "$REPO"

log "checking dependencies"
bash "$REPO/installer/install-deps.sh" || fail "installing dependencies"

log "configuring and building the GUI and the CLI (preset: release)"
cmake --preset release || fail "cmake configure (preset release)"
# Only what this script runs: the test suites and the Poplar SDK are built by
# installer/test.sh or a plain 'cmake --build --preset release'.
targets=(tessera-cli)
if grep -q '^TESSERA_BUILD_GUI:BOOL=ON' "$REPO/build/release/CMakeCache.txt"; then
    targets+=(tessera)
fi
cmake --build --preset release -j "${TESSERA_JOBS:-2}" --target "${targets[@]}" ||
    fail "build (preset release: ${targets[*]})"

CLI="$REPO/build/release/app/tessera-cli"
GUI="$REPO/build/release/app/tessera"
[[ -x "$CLI" ]] || fail "$CLI was not built"

mkdir -p "$(dirname -- "$OUT")"
log "capturing the matmul workload into $OUT"
"$CLI" capture matmul -o "$OUT" || fail "tessera-cli capture matmul"

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]] && [[ -x "$GUI" ]]; then
    log "opening $OUT in Tessera"
    exec "$GUI" "$OUT"
fi

"$CLI" summary "$OUT" || fail "tessera-cli summary"
echo
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
    log "the GUI was not built (TESSERA_BUILD_GUI=OFF?): summary printed instead"
else
    log "No display: report written to $OUT"
fi
log "open it later with: $GUI $OUT"
log "or inspect it with:  $CLI summary $OUT"
