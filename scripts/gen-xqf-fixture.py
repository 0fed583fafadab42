#!/usr/bin/env python3
"""Generate the XQF reference fixture tests/data/xqf-cchess.txt.gz.

It decodes a deterministic sample of the XQF (XQStudio binary) records of the
development corpus with the `cchess` Python package (walker8088/cchess, an
implementation independent of qipu) and lists, for every sampled file, the
start position and the main line as cchess reads them, so that qipu's own XQF
reader can be checked against it. Generated with cchess 1.25.5 (PyPI) on
Python 3.11; to regenerate (from the repository root, about 30 seconds):

    pip install cchess==1.25.5
    python3 scripts/gen-xqf-fixture.py [CORPUS_DIR] [OUT]

CORPUS_DIR defaults to ../shared/corpus/xqf, OUT to tests/data/xqf-cchess.txt.gz.

Sample (deterministic): every regular file under CORPUS_DIR whose name ends in
`.xqf` (any case; `.xqf.bak` and directories named `*.xqf` are not included),
sorted by POSIX path relative to CORPUS_DIR (plain Python string sort), grouped
by the version byte (byte 2; files shorter than 3 bytes or not starting with
b'XQ' form the group "other"). A group of at most 40 files is taken whole; a
larger group gets n = round(budget * size / total size of the large groups)
files, where budget = 700 - files in small groups; a large group whose share
would be below 40 gets 40 instead and the others re-share the rest (so the
stratified part totals about 700). The n files are those at indices
round(i * size / n), i = 0..n-1. Always added: every XQF file under
`walker8088__cchess/`, `xqbase__eleeye/`, `FastLight126__vschess/` and the
non-XQF impostor `.../少子百局谱/鸿雁传书.XQF`. Files larger than 200 KiB
(204,800 bytes: huge opening trees) are listed as SKIPPED, not decoded.

Output: gzip (header mtime 0, no file name) of UTF-8 text. Lines starting with
`#` are comments (the first one gives the cchess version and counts by status).
Then one line per sampled file, sorted by path, tab-separated:

    <path> TAB <status> TAB <fen> TAB <moves> [TAB <note>]

  path    POSIX path relative to CORPUS_DIR.
  status  OK: cchess.read_from_xqf returned a game;
          ERROR: it raised (fen = `ExceptionClass: message`, tabs and newlines
          replaced by spaces; moves empty), or it returned None, which it does
          when the magic is not b'XQ' (fen = `None: ...`);
          SKIPPED: not decoded (fen = `larger than 200 KB`, moves empty).
  fen     the start position, cchess's `init_board.to_fen()` plus ` - - 0 1`:
          letters K A B N R C P, upper case = Red, rank 9 (Black's back rank)
          first; side to move `w` or `b` as cchess decided it (the colour of
          the piece on the from-square of the first move cchess accepted; `w`
          when there is no move).
  moves   the main line (first child at every node), ICCS without a dash,
          lower case, space-separated (`h2e2 h9g7`): files a..i from Red's
          left, ranks 0..9 from Red's back rank. cchess keeps XQF squares as
          (x, y) = (byte // 10, byte % 10), which is exactly (file, rank).
  note    only when something is odd, `; `-separated:
          - `cchess dropped N of M main-line records (raw ply P xxxx: why, ...)`:
            cchess silently skips a move record whose from-square is empty or
            whose move fails its (basic, pseudo-legal) check, and attaches the
            following records to the previous accepted move, on the unchanged
            board. Raw plies count the main-line records from 1.
          - `side to move does not alternate at ply K`: cchess takes the mover
            from the piece on the from-square and never enforces alternation.
          - `piece slots: ...`: two of the 32 slots decode to the same square
            (cchess keeps the later one).
          - `root record has no next-move flag`: cchess reads moves anyway.

cchess's decoding, read from cchess/read_xqf.py: keys from header bytes 3
(mask) and 8..15 (KeyOrA..D, KeysSum, KeyXY, KeyXYf, KeyXYt; bytes 4..7
product id unused), none (all zero, no body decryption) for version <= 10;
piece-slot rotation `(KeyXY + i + 1) & 31` only for version >= 12; slots
decoding to a value > 89 mean "absent" (for version >= 11 only; for
version <= 10 the raw byte is used and only 0xFF means absent); the start
position always comes from the 32 slots, whatever the game-type byte 0x40 says.

The dropped-move note is computed by this script, not by cchess: it walks the
raw main-line records itself (with cchess's own key and body-decoding helpers)
and replays cchess's accept/skip rule, then checks that the accepted moves are
exactly cchess's main line (a mismatch is reported on stderr and in the note).

cchess's reader is recursive (one Python frame per record), so the decoding
runs in a thread with a large stack and a raised recursion limit; with the
default limit, long records would fail with RecursionError, an artefact of
Python rather than of cchess's decoding.
"""
import contextlib
import gzip
import importlib.metadata
import io
import os
import sys
import threading
import time

