#!/usr/bin/env python3
"""Writes the repetition-ruling oracle fixtures of tests/data/rulings/ (see its README.md).

Two independent oracles judge a game at the point where a position (placement + side
to move) stands for the third time:
  * ccboard: chessdb.cn's rules (noobpwnftw/chessdb extensions/ccboard, public domain)
    through qipu's driver, built by `bash scripts/build-ccboard.sh`
    (target/ccboard/ccboard-driver);
  * pyffish: Fairy-Stockfish's Python binding (PyPI pyffish), installed in a venv:
    python3 -m venv target/pyffish-venv && target/pyffish-venv/bin/pip install pyffish

Run with the venv's Python (3.11):
  target/pyffish-venv/bin/python scripts/gen-rulings-oracles.py [--part cycles|corpus|all]

  cycles: tests/data/rulings/oracle-cycles.tsv (random positions with short move cycles,
          each with its left-right mirror and its colour flip, plus hand cases);
  corpus: tests/data/rulings/oracle-corpus.tsv (every third occurrence on the main lines
          of the records under /work/shared/corpus, or $QIPU_CORPUS; read with
          target/release/qipu convert --to uci). No moves or FENs of the corpus are written.

Coordinates: ICCS with ranks 0-9 (h2e2) everywhere in the fixtures; Fairy-Stockfish
numbers ranks 1-10, converted here.
"""
import argparse
import os
import random
import subprocess
import sys
from collections import Counter, defaultdict

import pyffish as sf

V = "xiangqi"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "rulings")
CCBOARD = os.path.join(ROOT, "target", "ccboard", "ccboard-driver")
QIPU = os.path.join(ROOT, "target", "release", "qipu")
SEED = 20261205

HAND = [
    # The example: Red checks on every move (rook g5g9 checks, and g9g5 uncovers
    # the cannon i9 behind Black's cannon f9), Black only parries: Red must lose. The
    # start position stands for the third time after the 8th ply.
    ("hand-issue", "3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1",
     "g5g9 f5f9 g9g5 f9f5 g5g9 f5f9 g9g5 f9f5"),
    # The record as written, one ply further: the position after g5g9 stands for
    # the third time after the 9th ply (Black to move, Red still the perpetual checker).
    # The only case not ending at its first third occurrence (that is ply 8).
    ("hand-issue-9", "3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1",
     "g5g9 f5f9 g9g5 f9f5 g5g9 f5f9 g9g5 f9f5 g5g9"),
]


# ---------------------------------------------------------------- coordinates, boards

def to_fsf(m):
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def from_fsf(m):
    # e.g. h10h9 -> h9h8
    i = 1
    while m[i].isdigit():
        i += 1
    return m[0] + str(int(m[1:i]) - 1) + m[i] + str(int(m[i + 1:]) - 1)


def parse_fen(fen):
    """Returns ({(file 0-8, rank 0-9): piece char}, side 'w'/'b')."""
    parts = fen.split()
    board = {}
    for r, row in enumerate(parts[0].split("/")):
        rank = 9 - r
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board[(f, rank)] = c
                f += 1
    side = parts[1] if len(parts) > 1 else "w"
    return board, ("b" if side == "b" else "w")


def make_fen(board, side):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            c = board.get((f, rank))
            if c is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += c
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + " " + side + " - - 0 1"


def sq(s):
    return (ord(s[0]) - 97, int(s[1]))


def positions(fen, moves):
    """Keys (placement + side) of the positions before/after each ply, and for each ply
    whether it captured. Plain replay, no legality."""
    board, side = parse_fen(fen)
    keys = [make_fen(board, side).rsplit(" ", 4)[0]]
    caps = []
    for m in moves:
        a, b = sq(m[:2]), sq(m[2:])
        caps.append(b in board)
        board[b] = board.pop(a)
        side = "b" if side == "w" else "w"
        keys.append(make_fen(board, side).rsplit(" ", 4)[0])
    return keys, caps


def third_occurrences(keys, caps):
    """Plies p where keys[p] stands for the third time since the last capture."""
    out = []
    start = 0
    seen = Counter()
    seen[keys[0]] += 1
    for p in range(1, len(keys)):
        if caps[p - 1]:
            seen = Counter()
        seen[keys[p]] += 1
        if seen[keys[p]] == 3:
            out.append(p)
    return out


