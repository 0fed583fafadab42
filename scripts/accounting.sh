#!/usr/bin/env bash
# Every game of ../shared/corpus is accounted for by every batch command: the summary's games
# equal valid + illegal + unreadable, and every command counts the same games as validate.
# Usage: bash scripts/accounting.sh [DIR]   (from the repository root; default ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus}
cargo build --release --quiet
qipu=target/release/qipu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
summary() { grep -E '^[0-9]+ game\(s\): [0-9]+ valid, [0-9]+ illegal, [0-9]+ unreadable' "$1" | tail -1; }
check() { # check NAME FILE: the summary adds up; shows it, and prints the games
  local line games valid illegal unreadable
  line=$(summary "$2")
  read -r games valid illegal unreadable < <(echo "$line" | grep -oE '[0-9]+' | head -4 | tr '\n' ' ')
  if [ $((valid + illegal + unreadable)) -ne "$games" ]; then echo "$1: does not add up: $line"; exit 1; fi
  printf '%-22s %s\n' "$1" "$line" >&2
  echo "$games"
}
"$qipu" validate "$dir" > "$out/validate" 2>&1 || true
base=$(check validate "$out/validate")
for cmd in "fen" "convert --to pgn" "convert --to json" "convert --to dhtmlxq"; do
  # shellcheck disable=SC2086
  "$qipu" $cmd "$dir" > /dev/null 2> "$out/cmd" || true
  n=$(check "$cmd" "$out/cmd")
  if [ "$n" -ne "$base" ]; then echo "$cmd counts $n games, validate $base"; exit 1; fi
done
"$qipu" stats --format json "$dir" > "$out/stats" 2> "$out/cmd" || true
n=$(check stats "$out/cmd")
if [ "$n" -ne "$base" ]; then echo "stats counts $n games, validate $base"; exit 1; fi
n=$(python3 -c "import json,sys; print(json.load(open('$out/stats'))['games'])")
if [ "$n" -ne "$base" ]; then echo "stats' table counts $n games, validate $base"; exit 1; fi
"$qipu" classify --format json "$dir" > "$out/classify" 2> "$out/cmd" || true
n=$(check classify "$out/cmd")
if [ "$n" -ne "$base" ]; then echo "classify counts $n games, validate $base"; exit 1; fi
n=$(wc -l < "$out/classify")
if [ "$n" -ne "$base" ]; then echo "classify writes $n JSON lines, validate counts $base games"; exit 1; fi
"$qipu" openings "$dir" > /dev/null 2> "$out/cmd" || true
n=$(check openings "$out/cmd")
if [ "$n" -ne "$base" ]; then echo "openings counts $n games, validate $base"; exit 1; fi
echo "every command accounts for the same $base games"
