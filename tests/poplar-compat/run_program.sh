#!/usr/bin/env bash
# Builds a Poplar-style program the way a Poplar user does (source enable.sh,
# plain g++), runs it and compares its standard output with an expected file.
#
#   run_program.sh --enable SDK/enable.sh --work DIR --program prog.cpp
#                  --expected expected.txt [--libs "-lpoplar ..."] [--std c++11]
#                  [--copy FILE]... [--popc SRC:OUT]... [--env K=V]...
#                  [--check "COMMAND"]... [--filter SED-EXPR]
#
# --copy puts codelet sources next to the program (Poplar programs name them
# relative to the current directory); --popc precompiles one with popc first;
# --check runs a command in the work directory after the program (e.g. open
# the report it wrote); --filter edits the output before comparing (to drop
# lines whose numbers are the cycle model's, not the program's).
# TESSERA_TEST_CXXFLAGS adds compiler flags (the sanitizer build needs them).
set -euo pipefail

enable= work= program= expected= libs="-lpoplar" std="c++11" filter=
copies=() popcs=() envs=() checks=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --enable) enable="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --program) program="$2"; shift 2 ;;
        --expected) expected="$2"; shift 2 ;;
        --libs) libs="$2"; shift 2 ;;
        --std) std="$2"; shift 2 ;;
        --copy) copies+=("$2"); shift 2 ;;
        --popc) popcs+=("$2"); shift 2 ;;
        --env) envs+=("$2"); shift 2 ;;
        --check) checks+=("$2"); shift 2 ;;
        --filter) filter="$2"; shift 2 ;;
        *) echo "run_program.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

# shellcheck disable=SC1090
source "$enable"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export TESSERA_CODELET_CACHE="$work/codelet-cache"
for f in "${copies[@]}"; do
    cp "$f" .
done
for spec in "${popcs[@]}"; do
    popc "${spec%%:*}" -o "${spec##*:}"
done

# shellcheck disable=SC2086
g++ --std="$std" ${TESSERA_TEST_CXXFLAGS:-} "$program" $libs -o prog

status=0
env "${envs[@]}" ./prog > stdout.txt 2> stderr.txt || status=$?
if [[ $status -ne 0 ]]; then
    echo "program exited with status $status; stderr:" >&2
    cat stderr.txt >&2
    exit 1
fi
if [[ -n "$filter" ]]; then
    sed -E -i "$filter" stdout.txt
fi
if ! diff -u "$expected" stdout.txt; then
    echo "output differs from $expected (above: - expected, + actual)" >&2
    exit 1
fi
for c in "${checks[@]}"; do
    bash -c "$c"
done
echo "ok: $(basename "$program")"
