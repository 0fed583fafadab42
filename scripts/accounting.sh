#!/usr/bin/env bash
# Every game of ../shared/corpus is accounted for by every batch command: the summary's games
# equal valid + illegal + unreadable, every command counts the same games and the same inputs
# that hold no record as validate, the JSON outputs have a line for each, and convert writes
# exactly the games it says it wrote (JSON lines, DhtmlXQ blocks, XQF files).
# Usage: bash scripts/accounting.sh [DIR]   (from the repository root; default ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus}
cargo build --release --quiet
qipu=target/release/qipu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
summary() { grep -E '^[0-9]+ game\(s\): [0-9]+ valid, [0-9]+ illegal, [0-9]+ unreadable' "$1" | tail -1; }
no_record() { # the inputs that hold no record, from a summary line (0 when it names none)
  echo "$1" | grep -oE '[0-9]+ input\(s\) hold no record' | grep -oE '^[0-9]+' || echo 0
}
written() { echo "$1" | grep -oE '[0-9]+ written' | grep -oE '^[0-9]+'; }
check() { # check NAME FILE: the summary adds up; shows it, and prints the games and no-record inputs
  local line games valid illegal unreadable
  line=$(summary "$2")
  read -r games valid illegal unreadable < <(echo "$line" | grep -oE '[0-9]+' | head -4 | tr '\n' ' ')
  if [ $((valid + illegal + unreadable)) -ne "$games" ]; then echo "$1: does not add up: $line" >&2; exit 1; fi
  printf '%-22s %s\n' "$1" "$line" >&2
  echo "$games $(no_record "$line")"
}
same() { # same NAME "GAMES NO_RECORD"
  if [ "$2" != "$base" ]; then echo "$1 counts $2 (games, no record), validate $base" >&2; exit 1; fi
}
"$qipu" validate "$dir" > "$out/validate" 2>&1 || true
base=$(check validate "$out/validate")
read -r games empty <<< "$base"
"$qipu" validate --format json "$dir" > "$out/validate.json" 2> "$out/cmd" || true
same "validate --format json" "$(check "validate --format json" "$out/cmd")"
n=$(wc -l < "$out/validate.json")
if [ "$n" -ne $((games + empty)) ]; then echo "validate writes $n JSON lines for $games games and $empty empty inputs" >&2; exit 1; fi
for cmd in "fen" "convert --to pgn" "convert --to json" "convert --to dhtmlxq"; do
  # shellcheck disable=SC2086
  "$qipu" $cmd "$dir" > "$out/written" 2> "$out/cmd" || true
  same "$cmd" "$(check "$cmd" "$out/cmd")"
  case "$cmd" in
    "convert --to json") n=$(wc -l < "$out/written") ;;
    "convert --to dhtmlxq") n=$(grep -c '^\[DhtmlXQ\]$' "$out/written") ;;
    "convert --to pgn") n=$(grep -c '^\[Game ' "$out/written") ;;
    *) continue ;;
  esac
  said=$(written "$(summary "$out/cmd")")
  if [ "$n" -ne "$said" ]; then echo "$cmd says $said written and wrote $n" >&2; exit 1; fi
done
"$qipu" convert --to xqf -o "$out/xqf" "$dir" > /dev/null 2> "$out/cmd" || true
same "convert --to xqf" "$(check "convert --to xqf" "$out/cmd")"
n=$(find "$out/xqf" -type f | wc -l)
said=$(written "$(summary "$out/cmd")")
if [ "$n" -ne "$said" ]; then echo "convert --to xqf says $said written and wrote $n files" >&2; exit 1; fi
"$qipu" stats --format json "$dir" > "$out/stats" 2> "$out/cmd" || true
same stats "$(check stats "$out/cmd")"
n=$(python3 -c "import json,sys; print(json.load(open('$out/stats'))['games'])")
if [ "$n" -ne "$games" ]; then echo "stats' table counts $n games, validate $games" >&2; exit 1; fi
"$qipu" classify --format json "$dir" > "$out/classify" 2> "$out/cmd" || true
same classify "$(check classify "$out/cmd")"
n=$(wc -l < "$out/classify")
if [ "$n" -ne $((games + empty)) ]; then echo "classify writes $n JSON lines for $games games and $empty empty inputs" >&2; exit 1; fi
"$qipu" openings "$dir" > /dev/null 2> "$out/cmd" || true
same openings "$(check openings "$out/cmd")"
echo "every command accounts for the same $games games and $empty input(s) that hold no record"
