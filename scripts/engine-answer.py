#!/usr/bin/env python3
"""What an engine answers for each position, each searched by a fresh engine process: the
reference scripts/engine-check.sh compares `qipu analyse --format json` with.

    scripts/engine-answer.py ENGINE_CMD --protocol uci|ucci [--variant xiangqi] --depth N FEN...

ENGINE_CMD is the engine's program and arguments as one string. For each FEN the engine is
started, told `uci` (then `setoption name UCI_Variant value xiangqi` with --variant) or `ucci`
(then `setoption usebook false`), `isready`, `position fen FEN` and `go depth N`; its last
`info` line with a score (MultiPV line 1) and its `bestmove` give one JSON line:

    {"fen": FEN, "best": "h2e2" | null, "score": {"cp": X} | {"mate": N} | null, "depth": D}

Moves are 0-based ICCS (Fairy-Stockfish's ranks 1..10 are brought down by one); scores are from
the side to move, mates in moves (negative when the side to move is mated). ElephantEye's mate
scores (10000 less the plies to mate; 9900 and below a win by the repetition rules, kept as cp)
are turned into moves as UCI engines count them. Standard library only.
"""

import argparse
import json
import queue
import re
import shlex
import subprocess
import sys
import threading
import time

MOVE = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$")
UCCI_MATE_VALUE = 10000
UCCI_BAN_VALUE = 9900


class EngineFailed(Exception):
    """The engine died, was silent too long or answered what cannot be read."""


class Engine:
    """One engine process, read line by line with deadlines."""

    def __init__(self, command):
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as e:
            raise EngineFailed("cannot start `%s`: %s" % (command, e))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").strip())
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFailed("the engine stopped before `%s`" % line)

    def until(self, done, timeout):
        """Lines up to and including the first for which done(line) holds."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailed("no answer in %d s (last lines: %s)" % (timeout, seen[-3:]))
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineFailed("the engine stopped (exit %s; last lines: %s)" % (self.proc.wait(), seen[-3:]))
            seen.append(line)
            if done(line):
                return seen

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineFailed, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def zero_based(move, ranks_from_one):
    m = MOVE.match(move or "")
    if not m:
        return None
    if not ranks_from_one:
        return move
    return "%s%d%s%d" % (m.group(1), int(m.group(2)) - 1, m.group(3), int(m.group(4)) - 1)


def ucci_score(value):
    """An ElephantEye score as {"cp"} or {"mate"} (moves, UCI's way of counting)."""
    if abs(value) > UCCI_BAN_VALUE:
        plies = UCCI_MATE_VALUE - abs(value)
        return {"mate": (plies + 1) // 2 if value > 0 else -(plies // 2)}
    return {"cp": value}


def parse_info(line, uci):
    """(depth, multipv, score) of an `info` line with a depth and a score, else None."""
    words = line.split()
    if not words or words[0] != "info" or "score" not in words or "depth" not in words:
        return None
    try:
        depth = int(words[words.index("depth") + 1])
        multipv = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
        at = words.index("score") + 1
        if uci:
            kind, value = words[at], int(words[at + 1])
            if kind not in ("cp", "mate"):
                return None
            score = {kind: value}
        else:
            score = ucci_score(int(words[at]))
    except (IndexError, ValueError):
        return None
    return depth, multipv, score


def answer(command, protocol, variant, depth, fen, timeout):
    uci = protocol == "uci"
    engine = Engine(command)
    try:
        if uci:
            engine.send("uci")
            engine.until(lambda l: l == "uciok", 30)
            if variant:
                engine.send("setoption name UCI_Variant value " + variant)
        else:
            engine.send("ucci")
            engine.until(lambda l: l == "ucciok", 30)
            engine.send("setoption usebook false")
        engine.send("isready")
        engine.until(lambda l: l == "readyok", 30)
        engine.send("position fen " + fen)
        engine.send("go depth %d" % depth)
        lines = engine.until(lambda l: l.startswith("bestmove") or l == "nobestmove", timeout)
    finally:
        engine.close()
    result = {"fen": fen, "best": None, "score": None, "depth": None}
    for line in lines:
        info = parse_info(line, uci)
        if info and info[1] == 1:
            result["depth"], result["score"] = info[0], info[2]
    last = lines[-1].split()
    if last[0] == "bestmove" and len(last) > 1:
        result["best"] = zero_based(last[1], bool(variant))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", metavar="ENGINE_CMD")
    parser.add_argument("--protocol", choices=["uci", "ucci"], required=True)
    parser.add_argument("--variant", help="UCI_Variant to set (xiangqi for Fairy-Stockfish)")
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--timeout", type=int, default=300, help="seconds a search may take")
    parser.add_argument("fens", nargs="+", metavar="FEN")
    args = parser.parse_args()
    failed = 0
    for fen in args.fens:
        try:
            result = answer(args.engine, args.protocol, args.variant, args.depth, fen, args.timeout)
        except EngineFailed as e:
            print("engine-answer: %s: %s" % (fen, e), file=sys.stderr)
            failed += 1
            continue
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
