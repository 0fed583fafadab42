#!/usr/bin/env python3
"""Generate the Xiangqi move-generation fixture tests/data/movegen-pyffish.txt.gz.

It lists positions with the legal moves that pyffish (Python bindings of
Fairy-Stockfish) computes for them, to check qipu's move generator against an
independent implementation. Generated with pyffish 0.0.90; to regenerate
(from the repository root, takes about 2 minutes):

    pip install pyffish==0.0.90
    python3 scripts/gen-movegen-fixture.py

Reproducible: fixed seed, sorted moves, gzip header without timestamp, so
the same pyffish version gives the same bytes. Output, after `#` comment
lines, one position per line: `<FEN>;<status>;<moves>` where

  FEN     6-field Xiangqi FEN, letters K A B N R C P (upper case = Red),
          side `w` (Red) or `b` (Black).
  status  `check` if the side to move is in check, else `-`.
  moves   legal moves in 0-based ICCS (`h2e2`), sorted, space separated;
          empty when there are none (checkmate or stalemate).

Positions come from (1) the start position, a few fixed positions and the
Chess Programming Wiki perft positions, (2) random games from the start
position (some preferring captures), and (3) random few-piece setups with
every piece on a square it may legally stand on, each followed by a short
random game, plus a targeted search for setups without legal moves.
Positions are deduplicated by piece placement + side to move.

Note: pyffish writes moves in UCI with ranks 1..10 (`h3e3`, `h10g8`); they
are converted here to 0-based ranks (`h2e2`, `h9g7`).
"""
import gzip
import os
import random
import re
import sys

import pyffish as sf

V = "xiangqi"
SEED = 20240601
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                   "movegen-pyffish.txt.gz")
FILES = "abcdefghi"

FIXED = [
    sf.start_fen(V),
    "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",   # exactly one move: d0d1
    "3k5/4P4/4P4/9/9/9/9/9/9/4K4 b - - 0 1",  # stalemate
] + [p + " w - - 0 1" for p in [  # Chess Programming Wiki perft positions
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3",
]]

UCI_RE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")


def to_iccs(uci):
    """Convert a pyffish UCI move (ranks 1..10) to 0-based ICCS (ranks 0..9)."""
    m = UCI_RE.match(uci)
    assert m, f"unexpected move format: {uci!r}"
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def normalise(fen):
    """Use B/N for elephant/horse even if a pyffish build prints E/H."""
    fields = fen.split()
    assert len(fields) == 6, fen
    fields[0] = fields[0].translate(str.maketrans("EHeh", "BNbn"))
    assert re.fullmatch(r"[KABNRCPkabnrcp1-9/]+", fields[0]), fen
    return " ".join(fields)


records = {}  # "placement side" -> output line; dicts keep insertion order
uci_moves = {}  # "placement side" -> pyffish legal moves (avoids repeated calls)
stats = {"check": 0, "mate": 0, "stalemate": 0, "moves": 0}


def record(fen):
    """Add a position (once) with its check status and sorted legal moves.
    Returns pyffish's legal moves (UCI) for the position."""
    fen = normalise(fen)
    key = " ".join(fen.split()[:2])
    if key in records:
        return uci_moves[key]
    in_check = sf.gives_check(V, fen, [])  # empty move list: side to move in check?
    uci_moves[key] = sf.legal_moves(V, fen, [])
    moves = sorted(to_iccs(m) for m in uci_moves[key])
    stats["check"] += in_check
    stats["moves"] += len(moves)
    if not moves:
        stats["mate" if in_check else "stalemate"] += 1
    records[key] = f"{fen};{'check' if in_check else '-'};{' '.join(moves)}"
    return uci_moves[key]


def occupied(fen):
    """Set of occupied squares as UCI names ('a1' .. 'i10'), for spotting captures."""
    rows = [re.sub("[1-9]", lambda d: "." * int(d[0]), r) for r in fen.split()[0].split("/")]
    return {f"{FILES[f]}{10 - i}"
            for i, row in enumerate(rows) for f, c in enumerate(row) if c != "."}


def random_game(rng, fen, max_plies, capture_bias=0.0):
    """Play random legal moves from fen, recording every position reached."""
    moves = record(fen)
    for _ in range(max_plies):
        if not moves:
            break
        choices = moves
        if capture_bias and rng.random() < capture_bias:
            occ = occupied(fen)  # a capture's target square (last 2-3 chars) is occupied
            choices = [m for m in moves if "".join(UCI_RE.match(m).group(3, 4)) in occ] or moves
        fen = sf.get_fen(V, fen, [rng.choice(choices)])  # same as replaying from start
        moves = record(fen)


# ---- random few-piece setups -------------------------------------------------

def squares(files, ranks):
    return [(f, r) for r in ranks for f in files]


