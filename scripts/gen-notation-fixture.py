#!/usr/bin/env python3
"""Generate the WXF notation fixture tests/data/notation-pyffish-wxf.txt.gz.

It lists (position, move) pairs with the WXF notation that pyffish (Python
bindings of Fairy-Stockfish) writes for them, so that qipu can check that it
reads what Fairy-Stockfish writes, including the hard cases: two rooks, horses,
cannons or pawns of a side on one file (`R+=3`, `H--7`), advisors/elephants
sharing a file, 3 to 5 pawns on a file, two files with 2+ pawns (`15=6`).
Generated with pyffish 0.0.90; to regenerate (from the repository root, about
3 minutes):

    pip install pyffish==0.0.90
    python3 scripts/gen-notation-fixture.py

Reproducible: fixed seed, gzip header without timestamp, so the same pyffish
version gives the same bytes. Output, after `#` comment lines, one line per
(position, move): `<FEN>;<iccs>;<wxf>` where

  FEN   6-field Xiangqi FEN as pyffish writes it, letters K A B N R C P
        (upper case = Red), side `w` (Red) or `b` (Black).
  iccs  a legal move in 0-based ICCS (`h2e2`); pyffish's UCI has ranks 1..10
        (`h3e3`, `h10g8`), converted here to 0-based ranks (`h2e2`, `h9g7`).
  wxf   the string returned by pyffish.get_san("xiangqi", fen, uci, False,
        pyffish.NOTATION_XIANGQI_WXF) (it uses E/H for elephant/horse).

Positions come from random games from the start position and from random
setups biased towards tandem pieces, every piece on a square it may legally
stand on, each followed by a few random plies; deduplicated by placement +
side to move. Per position: every legal move of a piece sharing its file with
another piece of the same kind and side, plus up to 3 other random moves.
"""
import collections
import gzip
import os
import random
import re
import sys

import pyffish as sf

V = "xiangqi"
SEED = 20240615
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                   "notation-pyffish-wxf.txt.gz")
FILES = "abcdefghi"
WXF = sf.NOTATION_XIANGQI_WXF
N_GAMES, GAME_PLIES, TARGET_POSITIONS = 30, 150, 12000
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


def parse(fen):
    """Board of a FEN as {(file 0..8, rank 0..9): piece letter}."""
    rows = [re.sub("[1-9]", lambda d: "." * int(d[0]), r) for r in fen.split()[0].split("/")]
    return {(f, 9 - i): c for i, row in enumerate(rows) for f, c in enumerate(row) if c != "."}


def to_fen(board, side):  # board as parse() returns it
    rows = ["".join(board.get((f, r), ".") for f in range(9)) for r in range(9, -1, -1)]
    placement = re.sub(r"\.+", lambda m: str(len(m[0])), "/".join(rows))
    return f"{placement} {side} - - 0 1"


records = {}  # "placement side" -> output lines; dicts keep insertion order
problems = []  # WXF strings shared by two moves of one position


def record(rng, fen):
    """Add a position (once) with its tandem moves and up to 3 other moves.
    Returns pyffish's legal moves (UCI) for the position, or None if seen."""
    fen = normalise(sf.get_fen(V, fen, []))
    key = " ".join(fen.split()[:2])
    if key in records:
        return None
    legal = sf.legal_moves(V, fen, [])
    board = parse(fen)
    per_file = collections.Counter((p, f) for (f, _), p in board.items())
    tandem, other = [], []
    for uci in sorted(legal):
        iccs = to_iccs(uci)
        src = (FILES.index(iccs[0]), int(iccs[1]))
        (tandem if per_file[(board[src], src[0])] >= 2 else other).append(uci)
    chosen = tandem + rng.sample(other, min(3, len(other)))
    lines, seen = [], {}
    for uci in chosen:
        wxf = sf.get_san(V, fen, uci, False, WXF).strip()
        if wxf in seen:
            problems.append(f"{fen}: {seen[wxf]} and {to_iccs(uci)} both {wxf}")
        seen[wxf] = to_iccs(uci)
        lines.append(f"{fen};{to_iccs(uci)};{wxf}")
    records[key] = sorted(lines)
    return legal


def random_game(rng, fen, max_plies):
    """Play random legal moves from fen, recording every position reached."""
    for _ in range(max_plies + 1):
        moves = record(rng, fen) or sf.legal_moves(V, fen, [])
        if not moves:
            break
        fen = sf.get_fen(V, fen, [rng.choice(sorted(moves))])


# ---- random setups biased towards tandem pieces -------------------------------

def squares(files, ranks):
    return [(f, r) for r in ranks for f in files]


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
for letter in "NRCnrc":
    ALLOWED[letter] = squares(range(9), range(10))
