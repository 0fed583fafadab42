#!/usr/bin/env bash
# Times the release binary on two inputs, with 1 and 2 threads:
#   - the CCPD slice of ../shared/corpus/pgn concatenated into one file (Big5, Chinese moves);
#   - a generated file of 100,000 games in ICCS notation (random legal games, fixed seed).
# Prints games/s, plies/s and MB/s for `qipu validate` and `qipu fen --format json`.
# Usage: bash scripts/bench-validate.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
qipu=target/release/qipu
work=${TMPDIR:-/tmp}/qipu-bench
mkdir -p "$work"

ccpd="$work/ccpd.pgn"
if [ ! -s "$ccpd" ]; then
  find ../shared/corpus/pgn/Yvonne761__Chinese-Chess-Practical-Dataset -type f -name '*.pgn' -print0 \
    | sort -z | xargs -0 cat > "$ccpd"
fi
iccs="$work/iccs-100k.pgn"
if [ ! -s "$iccs" ]; then
  cargo run --release --quiet --example gen_iccs_games -- 100000 > "$iccs"
fi

measure() { # name file threads command...
  local name=$1 file=$2 jobs=$3; shift 3
  local games plies bytes start end secs
  local report="$work/report.jsonl"
  "$qipu" validate --format json --jobs "$jobs" "$file" > "$report" 2>/dev/null || true
  games=$(wc -l < "$report")
  plies=$(grep -o '"plies":[0-9]*' "$report" | cut -d: -f2 | paste -sd+ | bc)
  bytes=$(stat -c %s "$file")
  # best of three runs
  local best=999999
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    "$@" --jobs "$jobs" "$file" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc -l)
    best=$(echo "if ($secs < $best) $secs else $best" | bc -l)
  done
  printf '%-34s %-6s jobs=%s  %7.3f s  %9.0f games/s  %11.0f plies/s  %6.1f MB/s  (%s games, %s plies, %s bytes)\n' \
    "$name" "$(basename "$file")" "$jobs" "$best" "$(echo "$games / $best" | bc -l)" \
    "$(echo "$plies / $best" | bc -l)" "$(echo "$bytes / $best / 1000000" | bc -l)" "$games" "$plies" "$bytes"
}

for file in "$ccpd" "$iccs"; do
  for jobs in 1 2; do
    measure "validate" "$file" "$jobs" "$qipu" validate
    measure "fen --format json" "$file" "$jobs" "$qipu" fen --format json
  done
done
