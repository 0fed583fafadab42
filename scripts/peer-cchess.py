#!/usr/bin/env python3
"""Times the cchess Python package (walker8088/cchess, from PyPI) reading a
sample of records, as the peer of qipu in scripts/bench.sh.

    python3 scripts/peer-cchess.py pgn FILE [N] [ENCODING]   # the first N games of a PGN file
    python3 scripts/peer-cchess.py xqf DIR [N]               # N XQF files of a directory

For PGN, the first N games (default 200) are split out of FILE, decoded with
ENCODING (default: utf-8; cchess reads UTF-8 only) and written one game per
file to a temporary directory, which cchess then reads with read_from_pgn.
For XQF, every k-th file of DIR (sorted) is read with read_from_xqf, N in all
(default 200). Prints one line: records, main-line moves, seconds, records/s.
"""
import glob
import os
import sys
import tempfile
import time

import cchess


def main_line_moves(game):
    """Main-line plies of a cchess Game, 0 when it has none."""
    try:
        return len(game.dump_moves()[0]["moves"]) if game.dump_moves() else 0
    except Exception:
        return 0


def pgn_sample(path, n, encoding):
    text = open(path, "rb").read().decode(encoding, errors="replace")
    games, current = [], []
    for line in text.splitlines():
        if line.startswith("[Game ") and current:
            games.append("\n".join(current) + "\n")
            current = []
            if len(games) == n:
                break
        current.append(line)
    if current and len(games) < n:
        games.append("\n".join(current) + "\n")
    tmp = tempfile.mkdtemp(prefix="qipu-peer-")
    files = []
    for i, g in enumerate(games):
        f = os.path.join(tmp, f"{i:05}.pgn")
        with open(f, "w", encoding="utf-8") as out:
            out.write(g)
        files.append(f)
    return files, cchess.read_from_pgn


def xqf_sample(directory, n):
    files = sorted(
        p for p in glob.glob(os.path.join(directory, "**", "*"), recursive=True)
        if os.path.isfile(p) and p.lower().endswith(".xqf")
    )
    step = max(1, len(files) // n)
    return files[::step][:n], cchess.read_from_xqf


def main():
    kind, path = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    if kind == "pgn":
        files, read = pgn_sample(path, n, sys.argv[4] if len(sys.argv) > 4 else "utf-8")
    else:
        files, read = xqf_sample(path, n)
    sys.setrecursionlimit(200000)
    start = time.perf_counter()
    records = moves = 0
    for f in files:
        try:
            game = read(f)
        except Exception:
            continue
        if game is not None:
            records += 1
            moves += main_line_moves(game)
    secs = time.perf_counter() - start
    print(f"cchess {cchess.__name__} {kind}: {records} records of {len(files)}, {moves} moves, {secs:.2f} s, {records / secs:.1f} records/s")


if __name__ == "__main__":
    main()
