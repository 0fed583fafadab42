#!/usr/bin/env bash
# The duplicate figures of a collection (default ../shared/corpus, all of it, as `qipu validate`
# reads it), from `qipu duplicates --format json`: games keyed (valid or illegal, 10 plies or
# more of main line that replayed), distinct main lines, copies and groups by line, groups whose
# members come from two formats or more, and the games that `--by line,truncated` adds as
# truncated copies of a longer game.
# The start is compared by Zobrist hash (placement and side to move), not by FEN text: a game
# whose FEN says move 20 and its copy whose FEN says move 1 are copies.
# Usage: bash scripts/corpus-duplicates.sh [DIR] [QIPU]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus}
qipu=${2:-}
if [ -z "$qipu" ]; then
  cargo build --release --quiet
  qipu=${CARGO_TARGET_DIR:-target}/release/qipu
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$qipu" duplicates --format json "$dir" > "$out/line.jsonl" 2> "$out/line.err" || true
"$qipu" duplicates --format json --by line,truncated "$dir" > "$out/truncated.jsonl" 2> "$out/truncated.err" || true
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
def summary(name):
    line = open(f"{out}/{name}.err", encoding="utf-8").read().strip().splitlines()[-1]
    m = re.search(r"(\d+) game\(s\): (\d+) valid, (\d+) illegal, (\d+) unreadable.*; (\d+) of (\d+) plies or more: (\d+) group\(s\), (\d+) copies", line)
    if not m:
        sys.exit(f"no summary line in {name}.err: {line}")
    return [int(x) for x in m.groups()]
def groups(name):
    return [json.loads(l) for l in open(f"{out}/{name}.jsonl", encoding="utf-8")]
games, valid, illegal, unreadable, keyed, plies, ngroups, copies = summary("line")
line = groups("line")
assert len(line) == ngroups and sum(len(g["members"]) - 1 for g in line) == copies
spanning = sum(1 for g in line if len({m["format"] for m in g["members"]}) >= 2)
def folder(source):  # the corpus's top-level folder (pgn, xqf, dhtmlxq, ccbridge, ...)
    rest = source.split("/corpus/", 1)[-1]
    return rest.split("/", 1)[0]
folders = sum(1 for g in line if len({folder(m["source"]) for m in g["members"]}) >= 2)
truncated_copies = summary("truncated")[7]
print(f"games read: {games} ({valid} valid, {illegal} illegal, {unreadable} unreadable)")
print(f"games of {plies} plies or more: {keyed}")
print(f"distinct main lines: {keyed - copies}")
print(f"copies: {copies} in {ngroups} groups")
print(f"groups spanning two formats or more: {spanning} (formats as read), {folders} (the corpus's folders)")
print(f"more games that are truncated copies of a longer one: {truncated_copies - copies}")
PY
