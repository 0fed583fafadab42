#!/usr/bin/env bash
# Pictures of `qipu show` to look at: SVG diagrams of the start and of a
# middle-game position of a fixture game, each plain and flipped, drawn by
# Chromium, and the terminal board as tmux lays it out (coloured), captured
# and drawn too.
#
# Usage: scripts/render-check.sh OUTDIR [QIPU]
# Needs chromium and tmux (Debian: apt-get install chromium tmux; for CJK
# glyphs on a bare machine, fonts-noto-cjk). Writes into OUTDIR:
#   start.svg/.png, start-flip.svg/.png, middle.svg/.png, middle-flip.svg/.png
#   terminal.txt (plain), terminal.ansi (with colours), terminal.html/.png
# and fails when a row of the terminal board is not where it should be.
set -euo pipefail
out=${1:?usage: scripts/render-check.sh OUTDIR [QIPU]}
qipu=$(realpath "${2:-target/debug/qipu}")
game=$(dirname "$0")/../fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn
mkdir -p "$out"
out=$(cd "$out" && pwd)
profile=$(mktemp -d)
session=qipu-render-$$
trap 'rm -rf "$profile"; tmux kill-session -t "$session" 2>/dev/null || true' EXIT

shoot() { # FILE PNG WIDTH HEIGHT
    chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --hide-scrollbars --screenshot="$2" \
        --window-size="$3,$4" "$1" 2>/dev/null
}

"$qipu" show startpos --format svg -o "$out/start.svg" --force
"$qipu" show startpos --format svg --flip -o "$out/start-flip.svg" --force
"$qipu" show "$game" --game 1 --ply 30 --format svg -o "$out/middle.svg" --force
"$qipu" show "$game" --game 1 --ply 30 --format svg --flip --size 600 -o "$out/middle-flip.svg" --force
for name in start start-flip middle; do
    shoot "$out/$name.svg" "$out/$name.png" 450 551
done
shoot "$out/middle-flip.svg" "$out/middle-flip.png" 600 735

# The terminal board, as tmux (80 x 40) lays it out.
tmux new-session -d -s "$session" -x 80 -y 40 \
    "'$qipu' show '$game' --game 1 --ply 30 --color always; sleep 60"
sleep 2
tmux capture-pane -p -e -t "$session" > "$out/terminal.ansi"
tmux capture-pane -p -t "$session" > "$out/terminal.txt"
tmux kill-session -t "$session"

python3 - "$out" <<'EOF'
import html, re, sys, unicodedata
out = sys.argv[1]
plain = open(f"{out}/terminal.txt", encoding="utf-8").read().splitlines()

def columns(row):
    """Each character with the terminal column it starts at."""
    at, found = 0, []
    for c in row:
        found.append((at, c))
        at += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return found

# Every point, file number and file line four columns apart, from column 1.
board = [r for r in plain if r.strip()][:21]
for i, row in enumerate(board):
    starts = dict(columns(row))
    for f in range(9):
        c = starts.get(1 + 4 * f)
        if i == 10 and 0 < f < 8:
            continue  # the river
        if c is None or c in " ─":
            sys.exit(f"terminal row {i}: nothing starts at the column of file {f + 1}: {row!r}")

# The coloured capture as a page, each character in a box as wide as its
# terminal columns (10 pixels a column), to look at as the terminal lays it out.
sgr = {"1": "font-weight:bold", "30": "color:#000", "31": "color:#e33", "33": "color:#fc3",
       "43": "background:#fc3"}
text = open(f"{out}/terminal.ansi", encoding="utf-8").read()
parts, style = [], []
for piece in re.split(r"(\x1b\[[0-9;]*m)", text):
    m = re.fullmatch(r"\x1b\[([0-9;]*)m", piece)
    if m:
        codes = [c for c in m.group(1).split(";") if c]
        style = [] if codes in ([], ["0"]) else [sgr[c] for c in codes if c in sgr]
        continue
    for c in piece:
        if c == "\n":
            parts.append("<br>")
            continue
        wide = unicodedata.east_asian_width(c) in "WF"
        css = ";".join(style + [f"width:{20 if wide else 10}px"])
        parts.append(f'<span style="{css}">{html.escape(c)}</span>')
page = ("<!doctype html><meta charset=utf-8><style>span{display:inline-block;text-align:center;"
        "overflow:visible;white-space:pre;height:22px}</style>"
        "<body style='margin:8px;background:#1e1e1e;color:#ddd;"
        "font:16px/22px \"Noto Sans Mono CJK SC\",\"DejaVu Sans Mono\",monospace'>"
        + "".join(parts) + "</body>")
open(f"{out}/terminal.html", "w", encoding="utf-8").write(page)
EOF
shoot "$out/terminal.html" "$out/terminal.png" 400 560
echo "pictures in $out: start, start-flip, middle, middle-flip, terminal (.png)"
