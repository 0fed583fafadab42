#!/bin/sh
# Checks the page of `qipu explore INDEX --format html` in headless Chromium:
# the board shown at the start, after a click on the most played move, after
# ArrowLeft, ArrowRight and the back button, and on a move the page does not
# expand, each read from the <use> elements on the board and compared with
# the FEN `qipu explore --format json` gives for that position; the table's
# rows (move, games) against the same answer, the breadcrumb, and the command
# line the page offers for a position it does not expand.
#
#   scripts/html-explorer-check.sh [WORKDIR]
#
# Needs Chromium and Node as scripts/html-viewer-check.sh does; playwright-core
# is installed from npm into WORKDIR (default target/html-explorer-check), never
# into the repository. A screenshot is left in WORKDIR (explorer.png).
set -eu
cd "$(dirname "$0")/.."
work=${1:-target/html-explorer-check}
mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ ! -d "$work/node_modules/playwright-core" ]; then
    (cd "$work" && npm install --no-audit --no-fund --silent playwright-core@1 >/dev/null)
fi
# QIPU=PATH takes that binary (CI passes the one `cargo test` built); else a debug build.
qipu=${QIPU:-}
if [ -z "$qipu" ]; then
    cargo build --quiet
    qipu=target/debug/qipu
fi
index="$work/fixtures.qidx"
rm -rf "$index"
# Some fixtures are illegal games: the build exits 1 and indexes the rest.
$qipu index build fixtures -o "$index" 2>/dev/null || [ $? -eq 1 ]
$qipu explore "$index" --format html --force -o "$work/explorer.html"
QIPU=$qipu PLAYWRIGHT_DIR=$work node scripts/html-explorer-check.mjs "$work/explorer.html" "$index" "$work/explorer.png"
