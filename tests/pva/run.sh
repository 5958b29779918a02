#!/usr/bin/env bash
# libpva tests (tests/pva/CMakeLists.txt): scripts a PopVision user writes,
# run against reports Tessera's SDK writes.
#
#   run.sh STAGE --sdk SDK_DIR --cli TESSERA_CLI --work DIR [--python PYTHON]
#
# capture    build pipeline.cpp with g++ -lpoplar -lpva after sourcing
#            enable.sh, run it with autoReport on: its output (blocks from
#            engine.getReport()) must equal expected_pipeline.txt and the
#            report must be at reports/pipeline/profile.pop
# lightweight lightweight.cpp: profiler.programs.filter, implicitFlush false
#            and a small buffer (an overflow block), a bad regular expression,
#            getReport(false)
# visitor    visitor.cpp: a program tree built by hand, visited with the
#            per-type classes; each loop iteration's steps; blocks of loops
#            in loops (expected_visitor_{tree,steps,blocks}.txt)
# visitor_python visitor.py: the same tree and steps from Python
# cpp        report_summary.cpp (C++ libpva) on that report, against
#            tessera-cli summary --json and expected_summary.txt
# python     report_summary.py, the same in Python
# plot       plot_memory.py: memory by tile to a PNG with matplotlib
# blocks     blocks.py: the blocks read back from the file equal getReport's
# unreadable a file that is not a Tessera report (as a real PopVision
#            profile.pop is not): one clear error naming it, from C++ and Python
# Stages after capture use the capture's work directory.
set -euo pipefail
stage="$1"; shift
sdk= cli= work= python=
while [[ $# -gt 0 ]]; do
    case "$1" in
        --sdk) sdk="$2"; shift 2 ;;
        --cli) cli="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --python) python="$2"; shift 2 ;;
        *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC1091
source "$sdk/enable.sh"
report="$work/reports/pipeline/profile.pop"
# --python: the interpreter the pva module was built for (none: the build has
# no module, and the stages that import it are not run)
have_module=0
[[ -n "$python" ]] && have_module=1
python="${python:-python3}"

compare() { # compare EXPECTED ACTUAL
    if ! diff -u "$1" "$2"; then
        echo "output differs from $1" >&2
        exit 1
    fi
}

case "$stage" in
capture)
    rm -rf "$work"
    mkdir -p "$work"
    cd "$work"
    export TESSERA_CODELET_CACHE="$work/codelet-cache"
    cp "$here/pipeline.cpp" "$here/pipeline_codelets.cpp" .
    # shellcheck disable=SC2086
    g++ --std=c++11 ${TESSERA_TEST_CXXFLAGS:-} pipeline.cpp -lpoplar -lpva -o pipeline
    POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"reports"}' \
        ./pipeline > pipeline.txt
    compare "$here/expected_pipeline.txt" pipeline.txt
    test -f reports/pipeline/profile.pop || { echo "no reports/pipeline/profile.pop" >&2; exit 1; }
    test ! -e reports/profile.pop || { echo "unnamed report written too" >&2; exit 1; }
    ;;
lightweight)
    mkdir -p "$work/lightweight"
    cd "$work/lightweight"
    export TESSERA_CODELET_CACHE="$work/codelet-cache"
    cp "$here/lightweight.cpp" "$here/pipeline_codelets.cpp" .
    # shellcheck disable=SC2086
    g++ --std=c++11 ${TESSERA_TEST_CXXFLAGS:-} lightweight.cpp -lpoplar -lpva -o lightweight
    ./lightweight > lightweight.txt
    compare "$here/expected_lightweight.txt" lightweight.txt
    ;;
visitor)
    mkdir -p "$work/visitor"
    cd "$work/visitor"
    export TESSERA_CODELET_CACHE="$work/codelet-cache"
    cp "$here/visitor.cpp" "$here/pipeline_codelets.cpp" .
    # shellcheck disable=SC2086
    g++ --std=c++11 ${TESSERA_TEST_CXXFLAGS:-} visitor.cpp -lpoplar -lpva -o visitor
    POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"reports"}' \
        ./visitor > capture.txt
    echo "output: 4096" | compare - capture.txt
    for what in tree steps blocks; do
        ./visitor "$what" reports/visitor/profile.pop > "$what.txt"
        compare "$here/expected_visitor_$what.txt" "$what.txt"
    done
    ;;
visitor_python)
    cd "$work/visitor"
    for what in tree steps; do
        "$python" "$here/visitor.py" "$what" reports/visitor/profile.pop > "${what}_py.txt"
        compare "$here/expected_visitor_$what.txt" "${what}_py.txt"
    done
    ;;
cpp)
    cd "$work"
    # shellcheck disable=SC2086
    g++ --std=c++11 ${TESSERA_TEST_CXXFLAGS:-} "$here/report_summary.cpp" -lpva -o report_summary
    ./report_summary "$report" > summary_cpp.txt
    cat summary_cpp.txt
    "$python" "$here/check_summary.py" "$cli" "$report" summary_cpp.txt "$here/expected_summary.txt"
    ;;
python)
    cd "$work"
    "$python" "$here/report_summary.py" "$report" > summary_py.txt
    cat summary_py.txt
    "$python" "$here/check_summary.py" "$cli" "$report" summary_py.txt "$here/expected_summary.txt"
    if [[ -f summary_cpp.txt ]]; then
        compare summary_cpp.txt summary_py.txt
    fi
    ;;
plot)
    cd "$work"
    rm -f memory.png
    "$python" "$here/plot_memory.py" "$report" memory.png > plot.txt
    cat plot.txt
    test -s memory.png
    "$python" "$here/check_summary.py" "$cli" "$report" plot.txt "$here/expected_plot.txt" --partial
    ;;
blocks)
    cd "$work"
    "$python" "$here/blocks.py" "$report" 4 > blocks.txt
    compare "$here/expected_blocks.txt" blocks.txt
    ;;
unreadable)
    cd "$work"
    mkdir -p unreadable
    printf 'PopVision profile data, not SQLite\n' > unreadable/profile.pop
    if ./report_summary unreadable/profile.pop > /dev/null 2> cpp_error.txt; then
        echo "report_summary opened a file that is not a report" >&2
        exit 1
    fi
    errors=(cpp_error.txt)
    if [[ $have_module -eq 1 ]]; then
        "$python" "$here/unreadable.py" unreadable/profile.pop > py_error.txt
        errors+=(py_error.txt)
    fi
    for f in "${errors[@]}"; do
        cat "$f"
        [[ $(wc -l < "$f") -eq 1 ]] || { echo "$f: not one line" >&2; exit 1; }
        grep -q "unreadable/profile.pop: not a Tessera report" "$f"
        grep -q "PopVision" "$f"
    done
    ;;
*)
    echo "run.sh: unknown stage '$stage'" >&2
    exit 2
    ;;
esac
