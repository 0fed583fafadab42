#!/usr/bin/env python3
"""Replay every block of tests/data/rulings/rulebook.txt with qipu.

Checks, for each example: the required keys are present, the verdicts use the
fixture's vocabulary, every move is legal (qipu validate), and the position
after the last move equals the first one, which then stands for the third time.
Usage: scripts/check_rulebook.py [FIXTURE] [QIPU]
"""
import json, os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
fixture = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests/data/rulings/rulebook.txt")
qipu = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "target/release/qipu")
KEYS = ["id", "source", "fen", "moves", "asian", "chinese", "note"]
KINDS = {"perpetual-check", "perpetual-chase", "check-chase", "perpetual-mate-threat", "mate-threat-mixed"}

def verdict_ok(v):
    if v in ("draw", "-"):
        return True
    m = re.fullmatch(r"(red|black)-loses (\S+)", v)
    return bool(m) and m.group(2) in KINDS

blocks = [b for b in open(fixture, encoding="utf-8").read().split("\n\n") if b.strip()]
bad = 0
ids = set()
for block in blocks:
    rec = {}
    for line in block.strip().splitlines():
        k, _, v = line.partition(":")
        rec[k.strip()] = v.strip()
    name = rec.get("id", "?")
    problems = []
    for k in KEYS:
        if k not in rec:
            problems.append("missing " + k)
    if name in ids:
        problems.append("duplicate id")
    ids.add(name)
    for k in ("asian", "chinese"):
        if k in rec and not verdict_ok(rec[k]):
            problems.append("bad verdict " + rec[k])
    if rec.get("asian") == "-" and rec.get("chinese") == "-":
        problems.append("no ruling")
    if not problems:
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            fen = rec["fen"]
            if len(fen.split()) == 2:
                fen += " - - 0 1"
            f.write('[FEN "%s"]\n\n%s *\n' % (fen, rec["moves"]))
            path = f.name
        out = subprocess.run([qipu, "validate", path, "--format", "json"], capture_output=True, text=True)
        status = json.loads(out.stdout.splitlines()[0])
        if status["status"] != "valid":
            problems.append("illegal: %s" % status["error"])
        else:
            trail = subprocess.run([qipu, "fen", path, "--format", "text"], capture_output=True, text=True).stdout
            fens = [" ".join(l.split("\t")[4].split()[:2]) for l in trail.splitlines() if l.count("\t") >= 4]
            if fens[0] != fens[-1]:
                problems.append("last position differs from the first")
            elif fens.count(fens[0]) != 3:
                problems.append("first position stands %d times, not 3" % fens.count(fens[0]))
        os.unlink(path)
    if problems:
        bad += 1
        print("%s: %s" % (name, "; ".join(problems)))
print("%d passed, %d failed" % (len(blocks) - bad, bad))
sys.exit(1 if bad else 0)