import cchess
import cchess.read_xqf as rx
from cchess.common import fench_to_species
from cchess.board import ChessPlayer

TARGET = 700
SMALL_GROUP = 40
MAX_SIZE = 200 * 1024
ALWAYS_PREFIXES = ("walker8088__cchess/", "xqbase__eleeye/", "FastLight126__vschess/")
IMPOSTOR_SUFFIX = "/少子百局谱/鸿雁传书.XQF"

_init_decrypt_key = vars(rx)["__init_decrypt_key"]
_decode_buff = vars(rx)["__decode_buff"]
_init_chess_board = vars(rx)["__init_chess_board"]


def list_xqf(corpus):
    files = []
    for dirpath, _dirnames, filenames in os.walk(corpus):
        for name in filenames:
            if not name.lower().endswith(".xqf"):
                continue
            full = os.path.join(dirpath, name)
            if not os.path.isfile(full) or os.path.islink(full):
                continue
            rel = os.path.relpath(full, corpus).replace(os.sep, "/")
            files.append(rel)
    files.sort()
    return files


def version_of(corpus, rel):
    with open(os.path.join(corpus, rel), "rb") as f:
        head = f.read(3)
    if len(head) < 3 or head[:2] != b"XQ":
        return "other"
    return head[2]


def choose_sample(corpus, files):
    groups = {}
    for rel in files:
        groups.setdefault(version_of(corpus, rel), []).append(rel)
    # Group sizes to take: whole small groups; large groups share what is left
    # of TARGET in proportion to their size, but get at least SMALL_GROUP
    # (fixed point: groups below the floor are pinned to it, the rest re-share).
    take = {v: len(g) for v, g in groups.items() if len(g) <= SMALL_GROUP}
    pinned = {}
    while True:
        free = [v for v in groups if v not in take and v not in pinned]
        budget = TARGET - sum(take.values()) - sum(pinned.values())
        total = sum(len(groups[v]) for v in free)
        share = {v: round(budget * len(groups[v]) / total) for v in free}
        low = [v for v in free if share[v] < SMALL_GROUP]
        if not low:
            break
        for v in low:
            pinned[v] = SMALL_GROUP
    take.update(pinned)
    take.update(share)
    chosen = set()
    for v, g in groups.items():
        n = take[v]
        chosen.update(g[round(i * len(g) / n)] for i in range(n))
    for rel in files:
        if rel.startswith(ALWAYS_PREFIXES) or rel.endswith(IMPOSTOR_SUFFIX):
            chosen.add(rel)
    return sorted(chosen), groups


def clean(text):
    return " ".join(str(text).replace("\t", " ").replace("\r", " ").split("\n")).strip()


