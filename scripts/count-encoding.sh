#!/usr/bin/env bash
# What telling the encoding and reading DhtmlXQ cost, counted in instructions (cachegrind, no cache
# simulation) of `validate --jobs 1`: a folder of one-game GBK files and one of Big5 files, each
# with the encoding told and with it forced (--encoding), a 50 MB DhtmlXQ text and the ICCS PGN it
# was made from, this tree's release binary beside the binary of an earlier commit (default
# be0916c, before the encoding was told on the bytes).
#
#   bash scripts/count-encoding.sh [REV]          (from the repository root)
#   QIPU=PATH takes that binary for this tree's (else `cargo build --release`); the binary of REV
#   is built once into ${TMPDIR:-/tmp}/qipu-bench/qipu-REV, as count-against.sh builds it
#   GAMES=N generated games (default 10000): N one-game files of each encoding
#
# Inputs (in ${TMPDIR:-/tmp}/qipu-bench/encoding, generated, never committed): N generated ICCS
# games (examples/gen_iccs_games, fixed seed); the same converted to Chinese moves (simplified in
# GBK, traditional in Big5), a file each; all of them as DhtmlXQ blocks, written out as many
# times as make 50 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-be0916c}
games=${GAMES:-10000}
work=${TMPDIR:-/tmp}/qipu-bench
inputs=$work/encoding
mkdir -p "$inputs"
if [ -n "${QIPU:-}" ]; then
  qipu=$(realpath "$QIPU")
else
  cargo build --release --locked --quiet
  qipu=$PWD/target/release/qipu
fi
base="$work/qipu-$rev"
if [ ! -x "$base" ]; then
  tree="$work/tree-$rev"
  rm -rf "$tree"
  git worktree add --detach "$tree" "$rev" > /dev/null
  (cd "$tree" && cargo build --release --locked --quiet --target-dir "$work/target-$rev")
  cp "$work/target-$rev/release/qipu" "$base"
  git worktree remove --force "$tree"
fi
echo "this tree: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (changed)'); beside: $rev"

iccs="$inputs/iccs.pgn"
[ -s "$iccs" ] || cargo run --release --quiet --example gen_iccs_games -- "$games" > "$iccs"
for encoding in gbk big5; do
  if [ ! -d "$inputs/$encoding" ]; then
    rm -rf "$inputs/$encoding.tmp"
    mkdir -p "$inputs/$encoding.tmp"
    "$qipu" convert "$iccs" --to pgn --notation chinese --output-encoding "$encoding" --split 1 \
      -o "$inputs/$encoding.tmp/g.pgn" -q
    mv "$inputs/$encoding.tmp" "$inputs/$encoding"
  fi
done
dhtmlxq="$inputs/dhtmlxq.txt"
if [ ! -s "$dhtmlxq" ]; then
  "$qipu" convert "$iccs" --to dhtmlxq -o "$inputs/one.dhtml" -q --force
  copies=$((52428800 / $(stat -c %s "$inputs/one.dhtml") + 1))
  for _ in $(seq "$copies"); do cat "$inputs/one.dhtml"; done > "$dhtmlxq.tmp"
  mv "$dhtmlxq.tmp" "$dhtmlxq"
fi

instructions() { # the instructions "$@" executes, as cachegrind counts them (whatever its exit code)
  { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 > /dev/null || true; } \
    | sed -n 's/.*I *refs: *//p' | tr -d ,
}
plies_of() {
  { "$qipu" validate --format json "$@" 2> /dev/null || true; } \
    | grep -o '"plies":[0-9]*\|"variation_plies":[0-9]*' | cut -d: -f2 | paste -sd+ | bc
}
printf '%-20s %10s %16s %16s %9s %8s\n' input plies "this tree" "$rev" instr/ply ratio
row() { # row LABEL INPUT OPTIONS...
  local label=$1 input=$2
  shift 2
  local plies new old
  plies=$(plies_of "$input")
  new=$(instructions "$qipu" validate --jobs 1 "$@" "$input")
  old=$(instructions "$base" validate --jobs 1 "$@" "$input")
  printf '%-20s %10d %16d %16d %9.0f %7.2fx\n' "$label" "$plies" "$new" "$old" \
    "$(echo "$new / $plies" | bc -l)" "$(echo "$old / $new" | bc -l)"
}
row "gbk files" "$inputs/gbk"
row "gbk files, forced" "$inputs/gbk" --encoding gbk
row "big5 files" "$inputs/big5"
row "big5 files, forced" "$inputs/big5" --encoding big5
row "dhtmlxq 50 MB" "$dhtmlxq"
row "iccs pgn" "$iccs"
