#!/bin/sh
# Checks the page of `qipu convert --to html` in headless Chromium: the board
# shown after ArrowRight x10 and x37, a click on a variation's move, the
# other keys, the flip and a game that stops at an illegal move, each read
# from the <use> elements on the board and compared with `qipu fen`; the FEN
# shown under the board (all six fields, against `qipu fen`) and its copy
# button, the variation marker and its way back, autoplay, and the search
# box over the games; and a game of variations nested 20,000 deep shown whole.
#
#   scripts/html-viewer-check.sh [WORKDIR]
#
# Needs Chromium (`apt-get install -y chromium` on Debian, as root) and Node;
# playwright-core is installed from npm into WORKDIR (default
# target/html-viewer-check), never into the repository. Screenshots are left
# in WORKDIR (viewer.png, viewer-stopped.png).
set -eu
cd "$(dirname "$0")/.."
work=${1:-target/html-viewer-check}
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
fixture=tests/data/html-viewer.pgn
# The page: game 2 is illegal, so convert exits 1; the page is written.
$qipu convert "$fixture" --to html --force -o "$work/viewer.html" 2>/dev/null || [ $? -eq 1 ]
# What qipu fen gives: placements (the FEN's first field) by game, line and ply.
$qipu fen --all-lines "$fixture" 2>/dev/null | awk -F'\t' '
    function placement(fen) { split(fen, f, " "); return f[1] }
    $2 == 1 && $3 == "0" { main[$4] = placement($6); fen[$4] = $6; if ($4 > last) last = $4 }
    $2 == 1 && $3 == "1" && $4 == 4 { variation = placement($6) }
    $2 == 1 && $3 == "1.1" && $4 == 4 { nested = placement($6) }
    $2 == 1 && $3 == "1.1" && $4 == 3 { before = placement($6); beforeFen = $6 }
    $2 == 2 && $3 == "0" { if ($4 >= stopped_ply) { stopped_ply = $4; stopped = placement($6) } }
    END {
        printf "{\"main\": ["
        for (i = 0; i <= last; i++) printf "%s\"%s\"", (i ? "," : ""), main[i]
        printf "], \"mainFen\": ["
        for (i = 0; i <= last; i++) printf "%s\"%s\"", (i ? "," : ""), fen[i]
        printf "], \"variation\": \"%s\", \"nested\": \"%s\", \"nestedBefore\": \"%s\", \"nestedBeforeFen\": \"%s\", \"stopped\": \"%s\"}\n", variation, nested, before, beforeFen, stopped
    }' >"$work/expected.json"
# A game of 20,000 variations nested one in another (each the alternative to the move after the
# one before: the horses out and back, the other horse's move as the alternative).
deep=20000
python3 - "$deep" >"$work/deep.pgn" <<'PY'
import sys
n = int(sys.argv[1])
cycle = ["h0g2", "h9g7", "g2h0", "g7h9"]
words = ['[Event "deep"]\n', cycle[0]]
for k in range(n):
    words += ["b0c2" if (k + 1) % 2 == 0 else "b9c7", "(", cycle[(k + 1) % 4]]
words += ["b0c2" if (n + 1) % 2 == 0 else "b9c7"] + [")"] * n + ["*"]
print(" ".join(words))
PY
$qipu convert "$work/deep.pgn" --to html --force -o "$work/deep.html" 2>/dev/null
PLAYWRIGHT_DIR=$work node scripts/html-viewer-check.mjs "$work/viewer.html" "$work/expected.json" "$work/viewer.png" \
    "$work/deep.html" "$deep"
