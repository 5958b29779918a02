#!/usr/bin/env bash
# Every C++ source, header and test is formatted as .clang-format says, by the
# one pinned clang-format: version 14, Debian's `clang-format-14` package
# (installer/install-deps.sh installs it). Other versions format some
# constructs differently, so the check refuses them rather than disagree.
# `clang-format-14 -i FILE` fixes a file. Lists the files that are not formatted.
set -uo pipefail
root="$1"
cd "$root" || exit 2
tool="${TESSERA_CLANG_FORMAT:-clang-format-14}"
if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is not installed (installer/install-deps.sh installs it)" >&2
    exit 1
fi
version="$("$tool" --version)"
if [[ "$version" != *"clang-format version 14."* ]]; then
    echo "$tool is not clang-format 14 ($version): the tree is formatted with version 14" >&2
    exit 1
fi
# One clang-format process over every file (one per file takes minutes on a
# busy machine); its diagnostics name each file that differs.
files=()
while IFS= read -r -d '' f; do
    files+=("$f")
done < <(find app engine reports views tests -path '*/build' -prune -o \
              \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) -print0)
out="$("$tool" --dry-run -Werror "${files[@]}" 2>&1)"
rc=$?
if [[ $rc -eq 0 ]]; then
    echo "${#files[@]} files formatted"
    exit 0
fi
bad="$(grep -oE '^[^:]+\.(cpp|h|hpp):[0-9]+:[0-9]+: error' <<<"$out" | cut -d: -f1 | sort -u)"
if [[ -z "$bad" ]]; then
    echo "$tool failed: $out" >&2
    exit 1
fi
sed 's/^/not formatted: /' <<<"$bad"
exit 1