ALL = squares(range(9), range(10))
# Allowed squares per piece letter, (file 0..8, rank 0..9), rank 0 = Red's back rank.
ALLOWED = {
    "K": squares(range(3, 6), range(0, 3)),
    "k": squares(range(3, 6), range(7, 10)),
    "A": [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)],
    "a": [(3, 9), (5, 9), (4, 8), (3, 7), (5, 7)],
    "B": [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)],
    "b": [(2, 9), (6, 9), (0, 7), (4, 7), (8, 7), (2, 5), (6, 5)],
    "P": squares(range(0, 9, 2), (3, 4)) + squares(range(9), range(5, 10)),
    "p": squares(range(0, 9, 2), (6, 5)) + squares(range(9), range(0, 5)),
}
for letter in "NRC":
    ALLOWED[letter] = ALLOWED[letter.lower()] = ALL
MAX_COUNT = {"A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}


def to_fen(board, side):
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, r))
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def kings_face(board):
    (rk,) = [s for s, p in board.items() if p == "K"]
    (bk,) = [s for s, p in board.items() if p == "k"]
    if rk[0] != bk[0]:
        return False
    return not any((rk[0], r) in board for r in range(rk[1] + 1, bk[1]))


def random_setup(rng, red_extra, black_extra):
    """Random legal-looking setup with the given numbers of non-king pieces per side,
    or None if it is rejected (kings facing, invalid, or side not to move in check)."""
    board = {}
    for letter, extra in (("K", red_extra), ("k", black_extra)):
        board[rng.choice(ALLOWED[letter])] = letter
        counts = dict.fromkeys(MAX_COUNT, 0)
        for _ in range(extra):
            kind = rng.choice([k for k in MAX_COUNT if counts[k] < MAX_COUNT[k]])
            piece = kind if letter == "K" else kind.lower()
            free = [s for s in ALLOWED[piece] if s not in board]
            if free:
                counts[kind] += 1
                board[rng.choice(free)] = piece
    if kings_face(board):
        return None
    side = rng.choice("wb")
    fen = to_fen(board, side)
    if sf.validate_fen(fen, V) != sf.FEN_OK:
        return None
    if sf.gives_check(V, to_fen(board, "b" if side == "w" else "w"), []):
        return None  # the side that just moved would have left its king in check
    return fen


def self_check():
    """Sanity checks of the pyffish conventions relied on above."""
    if sf.version() != (0, 0, 90):
        print(f"warning: pyffish {sf.version()} is not 0.0.90, output may differ", file=sys.stderr)
    start = sorted(to_iccs(m) for m in sf.legal_moves(V, sf.start_fen(V), []))
    assert len(start) == 44 and "h2e2" in start and "b0c2" in start and "h2h9" in start
    assert not any(m[1] in "56789" for m in start)  # all Red moves start on ranks 0..4
    assert sf.gives_check(V, "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", [])
    assert not sf.gives_check(V, sf.start_fen(V), [])
    assert sf.legal_moves(V, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", []) == ["d1d2"]
    # the halfmove clock does not restrict legal_moves
    assert len(sf.legal_moves(V, sf.start_fen(V).replace(" 0 1", " 150 80"), [])) == 44


def main():
    self_check()
    rng = random.Random(SEED)
    n_games, n_setups, n_search = 70, 460, 15000

    # 1. fixed positions
    for fen in FIXED:
        record(fen)
    # 2. random games from the start position; every other game prefers captures
    for g in range(n_games):
        random_game(rng, sf.start_fen(V), 200, capture_bias=0.5 if g % 2 else 0.0)
    after_games, game_stats = len(records), dict(stats)
    # 3. random few-piece setups, each followed by a short random game
    done = 0
    while done < n_setups:
        fen = random_setup(rng, rng.randint(0, 6), rng.randint(0, 6))
        if fen:
            done += 1
            random_game(rng, fen, 30, capture_bias=0.3)
    # 4. targeted search: lopsided setups where the side to move has no legal moves
    found = 0
    for _ in range(n_search):
        strong, weak = rng.randint(2, 7), rng.randint(0, 2)
        fen = random_setup(rng, *((strong, weak) if rng.random() < 0.5 else (weak, strong)))
        if fen and not sf.legal_moves(V, fen, []):
            found += 1
            record(fen)

    header = [
        "# Xiangqi legal-move fixture generated by scripts/gen-movegen-fixture.py",
        f"# pyffish {'.'.join(map(str, sf.version()))}, variant {V}, seed {SEED}",
        f"# positions {len(records)}, in check {stats['check']}, checkmates {stats['mate']},"
        f" stalemates {stats['stalemate']}, moves {stats['moves']}",
        "# format: <FEN>;<check|->;<sorted 0-based ICCS legal moves, space separated>",
    ]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    data = ("\n".join(header + list(records.values())) + "\n").encode()
    with open(OUT, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb",
                                               compresslevel=9, mtime=0) as gz:
        gz.write(data)
    part2 = {k: stats[k] - game_stats[k] for k in stats}
    print(f"games: {after_games} positions {game_stats}; setups: {len(records) - after_games}"
          f" positions {part2}; no-move setups found by search: {found}", file=sys.stderr)
    print("\n".join(header[1:3]), file=sys.stderr)


if __name__ == "__main__":
    main()
