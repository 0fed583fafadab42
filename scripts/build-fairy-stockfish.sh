#!/usr/bin/env bash
# Builds Fairy-Stockfish (fairy-stockfish/Fairy-Stockfish, GPL) for `qipu analyse` and
# scripts/engine-check.sh: target/engines/fairy-stockfish.
#
#   bash scripts/build-fairy-stockfish.sh [SOURCES]
#
# SOURCES is a checkout of fairy-stockfish/Fairy-Stockfish; without it the sources are cloned
# from GitHub into target/engines/src/fairy-stockfish. Nothing of the engine is committed.
# Xiangqi's 9x10 board is a "large board": the variant exists only in a largeboards=yes build.
# No network file is needed: the engine plays Xiangqi with its classical evaluation.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/target/engines
mkdir -p "$out/src"
if [ $# -ge 1 ]; then
  src=$(cd "$1" && pwd)
else
  src=$out/src/fairy-stockfish
  if [ ! -f "$src/src/Makefile" ]; then
    rm -rf "$src"
    git clone --depth 1 https://github.com/fairy-stockfish/Fairy-Stockfish "$src"
  fi
fi
[ -f "$src/src/variant.cpp" ] || { echo "build-fairy-stockfish: $src/src/variant.cpp is missing: not a Fairy-Stockfish checkout" >&2; exit 2; }
jobs=${JOBS:-2}
make -C "$src/src" -j"$jobs" build ARCH="${ARCH:-x86-64}" largeboards=yes
cp "$src/src/stockfish" "$out/fairy-stockfish"
# It must play Xiangqi: a depth-6 search from the start gives a move in its 1..10 ranks.
answer=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nisready\nposition startpos\ngo depth 6\n' \
  | timeout 60 "$out/fairy-stockfish" | grep -m1 '^bestmove' || true)
case $answer in
  "bestmove "[a-i][0-9]*) echo "built $out/fairy-stockfish (start position, depth 6: $answer)" ;;
  *) echo "build-fairy-stockfish: $out/fairy-stockfish does not play Xiangqi (answer: '$answer')" >&2; exit 1 ;;
esac
