#!/usr/bin/env bash
# Installs the Debian packages Tessera needs to build, test and package, but only
# the ones that are missing. Safe to run repeatedly and from any directory.
#
#   installer/install-deps.sh            # install what is missing
#   installer/install-deps.sh --check    # only list what is missing (exit 1 if any)
#   TESSERA_SKIP_DEPS=1 installer/...    # skip this step entirely (e.g. non-Debian hosts)
set -euo pipefail

PACKAGES=(
    # toolchain and build
    build-essential cmake ninja-build pkg-config file dpkg-dev ccache
    # the one clang-format the tree is formatted with (tests/rules/check_format.sh)
    clang-format-14
    # Qt 6 Widgets, Qt Test, moc/rcc; libgl-dev for Qt6Gui's OpenGL headers
    qt6-base-dev qt6-base-dev-tools libgl-dev
    # plots, graph layout, the report format
    libqcustomplot-dev libboost-graph-dev libsqlite3-dev sqlite3
    # clang + its sanitizer/libFuzzer runtimes
    clang libclang-rt-14-dev
    # lld: the test presets link with it (several times faster than ld.bfd)
    lld
    # the workloads' host matrix products (dgemm) and tessera-bench's sgemm reference
    libopenblas-dev
    # libpva's Python module (pybind11) and the pva tests' plots
    pybind11-dev python3-dev python3-matplotlib
    # headless GUI tests: a font for text rendering, an X server for xvfb-run
    fonts-dejavu-core xvfb xauth
)

log() { printf '[install-deps] %s\n' "$*"; }

if [[ "${TESSERA_SKIP_DEPS:-0}" == "1" ]]; then
    log "TESSERA_SKIP_DEPS=1: skipping package installation"
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    log "dpkg-query not found: this script supports Debian 12 (bookworm) and derivatives."
    log "Install the equivalents of: ${PACKAGES[*]}"
    log "then rerun with TESSERA_SKIP_DEPS=1."
    exit 2
fi

is_installed() {
    [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == "installed" ]]
}

missing=()
for pkg in "${PACKAGES[@]}"; do
    if ! is_installed "$pkg"; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    log "all ${#PACKAGES[@]} required packages are installed"
    exit 0
fi

log "missing: ${missing[*]}"
if [[ "${1:-}" == "--check" ]]; then
    exit 1
fi

SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        log "not root and sudo is not available: install the packages above as root"
        exit 2
    fi
fi

export DEBIAN_FRONTEND=noninteractive
log "apt-get update"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
log "apt-get install ${missing[*]}"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"

still_missing=()
for pkg in "${missing[@]}"; do
    is_installed "$pkg" || still_missing+=("$pkg")
done
if [[ ${#still_missing[@]} -ne 0 ]]; then
    log "failed to install: ${still_missing[*]}"
    exit 1
fi
log "installed ${#missing[@]} package(s)"
