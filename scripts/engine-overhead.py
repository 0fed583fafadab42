#!/usr/bin/env python3
"""qipu's own cost per engine search, beside the engine's: by hand, not in CI.

    python3 scripts/engine-overhead.py QIPU ENGINE --protocol uci|ucci [--games N] [--limit "nodes 1"]

Takes the first N games (default 20) of the PGN fixture, has `qipu analyse --engines 1` search
every main-line position of them with ENGINE (one engine, so that nothing runs in parallel),
then drives a fresh ENGINE process itself with the same positions, one `position fen FEN` and
`go ...` after another, each waiting for `bestmove` (as qipu does, with an `isready` per game).
Prints both wall times and the difference per search: what qipu adds to the engine's time
(reading, replaying, the protocol, annotating and writing). Run it on an idle machine, a few
times; the figure is the smallest difference.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn")


def drive(engine, protocol, limit, games):
    """Seconds a fresh engine takes to answer every position, one after another."""
    p = subprocess.Popen(engine, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(word):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            if line.split()[:1] == [word] or line.strip() == word:
                return

    send(protocol)
    until("uciok" if protocol == "uci" else "ucciok")
    if protocol == "ucci":
        send("setoption usebook false")
    start = time.perf_counter()
    searches = 0
    for fens in games:
        if protocol == "uci":
            send("ucinewgame")
        send("isready")
        until("readyok")
        for fen in fens:
            send("position fen " + fen)
            send("go " + limit)
            while True:
                line = p.stdout.readline()
                if not line:
                    sys.exit("the engine stopped")
                if line.startswith("bestmove") or line.startswith("nobestmove"):
                    break
            searches += 1
    seconds = time.perf_counter() - start
    send("quit")
    p.wait()
    return seconds, searches


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qipu")
    ap.add_argument("engine")
    ap.add_argument("--protocol", choices=["uci", "ucci"], required=True)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--limit", default="nodes 1")
    args = ap.parse_args()
    # The engine alone is given exactly the positions qipu searched (its JSON report names
    # them; a position with no legal move is not searched).
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.pgn")
        kind, value = args.limit.split()
        start = time.perf_counter()
        report = subprocess.run(
            [args.qipu, "analyse", FIXTURE, "--limit", str(args.games), "--engine", args.engine,
             "--protocol", args.protocol, "--engines", "1", "--" + kind, value, "--format", "json", "-o", out],
            check=True, capture_output=True, text=True,
        ).stdout
        qipu_seconds = time.perf_counter() - start
    searched = []
    for line in report.splitlines():
        row = json.loads(line)
        searched.append([p["fen"] for p in row["positions"]])
    engine_seconds, searches = drive(args.engine, args.protocol, args.limit, searched)
    print(json.dumps({
        "games": args.games,
        "searches": searches,
        "qipu_seconds": round(qipu_seconds, 3),
        "engine_alone_seconds": round(engine_seconds, 3),
        "qipu_ms_per_search": round(1000 * qipu_seconds / searches, 3),
        "engine_ms_per_search": round(1000 * engine_seconds / searches, 3),
        "overhead_ms_per_search": round(1000 * (qipu_seconds - engine_seconds) / searches, 3),
    }))


if __name__ == "__main__":
    main()
