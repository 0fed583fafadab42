#!/usr/bin/env bash
# Checks `qipu analyse` against real engines, by hand (not in CI: the engines are built by
# scripts/build-eleeye.sh, scripts/build-fairy-stockfish.sh and scripts/build-pikafish.sh).
#
#   bash scripts/engine-check.sh QIPU_BINARY
#
# For each engine built (ElephantEye, Fairy-Stockfish, and Pikafish when its network file
# target/engines/pikafish.nnue is there), on a fixed set of games, the first GAMES (100) of
# Hu Ronghua's 1,391 games in the corpus (../shared/corpus, or $QIPU_CORPUS):
#  (a) `qipu analyse --to json --format json` at depth DEPTH (6): every main-line move must have
#      an evaluation (an `eval` key, or one in its comment), except a move that mates or
#      stalemates, which has none; prints the counts;
#  (b) SAMPLE (20) positions (game k's at ply 10 + 3k), each made a game of its own (a FEN tag
#      and the move played) and analysed by a run of qipu of its own with `--format json`: the
#      best move and score it reports for the position must be those of a fresh engine process
#      searching it (scripts/engine-answer.py) at the same depth. The same positions searched
#      within the games of (a) are compared too, and only told: an engine keeps state from one
#      search to the next (Fairy-Stockfish even across `ucinewgame`), which may change its
#      answer;
#  (c) speed on the first SPEED_GAMES (20) games: one engine against `--engines 2` (wall time
#      and ratio), and qipu's cost per search with `--nodes 1`.
# ENGINES="eleeye fairy-stockfish" (names as above) checks only those. Outputs are kept in
# target/engine-check/. Exits 1 when a check of (a) or of the first
# positions of (b) fails.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bash scripts/engine-check.sh QIPU_BINARY" >&2; exit 2; }
qipu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$qipu" ] || { echo "engine-check: $1 is not an executable" >&2; exit 2; }
cd "$(dirname "$0")/.."
root=$PWD
corpus=${QIPU_CORPUS:-$root/../shared/corpus}
games=$corpus/pgn/maksimKorzh__wukong-xiangqi/_unzipped/Hu_Ronghua_1391_UCI_games.pgn
[ -f "$games" ] || { echo "engine-check: $games is missing (set QIPU_CORPUS)" >&2; exit 2; }
depth=${DEPTH:-6}
count=${GAMES:-100}
sample=${SAMPLE:-20}
speed_games=${SPEED_GAMES:-20}
out=$root/target/engine-check
rm -rf "$out"
mkdir -p "$out"

# name, command, protocol, UCI_Variant for engine-answer.py
engines=()
[ -x target/eleeye/ELEEYE.EXE ] && engines+=("eleeye|$root/target/eleeye/ELEEYE.EXE|ucci|")
[ -x target/engines/fairy-stockfish ] && engines+=("fairy-stockfish|$root/target/engines/fairy-stockfish|uci|xiangqi")
if [ -x target/engines/pikafish ]; then
  if [ -f target/engines/pikafish.nnue ]; then
    engines+=("pikafish|$root/target/engines/pikafish|uci|")
  else
    echo "pikafish: skipped: no network file target/engines/pikafish.nnue (see scripts/build-pikafish.sh)"
  fi
fi
if [ -n "${ENGINES:-}" ]; then
  chosen=()
  for entry in "${engines[@]}"; do
    case " $ENGINES " in *" ${entry%%|*} "*) chosen+=("$entry") ;; esac
  done
  engines=("${chosen[@]}")
