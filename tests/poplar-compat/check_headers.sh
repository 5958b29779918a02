#!/usr/bin/env bash
# Every public compat header (poplar/*.hpp, print.h, the IPU builtins headers)
# compiles on its own (self-sufficient) as C++11 and C++20 with warnings as
# errors, and poplar/Engine.hpp brings in what Poplar's headers do (Graph,
# Program, <cstring>, <cassert>, <functional>, <cstdio>, <cstdlib>, <cmath>,
# <iomanip>, <map>, <sstream>, <memory>, <string>, <vector>, and <optional>
# from C++17).
#   check_headers.sh SDK/enable.sh INCLUDE_DIR WORK_DIR [STD...]
# STD: c++11, c++20 or both (the default); CTest runs one test a standard.
set -euo pipefail
# shellcheck disable=SC1090
source "$1"
include="$2"
work="$3"
shift 3
stds=("$@")
if [[ ${#stds[@]} -eq 0 ]]; then
    stds=(c++11 c++20)
fi
mapfile -t headers < <(find "$include" -type f \( -name '*.hpp' -o -name '*.h' -o -name 'ipu_*' \) | sort)
if [[ ${#headers[@]} -eq 0 ]]; then
    echo "FAILED: no headers under $include" >&2
    exit 1
fi
rm -rf "$work"
mkdir -p "$work"
cd "$work"
failed=0
for std in "${stds[@]}"; do
    for header in "${headers[@]}"; do
        rel="${header#"$include"/}"
        printf '#include <%s>\n#include <%s>\n' "$rel" "$rel" > one.cpp
        if ! g++ -std="$std" -Wall -Wextra -Wpedantic -Werror -fsyntax-only one.cpp 2> err.txt; then
            echo "FAILED: <$rel> alone with -std=$std:" >&2
            cat err.txt >&2
            failed=1
        fi
    done
done
cat > engine_brings.cpp <<'CPP'
#include <poplar/Engine.hpp>
int main() {
    char a[4] = {1, 2, 3, 4}, b[4];
    std::memcpy(b, a, sizeof a);
    assert(b[0] == 1);
    std::function<double(double)> f = [](double x) { return std::sqrt(std::abs(x)); };
    std::printf("%g\n", f(4.0));
    std::cout << std::setprecision(3) << std::atof("1.5") << "\n";
    poplar::Graph* g = nullptr;
    poplar::program::Sequence seq;
    (void)g;
    std::map<std::string, std::vector<int>> m;
    m["a"].push_back(1);
    std::ostringstream os;
    os << m["a"][0];
    std::unique_ptr<int> p(new int(2));
    std::shared_ptr<int> q = std::make_shared<int>(3);
#if __cplusplus >= 201703L
    std::optional<int> o = *p + *q;
    os << *o;
#endif
    return os.str().empty() ? 1 : 0;
}
CPP
for std in "${stds[@]}"; do
    if ! g++ -std="$std" -Wall -Wextra -Wpedantic -Werror -fsyntax-only engine_brings.cpp 2> err.txt; then
        echo "FAILED: poplar/Engine.hpp does not bring in the standard headers (-std=$std):" >&2
        cat err.txt >&2
        failed=1
    fi
done
if [[ $failed -ne 0 ]]; then
    exit 1
fi
echo "ok: ${#headers[@]} headers, ${stds[*]}"