MAX_COUNT = {"A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}
CROSSED = {"P": range(5, 10), "p": range(0, 5)}  # ranks beyond the river


def place_on_file(rng, board, counts, piece, file, n, crossed=False):
    """Put up to n pieces on free allowed squares of one file, within MAX_COUNT."""
    free = [s for s in ALLOWED[piece] if s[0] == file and s not in board
            and (not crossed or s[1] in CROSSED[piece])]
    n = min(n, len(free), MAX_COUNT[piece.upper()] - counts[piece.upper()])
    for s in rng.sample(free, max(n, 0)):
        board[s] = piece
        counts[piece.upper()] += 1


def themed_side(rng, board, red):
    """Add pieces of one side by one or two tandem themes, then a few random ones."""
    case = str.upper if red else str.lower
    counts = collections.Counter()
    for _ in range(rng.choice((1, 1, 2))):
        theme = rng.choice(("pair", "pair", "pair", "stack", "stack", "twofiles", "palace"))
        if theme == "pair":  # two rooks, horses or cannons on one file
            place_on_file(rng, board, counts, case(rng.choice("RNC")), rng.randrange(9), 2)
        elif theme == "stack":  # 2..5 pawns on one file, usually all across the river
            file = rng.randrange(9)
            place_on_file(rng, board, counts, case("P"), file, rng.choice((2, 3, 3, 4, 4, 5, 5)),
                          crossed=file % 2 == 1 or rng.random() < 0.7)
        elif theme == "twofiles":  # two files with 2..3 pawns each (at most 5 in all)
            f1, f2 = rng.sample(range(9), 2)
            n1 = rng.choice((2, 3))
            place_on_file(rng, board, counts, case("P"), f1, n1, crossed=True)
            place_on_file(rng, board, counts, case("P"), f2, 5 - n1 if rng.random() < 0.5 else 2,
                          crossed=f2 % 2 == 1 or rng.random() < 0.7)
        else:  # advisors or elephants sharing a file
            piece = case(rng.choice("AB"))
            file = rng.choice((3, 5) if piece in "Aa" else (2, 6))
            place_on_file(rng, board, counts, piece, file, 2)
    for _ in range(rng.randint(0, 5)):
        kinds = [k for k in MAX_COUNT if counts[k] < MAX_COUNT[k]]
        piece = case(rng.choice(kinds))
        free = [s for s in ALLOWED[piece] if s not in board]
        if free:
            counts[piece.upper()] += 1
            board[rng.choice(free)] = piece


def kings_face(board):
    (rk,), (bk,) = ([s for s, p in board.items() if p == k] for k in "Kk")
    return rk[0] == bk[0] and not any((rk[0], r) in board for r in range(rk[1] + 1, bk[1]))


def random_setup(rng):
    """Random tandem-rich setup, or None if it is rejected (kings facing, invalid,
    or the side not to move in check)."""
    board = {rng.choice(ALLOWED["K"]): "K"}
    board[rng.choice(ALLOWED["k"])] = "k"
    for red in (True, False):
        if rng.random() < 0.8:
            themed_side(rng, board, red)
    n = collections.Counter(board.values())
    assert all(n[k] <= MAX_COUNT[k] and n[k.lower()] <= MAX_COUNT[k] for k in MAX_COUNT), board
    if kings_face(board):
        return None
    side = rng.choice("wb")
    fen = to_fen(board, side)
    if sf.validate_fen(fen, V) != sf.FEN_OK:
        return None
    if sf.gives_check(V, to_fen(board, "b" if side == "w" else "w"), []):
        return None  # the side that just moved would have left its king in check
    return fen


def self_check():  # known outputs of pyffish's WXF writer (UCI ranks 1..10)
    if sf.version() != (0, 0, 90):
        print(f"warning: pyffish {sf.version()} is not 0.0.90, output may differ", file=sys.stderr)
    other = "rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/1NB6/P1P1P3P/1C1A3C1/9/RNBAK4 w - - 0 1"
    for fen, uci, wxf in [(sf.start_fen(V), "h3e3", "C2=5"), (sf.start_fen(V), "h3h10", "C2+7"),
                          (sf.start_fen(V), "c1e3", "E7+5"), (other, "c5e3", "E7-5"),
                          (other, "d1e2", "A6+5"), (other, "b5c7", "H++7"),
                          (other, "e6e7", "P++1"), (other, "e4e5", "P-+1")]:
        got = sf.get_san(V, fen, uci, False, WXF)
        assert got == wxf, f"{fen} {uci}: expected {wxf}, pyffish wrote {got}"


def shape(wxf):
    return re.sub("[0-9]", "D", re.sub("[A-Za-z]", "L", wxf))


def main():
    self_check()
    rng = random.Random(SEED)
    for _ in range(N_GAMES):
        random_game(rng, sf.start_fen(V), GAME_PLIES)
    after_games, setups = len(records), 0
    while len(records) < TARGET_POSITIONS:
        fen = random_setup(rng)
        if fen:
            setups += 1
            random_game(rng, fen, rng.randint(0, 10))

    lines = [line for group in records.values() for line in group]
    n_pos = sum(1 for group in records.values() if group)  # positions with a legal move
    wxfs = [line.rsplit(";", 1)[1] for line in lines]
    n_tandem = sum(len(w) > 1 and w[1] in "+-" for w in wxfs)
    n_digit = sum(w[0].isdigit() for w in wxfs)
    header = [
        "# Xiangqi WXF notation fixture generated by scripts/gen-notation-fixture.py",
        f"# pyffish {'.'.join(map(str, sf.version()))}, variant {V}, seed {SEED},"
        " WXF from get_san(variant, fen, uci, False, NOTATION_XIANGQI_WXF)",
        f"# positions {n_pos}, lines {len(lines)}, WXF with tandem +/- {n_tandem},"
        f" with pawn index {n_digit}",
        f"# visited {len(records)} positions (mates/stalemates give no lines): {after_games}"
        f" in {N_GAMES} random games, the rest from {setups} random setups",
        "# format: <FEN>;<0-based ICCS move>;<WXF as written by pyffish>",
    ]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    data = ("\n".join(header + lines) + "\n").encode()
    with open(OUT, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb",
                                               compresslevel=9, mtime=0) as gz:
        gz.write(data)
    print("\n".join(header[1:4]), file=sys.stderr)
    for s, n in collections.Counter(map(shape, wxfs)).most_common():
        print(f"  shape {s}: {n}", file=sys.stderr)
    for p in problems:
        print(f"ambiguous: {p}", file=sys.stderr)


if __name__ == "__main__":
    main()
