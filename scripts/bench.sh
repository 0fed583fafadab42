#!/usr/bin/env bash
# Throughput of the dist binary (`cargo build --profile dist`, fat LTO) beside the floor (`wc -l` on
# the same file) and the peer (the cchess Python package on a sample of the same games), in one run.
#
# Inputs (built in ${TMPDIR:-/tmp}/qipu-bench on first use):
#   ccpd8.pgn      the CCPD slice of ../shared/corpus/pgn concatenated, eight times over
#                  (36,320 games, 40 MB, Big5, Chinese moves: large enough that start-up
#                  does not count)
#   iccs-100k.pgn  100,000 generated games in ICCS (examples/gen_iccs_games, fixed seed)
#   ../shared/corpus/xqf  5,111 XQF files
# For each input and --jobs 1 and 2: validate, fen --format jsonl, convert --to pgn, stats,
# duplicates (by line; and by line, final, truncated and mirrored);
# wall clock (best of five), games/s, plies/s, MB/s, CPU seconds and peak memory; then what
# each selection criterion adds to validate's time on the CCPD slice; then duplicates on
# iccs-1m-copies.pgn (1,000,000 generated games, every 10th a copy: exact, truncated, mirrored
# or under other tags; `gen_iccs_games 1000000 --copies 10`, 0.9 GB) by line and by every kind
# beside validate, one run each, with peak memory; then opening suites on the whole corpus beside
# validate.
# Usage: bash scripts/bench.sh   (from the repository root; the peer needs `pip install cchess`)
set -euo pipefail
cd "$(dirname "$0")/.."
# The fat-LTO build (profile dist) that published figures come from.
cargo build --profile dist --quiet
qipu=target/dist/qipu
work=${TMPDIR:-/tmp}/qipu-bench
mkdir -p "$work"
ccpd="$work/ccpd8.pgn"
if [ ! -s "$ccpd" ]; then
  find ../shared/corpus/pgn/Yvonne761__Chinese-Chess-Practical-Dataset -type f -name '*.pgn' -print0 \
    | sort -z | xargs -0 cat > "$work/ccpd.pgn"
  for _ in 1 2 3 4 5 6 7 8; do cat "$work/ccpd.pgn"; done > "$ccpd"
fi
iccs="$work/iccs-100k.pgn"
[ -s "$iccs" ] || cargo run --release --quiet --example gen_iccs_games -- 100000 > "$iccs"
xqf=../shared/corpus/xqf

best() { # prints "wall cpu peak_kb" of the fastest of five runs of "$@"
  local best=999999 line start end secs user sys peak
  for _ in 1 2 3 4 5; do
    start=$(date +%s.%N)
    /usr/bin/time -o "$work/time" -f '%U %S %M' "$@" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc -l)
    read -r user sys peak < <(tail -1 "$work/time")
    if (( $(echo "$secs < $best" | bc -l) )); then
      best=$secs
      line="$secs $(echo "$user + $sys" | bc -l) $peak"
    fi
  done
  echo "$line"
}

for input in "$ccpd" "$iccs" "$xqf"; do
  "$qipu" validate --format json "$input" > "$work/report.jsonl" 2>/dev/null || true
  games=$(wc -l < "$work/report.jsonl")
  plies=$(grep -o '"plies":[0-9]*\|"variation_plies":[0-9]*' "$work/report.jsonl" | cut -d: -f2 | paste -sd+ | bc)
  bytes=$(du -sb "$input" | cut -f1)
  echo "== $(basename "$input"): $games games, $plies plies, $bytes bytes"
  if [ -f "$input" ]; then
    read -r wc_secs _ _ < <(best wc -l "$input")
    printf 'wc -l: %.4f s\n' "$wc_secs"
  fi
  for jobs in 1 2; do
    for cmd in "validate" "fen --format jsonl" "convert --to pgn" "stats" "duplicates" "duplicates --by line,final,truncated --mirror"; do
      # shellcheck disable=SC2086
      read -r secs cpu peak < <(best "$qipu" $cmd --jobs "$jobs" "$input")
      ratio=""
      if [ -f "$input" ]; then ratio=$(printf '%5.1fx wc -l' "$(echo "$secs / $wc_secs" | bc -l)"); fi
      printf '%-20s jobs=%s %7.3f s %9.0f games/s %11.0f plies/s %7.1f MB/s  CPU %6.2f s  peak %6.1f MB  %s\n' \
        "$cmd" "$jobs" "$secs" "$(echo "$games / $secs" | bc -l)" "$(echo "$plies / $secs" | bc -l)" \
        "$(echo "$bytes / $secs / 1000000" | bc -l)" "$cpu" "$(echo "$peak / 1024" | bc -l)" "$ratio"
    done
  done
done