fi
[ ${#engines[@]} -gt 0 ] || { echo "engine-check: no engine built (scripts/build-*.sh)" >&2; exit 2; }

# seconds OUT ERR COMMAND...: runs the command, its output into OUT and ERR, and prints the
# seconds it took; its exit status is the command's.
seconds() {
  local out_file=$1 err_file=$2 start end status=0
  shift 2
  start=$(date +%s.%N)
  "$@" > "$out_file" 2> "$err_file" || status=$?
  end=$(date +%s.%N)
  python3 -c "print('%.2f' % ($end - $start))"
  return "$status"
}

# The final position of every game and whether a move can be played there.
"$qipu" -q fen "$games" --limit "$count" --format json --notation uci > "$out/fens.jsonl" 2> "$out/fens.stderr"
python3 - "$out/fens.jsonl" "$qipu" > "$out/finals.json" <<'PY'
import json, subprocess, sys
last = {}
for line in open(sys.argv[1], encoding="utf-8"):
    p = json.loads(line)
    last[p["index"]] = p
finals = []
for index in sorted(last):
    p = last[index]
    moves = subprocess.run([sys.argv[2], "moves", p["fen"]], capture_output=True, text=True).stdout.split()
    finals.append({"index": index, "plies": p["ply"], "fen": p["fen"], "ends": not moves})
json.dump(finals, sys.stdout)
PY

# (b)'s positions: game k's position at ply 10 + 3k (k from 0), as a game of its own: that
# position (a FEN tag) and the move played there.
python3 - "$out/fens.jsonl" "$sample" > "$out/sample.pgn" <<'PY'
import json, sys
games = {}
for line in open(sys.argv[1], encoding="utf-8"):
    p = json.loads(line)
    games.setdefault(p["index"], []).append(p)
for k, index in enumerate(sorted(games)[: int(sys.argv[2])]):
    trail = games[index]
    ply = min(10 + 3 * k, len(trail) - 2)
    here, next_ = trail[ply], trail[ply + 1]
    number = "1." if here["side"] == "red" else "1..."
    print('[Event "engine-check: game %d ply %d"]\n[FEN "%s"]\n\n%s %s *\n' % (index + 1, ply, here["fen"], number, next_["move"]))
PY

failed=0
for entry in "${engines[@]}"; do
  IFS='|' read -r name command protocol variant <<< "$entry"
  echo "== $name ($protocol, depth $depth)"

  # (a) every main-line move evaluated
  time_a=$(seconds "$out/$name.report.jsonl" "$out/$name.stderr" "$qipu" -q analyse "$games" --limit "$count" \
    --engine "$command" --protocol "$protocol" --depth "$depth" --threads 1 --hash 16 --to json \
    -o "$out/$name.json" --format json) || {
    echo "(a) qipu analyse failed: $(tail -n 3 "$out/$name.stderr")"
    failed=1
    continue
  }
  echo "(a) $count games analysed in $time_a s"
  python3 - "$out/$name.json" "$out/finals.json" <<'PY' || failed=1
import json, re, sys
EVAL = re.compile(r"(^|[\s{\[])([+-]?\d+\.\d\d|#-?\d+)(/\d+)?($|[\s}\]])|\[%eval ")
records = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
finals = json.load(open(sys.argv[2], encoding="utf-8"))
moves = evaluated = missing = ends = ends_evaluated = wrong_length = 0
examples = []
if len(records) != len(finals):
    print("    %d records written for %d games" % (len(records), len(finals)))
    wrong_length += 1
for g, (record, final) in enumerate(zip(records, finals)):
    children = {}
    for node in record["nodes"]:
        children.setdefault(node["parent"], []).append(node)
    line, at = [], 0
    while children.get(at):
        node = children[at][0]
        line.append(node)
        at = node["id"]
    if len(line) != final["plies"]:
        wrong_length += 1
        examples.append("game %d: %d main-line moves written, %d read" % (g + 1, len(line), final["plies"]))
    for ply, node in enumerate(line, 1):
        has = node.get("eval") is not None or bool(EVAL.search(node.get("comment") or ""))
        if ply == len(line) and final["ends"]:
            ends += 1
            ends_evaluated += has
            if has:
                examples.append("game %d ply %d: a move that ends the game has an evaluation" % (g + 1, ply))
            continue
        moves += 1
        evaluated += has
        if not has:
            missing += 1
            if len(examples) < 10:
                examples.append("game %d ply %d (%s): no evaluation" % (g + 1, ply, node["move"]))
print("    %d moves, %d evaluated, %d without; %d games end in mate or stalemate (%d of those moves evaluated)"
      % (moves, evaluated, missing, ends, ends_evaluated))
for e in examples[:10]:
    print("    " + e)
sys.exit(1 if missing or ends_evaluated or wrong_length else 0)
PY

  # (b) the sample's positions, each analysed by a run of qipu of its own (a fresh engine, as
  # engine-answer.py's), against engine-answer.py's answers; the same positions searched within
  # the games of (a) are told too
  : > "$out/$name.sample.report.jsonl"
  for ((k = 0; k < sample; k++)); do
    "$qipu" -q analyse "$out/sample.pgn" --skip "$k" --limit 1 --engine "$command" --protocol "$protocol" \
      --depth "$depth" --threads 1 --hash 16 --engines 1 --to json -o "$out/$name.sample.json" --force \
      --format json >> "$out/$name.sample.report.jsonl" 2> "$out/$name.sample.stderr" \
      || echo "(b) qipu analyse of sample game $((k + 1)) failed: $(tail -n 2 "$out/$name.sample.stderr")"
  done
  mapfile -t fens < <(grep -o '^\[FEN "[^"]*' "$out/sample.pgn" | cut -c7-)
  args=(--protocol "$protocol" --depth "$depth")
  [ -n "$variant" ] && args+=(--variant "$variant")
  python3 scripts/engine-answer.py "$command" "${args[@]}" "${fens[@]}" > "$out/$name.answers.jsonl" \
    || echo "(b) scripts/engine-answer.py failed on some positions"
  python3 - "$out/$name.sample.report.jsonl" "$out/$name.report.jsonl" "$out/$name.answers.jsonl" <<'PY' || failed=1
import json, sys
def reports(path):
    try:
        return [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    except FileNotFoundError:
        return []
def key(fen):
    return " ".join(fen.split()[:2])
first = {}
for report in reports(sys.argv[1]):
    for p in report.get("positions") or []:
        if p.get("ply") == 0:
            first.setdefault(key(p["fen"]), p)
within = {}
for report in reports(sys.argv[2]):
    for p in report.get("positions") or []:
        within.setdefault(key(p["fen"]), p)
answers = reports(sys.argv[3])
def same(p, a):
    return p is not None and p.get("best") == a["best"] and p.get("score") == a["score"]
def show(p):
    if p is None:
        return "not reported"
    return "best %s score %s depth %s" % (p.get("best"), json.dumps(p.get("score")), p.get("depth"))
counts = {"alone": [0, 0], "within": [0, 0]}
for a in answers:
    k = key(a["fen"])
    for kind, p in (("alone", first.get(k)), ("within", within.get(k))):
        if kind == "within" and p is None:
            continue
        ok = same(p, a)
        counts[kind][0 if ok else 1] += 1
        if not ok:
            print("    %s mismatch: %s\n      qipu:  %s\n      fresh: %s" % (kind, a["fen"], show(p), show(a)))
print("(b) %d positions against a fresh engine: alone in a run of qipu %d match, %d mismatch;"
      " within the %s games %d match, %d mismatch"
      % (len(answers), counts["alone"][0], counts["alone"][1], "analysed", counts["within"][0], counts["within"][1]))
sys.exit(1 if counts["alone"][1] or not answers else 0)
PY

  # (c) speed
  speed() {
    seconds /dev/null "$out/$name.speed.stderr" "$qipu" -q analyse "$games" --limit "$speed_games" \
      --engine "$command" --protocol "$protocol" --threads 1 --force "$@" \
      || echo "(c) qipu analyse $* failed: $(tail -n 2 "$out/$name.speed.stderr")" >&2
  }
  one=$(speed --depth "$depth" --engines 1 -o "$out/$name.speed1.pgn")
  two=$(speed --depth "$depth" --engines 2 -o "$out/$name.speed2.pgn")
  nodes=$(seconds "$out/$name.nodes1.report.jsonl" "$out/$name.speed.stderr" "$qipu" -q analyse "$games" \
    --limit "$speed_games" --engine "$command" --protocol "$protocol" --threads 1 --force --nodes 1 \
    --engines 1 -o "$out/$name.nodes1.json" --to json --format json) \
    || echo "(c) qipu analyse --nodes 1 failed: $(tail -n 2 "$out/$name.speed.stderr")" >&2
  searches=$(python3 -c 'import json,sys; print(sum(len(json.loads(l).get("positions") or []) for l in open(sys.argv[1]) if l.strip()))' \
    "$out/$name.nodes1.report.jsonl")
  python3 - "$speed_games" "$one" "$two" "$nodes" "$searches" <<'PY'
import sys
games, one, two, nodes, searches = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
print("(c) %s games at the same depth: 1 engine %.2f s, 2 engines %.2f s (%.2fx)" % (games, one, two, one / two if two else 0))
if searches:
    print("    --nodes 1: %d searches in %.2f s, %.2f ms a search" % (searches, nodes, 1000 * nodes / searches))
else:
    print("    --nodes 1: no search reported (%.2f s)" % nodes)
PY
done
exit "$failed"
