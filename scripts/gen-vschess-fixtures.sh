#!/bin/sh
# Generates fixtures/vschess/game-K.pfc (鹏飞 PFC) and game-K.dhj.txt
# (广东象棋网 DHJHtmlXQ) from fixtures/vschess/source.pgn with vschess
# (FastLight126/vschess, LGPL-3.0), an independent program: qipu writes the
# source games as DhtmlXQ, vschess reads them and writes each format with its
# own exporter, then reads every file back with its own reader and compares
# the moves and comments (scripts/gen-vschess-fixtures.mjs). It then checks
# qipu's PFC writer: the games written by `qipu convert --to pfc` must read in
# vschess as the same games. No vschess code is kept in the project: it is
# fetched into target/.
#
#   scripts/gen-vschess-fixtures.sh [VSCHESS_CHECKOUT]
#
# VSCHESS_CHECKOUT defaults to target/vschess, cloned from GitHub when absent.
set -eu
cd "$(dirname "$0")/.."
checkout=${1:-target/vschess}
if [ ! -f "$checkout/vschess/vschess.function.js" ]; then
    git clone --quiet https://github.com/FastLight126/vschess "$checkout"
fi
echo "vschess at $(git -C "$checkout" rev-parse HEAD 2>/dev/null || echo unknown)"
cargo build --quiet
out=fixtures/vschess
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
target/debug/qipu -q convert "$out/source.pgn" --to dhtmlxq -o "$tmp/source.dhtmlxq"
target/debug/qipu -q convert "$out/source.pgn" --to pfc -o "$tmp/pfc"
node scripts/gen-vschess-fixtures.mjs "$checkout/vschess/vschess.function.js" "$tmp/source.dhtmlxq" "$out" "$tmp/pfc"
