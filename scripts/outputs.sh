#!/usr/bin/env bash
# Writes what every command prints on a collection into a folder, standard output and standard
# error apart, so that two builds can be compared byte for byte (a change of structure must
# leave every output as it was):
#   bash scripts/outputs.sh DIR [QIPU] [INPUT]    (INPUT: default ../shared/corpus)
#   diff -r before/ after/
set -euo pipefail
out=${1:?usage: outputs.sh DIR [QIPU] [INPUT]}
qipu=${2:-target/release/qipu}
input=${3:-../shared/corpus}
mkdir -p "$out"
run() { # run NAME ARGS...
  local name=$1
  shift
  "$qipu" "$@" > "$out/$name.out" 2> "$out/$name.err" || echo "exit $?" >> "$out/$name.err"
}
run validate validate "$input"
run validate-json validate --format json "$input"
run validate-jobs1 validate --jobs 1 "$input"
run fen fen "$input"
run fen-json fen --format json --notation chinese "$input"
run fen-csv fen --format csv --notation wxf "$input"
run convert-pgn convert --to pgn "$input"
run convert-pgn-wxf convert --to pgn --notation wxf "$input"
run convert-pgn-ecco convert --to pgn --set-ecco --notation iccs "$input"
run convert-json convert --to json "$input"
run convert-dhtmlxq convert --to dhtmlxq "$input"
run convert-big5 convert --to pgn --output-encoding big5 --unmappable replace "$input"
rm -rf "$out/xqf"
run convert-xqf convert --to xqf -o "$out/xqf" --xqf-version 18 "$input"
run stats stats "$input"
run stats-json stats --format json "$input"
run classify classify "$input"
run classify-json classify --format json "$input"
run openings openings --depth 8 "$input"
run openings-json openings --depth 8 --format json "$input"
run openings-book openings --depth 6 --to pgn "$input"
# duplicates: text and JSON, every kind, each --keep, the truncated pass,
# the copies written out, and standard input kept in a file for the passes.
run duplicates duplicates "$input"
run duplicates-json duplicates --format json "$input"
run duplicates-all duplicates --by line,final,truncated --mirror --keep longest "$input"
run duplicates-truncated-json duplicates --by truncated --keep most-annotated --format json "$input"
run duplicates-final duplicates --by final --mirror --min-plies 20 --keep most-annotated "$input"
rm -f "$out/duplicates-copies.pgn"
run duplicates-out duplicates --by line,truncated --duplicates-out "$out/duplicates-copies.pgn" "$input"
mapfile -d '' pgns < <(find "$input" -type f -name '*.pgn' -print0 | sort -z)
if [ "${#pgns[@]}" -gt 0 ]; then
  cat "${pgns[@]:0:300}" | run duplicates-stdin duplicates --by line,truncated --mirror --format json - || true
fi
# The copies other commands leave out, found over the whole batch first.
run stats-dedupe stats --dedupe=line,truncated,mirror --keep most-annotated "$input"
run stats-dedupe-final stats --dedupe=line,final --keep longest --format json "$input"
echo "$(ls "$out" | wc -l) outputs in $out"
