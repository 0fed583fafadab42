#!/usr/bin/env bash
# Builds the ElephantEye engine (xqbase/eleeye, LGPL) for the tests that check qipu's
# ElephantEye books against it: tests/cli/eleeye_book.rs looks for target/eleeye/ELEEYE.EXE
# (or $QIPU_ELEEYE) and BOOK.DAT beside it.
#
#   bash scripts/build-eleeye.sh [SOURCES]
#
# SOURCES is a checkout of xqbase/eleeye; without it the sources are cloned from GitHub.
# Nothing of ElephantEye is committed: its sources and book stay under target/eleeye/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/target/eleeye
mkdir -p "$out"
if [ $# -ge 1 ]; then
  src=$(cd "$1" && pwd)
else
  src=$out/src
  if [ ! -d "$src/eleeye" ]; then
    rm -rf "$src"
    git clone --depth 1 https://github.com/xqbase/eleeye "$src"
  fi
fi
for f in eleeye/ucci.cpp base/pipe.cpp BOOK/BOOK.DAT; do
  [ -f "$src/$f" ] || { echo "build-eleeye: $src/$f is missing: not an ElephantEye checkout" >&2; exit 2; }
done
# The sources are compiled where they are (the engine's makefile.sh does the same).
(cd "$src/eleeye" && g++ -DNDEBUG -O2 -w -o "$out/ELEEYE.EXE" ../base/pipe.cpp ucci.cpp pregen.cpp \
  position.cpp genmoves.cpp hash.cpp book.cpp movesort.cpp preeval.cpp evaluate.cpp search.cpp eleeye.cpp)
cp "$src/BOOK/BOOK.DAT" "$out/BOOK.DAT"
echo "built $out/ELEEYE.EXE (book: $out/BOOK.DAT)"
