#!/usr/bin/env bash
# Renders `qipu stats --format html` of some records to a PNG with headless
# Chromium, to look at the page as a reader sees it.
#
# Usage: scripts/render-stats.sh OUT.png PATH... [-- QIPU]
#   OUT.png   the screenshot (the page is kept beside it, as OUT.html)
#   PATH...   what `qipu stats` reads (files, folders)
#   QIPU      the qipu binary (default: target/release/qipu, else target/debug/qipu)
#
# Needs Chromium (Debian: apt-get install -y chromium) and, for the Chinese
# text, a CJK font (fonts-noto-cjk). Window 1200 wide, 3600 high by default
# (HEIGHT=... to change it).
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
out=$(realpath -m "$1")
shift
paths=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    paths+=("$1")
    shift
done
qipu=""
if [ "${1:-}" = "--" ]; then
    qipu=${2:?a qipu binary after --}
elif [ -x target/release/qipu ]; then
    qipu=target/release/qipu
else
    qipu=target/debug/qipu
fi
page="${out%.png}.html"
# Exit code 1 says some game is illegal or unreadable: the page is written all the same.
status=0
"$qipu" stats "${paths[@]}" --format html -o "$page" --force || status=$?
if [ "$status" -gt 1 ]; then
    exit "$status"
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$profile" \
    --screenshot="$out" --window-size=1200,"${HEIGHT:-3600}" "file://$page" 2>/dev/null
echo "$out (from $page)"