def mirror_fen(fen):
    board, side = parse_fen(fen)
    return make_fen({(8 - f, r): c for (f, r), c in board.items()}, side)


def flip_fen(fen):
    board, side = parse_fen(fen)
    return make_fen({(f, 9 - r): c.swapcase() for (f, r), c in board.items()},
                    "b" if side == "w" else "w")


def mirror_move(m):
    return chr(97 + 8 - (ord(m[0]) - 97)) + m[1] + chr(97 + 8 - (ord(m[2]) - 97)) + m[3]


def flip_move(m):
    return m[0] + str(9 - int(m[1])) + m[2] + str(9 - int(m[3]))


def flip_verdict(v):
    if v.startswith("red-"):
        return "black-" + v[4:]
    if v.startswith("black-"):
        return "red-" + v[6:]
    return v


# ---------------------------------------------------------------- oracles

def ccboard(cases):
    """cases: [(fen, [iccs moves])] -> verdicts (one process for all)."""
    if not cases:
        return []
    inp = "".join(f"{fen}\t{' '.join(ms)}\n" for fen, ms in cases)
    out = subprocess.run([CCBOARD, "2"], input=inp, capture_output=True, text=True, check=True).stdout
    res = out.splitlines()
    assert len(res) == len(cases)
    return res


def pyffish(fen, moves, check_legal=True):
    """Fairy-Stockfish's ruling after the moves. pyffish tells only who loses
    (is_optional_game_end's value for the side to move: -mate = the side to move loses);
    the kind is derived as Fairy-Stockfish decides it (perpetual check is looked at before
    chasing): `check` when every move of the loser since the first of the three
    occurrences gave check, else `chase`."""
    assert all(len(m) == 4 for m in moves), (fen, moves)
    fm = [to_fsf(m) for m in moves]
    if check_legal:
        for i, m in enumerate(fm):
            if m not in sf.legal_moves(V, fen, fm[:i]):
                return "error illegal %d %s" % (i + 1, moves[i])
    end, value = sf.is_optional_game_end(V, fen, fm)
    if not end:
        return "none"
    if value == 0:
        return "draw"
    keys, caps = positions(fen, moves)
    side = keys[-1].split()[1]
    mover_loses = value < 0
    loser = side if mover_loses else ("b" if side == "w" else "w")
    who = "red-loses" if loser == "w" else "black-loses"
    n = len(moves)
    cnt, first = 0, None
    for p in range(n - 2, -1, -2):
        if p < n and any(caps[p:]):
            break
        if keys[p] == keys[n]:
            cnt += 1
            if cnt == 2:
                first = p
                break
    if first is None:
        return who + " unknown"
    # plies first+1 .. n (after ply k the position keys[k]); a ply by the loser is one
    # made with the loser to move before it.
    all_check = True
    for k in range(first + 1, n + 1):
        mover = keys[k - 1].split()[1]
        if mover == loser and not sf.gives_check(V, fen, fm[:k]):
            all_check = False
            break
    return who + (" check" if all_check else " chase")


# ---------------------------------------------------------------- random positions

PALACE = {"w": [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)]}
PALACE["b"] = [(f, 9 - r) for f, r in PALACE["w"]]
ADV = {"w": [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]}
ADV["b"] = [(f, 9 - r) for f, r in ADV["w"]]
ELE = {"w": [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]}
ELE["b"] = [(f, 9 - r) for f, r in ELE["w"]]
PAWN = {"w": [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 4)] + [(f, r) for f in range(9) for r in range(5, 9)]}
PAWN["b"] = [(f, 9 - r) for f, r in PAWN["w"]]
ANY = [(f, r) for f in range(9) for r in range(10)]


# A small move generator of our own for the search (pyffish's calls cost ~2 ms each);
# the cases kept are replayed by both oracles, which check every move's legality.

def red(c):
    return c.isupper()


def in_palace(f, r, up):
    return 3 <= f <= 5 and (0 <= r <= 2 if up else 7 <= r <= 9)


