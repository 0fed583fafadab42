#!/usr/bin/env python3
"""Generate the QQ象棋 .che, 中游 .ccm and 联众 .chn fixtures (fixtures/online/) and check
them with ElephantEye's converters.

No real file of these three formats is at hand, so the fixtures are written here, in the
layouts that ElephantEye's XQFTOOLS converters (che2pgn.cpp, ccm2pgn.cpp, chn2pgn.cpp of
xqbase/eleeye, LGPL, commit 7009f694ba6433f3360ad7c410ce05f596c05d51) read, and then
checked by those converters themselves: they are built with g++ under target/old-formats/
(never committed), each file is converted to PGN, and the PGN's moves (turned into ICCS by
`qipu convert --to uci`) must be the game written, move for move.

    python3 scripts/gen-old-formats.py [ELEEYE]

ELEEYE is a clone of xqbase/eleeye (or its bare git directory); without it the sources are
cloned from GitHub. The commit above is taken from it with `git archive`. Needs g++, git
and the debug build of qipu (`cargo build`; $QIPU overrides target/debug/qipu).

The games: games 1, 2, 3 and 45 of fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn (main lines
from the standard start, as `qipu convert --to uci` writes them), written to
fixtures/online/games.uci, one line per game in the order of the files gameN.*.
The layouts (see crates/qipu/src/formats/online/mod.rs for the byte-level spec):

  .che  "1 N " then ten numbers a move: piece, 32, side (1 Red, 0 Black), from rank,
        from column, to rank, to column, 0, the move's number, 0. The piece numbers and
        the fields ElephantEye skips are written as vschess writes them; the columns count
        from file a (0), as ElephantEye reads them, except in game4.che, which counts them from
        file i as vschess does (ElephantEye reads that one mirrored, and the check expects so;
        qipu tells it by its piece numbers).
  .ccm  7-byte records: 01 00 00, from column, to column, from row, to row (rows from the
        top). Game 1 is written as the board stands, the others turned round (column
        8 - c, row 9 - r), the way vschess expects; ElephantEye reads both.
  .chn  188 zero bytes, then 32-byte records of 16-bit little-endian words: 0, 0, from
        column, from row, to column, to row, then 10 zero words (ElephantEye's ChnRecord). Game 2 is written as the
        board stands, the others turned round.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMIT = "7009f694ba6433f3360ad7c410ce05f596c05d51"
OUT = os.path.join(ROOT, "fixtures", "online")
BUILD = os.path.join(ROOT, "target", "old-formats")
SOURCE_PGN = os.path.join(ROOT, "fixtures", "pgn", "Hu_Ronghua_1391_UCI_games.pgn")
GAMES = [1, 2, 3, 45]  # numbered from 1, as the file's games come
QIPU = os.environ.get("QIPU", os.path.join(ROOT, "target", "debug", "qipu"))

# vschess's piece numbers by start square (ICCS), Black 0-15, Red 16-31.
START_PIECES = {
    "e9": 0, "f9": 1, "d9": 2, "g9": 3, "c9": 4, "h9": 5, "b9": 6, "i9": 7, "a9": 8,
    "h7": 9, "b7": 10, "i6": 11, "g6": 12, "e6": 13, "c6": 14, "a6": 15,
    "e0": 16, "d0": 17, "f0": 18, "c0": 19, "g0": 20, "b0": 21, "h0": 22, "a0": 23, "i0": 24,
    "b2": 25, "h2": 26, "a3": 27, "c3": 28, "e3": 29, "g3": 30, "i3": 31,
}


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, **kw)


def games():
    """The main lines of the chosen games, as lists of ICCS moves."""
    out = run([QIPU, "-q", "convert", SOURCE_PGN, "--to", "uci"]).stdout.decode()
    lines = out.splitlines()
    chosen = []
    for n in GAMES:
        words = lines[n - 1].split()
        assert words[:3] == ["position", "startpos", "moves"], lines[n - 1]
        chosen.append(words[3:])
    return chosen


def point(square):
    """(column from file a, rank from Red's back rank) of an ICCS square."""
    return ord(square[0]) - ord("a"), int(square[1])


def mirrored(mv):
    """A move mirrored left to right (file a <-> file i)."""
    flip = lambda sq: chr(ord("a") + ord("i") - ord(sq[0])) + sq[1]
    return flip(mv[:2]) + flip(mv[2:])


def che(moves, from_i=False):
    pieces = dict(START_PIECES)
    out = ["1", str(len(moves))]
    for k, mv in enumerate(moves):
        src, dst = mv[:2], mv[2:]
        piece = pieces.pop(src)
        pieces[dst] = piece
        (c1, r1), (c2, r2) = point(src), point(dst)
        if from_i:
            c1, c2 = 8 - c1, 8 - c2
        out += [str(v) for v in (piece, 32, 1 - k % 2, r1, c1, r2, c2, 0, k + 1, 0)]
    return (" ".join(out) + " ").encode()


def grid(mv, turned):
    """(from column, from row, to column, to row), rows from the top."""
    (c1, r1), (c2, r2) = point(mv[:2]), point(mv[2:])
    cells = [c1, 9 - r1, c2, 9 - r2]
    if turned:
        cells = [8 - cells[0], 9 - cells[1], 8 - cells[2], 9 - cells[3]]
    return cells


def ccm(moves, turned):
    out = bytearray()
    for mv in moves:
        c1, r1, c2, r2 = grid(mv, turned)
        out += bytes([1, 0, 0, c1, c2, r1, r2])
    return bytes(out)


def chn(moves, turned):
    out = bytearray(188)
    for mv in moves:
        c1, r1, c2, r2 = grid(mv, turned)
        for word in [0, 0, c1, r1, c2, r2] + [0] * 10:
            out += word.to_bytes(2, "little")
    return bytes(out)


def build(eleeye):
    """Builds che2pgn, ccm2pgn and chn2pgn under target/old-formats/."""
    src = os.path.join(BUILD, "src")
    if not os.path.isdir(os.path.join(src, "XQFTOOLS")):
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(src)
        if eleeye is None:
            eleeye = os.path.join(BUILD, "clone")
            if not os.path.isdir(eleeye):
                run(["git", "clone", "https://github.com/xqbase/eleeye", eleeye])
        archive = run(["git", "--git-dir", git_dir(eleeye), "archive", COMMIT,
                       "base", "eleeye", "cchess", "XQFTOOLS"]).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    tools = {}
    for name in ("che2pgn", "ccm2pgn", "chn2pgn"):
        exe = os.path.join(BUILD, name)
        # Built as the folder's makefile.sh builds its tools; -fpermissive for today's g++.
        # Nothing of the tools is Windows-only once _WIN32 is not defined (the ECCO library
        # is looked up with dlopen and, absent, left out).
        run(["g++", "-w", "-fpermissive", "-DNDEBUG", "-O1", "-o", exe,
             "../eleeye/pregen.cpp", "../eleeye/position.cpp", "../eleeye/genmoves.cpp",
             "../cchess/cchess.cpp", "../cchess/pgnfile.cpp", name + ".cpp", "-ldl"],
            cwd=os.path.join(src, "XQFTOOLS"))
        tools[name[:3]] = exe
    return tools


def git_dir(path):
    dotgit = os.path.join(path, ".git")
    return dotgit if os.path.exists(dotgit) else path


def check(tools, path, kind, moves):
    """Converts `path` with ElephantEye's converter and compares the moves
    (`moves` as ElephantEye is to read them)."""
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "out.pgn")
        run([tools[kind], path, pgn])
        out = subprocess.run([QIPU, "-q", "convert", pgn, "--to", "uci"], capture_output=True)
        words = out.stdout.decode().split()
    read = words[3:]
    if read != moves:
        first = next((i for i, (a, b) in enumerate(zip(read, moves)) if a != b), min(len(read), len(moves)))
        sys.exit(f"{path}: ElephantEye reads {len(read)} moves, {len(moves)} written; "
                 f"they part at ply {first + 1}")
    return len(read)


def main():
    eleeye = sys.argv[1] if len(sys.argv) > 1 else None
    chosen = games()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "games.uci"), "w") as f:
        for moves in chosen:
            f.write("position startpos moves " + " ".join(moves) + "\n")
    files = []
    for k, moves in enumerate(chosen, start=1):
        # Game 4's .che counts its columns from file i, as vschess writes them: ElephantEye
        # reads it mirrored (qipu tells it by its piece numbers).
        from_i = k == 4
        for kind, data in (("che", che(moves, from_i)), ("ccm", ccm(moves, k != 1)), ("chn", chn(moves, k != 2))):
            path = os.path.join(OUT, f"game{k}.{kind}")
            with open(path, "wb") as f:
                f.write(data)
            read = [mirrored(mv) for mv in moves] if kind == "che" and from_i else moves
            files.append((path, kind, read))
    tools = build(eleeye)
    for path, kind, moves in files:
        plies = check(tools, path, kind, moves)
        note = " (mirrored, as written)" if moves != chosen[int(os.path.basename(path)[4]) - 1] else ""
        print(f"{os.path.relpath(path, ROOT)}: {plies} plies, as ElephantEye's {kind}2pgn reads them{note}")


if __name__ == "__main__":
    main()
