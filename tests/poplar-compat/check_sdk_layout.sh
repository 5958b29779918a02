#!/usr/bin/env bash
# The SDK directory is self-contained and laid out as Poplar's SDK is, and it
# still works when copied elsewhere:
#   1. enable.sh, include/ (every header of the source include/, identical, no
#      others), lib/ (the five libraries, libpva, the CMake package files),
#      bin/popc, python/ (with the pva module when the build has it);
#   2. no text file names an absolute path, and the binaries' RUNPATH is
#      relative ($ORIGIN);
#   3. a copy of the directory, its enable.sh sourced, sets CPATH, LIBRARY_PATH,
#      LD_LIBRARY_PATH, PATH, PYTHONPATH and POPLAR_SDK_ENABLED to the copy's
#      own folders; popc and a program built with plain g++ run from the copy
#      and the program prints the expected output; sourcing it prints nothing
#      on stderr;
#   4. an SDK directory whose libraries are not built yet (the build writes
#      enable.sh when it configures) says so on stderr when its enable.sh is
#      sourced, and still sets the variables.
#
#   check_sdk_layout.sh SDK SOURCE_INCLUDE PROGRAM EXPECTED CODELETS WORK
# TESSERA_TEST_CXXFLAGS adds compiler flags (the sanitizer build needs them).
set -euo pipefail
sdk="$1" source_include="$2" program="$3" expected="$4" codelets="$5" work="$6"
failed=0
fail() {
    echo "FAILED: $*" >&2
    failed=1
}

# 1. The layout.
libs=(poplar popops poplin poputil popnn poprand popfloat gcl)
required=(enable.sh include/poplar/IPUModel.hpp include/poplar/Vertex.hpp bin/popc
          lib/cmake/poplar/poplar-config.cmake lib/cmake/poplar/poplar-config-version.cmake
          lib/cmake/poplibs/poplibs-config.cmake lib/cmake/poplibs/poplibs-config-version.cmake
          lib/libpva.so include/pva/pva.hpp include/popfloat/experimental/CastToGfloat.hpp
          lib/cmake/gcl/gcl-config.cmake lib/cmake/gcl/gcl-config-version.cmake
          lib/cmake/pva/pva-config.cmake lib/cmake/pva/pva-config-version.cmake)
for lib in "${libs[@]}"; do
    required+=("lib/lib$lib.so")
    if [[ $lib != poplar ]]; then
        required+=("lib/cmake/$lib/$lib-targets.cmake")
    fi
done
for f in "${required[@]}"; do
    [[ -f "$sdk/$f" ]] || fail "$sdk/$f is missing"
done
[[ -d "$sdk/python" ]] || fail "$sdk/python/ is missing"
while IFS= read -r -d '' header; do
    rel="${header#"$source_include"/}"
    if [[ ! -f "$sdk/include/$rel" ]]; then
        fail "include/$rel is not in the SDK directory"
    elif ! cmp -s "$header" "$sdk/include/$rel"; then
        fail "include/$rel in the SDK directory differs from $header (rebuild copies it)"
    fi
done < <(find "$source_include" -type f -print0)
while IFS= read -r -d '' copy; do
    rel="${copy#"$sdk/include"/}"
    [[ -f "$source_include/$rel" ]] || fail "include/$rel in the SDK directory has no source header"
done < <(find "$sdk/include" -type f -print0)

# 2. Nothing outside the directory is named.
if hits=$(grep -rlF -e "$sdk" -e "$source_include" "$sdk/enable.sh" "$sdk/lib/cmake"); then
    fail "these files name absolute paths: $hits"
