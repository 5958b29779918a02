#!/usr/bin/env bash
# Builds the release preset and packages it with CPack: a .deb (dependencies
# computed by dpkg-shlibdeps) and a .tar.gz, both in build/release/.
#
#   installer/package.sh
#   sudo apt install ./build/release/tessera_*.deb
set -euo pipefail

REPO="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

log() { printf '[package] %s\n' "$*"; }
fail() { printf '[package] FAILED: %s\n' "$*" >&2; exit 1; }

bash "$REPO/installer/install-deps.sh" || fail "installing dependencies"
log "configuring and building (preset: release)"
cmake --preset release || fail "cmake configure (preset release)"
cmake --build --preset release -j "${TESSERA_JOBS:-2}" || fail "build (preset release)"

log "packaging (cpack --preset release)"
LOG="$REPO/build/release/cpack.log"
cpack --preset release 2>&1 | tee "$LOG" || fail "cpack (see $LOG)"

mapfile -t PACKAGES < <(sed -n 's/^CPack: - package: \(.*\) generated\.$/\1/p' "$LOG")
[[ ${#PACKAGES[@]} -gt 0 ]] || fail "cpack reported no package (see $LOG)"
echo
log "packages:"
for pkg in "${PACKAGES[@]}"; do
    printf '  %s\n' "$pkg"
done
for pkg in "${PACKAGES[@]}"; do
    if [[ "$pkg" == *.deb ]]; then
        echo
        log "install with: sudo apt install $pkg"
        dpkg-deb --field "$pkg" Package Version Depends
    fi
done
