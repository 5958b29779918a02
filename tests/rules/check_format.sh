#!/usr/bin/env bash
# Every C++ source, header and test is formatted as .clang-format says
# (`clang-format -i FILE` fixes one). Lists the files that are not.
set -uo pipefail
root="$1"
cd "$root" || exit 2
if ! command -v clang-format >/dev/null 2>&1; then
    echo "clang-format is not installed (installer/install-deps.sh installs it)" >&2
    exit 1
fi
bad=0
while IFS= read -r -d '' f; do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f"
        bad=1
    fi
done < <(find app engine reports views tests -path '*/build' -prune -o \
              \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) -print0)
exit $bad
