#!/usr/bin/env bash
# Times `qipu export` beside `validate` and `fen --format csv` on one input, in one run:
# each command RUNS times in turn, with `--jobs 2`, wall and CPU seconds and peak memory
# (GNU time), then the median wall time of each and its ratio to the command it is held to
# (games to validate, positions to fen --format csv).
#
#   bash scripts/bench-export.sh target/release/qipu INPUT [RUNS]
#
# Writes into a temporary folder that it removes. Needs GNU time (/usr/bin/time).
set -euo pipefail
bin=${1:?usage: bench-export.sh QIPU INPUT [RUNS]}
input=${2:?usage: bench-export.sh QIPU INPUT [RUNS]}
runs=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

declare -A walls
one() {
    local name=$1
    shift
    rm -rf "$out/x" "$out/x.csv" "$out/x.parquet"
    # validate and export exit 1 when a game is illegal: not a failure here.
    /usr/bin/time -o "$out/t" -f "%e %U %S %M" "$@" >/dev/null 2>&1 || true
    # GNU time writes "Command exited with non-zero status N" first.
    read -r wall user sys peak < <(tail -n 1 "$out/t")
    printf '%-22s wall %6.2f s  user %6.2f s  sys %5.2f s  peak %4d MB\n' "$name" "$wall" "$user" "$sys" $((peak / 1024))
    walls[$name]+="$wall "
}

for run in $(seq "$runs"); do
    echo "run $run"
    one validate "$bin" validate "$input" --jobs 2 -q
    one export-games "$bin" export "$input" --jobs 2 -q -o "$out/x/"
    one fen-csv "$bin" fen "$input" --format csv --jobs 2 -q -o "$out/x.csv"
    one export-positions "$bin" export "$input" --jobs 2 -q --positions -o "$out/x.parquet"
    one export-both "$bin" export "$input" --jobs 2 -q --positions -o "$out/x/"
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "median wall time of $runs run(s):"
for name in validate export-games fen-csv export-positions export-both; do
    printf '%-22s %6.2f s\n' "$name" "$(echo "${walls[$name]}" | median)"
done
v=$(echo "${walls[validate]}" | median)
g=$(echo "${walls[export-games]}" | median)
f=$(echo "${walls[fen-csv]}" | median)
p=$(echo "${walls[export-positions]}" | median)
awk -v v="$v" -v g="$g" -v f="$f" -v p="$p" 'BEGIN {
    printf "games at %.2fx validate'"'"'s speed; positions at %.2fx fen --format csv'"'"'s\n", v / g, f / p }'
