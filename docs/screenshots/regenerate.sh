#!/usr/bin/env bash
# Regenerates the README's screenshots from freshly captured reports, headless:
#   docs/screenshots/regenerate.sh [BUILD_DIR]   (default build/ci)
# One mlp-train report on mk2 for the single panes (the Debugger runs its own
# workload); two elementwise reports that differ only in their tile grain for
# the compare panes, as in the README's compare example.
set -euo pipefail
REPO="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$REPO/build/ci}"
CLI="$BUILD/app/tessera-cli"
GUI="$BUILD/app/tessera"
OUT="$REPO/docs/screenshots"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM=offscreen

"$CLI" capture mlp-train --target mk2 -o "$WORK/mlp.tsr" > /dev/null
for pane in summary memory liveness program execution program/dataflow program/operations; do
    "$GUI" "$WORK/mlp.tsr" --pane "$pane" --size 1400x900 \
        --screenshot "$OUT/${pane//\//-}.png"
done
"$GUI" --pane debug --workload mlp-train --break sgd/w1 --inspect w1 --size 1400x900 \
    --screenshot "$OUT/debug.png"

"$CLI" capture elementwise --set n=4096 --set grain=8 -o "$WORK/before.tsr" > /dev/null
"$CLI" capture elementwise --set n=4096 --set grain=1024 -o "$WORK/after.tsr" > /dev/null
for pane in summary memory liveness program execution; do
    "$GUI" "$WORK/before.tsr" --compare "$WORK/after.tsr" --pane "$pane" --size 1400x900 \
        --screenshot "$OUT/compare-$pane.png"
done
