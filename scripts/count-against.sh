#!/usr/bin/env bash
# The one-pass figures counted in instructions rather than seconds: `validate --jobs 1` and
# `fen --format jsonl --jobs 1` of this tree's release binary beside the binary of an earlier
# commit (default 072af77), each run once under cachegrind (no cache simulation). An
# instruction count does not depend on what else the machine is doing, so this A/B holds on a
# busy machine where wall-clock times do not; it does not see what changes the instructions'
# speed (cache misses, branch mispredictions), which scripts/bench-against.sh times.
#
#   bash scripts/count-against.sh [REV]          (from the repository root)
#   QIPU=PATH takes that binary for this tree's (else `cargo build --release`); the binary of REV
#   is built once into ${TMPDIR:-/tmp}/qipu-bench/qipu-REV, as bench-against.sh builds it
#   GAMES=N generated games for the PGN, XQF, DhtmlXQ and CBL inputs (default 10000)
#
# Inputs (in ${TMPDIR:-/tmp}/qipu-bench/count, generated, never committed): the corpus's XQF
# files; N generated ICCS games (examples/gen_iccs_games, fixed seed) as PGN, as XQF files, as
# DhtmlXQ files of 9 games and as one CBL library; the CCPD slice of the corpus (Big5, Chinese).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-072af77}
games=${GAMES:-10000}
work=${TMPDIR:-/tmp}/qipu-bench
count=$work/count
mkdir -p "$count"
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

iccs="$count/iccs.pgn"
[ -s "$iccs" ] || cargo run --release --quiet --example gen_iccs_games -- "$games" > "$iccs"
ccpd="$count/ccpd.pgn"
[ -s "$ccpd" ] || find ../shared/corpus/pgn/Yvonne761__Chinese-Chess-Practical-Dataset -type f \
  -name '*.pgn' -print0 | sort -z | xargs -0 cat > "$ccpd"
[ -d "$count/xqf" ] || { "$qipu" convert "$iccs" --to xqf -o "$count/xqf.tmp" > /dev/null 2>&1 || true; mv "$count/xqf.tmp" "$count/xqf"; }
if [ ! -d "$count/dhtmlxq" ]; then
  mkdir -p "$count/dhtmlxq.tmp"
  "$qipu" convert "$iccs" --to dhtmlxq -o "$count/dhtmlxq.tmp/g.dhtml" --split 9 > /dev/null 2>&1 || true
  mv "$count/dhtmlxq.tmp" "$count/dhtmlxq"
fi
[ -s "$count/iccs.cbl" ] || "$qipu" convert "$iccs" --to cbl -o "$count/iccs.cbl" > /dev/null 2>&1 || true

instructions() { # the instructions "$@" executes, as cachegrind counts them (whatever its exit code)
  { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 > /dev/null || true; } \
    | sed -n 's/.*I *refs: *//p' | tr -d ,
}
plies_of() {
  { "$qipu" validate --format json "$@" 2> /dev/null || true; } \
    | grep -o '"plies":[0-9]*\|"variation_plies":[0-9]*' | cut -d: -f2 | awk '{ n += $1 } END { print n + 0 }'
}
printf '%-22s %10s %16s %16s %8s %8s\n' input plies "this tree" "$rev" "instr/ply" ratio
row() { # row LABEL INPUT COMMAND...
  local label=$1 input=$2
  shift 2
  local plies new old
  plies=$(plies_of "$input")
  new=$(instructions "$qipu" "$@" --jobs 1 "$input")
  old=$(instructions "$base" "$@" --jobs 1 "$input")
  printf '%-22s %10d %16d %16d %8.0f %7.2fx\n' "$label" "$plies" "$new" "$old" \
    "$(echo "$new / $plies" | bc -l)" "$(echo "$old / $new" | bc -l)"
}
row "xqf corpus" ../shared/corpus/xqf validate
row "xqf generated" "$count/xqf" validate
row "dhtmlxq generated" "$count/dhtmlxq" validate
row "cbl generated" "$count/iccs.cbl" validate
row "iccs pgn" "$iccs" validate
row "ccpd (big5 chinese)" "$ccpd" validate
row "fen jsonl, iccs" "$iccs" fen --format jsonl
row "fen jsonl, ccpd" "$ccpd" fen --format jsonl