def pseudo(board, side):
    """Pseudo-legal moves of side ('w'/'b') as ((f, r), (f, r))."""
    up = side == "w"
    out = []
    for (f, r), c in list(board.items()):
        if red(c) != up:
            continue
        t = c.upper()
        tg = []
        if t == "K":
            tg = [(f + df, r + dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)) if in_palace(f + df, r + dr, up)]
        elif t == "A":
            tg = [(f + df, r + dr) for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)) if in_palace(f + df, r + dr, up)]
        elif t == "B":
            for df, dr in ((2, 2), (-2, 2), (2, -2), (-2, -2)):
                nf, nr = f + df, r + dr
                if 0 <= nf <= 8 and (0 <= nr <= 4 if up else 5 <= nr <= 9) and (f + df // 2, r + dr // 2) not in board:
                    tg.append((nf, nr))
        elif t == "N":
            for df, dr, lf, lr in ((1, 2, 0, 1), (-1, 2, 0, 1), (1, -2, 0, -1), (-1, -2, 0, -1),
                                   (2, 1, 1, 0), (2, -1, 1, 0), (-2, 1, -1, 0), (-2, -1, -1, 0)):
                nf, nr = f + df, r + dr
                if 0 <= nf <= 8 and 0 <= nr <= 9 and (f + lf, r + lr) not in board:
                    tg.append((nf, nr))
        elif t == "P":
            fwd = 1 if up else -1
            tg = [(f, r + fwd)]
            if (r >= 5) if up else (r <= 4):
                tg += [(f - 1, r), (f + 1, r)]
            tg = [(a, b) for a, b in tg if 0 <= a <= 8 and 0 <= b <= 9]
        else:  # R, C
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nf, nr = f + df, r + dr
                screen = False
                while 0 <= nf <= 8 and 0 <= nr <= 9:
                    if (nf, nr) in board:
                        if t == "R":
                            tg.append((nf, nr))
                            break
                        if screen:
                            tg.append((nf, nr))
                            break
                        screen = True
                    elif not screen:
                        tg.append((nf, nr))
                    nf, nr = nf + df, nr + dr
        for to in tg:
            x = board.get(to)
            if x is None or red(x) != up:
                out.append(((f, r), to))
    return out


def attacked_by(board, side):
    return {to for _, to in pseudo(board, side)}


def in_check_b(board, side):
    k = "K" if side == "w" else "k"
    ks = [s for s, c in board.items() if c == k][0]
    ko = [s for s, c in board.items() if c == k.swapcase()][0]
    if ks[0] == ko[0] and not any((ks[0], r) in board for r in range(min(ks[1], ko[1]) + 1, max(ks[1], ko[1]))):
        return True
    return ks in attacked_by(board, "b" if side == "w" else "w")


def do(board, mv):
    b = dict(board)
    b[mv[1]] = b.pop(mv[0])
    return b


def legal(board, side):
    return [mv for mv in pseudo(board, side) if not in_check_b(do(board, mv), side)]


def mstr(mv):
    (f, r), (g, s) = mv
    return "%s%d%s%d" % (chr(97 + f), r, chr(97 + g), s)


def mparse(m):
    return (sq(m[:2]), sq(m[2:]))


def other(side):
    return "b" if side == "w" else "w"


def quiet(board, side):
    return [mv for mv in legal(board, side) if mv[1] not in board]


def random_position(rng, dense=False):
    """A random legal position, Red to move: both kings, one to three attacking pieces
    (rooks, horses, cannons, pawns) a side and up to two defenders (advisors,
    elephants); dense: three to five attacking pieces a side (more checks both ways)."""
    while True:
        board = {}
        for side in "wb":
            up = side == "w"
            k = rng.choice(PALACE[side])
            board[k] = "K" if up else "k"
            n_att = rng.choice([3, 4, 5] if dense else [1, 2, 2, 3])
            kinds = rng.choices("RNCP", weights=[4, 3, 3, 2], k=n_att)
            kinds += rng.choices("AB", k=rng.choice([0, 0, 1, 2]))
            cnt = Counter()
            for t in kinds:
                cnt[t] += 1
                if cnt[t] > 2 and t != "P":
                    continue
                spots = {"A": ADV[side], "B": ELE[side], "P": PAWN[side]}.get(t, ANY)
                free = [s for s in spots if s not in board]
                if not free:
                    continue
                board[rng.choice(free)] = t if up else t.lower()
        if in_check_b(board, "b"):
            continue  # kings facing, or Black (not to move) in check
        if not legal(board, "w"):
            continue
        return board


def rev(mv):
    return (mv[1], mv[0])


def play_ok(board, moves):
    """All moves (our tuples) legal and non-capturing from Red to move, back to the
    start, no position a third time before the end."""
    b, side = board, "w"
    seen = Counter([(frozenset(b.items()), side)])
    for i, mv in enumerate(moves):
        if mv[1] in b or mv not in legal(b, side):
            return False
        b, side = do(b, mv), other(side)
        k = (frozenset(b.items()), side)
        seen[k] += 1
        if seen[k] >= 3 and i != len(moves) - 1:
            return False
    return b == board and seen[(frozenset(b.items()), side)] == 3


def features(board, cyc):
    """(red checks every move, black checks every move, red checks-or-attacks (the
    moved piece could capture a piece other than the king next) every move, black
    likewise) over one cycle."""
    rc = bc = ra = ba = True
    b, side = board, "w"
    for mv in cyc:
        b2 = do(b, mv)
        chk = in_check_b(b2, other(side))
        att = chk or any(fr == mv[1] and to in b2 and b2[to].upper() != "K" for fr, to in pseudo(b2, side))
        if side == "w":
            rc &= chk
            ra &= att
        else:
            bc &= chk
            ba &= att
        b, side = b2, other(side)
    return (rc, bc, ra, ba)


def cycles_of(board, rng, want8):
    """Short cycles from board (Red to move): 4-ply a b a' b' (a' and b' the reverse
    moves), and some 8-ply ones (two pieces out and back, or one piece's round trip of
    two steps)."""
    found = []
    reds = quiet(board, "w")
    for a in reds:
        b1 = do(board, a)
        for b in quiet(b1, "b"):
            b2 = do(b1, b)
            if rev(a)[1] in b2 or rev(a) not in legal(b2, "w"):
                continue
            b3 = do(b2, rev(a))
            if rev(b)[1] in b3 or rev(b) not in legal(b3, "b"):
                continue
            found.append([a, b, rev(a), rev(b)])
    if want8 and reds:
        # half the tries start with a checking move of each side where there is one
        red_checks = [m for m in reds if in_check_b(do(board, m), "b")]
        for i in range(60):
            a = rng.choice(red_checks if red_checks and i % 2 else reds)
            b1 = do(board, a)
            bl = quiet(b1, "b")
            if not bl:
                continue
            bl_checks = [m for m in bl if in_check_b(do(b1, m), "w")]
            b = rng.choice(bl_checks if bl_checks and i % 2 else bl)
            b2 = do(b1, b)
            r2 = [m for m in quiet(b2, "w") if m != rev(a)]
            if not r2:
                continue
            a2 = rng.choice(r2)
            b3 = do(b2, a2)
            bl2 = [m for m in quiet(b3, "b") if m != rev(b)]
            if not bl2:
                continue
            b2m = rng.choice(bl2)
            # a2 moves another piece (then a', a2') or the same piece on (then a2', a')
            ra = [rev(a), rev(a2)] if a2[0] != a[1] else [rev(a2), rev(a)]
            rb = [rev(b), rev(b2m)] if b2m[0] != b[1] else [rev(b2m), rev(b)]
            c = [a, b, a2, b2m, ra[0], rb[0], ra[1], rb[1]]
            if play_ok(board, c + c):
                found.append(c)
    return found


def gen_cycles(args):
    rng = random.Random(SEED)
    cands = []  # (fen, iccs moves of the whole game, category)
    per_cat = Counter()
    tried = 0
    while len(cands) < args.candidates and tried < args.positions:
        tried += 1
        board = random_position(rng, dense=(tried % 4 == 0))
        fen = make_fen(board, "w")
        cyc = cycles_of(board, rng, want8=(tried % 3 == 0))
        bycat = defaultdict(list)
        for c in cyc:
            bycat[(len(c),) + features(board, c)].append(c)
        for cat, cs in sorted(bycat.items()):
            # one cycle of each kind (checks, attacks, quiet) per position, two of the
            # rarer kinds (checks, attacks)
            rng.shuffle(cs)
            keep = 1 if cat[1:] == (False,) * 4 else 2
            for c in cs:
                if len(c) == 8 or play_ok(board, c + c):
                    cands.append((fen, [mstr(m) for m in c + c], cat))
                    per_cat[cat] += 1
                    keep -= 1
                    if not keep:
                        break
        if tried % 50 == 0:
            print(f"positions {tried}, candidates {len(cands)}", file=sys.stderr)
    print("candidate categories:", dict(per_cat), file=sys.stderr)
    cc = ccboard([(f, ms) for f, ms, _ in cands])
    judged = []
    for (fen, ms, cat), c in zip(cands, cc):
        p = pyffish(fen, ms, check_legal=False)
        if c.startswith("error") or p.startswith("error"):
            continue
        judged.append((fen, ms, c, p, cat))
    # a spread of rulings: at most `cap` cases per pair of verdicts and record length
    rng.shuffle(judged)
    pairs = Counter()
    base = []
    for fen, ms, c, p, cat in judged:
        key = (len(ms), c, p)  # 8-ply and 16-ply records counted apart
        cap = args.cap_quiet if (c, p) in (("draw", "draw"), ("none", "none")) else args.cap
        if pairs[key] >= cap:
            continue
        pairs[key] += 1
        base.append((fen, ms))
    base.sort(key=lambda x: (len(x[1]), x[0], x[1]))
    rows = []
    for i, (fen, ms) in enumerate(base, 1):
        bid = "c%03d" % i
        rows.append([bid, "", "base", fen, ms])
        rows.append([bid + "m", bid, "mirror", mirror_fen(fen), [mirror_move(m) for m in ms]])
        rows.append([bid + "f", bid, "flip", flip_fen(fen), [flip_move(m) for m in ms]])
    for hid, fen, ms in HAND:
        ms = ms.split()
        rows.append([hid, "", "hand", fen, ms])
        rows.append([hid + "m", hid, "mirror", mirror_fen(fen), [mirror_move(m) for m in ms]])
        rows.append([hid + "f", hid, "flip", flip_fen(fen), [flip_move(m) for m in ms]])
    cc = ccboard([(r[3], r[4]) for r in rows])
    for r, c in zip(rows, cc):
        r.append(c)
        r.append(pyffish(r[3], r[4], check_legal=True))
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "oracle-cycles.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("#id\tvariant_of\tkind\tfen\tmoves\tccboard\tpyffish\n")
        for r in rows:
            f.write("\t".join([r[0], r[1], r[2], r[3], " ".join(r[4]), r[5], r[6]]) + "\n")
    summary(rows)


def summary(rows):
    byid = {r[0]: r for r in rows}
    print("cases:", len(rows), "base/hand:", sum(1 for r in rows if not r[1]))
    for col, name in ((5, "ccboard"), (6, "pyffish")):
        print(name, dict(Counter(r[col] for r in rows if not r[1])))
    print("agreement (base/hand):", dict(Counter(r[5] == r[6] for r in rows if not r[1])))
    print("pairs:", dict(Counter((r[5], r[6]) for r in rows if not r[1])))
    for col, name in ((5, "ccboard"), (6, "pyffish")):
        bad = Counter()
        for r in rows:
            if r[1]:
                want = byid[r[1]][col]
                if r[2] == "flip":
                    want = flip_verdict(want)
                if r[col] != want:
                    bad[r[2]] += 1
        print(name, "asymmetric variants:", dict(bad))


# ---------------------------------------------------------------- corpus

def main_line(game):
    """ICCS moves of the main line of one game of qipu's JSON (the first child of each
    node is the main line)."""
    first = {}
    for n in game["nodes"]:
        first.setdefault(n["parent"], n)
    out, cur = [], 0
    while cur in first:
        n = first[cur]
        out.append(n["move"])
        cur = n["id"]
    return out


def gen_corpus(args):
    import json
    corpus = os.environ.get("QIPU_CORPUS", "/work/shared/corpus")
    files = []
    for d, _, fs in os.walk(corpus):
        for f in fs:
            rel = os.path.relpath(os.path.join(d, f), corpus)
            if rel in ("MANIFEST.tsv", "README.md"):
                continue
            files.append(rel)
    files.sort()
    points = []  # (path, game, ply, result, fen, moves)
    ngames = nfiles = 0
    for i, rel in enumerate(files):
        r = subprocess.run([QIPU, "convert", "--to", "json", "-q", "--color", "never",
                            os.path.join(corpus, rel)], capture_output=True)
        lines = r.stdout.decode("utf-8", "replace").splitlines()
        if lines:
            nfiles += 1
        for gi, line in enumerate(lines, 1):
            try:
                g = json.loads(line)
            except ValueError:
                continue
            ngames += 1
            moves = main_line(g)
            if any(not (isinstance(m, str) and len(m) == 4) for m in moves):
                moves = moves[:next(k for k, m in enumerate(moves) if not (isinstance(m, str) and len(m) == 4))]
            fen = g["fen"]
            keys, caps = positions(fen, moves)
            res = g.get("result") or "*"
            for p in third_occurrences(keys, caps):
                points.append((rel, gi, p, res, fen, moves[:p]))
        if i % 1000 == 0:
            print(f"corpus files {i}/{len(files)}, games {ngames}, points {len(points)}", file=sys.stderr)
    print(f"corpus: {len(files)} files, {nfiles} with games, {ngames} games, {len(points)} third occurrences",
          file=sys.stderr)
    cc = ccboard([(fen, ms) for _, _, _, _, fen, ms in points])
    rows = []
    skipped = 0
    for (rel, gi, p, res, fen, ms), c in zip(points, cc):
        if c.startswith("error"):
            # a main line that does not replay up to this point (qipu keeps moves
            # after an illegal one as written)
            skipped += 1
            continue
        f = fen.split()
        pf = pyffish(" ".join(f[:2] + ["-", "-", "0", "1"]), ms, check_legal=False)
        rows.append([rel, str(gi), str(p), res, c, pf])
    print(f"corpus: {skipped} points skipped (moves that do not replay)", file=sys.stderr)
    with open(os.path.join(OUT, "oracle-corpus.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("#path\tgame\tply\tresult\tccboard\tpyffish\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print("corpus rows:", len(rows))
    for col, name in ((4, "ccboard"), (5, "pyffish")):
        print(name, dict(Counter(r[col] for r in rows)))
    print("agreement:", dict(Counter(r[4] == r[5] for r in rows)))
    print("pairs:", dict(Counter((r[4], r[5]) for r in rows)))


def verify(args):
    """Every moves list of oracle-cycles.tsv replays legally under qipu (qipu validate on
    UCI position lines), and the symmetry counts."""
    import tempfile
    rows = []
    with open(os.path.join(OUT, "oracle-cycles.tsv"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                rows.append(line.rstrip("\n").split("\t"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as t:
        for r in rows:
            t.write(f"position fen {r[3]} moves {r[4]}\n")
    out = subprocess.run([QIPU, "validate", "--color", "never", t.name], capture_output=True, text=True)
    os.unlink(t.name)
    print("qipu validate:", (out.stdout + out.stderr).strip().splitlines()[-1], "exit", out.returncode)
    # and every case ends at a third occurrence, the first one of the record
    bad = 0
    for r in rows:
        keys, caps = positions(r[3], r[4].split())
        occ = third_occurrences(keys, caps)
        if (not occ or occ[0] != len(keys) - 1) and r[0] not in ("hand-issue-9", "hand-issue-9m", "hand-issue-9f"):
            bad += 1
            print("not ending at its first third occurrence:", r[0], occ)
    print("cases ending at their first third occurrence:", len(rows) - bad, "of", len(rows))
    rows = [r[:4] + [r[4].split()] + r[5:] for r in rows]
    summary(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", default="all", choices=["cycles", "corpus", "verify", "all"])
    ap.add_argument("--positions", type=int, default=700)
    ap.add_argument("--candidates", type=int, default=6000)
    ap.add_argument("--cap", type=int, default=60)
    ap.add_argument("--cap-quiet", type=int, default=40)
    args = ap.parse_args()
    if args.part in ("cycles", "all"):
        gen_cycles(args)
    if args.part in ("corpus", "all"):
        gen_corpus(args)
    if args.part in ("verify", "all"):
        verify(args)


if __name__ == "__main__":
    main()
