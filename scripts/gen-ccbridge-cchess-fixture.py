#!/usr/bin/env python3
"""Generate the 象棋桥 reference fixture tests/data/ccbridge-cchess.txt.gz.

qipu writes the games of tests/data/ccbridge-games.pgn as 象棋桥 files with
`qipu convert` (one CBL library and one CBR file per game, into
tests/data/ccbridge-written/), then the `cchess` Python package
(walker8088/cchess, an implementation independent of qipu) reads each written
file, and what it read is dumped, game by game, so that qipu's own reading of
the same files can be checked against it (tests/formats/ccbridge_cchess.rs).
Generated with cchess 1.25.5 (PyPI) on Python 3.11; to regenerate (from the
repository root, a few seconds; a virtual environment under target/):

    python3 -m venv target/cchess-venv
    target/cchess-venv/bin/pip install cchess==1.25.5
    cargo build && target/cchess-venv/bin/python scripts/gen-ccbridge-cchess-fixture.py target/debug/qipu

Arguments: QIPU (the qipu binary) [OUT] (default tests/data/ccbridge-cchess.txt.gz).

The source games (ccbridge-games.pgn, hand-written) exercise what CBR holds:
every tag CBR has a field for, in Chinese and in ASCII; results 1-0, 0-1,
1/2-1/2 and *; a comment before the first move, comments after moves, a
comment over several lines, a comment with a character outside the Basic
Multilingual Plane (a UTF-16 surrogate pair); variations on the first move,
variations inside variations; two games from a FEN (Black to move at move 1;
Red to move at move 20); a game whose record is longer than a 4096-byte slot
of the library; a game with a comment and no move. Not among them: a game
with neither a move nor a comment, whose root record is `01 00 00 00` alone.
cchess 1.25.5 cannot read it: it takes any root record whose flags are not 0
to hold a comment, reads a length past the end and raises struct.error.

Written (the script first removes what it wrote before):
    tests/data/ccbridge-written/ccbridge.cbl   (`convert --to cbl -o`)
    tests/data/ccbridge-written/cbr/*.cbr      (`convert --to cbr -o`)

Output: gzip (header mtime 0, no file name) of UTF-8 text. Lines starting with
`#` are comments. Then, for every written file (the library first, then the
CBR files sorted by name, a plain Python string sort) and every game cchess
read from it, in its order:

    game TAB <file relative to ccbridge-written> TAB <game number from 1>
    title TAB <text>          the tags cchess gives (game.info): title,
    event TAB <text>          event, red, black and result (`1-0`, `0-1`,
    red TAB <text>            `1/2-1/2`, `*`); an empty field is empty
    black TAB <text>
    result TAB <text>
    board TAB <FEN board>     the start position's board (the FEN's first field)
    mover TAB w|b|-           the side of the first main-line move (`-`: no move)
    comment TAB <text>        the comment before the first move (empty: none)
    line TAB <moves>          one per line of the move tree

`line`: every line of the move tree, from the start to a leaf, leaves in
pre-order (a node's moves in their stored order, the main move first), so
the first `line` is the main line. Moves are ICCS, lower case, without a dash
(`h2e2`: files a..i from Red's left, ranks 0..9 from Red's back rank), each
followed by ` {comment}` when it has one. In every text, CR LF and CR are
read as LF, then `\\` is written `\\\\`, LF `\\n` and TAB `\\t`.

What cchess does not read, and so is not in the fixture (the test leaves it
out of qipu's side too):
  - the tags other than title, event, red, black and result (round, date,
    site, time rule, teams, annotator, author): cchess's header struct skips
    their fields;
  - the side to move: cchess takes it from the u16 at byte 2116, the start
    move number (formats.md §5.7a; the side is byte 2112), then plays each
    move by the colour of the piece on its from-square. `mover` is that
    colour for the first move, which is the side to move cchess plays with;
  - the start move number (the same u16) and the library's name (qipu's
    record has no place for it).

One correction is made to cchess before it reads: cchess 1.25.5 decodes
every text (header fields and comments) with `cut_bytes_to_str`, which
returns None when the bytes it was given hold no NUL code unit. CBR comments
are length-prefixed and have no terminator (so in every CBR comment of the
corpus, 106 of 106, and in real 象棋桥 files generally), so unpatched cchess
loses every comment. The script wraps that function: when cchess's own
decoding gives None, the same bytes (as cchess cut them from the record:
offsets and lengths stay cchess's) are decoded whole as UTF-16LE.
"""
import gzip
import importlib.metadata
import os
import shutil
import subprocess
import sys

