#!/usr/bin/env bash
# Configures, builds and runs cmake-consumer/ (a Poplar program's own CMake
# project) against an SDK directory, and compares the program's output with an
# expected file. Nothing from enable.sh is in the environment (unless asked
# for), so the program compiles, links and runs only through what CMake found;
# the test also checks that CMake found the files of this SDK directory.
#
#   cmake_consumer.sh --sdk DIR --work DIR --source DIR --expected FILE
#       --cmake CMAKE --generator GEN --cxx COMPILER
#       --find paths   --root-from env|var          POPLAR_ROOT=<sdk>
#     | --find package --package-from prefix|dirs|enable
#                                 CMAKE_PREFIX_PATH=<sdk>, poplar_DIR + poplibs_DIR (+ gcl_DIR, pva_DIR),
#                                 or <sdk>/enable.sh sourced (<sdk>/bin on PATH)
# TESSERA_TEST_CXXFLAGS adds compiler flags (the sanitizer build needs them).
set -euo pipefail

sdk='' work='' source='' expected='' cmake=cmake generator='' cxx=c++ find='' from=''
while [[ $# -gt 0 ]]; do
    case "$1" in
        --sdk) sdk="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --source) source="$2"; shift 2 ;;
        --expected) expected="$2"; shift 2 ;;
        --cmake) cmake="$2"; shift 2 ;;
        --generator) generator="$2"; shift 2 ;;
        --cxx) cxx="$2"; shift 2 ;;
        --find) find="$2"; shift 2 ;;
        --root-from | --package-from) from="$2"; shift 2 ;;
        *) echo "cmake_consumer.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH CMAKE_PREFIX_PATH \
      POPLAR_SDK_ENABLED TESSERA_POPLAR_INCLUDE POPLAR_ROOT poplar_DIR poplibs_DIR gcl_DIR pva_DIR
rm -rf "$work"
mkdir -p "$work"
cd "$work"

args=(-S "$source" -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx"
      -DCMAKE_CXX_FLAGS="${TESSERA_TEST_CXXFLAGS:-}" -DPOPLAR_FIND="$find")
if [[ -n "$generator" ]]; then
    args+=(-G "$generator")
fi
declare -A want # cache entry -> the path it must hold
case "$find/$from" in
    paths/env) export POPLAR_ROOT="$sdk" ;;
    paths/var) args+=(-DPOPLAR_ROOT="$sdk") ;;
    package/prefix) args+=(-DCMAKE_PREFIX_PATH="$sdk") ;;
    package/dirs) args+=(-Dpoplar_DIR="$sdk/lib/cmake/poplar" -Dpoplibs_DIR="$sdk/lib/cmake/poplibs"
                         -Dgcl_DIR="$sdk/lib/cmake/gcl" -Dpva_DIR="$sdk/lib/cmake/pva") ;;
    package/enable)
        # shellcheck disable=SC1091
        source "$sdk/enable.sh"
        ;;
    *) echo "cmake_consumer.sh: need --find paths --root-from env|var or --find package --package-from prefix|dirs|enable" >&2
       exit 2 ;;
esac
if [[ "$find" == paths ]]; then
    want=([POPLAR_INCLUDE_DIR]="$sdk/include" [POPLAR_LIB]="$sdk/lib/libpoplar.so"
          [POPOPS_LIB]="$sdk/lib/libpopops.so" [PVA_LIB]="$sdk/lib/libpva.so")
else
    want=([poplar_DIR]="$sdk/lib/cmake/poplar" [poplibs_DIR]="$sdk/lib/cmake/poplibs"
          [gcl_DIR]="$sdk/lib/cmake/gcl" [pva_DIR]="$sdk/lib/cmake/pva")
fi

if ! "$cmake" "${args[@]}" > configure.txt 2>&1; then
    cat configure.txt >&2
    echo "the consumer project did not configure (--find $find, --*-from $from)" >&2
    exit 1
fi
for entry in "${!want[@]}"; do
    found=$(sed -n "s/^${entry}:[A-Z]*=//p" build/CMakeCache.txt)
    if [[ -z "$found" || "$(realpath -m "$found")" != "$(realpath -m "${want[$entry]}")" ]]; then
        echo "CMake found $entry='$found', not ${want[$entry]}" >&2
        exit 1
    fi
done
if ! "$cmake" --build build > build.txt 2>&1; then
    cat build.txt >&2
    echo "the consumer project did not build" >&2
    exit 1
fi

# The program finds libpoplar and libpva through the RUNPATH CMake gave it:
# this SDK's.
for lib in libpoplar libpva; do
    loaded=$(ldd build/add_tensors | sed -n "s/^[[:space:]]*$lib\\.so => \\([^ ]*\\).*/\\1/p")
    if [[ "$(realpath -m "$loaded")" != "$(realpath "$sdk/lib/$lib.so")" ]]; then
        echo "add_tensors loads $lib.so from '$loaded', not from $sdk/lib" >&2
        exit 1
    fi
done

status=0
./build/add_tensors > stdout.txt 2> stderr.txt || status=$?
if [[ $status -ne 0 ]]; then
    echo "add_tensors exited with status $status; stderr:" >&2
    cat stderr.txt >&2
    exit 1
fi
if ! diff -u "$expected" stdout.txt; then
    echo "output differs from $expected (above: - expected, + actual)" >&2
    exit 1
fi
echo "ok: --find $find ($from), $sdk"