fi
for bin in "$sdk"/lib/lib*.so "$sdk/bin/popc" "$sdk"/python/*.so; do
    [[ -e "$bin" ]] || continue # python/*.so: no module in this build
    runpath=$(readelf -d "$bin" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p')
    case "$runpath" in
        "\$ORIGIN" | "\$ORIGIN/../lib") ;;
        *) fail "$bin has RUNPATH '$runpath', not relative to itself" ;;
    esac
done

# 3. A copy works on its own.
rm -rf "$work"
mkdir -p "$work/elsewhere"
cp -a "$sdk" "$work/elsewhere/sdk"
moved="$work/elsewhere/sdk"
cp "$codelets" "$work/codelets.cpp"
(
    unset CPATH LIBRARY_PATH LD_LIBRARY_PATH PYTHONPATH POPLAR_SDK_ENABLED TESSERA_POPLAR_INCLUDE
    cd "$work"
    # shellcheck disable=SC1091
    source "$moved/enable.sh" 2> "$work/enable-stderr.txt"
    [[ ! -s "$work/enable-stderr.txt" ]] ||
        fail "sourcing the copy's enable.sh printed on stderr: $(cat "$work/enable-stderr.txt")"
    check_var() { # name expected-value
        [[ "${!1}" == "$2" ]] || fail "after sourcing the copy's enable.sh, $1='${!1}', not '$2'"
    }
    check_var CPATH "$moved/include"
    check_var LIBRARY_PATH "$moved/lib"
    check_var LD_LIBRARY_PATH "$moved/lib"
    check_var PYTHONPATH "$moved/python"
    check_var POPLAR_SDK_ENABLED "$moved"
    [[ "${PATH%%:*}" == "$moved/bin" ]] || fail "PATH starts with '${PATH%%:*}', not $moved/bin"
    [[ "$(command -v popc)" == "$moved/bin/popc" ]] || fail "popc is '$(command -v popc)'"

    # The binaries find the copy's libpoplar without LD_LIBRARY_PATH.
    for bin in "$moved/bin/popc" "$moved"/lib/lib{popops,poplin,poputil,popnn,poprand,popfloat,gcl}.so; do
        loaded=$(env -u LD_LIBRARY_PATH ldd "$bin" | sed -n 's/^[[:space:]]*libpoplar\.so => \([^ ]*\).*/\1/p')
        [[ "$(realpath -m "$loaded")" == "$(realpath "$moved/lib/libpoplar.so")" ]] ||
            fail "$bin loads libpoplar.so from '$loaded', not from the copy"
    done
    # popc finds the copy's headers by itself (no TESSERA_POPLAR_INCLUDE).
    export TESSERA_CODELET_CACHE="$work/codelet-cache"
    if ! env -u TESSERA_POPLAR_INCLUDE popc codelets.cpp -o codelets.gp > popc.txt 2>&1; then
        cat popc.txt >&2
        fail "popc of the copy did not compile $codelets"
    fi
    # shellcheck disable=SC2086
    if ! g++ --std=c++11 ${TESSERA_TEST_CXXFLAGS:-} "$program" -lpoplar -lpopops -o prog; then
        fail "g++ did not build $program against the copy"
    elif ! ./prog > stdout.txt 2> stderr.txt; then
        cat stderr.txt >&2
        fail "the program built against the copy failed"
    elif ! diff -u "$expected" stdout.txt; then
        fail "the program built against the copy printed something else (- expected, + actual)"
    fi
    [[ $failed -eq 0 ]]
) || failed=1

# 4. Sourced before the build: a warning, and the variables all the same.
unbuilt="$work/unbuilt-sdk"
mkdir -p "$unbuilt"
cp "$sdk/enable.sh" "$unbuilt/"
(
    unset CPATH POPLAR_SDK_ENABLED
    # shellcheck disable=SC1091
    source "$unbuilt/enable.sh" 2> "$work/unbuilt-stderr.txt"
    grep -q "no libpoplar.so" "$work/unbuilt-stderr.txt" ||
        fail "sourcing an unbuilt SDK's enable.sh did not say it is unbuilt (stderr: $(cat "$work/unbuilt-stderr.txt"))"
    [[ "$POPLAR_SDK_ENABLED" == "$unbuilt" && "$CPATH" == "$unbuilt/include" ]] ||
        fail "an unbuilt SDK's enable.sh set POPLAR_SDK_ENABLED='$POPLAR_SDK_ENABLED', CPATH='$CPATH'"
    [[ $failed -eq 0 ]]
) || failed=1

if [[ $failed -ne 0 ]]; then
    exit 1
fi
echo "ok: $sdk is self-contained (${#required[@]} files, $(find "$sdk/include" -type f | wc -l) headers) and works when copied"
