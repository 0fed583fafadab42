#!/usr/bin/env bash
# Builds Pikafish (official-pikafish/Pikafish, GPL) for `qipu analyse` and
# scripts/engine-check.sh: target/engines/pikafish.
#
#   bash scripts/build-pikafish.sh [SOURCES]
#
# SOURCES is a checkout of official-pikafish/Pikafish; without it the sources are cloned from
# GitHub into target/engines/src/pikafish. Nothing of the engine is committed.
#
# Pikafish evaluates with an NNUE network, pikafish.nnue, which is not in its repository: it is
# a release asset (https://github.com/official-pikafish/Networks/releases, master-net). The
# engine reads it at start from its working directory or beside the binary (or from the
# `EvalFile` option); without it the engine refuses to search. The engine is built here without
# it (the network's download is left out of the build); put the file at
# target/engines/pikafish.nnue, or name it with PIKAFISH_NNUE=FILE when running this script.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/target/engines
mkdir -p "$out/src"
if [ $# -ge 1 ]; then
  src=$(cd "$1" && pwd)
else
  src=$out/src/pikafish
  if [ ! -f "$src/src/Makefile" ]; then
    rm -rf "$src"
    git clone --depth 1 https://github.com/official-pikafish/Pikafish "$src"
  fi
fi
[ -f "$src/src/evaluate.h" ] || { echo "build-pikafish: $src/src/evaluate.h is missing: not a Pikafish checkout" >&2; exit 2; }
jobs=${JOBS:-2}
# `all` compiles and links; `build` would first download the network (scripts/net.sh).
make -C "$src/src" -j"$jobs" all ARCH="${ARCH:-x86-64}"
cp "$src/src/pikafish" "$out/pikafish"
if [ -n "${PIKAFISH_NNUE:-}" ]; then
  cp "$PIKAFISH_NNUE" "$out/pikafish.nnue"
fi
echo "built $out/pikafish"
if [ ! -f "$out/pikafish.nnue" ]; then
  cat >&2 <<MSG
build-pikafish: no network file: Pikafish cannot search without pikafish.nnue.
  Download it from https://github.com/official-pikafish/Networks/releases/download/master-net/pikafish.nnue
  and put it at $out/pikafish.nnue (beside the binary), then run the engine from there.
MSG
  exit 3
fi
answer=$(cd "$out" && printf 'uci\nisready\nposition startpos\ngo depth 6\n' | timeout 60 ./pikafish \
  | grep -m1 '^bestmove' || true)
case $answer in
  "bestmove "[a-i][0-9][a-i][0-9]*) echo "Pikafish plays (start position, depth 6: $answer)" ;;
  *) echo "build-pikafish: $out/pikafish gives no move with $out/pikafish.nnue (answer: '$answer')" >&2; exit 1 ;;
esac