def raw_main_line(data):
    """Main-line move records of the file, decoded the way cchess decodes them.

    Returns (root_has_next, [(from, to), ...]) with from/to as (x, y)."""
    version = data[2]
    if version <= 10:
        keys = None
        buf = bytes(data[0x400:])
    else:
        keys = _init_decrypt_key(data[3:16])
        buf = _decode_buff(keys, data[0x400:])
    pos = 0

    def read(n):
        nonlocal pos
        chunk = buf[pos:pos + n]
        pos = min(len(buf), pos + max(n, 0))
        return bytearray(chunk)

    def read_int():
        b = read(4)
        b = b + bytearray(4 - len(b))
        return b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24

    def record():
        info = read(4)
        if len(info) < 4:
            return None
        if version <= 10:
            has_next = bool(info[2] & 0xF0)
            ann = read_int()
            f = (info[0] - 0x18) & 0xFF
            t = (info[1] - 0x20) & 0xFF
        else:
            flag = info[2] & 0xE0
            has_next = bool(flag & 0x80)
            ann = read_int() - keys.KeyRMKSize if flag & 0x20 else 0
            f = (info[0] - 0x18 - keys.KeyXYf) & 0xFF
            t = (info[1] - 0x20 - keys.KeyXYt) & 0xFF
        if ann > 0:
            read(ann)
        return has_next, (f // 10, f % 10), (t // 10, t % 10)

    root = record()
    root_has_next = bool(root and root[0])
    moves = []
    while True:
        rec = record()
        if rec is None:
            break
        moves.append((rec[1], rec[2]))
        if not rec[0]:
            break
    return root_has_next, moves


def slot_overlaps(data):
    version = data[2]
    keys = None if version <= 10 else _init_decrypt_key(data[3:16])
    slots = _init_chess_board(data[16:48], version, keys)
    squares = [s for s in slots if s != 0xFF]
    return len(squares) - len(set(squares))


def notes_for(data, game, main):
    notes = []
    root_has_next, raw = raw_main_line(data)
    board = game.init_board.copy()
    accepted, dropped = [], []
    for ply, (f, t) in enumerate(raw, 1):
        iccs = cchess.pos2iccs(f, t)
        fench = board.get_fench(f)
        if not fench:
            dropped.append("raw ply %d %s: empty from-square" % (ply, iccs))
            continue
        board.move_player = ChessPlayer(fench_to_species(fench)[1])
        if not board.is_valid_move(f, t):
            dropped.append("raw ply %d %s: rejected by cchess's move check" % (ply, iccs))
            continue
        board._move_piece(f, t)
        accepted.append((f, t))
    if dropped:
        notes.append("cchess dropped %d of %d main-line records (%s)"
                     % (len(dropped), len(raw), ", ".join(dropped)))
    if accepted != [(m.p_from, m.p_to) for m in main]:
        msg = "script cross-check mismatch: raw replay differs from cchess main line"
        print("warning: %s" % msg, file=sys.stderr)
        notes.append(msg)
    colours = [m.board.move_player.color for m in main]
    for k in range(1, len(colours)):
        if colours[k] == colours[k - 1]:
            notes.append("side to move does not alternate at ply %d" % (k + 1))
            break
    overlaps = slot_overlaps(data)
    if overlaps:
        notes.append("piece slots: %d of the 32 slots decode to an occupied square" % overlaps)
    if main and not root_has_next:
        notes.append("root record has no next-move flag")
    return notes


def decode(corpus, rel):
    full = os.path.join(corpus, rel)
    if os.path.getsize(full) > MAX_SIZE:
        return [rel, "SKIPPED", "larger than 200 KB", ""]
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # "Bad Result" prints
            game = cchess.read_from_xqf(full)
    except Exception as e:  # noqa: BLE001 -- any failure is a fixture datum
        return [rel, "ERROR", clean("%s: %s" % (type(e).__name__, e)), ""]
    if game is None:
        return [rel, "ERROR",
                "None: cchess.read_from_xqf returned None (header magic is not b'XQ')", ""]
    main = list(game.iter_moves())
    fen = game.init_board.to_fen() + " - - 0 1"
    moves = " ".join(m.to_iccs() for m in main)
    with open(full, "rb") as f:
        data = f.read()
    row = [rel, "OK", fen, moves]
    notes = notes_for(data, game, main)
    if notes:
        row.append(clean("; ".join(notes)))
    return row


def run(argv):
    corpus = argv[1] if len(argv) > 1 else "../shared/corpus/xqf"
    out = argv[2] if len(argv) > 2 else "tests/data/xqf-cchess.txt.gz"
    version = importlib.metadata.version("cchess")
    start = time.monotonic()
    files = list_xqf(corpus)
    sample, groups = choose_sample(corpus, files)
    rows = [decode(corpus, rel) for rel in sample]
    rows.sort(key=lambda r: r[0])
    counts = {}
    for r in rows:
        counts[r[1]] = counts.get(r[1], 0) + 1
    status_text = ", ".join("%s %d" % (s, counts.get(s, 0)) for s in ("OK", "ERROR", "SKIPPED"))
    by_version = ", ".join(
        "%s: %d of %d" % (v, sum(1 for rel in sample if rel in set(groups[v])), len(groups[v]))
        for v in sorted(groups, key=lambda v: (isinstance(v, str), v)))
    lines = [
        "# cchess %s, scripts/gen-xqf-fixture.py: %d files: %s" % (version, len(rows), status_text),
        "# sampled by version byte (sample of group size): %s" % by_version,
        "# columns: path TAB status TAB fen TAB main-line ICCS moves [TAB note]; "
        "see the script's docstring",
    ]
    lines += ["\t".join(r) for r in rows]
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            gz.write(text.encode("utf-8"))
    elapsed = time.monotonic() - start
    print("%s: %d files (%s) in %.1f s, %.1f files/s"
          % (out, len(rows), status_text, elapsed, len(rows) / elapsed), file=sys.stderr)


def main():
    sys.setrecursionlimit(200000)
    threading.stack_size(1 << 29)
    result = {}

    def target():
        try:
            run(sys.argv)
        except BaseException as e:  # noqa: BLE001 -- re-raised in the main thread
            result["error"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in result:
        raise result["error"]


if __name__ == "__main__":
    main()