echo "== selection on $(basename "$ccpd"), --jobs 1 (what each criterion adds to validate)"
read -r base _ _ < <(best "$qipu" validate --jobs 1 "$ccpd")
printf '%-60s %7.3f s\n' "validate" "$base"
central="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR"
while IFS= read -r flags; do
  # shellcheck disable=SC2086
  read -r secs _ _ < <(eval best "$qipu" validate --jobs 1 "$ccpd" $flags)
  printf '%-60s %7.3f s  %+5.1f%%\n' "validate $flags" "$secs" "$(echo "($secs / $base - 1) * 100" | bc -l)"
done <<FLAGS
--player 胡荣华
--date 1990..2000 --result 1-0
--position $central --mirror
--material 'RP* vs K' --material-at any
--plies 40.. --has-comments --status valid
--ecco B
FLAGS

echo "== fen formats beside validate on ccpd.pgn, --jobs 1: instructions (cachegrind)"
if command -v valgrind > /dev/null; then
  for cmd in "validate" "fen --format json" "fen --format epd" "fen --format json --all-lines" "fen --format epd --all-lines"; do
    # shellcheck disable=SC2086
    refs=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$qipu" $cmd --jobs 1 \
      "$work/ccpd.pgn" 2>&1 > /dev/null | grep 'I *refs' | awk '{print $NF}')
    printf '%-40s %s instructions\n' "$cmd" "$refs"
  done
else
  echo "SKIPPED: valgrind not installed"
fi

big="$work/iccs-1m-copies.pgn"
[ -s "$big" ] || cargo run --release --quiet --example gen_iccs_games -- 1000000 --copies 10 > "$big"
echo "== $(basename "$big"): duplicates beside validate (default --jobs, one run each)"
for cmd in "validate" "duplicates" "duplicates --by line,final,truncated --mirror"; do
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  /usr/bin/time -o "$work/time" -f '%U %S %M' "$qipu" $cmd "$big" > /dev/null 2>&1 || true
  end=$(date +%s.%N)
  read -r user sys peak < <(tail -1 "$work/time")
  printf '%-50s %7.2f s  CPU %6.2f s  peak %6.1f MB\n' "$cmd" "$(echo "$end - $start" | bc -l)" \
    "$(echo "$user + $sys" | bc -l)" "$(echo "$peak / 1024" | bc -l)"
done

corpus=../shared/corpus
echo "== engine developers: suites on the whole corpus beside validate (--jobs 2, best of five)"
while IFS= read -r cmd; do
  # shellcheck disable=SC2086
  read -r secs cpu peak < <(best "$qipu" $cmd --jobs 2 "$corpus")
  printf '%-60s %7.3f s  CPU %6.2f s  peak %6.1f MB\n' "$cmd" "$secs" "$cpu" "$(echo "$peak / 1024" | bc -l)"
done <<COMMANDS
validate
openings --suite
openings --suite --mirror --at-ply 6..12
COMMANDS

# The same 100,000 games as UCI position lines (gen_iccs_games --uci) and as EPD lines of
# their final positions (gen_iccs_games --epd), read beside the ICCS PGN: validate, games/s.
uci="$work/iccs-100k.uci"
[ -s "$uci" ] || cargo run --release --quiet --example gen_iccs_games -- 100000 --uci > "$uci"
epd="$work/iccs-100k.epd"
[ -s "$epd" ] || cargo run --release --quiet --example gen_iccs_games -- 100000 --epd > "$epd"
echo "== UCI and EPD lines beside the ICCS PGN of the same games: validate"
for input in "$iccs" "$uci" "$epd"; do
  for jobs in 1 2; do
    read -r secs cpu peak < <(best "$qipu" validate --jobs "$jobs" "$input")
    games=$("$qipu" validate --format json "$input" 2>/dev/null | wc -l)
    printf '%-16s --jobs %d  %7.3f s  %9.0f games/s  CPU %6.2f s  peak %6.1f MB\n' "$(basename "$input")" "$jobs" \
      "$secs" "$(echo "$games / $secs" | bc -l)" "$cpu" "$(echo "$peak / 1024" | bc -l)"
  done
done

echo "== book build beside validate on the whole corpus (--jobs 2, best of five)"
read -r vsecs _ _ < <(best "$qipu" validate --jobs 2 "$corpus")
printf '%-50s %7.3f s\n' "validate --jobs 2 corpus" "$vsecs"
for out in BOOK.DAT book.obs.db3; do
  read -r secs _ peak < <(best "$qipu" book build --jobs 2 "$corpus" -o "$work/$out" --force)
  printf '%-50s %7.3f s  x%.2f  peak %6.1f MB\n' "book build --jobs 2 corpus -o $out" "$secs" \
    "$(echo "$secs / $vsecs" | bc -l)" "$(echo "$peak / 1024" | bc -l)"
done

echo "== peer: cchess on samples of the same records"
python3 scripts/peer-cchess.py pgn "$iccs" 200 || true
python3 scripts/peer-cchess.py pgn "$ccpd" 200 big5 || true
python3 scripts/peer-cchess.py xqf "$xqf" 200 || true
