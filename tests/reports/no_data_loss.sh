#!/usr/bin/env bash
# Nothing lost on a full disk: every writer of tessera-cli (and the GUI's
# --screenshot, when built) is run against a real full file system - a tiny
# tmpfs mounted in a private user and mount namespace, so no root is needed -
# and must fail with one line saying "disk full", leave the previous output
# byte for byte as it was and leave no temporary behind.
#
# And the GUI's --screenshot never writes over the report it shows.
#
#   no_data_loss.sh CLI [GUI]
# Exit 77 (skipped) where user namespaces are not allowed.
set -euo pipefail
CLI="$1"
GUI="${2:-}"

if [[ "${TESSERA_IN_NAMESPACE:-}" != 1 ]]; then
    if ! unshare --user --map-root-user --mount true 2>/dev/null; then
        echo "user namespaces are not available here: skipped"
        exit 77
    fi
    exec env TESSERA_IN_NAMESPACE=1 unshare --user --map-root-user --mount bash "$0" "$@"
fi

work="$(mktemp -d)"
trap 'umount "$work/full" 2>/dev/null || true; rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# An input report on a healthy file system.
"$CLI" capture elementwise --target tiles:4 --set n=256 -q -o "$work/in.tsr"

mkdir "$work/full"
mount -t tmpfs -o size=256k tmpfs "$work/full"
full="$work/full"
echo "previous trace" >"$full/trace.json"
mkdir "$full/csv"
echo "previous tiles" >"$full/csv/tiles.csv"
cp "$full/trace.json" "$work/trace.before"
cp "$full/csv/tiles.csv" "$work/tiles.before"
# Fill what is left.
dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null || true

# expect_disk_full NAME COMMAND...: exit 2 (1 for capture's own convention is
# not allowed here), exactly one error line, and it says "disk full".
expect_disk_full() {
    local name="$1"
    shift
    local rc=0
    "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
    [[ $rc -eq 2 ]] || fail "$name: exit $rc (stderr: $(cat "$work/err.txt"))"
    # One error line (Qt may add its own warnings for the GUI).
    local errors
    errors="$(grep -E '^tessera(-cli)?: error: ' "$work/err.txt" || true)"
    [[ $(printf '%s\n' "$errors" | grep -c .) -eq 1 ]] || fail "$name: not one error line: $(cat "$work/err.txt")"
    grep -q "disk full" <<<"$errors" || fail "$name: does not say disk full: $errors"
    if [[ "$name" != gui* ]]; then
        [[ $(wc -l <"$work/err.txt") -eq 1 ]] || fail "$name: stderr is not one line: $(cat "$work/err.txt")"
    fi
    echo "ok: $name: $errors"
}

# Only the files this script put there may be on the full disk.
no_temporaries() {
    local left
    left="$(cd "$full" && find . -mindepth 1 | grep -vxE '\./(trace\.json|csv|csv/tiles\.csv|filler|pane\.png)' || true)"
    [[ -z "$left" ]] || fail "$1: files left behind: $left"
}

expect_disk_full "export chrome-trace" "$CLI" export "$work/in.tsr" --format chrome-trace -o "$full/trace.json"
cmp -s "$full/trace.json" "$work/trace.before" || fail "export chrome-trace changed the previous trace"
no_temporaries "export chrome-trace"

expect_disk_full "export csv" "$CLI" export "$work/in.tsr" --format csv -o "$full/csv"
cmp -s "$full/csv/tiles.csv" "$work/tiles.before" || fail "export csv changed the previous tiles.csv"
[[ $(find "$full/csv" -type f | wc -l) -eq 1 ]] || fail "export csv left files: $(ls "$full/csv")"
no_temporaries "export csv"

expect_disk_full "capture" "$CLI" capture elementwise --target tiles:4 --set n=256 -q -o "$full/new.tsr"
[[ ! -e "$full/new.tsr" ]] || fail "capture left a report on a full disk"
grep -q "$full/new.tsr: cannot write: disk full" "$work/err.txt" || fail "capture does not name its report"
no_temporaries "capture"

# Standard output on a full device.
for args in "summary $work/in.tsr" "summary $work/in.tsr --json" "workloads" "workloads --json" \
    "diff $work/in.tsr $work/in.tsr --json"; do
    rc=0
    # shellcheck disable=SC2086
    "$CLI" $args >/dev/full 2>"$work/err.txt" || rc=$?
    [[ $rc -eq 2 ]] || fail "$args > /dev/full: exit $rc"
    grep -q "cannot write to standard output: disk full" "$work/err.txt" ||
        fail "$args > /dev/full: $(cat "$work/err.txt")"
    echo "ok: $args > /dev/full"
done

if [[ -n "$GUI" ]]; then
    echo "previous png" >"$work/png.before"
    rm -f "$full/filler"
    cp "$work/png.before" "$full/pane.png"
    dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null || true
    expect_disk_full "gui --screenshot" env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" XDG_CONFIG_HOME="$work/config" "$GUI" "$work/in.tsr" \
        --pane summary --screenshot "$full/pane.png"
    cmp -s "$full/pane.png" "$work/png.before" || fail "--screenshot changed the previous PNG"
    no_temporaries "gui --screenshot"
fi
if [[ -n "$GUI" ]]; then
    cp "$work/in.tsr" "$work/in.before"
    ln -s "$work/in.tsr" "$work/link.tsr"
    for target in "$work/in.tsr" "$work/link.tsr"; do
        rc=0
        env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" XDG_CONFIG_HOME="$work/config" "$GUI" "$work/in.tsr" --pane summary \
            --screenshot "$target" >/dev/null 2>"$work/err.txt" || rc=$?
        [[ $rc -eq 2 ]] || fail "--screenshot over its report: exit $rc"
        grep -q "refusing to write over it" "$work/err.txt" || fail "--screenshot: $(cat "$work/err.txt")"
        cmp -s "$work/in.tsr" "$work/in.before" || fail "--screenshot changed the report"
        echo "ok: gui --screenshot $target refused"
    done
fi
echo "all writers failed cleanly and lost nothing"
