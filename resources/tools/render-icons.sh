#!/usr/bin/env bash
# Re-renders the PNG icons from resources/icons/tessera.svg. The PNGs are kept in
# the repository so building Tessera never needs Qt SVG; this tool does
# (Debian: qt6-svg-dev). Run from any directory after editing the SVG.
set -euo pipefail
HERE="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
ICONS="$HERE/../icons"
if ! pkg-config --exists Qt6Svg; then
    echo "render-icons: needs Qt SVG (sudo apt-get install qt6-svg-dev)" >&2
    exit 2
fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# shellcheck disable=SC2046 # word splitting of pkg-config output is intended
g++ -std=c++17 -O1 -fPIC -o "$TMP/render_icons" "$HERE/render_icons.cpp" \
    $(pkg-config --cflags --libs Qt6Svg Qt6Gui)
QT_QPA_PLATFORM=offscreen "$TMP/render_icons" "$ICONS/tessera.svg" "$ICONS" 16 32 48 64 128 256
