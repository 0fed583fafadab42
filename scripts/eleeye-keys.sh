#!/usr/bin/env bash
# Writes fixtures/eleeye/keys.txt: ElephantEye's own Zobrist locks (lock0 lock1, hex) of the
# positions of the first 24 plies of two fixture games, computed by the engine's code, for
# tests/cli/eleeye_book.rs to check qipu's keys against. Needs the sources scripts/build-eleeye.sh
# fetched (target/eleeye/src) or their path as $1, and a built qipu ($QIPU, default
# target/debug/qipu). Only the numbers are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-target/eleeye/src}
src=$(cd "$src" && pwd)
qipu=${QIPU:-target/debug/qipu}
work=$PWD/target/eleeye/keys
mkdir -p "$work"
cat >"$work/keys.cpp" <<'CPP'
// Prints lock0 and lock1 of each FEN read, one a line.
#include <cstdio>
#include <cstring>
#include "position.h"
#include "pregen.h"
int main() {
  static char line[4096];
  PreGenInit();
  while (std::fgets(line, sizeof line, stdin) != NULL) {
    line[std::strcspn(line, "\r\n")] = '\0';
    static PositionStruct pos;
    pos.FromFen(line);
    std::printf("%08x %08x %s\n", (unsigned) pos.zobr.dwLock0, (unsigned) pos.zobr.dwLock1, line);
  }
  return 0;
}
CPP
(cd "$src/eleeye" && g++ -O1 -w -I. -o "$work/keys" "$work/keys.cpp" pregen.cpp position.cpp genmoves.cpp \
  preeval.cpp evaluate.cpp hash.cpp movesort.cpp search.cpp book.cpp ucci.cpp ../base/pipe.cpp)
games=fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn
"$qipu" fen "$games" --games 1 --format csv 2>/dev/null | awk -F, 'NR > 1 && $3 <= 24 { print $NF }' >"$work/fens"
"$qipu" fen "$games" --games 2 --format csv 2>/dev/null | awk -F, 'NR > 1 && $3 <= 24 { print $NF }' >>"$work/fens"
{
  echo "# ElephantEye's lock0 lock1 (hex) and the FEN, written by scripts/eleeye-keys.sh"
  "$work/keys" <"$work/fens"
} >fixtures/eleeye/keys.txt
wc -l fixtures/eleeye/keys.txt
