#!/usr/bin/env bash
# Times the release binary on two inputs, with 1 and 2 threads:
#   - the CCPD slice of ../shared/corpus/pgn concatenated into one file (Big5, Chinese moves);
#   - a generated file of 100,000 games in ICCS notation (random legal games, fixed seed).
# Prints games/s, plies/s and MB/s (wall clock, best of three) for `qipu validate` and
# `qipu fen --format jsonl`, and the CPU time of the run (the reading thread works beside the
# --jobs workers, so one job can use more than one core). Last, reading and replaying on a
# single thread with no pipeline (examples/parse_only), the cost per core.
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
  local games plies bytes secs
  local report="$work/report.jsonl"
  "$qipu" validate --format json --jobs "$jobs" "$file" > "$report" 2>/dev/null || true
  games=$(wc -l < "$report")
  plies=$(grep -o '"plies":[0-9]*' "$report" | cut -d: -f2 | paste -sd+ | bc)
  bytes=$(stat -c %s "$file")
  # best of three runs (wall clock), with the CPU time (user + system) of that run
  local best=999999 cpu=0 times
  for _ in 1 2 3; do
    /usr/bin/time -o "$work/time" -f '%e %U %S' "$@" --jobs "$jobs" "$file" > /dev/null 2>&1 || true
    times=$(tail -1 "$work/time")
    secs=$(echo "$times" | cut -d' ' -f1)
    if (( $(echo "$secs < $best" | bc -l) )); then
      best=$secs
      cpu=$(echo "$times" | awk '{print $2 + $3}')
    fi
  done
  printf '%-18s %-14s jobs=%s %6.2f s %8.0f games/s %10.0f plies/s %6.1f MB/s | CPU %5.2f s = %7.0f games per CPU-second  (%s games, %s plies, %s bytes)\n' \
    "$name" "$(basename "$file")" "$jobs" "$best" "$(echo "$games / $best" | bc -l)" \
    "$(echo "$plies / $best" | bc -l)" "$(echo "$bytes / $best / 1000000" | bc -l)" "$cpu" \
    "$(echo "$games / $cpu" | bc -l)" "$games" "$plies" "$bytes"
}

for file in "$ccpd" "$iccs"; do
  for jobs in 1 2; do
    measure "validate" "$file" "$jobs" "$qipu" validate
    measure "fen --format jsonl" "$file" "$jobs" "$qipu" fen --format jsonl
  done
done

cargo build --release --quiet --example parse_only
for file in "$ccpd" "$iccs"; do
  echo "single thread, $(basename "$file"):"
  target/release/examples/parse_only "$file"
done