import cchess.read_cbr as rc

SOURCE = "tests/data/ccbridge-games.pgn"
WRITTEN = "tests/data/ccbridge-written"
LIBRARY = "ccbridge.cbl"
TAGS = ("title", "event", "red", "black", "result")

_cchess_cut = rc.cut_bytes_to_str


def _cut_or_whole(buff):
    """cchess's text decoding, or the whole bytes when it finds no NUL."""
    text = _cchess_cut(buff)
    if text is None:
        text = bytes(buff).decode("utf-16-le")
    return text


rc.cut_bytes_to_str = _cut_or_whole


def escape(text):
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def children_of(node):
    """The moves after `node` (a Game or a Move), the main move first."""
    first = node.first_move if isinstance(node, rc.Game) else node.next_move
    return list(first.get_siblings(include_me=True)) if first else []


def lines_of(game):
    out = []

    def walk(node, path):
        kids = children_of(node)
        if not kids and path:
            out.append(" ".join(path))
        for m in kids:
            text = m.to_iccs()
            if m.annote:
                text += " {%s}" % escape(m.annote)
            walk(m, path + [text])

    walk(game, [])
    return out


def dump(name, number, game):
    rows = [["game", name, str(number)]]
    rows += [[tag, escape(game.info.get(tag) or "")] for tag in TAGS]
    rows.append(["board", game.init_board.to_fen().split(" ")[0]])
    first = game.first_move
    if first is None:
        mover = "-"
    else:
        fench = game.init_board.get_fench(first.p_from)
        mover = "w" if fench.isupper() else "b"
    rows.append(["mover", mover])
    rows.append(["comment", escape(game.annote)])
    rows += [["line", line] for line in lines_of(game)]
    return ["\t".join(r) for r in rows]


def write_files(qipu):
    shutil.rmtree(WRITTEN, ignore_errors=True)
    os.makedirs(WRITTEN)
    for target, out in (("cbl", os.path.join(WRITTEN, LIBRARY)), ("cbr", os.path.join(WRITTEN, "cbr"))):
        subprocess.run([qipu, "-q", "convert", SOURCE, "--to", target, "-o", out], check=True)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: gen-ccbridge-cchess-fixture.py QIPU [OUT]")
    qipu = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else "tests/data/ccbridge-cchess.txt.gz"
    write_files(qipu)
    lines = []
    library = rc.read_from_cbl(os.path.join(WRITTEN, LIBRARY))
    for k, game in enumerate(library["games"], 1):
        lines += dump(LIBRARY, k, game)
    names = sorted(n for n in os.listdir(os.path.join(WRITTEN, "cbr")) if n.endswith(".cbr"))
    for n in names:
        lines += dump("cbr/" + n, 1, rc.read_from_cbr(os.path.join(WRITTEN, "cbr", n)))
    games = len(library["games"]) + len(names)
    head = [
        "# cchess %s, scripts/gen-ccbridge-cchess-fixture.py: %d games (%d in %s, %d CBR files)"
        % (importlib.metadata.version("cchess"), games, len(library["games"]), LIBRARY, len(names)),
        "# what cchess reads of the files qipu wrote from %s; see the script's docstring" % SOURCE,
    ]
    text = "\n".join(head + lines) + "\n"
    with open(out, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            gz.write(text.encode("utf-8"))
    print("%s: %d games" % (out, games), file=sys.stderr)


if __name__ == "__main__":
    main()
