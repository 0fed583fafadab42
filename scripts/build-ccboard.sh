#!/usr/bin/env bash
# Builds target/ccboard/ccboard-driver: qipu's own driver (scripts/ccboard-driver.cpp)
# around the repetition rules of chessdb.cn's ccboard (noobpwnftw/chessdb,
# extensions/ccboard/xiangqi.cpp and xiangqi.h, public domain), an oracle for the
# repetition judge (scripts/gen-rulings-oracles.py, tests/data/rulings/).
#
#   bash scripts/build-ccboard.sh [SOURCES]
#
# SOURCES is a checkout of noobpwnftw/chessdb or a bare git mirror of it (then HEAD's
# files are taken); without it the local mirror /work/.mirror/noobpwnftw+chessdb/repo is
# used when present, else the repository is cloned from GitHub.
# Nothing of chessdb is committed: its two files stay under target/ccboard/src/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/target/ccboard
mkdir -p "$out/src"
src=${1:-}
if [ -z "$src" ]; then
  if [ -d /work/.mirror/noobpwnftw+chessdb/repo ]; then
    src=/work/.mirror/noobpwnftw+chessdb/repo
  else
    src=$out/chessdb
    [ -d "$src/.git" ] || git clone --depth 1 https://github.com/noobpwnftw/chessdb "$src"
  fi
fi
src=$(cd "$src" && pwd)
if [ -f "$src/extensions/ccboard/xiangqi.cpp" ]; then
  cp "$src/extensions/ccboard/xiangqi.cpp" "$src/extensions/ccboard/xiangqi.h" "$out/src/"
  commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
elif git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null; then
  for f in xiangqi.cpp xiangqi.h; do
    git --git-dir="$src" show "HEAD:extensions/ccboard/$f" >"$out/src/$f"
  done
  commit=$(git --git-dir="$src" rev-parse HEAD)
else
  echo "build-ccboard: $src is neither a chessdb checkout nor a git mirror of it" >&2
  exit 2
fi
echo "$commit" >"$out/src/COMMIT"
# xiangqi.cpp uses the `register` keyword, gone in C++17: compile as C++14.
g++ -std=gnu++14 -O2 -w -I"$out/src" -o "$out/ccboard-driver" scripts/ccboard-driver.cpp "$out/src/xiangqi.cpp"
echo "built $out/ccboard-driver (chessdb commit $commit)"
