#!/usr/bin/env bash
# Times `qipu validate` (release build) over the XQF corpus, ../shared/corpus/xqf
# (5,111 files), with 1 and 2 worker threads: files/s and plies/s (main line and
# variations), wall clock best of five, and the CPU time of that run.
# Usage: bash scripts/bench-xqf.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
qipu=target/release/qipu
corpus=../shared/corpus/xqf
work=${TMPDIR:-/tmp}/qipu-bench
mkdir -p "$work"
"$qipu" validate --format json "$corpus" > "$work/xqf.jsonl" 2>/dev/null || true
files=$(wc -l < "$work/xqf.jsonl")
plies=$(grep -o '"plies":[0-9]*\|"variation_plies":[0-9]*' "$work/xqf.jsonl" | cut -d: -f2 | paste -sd+ | bc)
bytes=$(du -sb "$corpus" | cut -f1)
for jobs in 1 2; do
  best=999999 cpu=0
  for _ in 1 2 3 4 5; do
    /usr/bin/time -o "$work/time" -f '%e %U %S' "$qipu" validate --jobs "$jobs" "$corpus" > /dev/null 2>&1 || true
    read -r secs user sys < <(tail -1 "$work/time")
    if (( $(echo "$secs < $best" | bc -l) )); then best=$secs; cpu=$(echo "$user + $sys" | bc -l); fi
  done
  printf 'validate xqf corpus jobs=%s %6.3f s %8.0f files/s %10.0f plies/s %6.1f MB/s | CPU %5.2f s = %7.0f files per CPU-second  (%s files, %s plies)\n' \
    "$jobs" "$best" "$(echo "$files / $best" | bc -l)" "$(echo "$plies / $best" | bc -l)" \
    "$(echo "$bytes / $best / 1000000" | bc -l)" "$cpu" "$(echo "$files / $cpu" | bc -l)" "$files" "$plies"
done
