#!/usr/bin/env python3
"""A scripted Xiangqi engine speaking UCI or UCCI, for qipu's engine tests.

It searches nothing: its answers come from a table of positions (--table), or, for a position
not in the table, from a hash of the position. It is deterministic, reads one command a line on
standard input and flushes every line it writes. Faults (--mode) make it crash, hang, talk
nonsense, refuse or dawdle on chosen searches, as real engines sometimes do, or never stop
talking: info lines without end and no best move (spam), a line that never ends (endless), or
info lines without end in answer to the handshake (--spam-handshake, as `yes` would; with
--spam-handshake-if FILE, once FILE exists: an engine started again after a fault). With
--child it starts a process of its own that keeps its standard output open after it ends.

    fake_engine.py [--protocol uci|ucci] [--name NAME] [--variant-option] [--table FILE]
                   [--mode normal|crash|hang|garbage|refuse|slow|spam|endless] [--when K]
                   [--fen-prefix S] [--once FILE] [--sleep MS] [--log FILE] [--spam-handshake]
                   [--spam-handshake-if FILE] [--child MARKER]

The table is a JSON object keyed by the first two fields of a FEN ("board side", side w or b):
    {"<board> w": {"score": {"cp": 38} | {"mate": 3}, "depth": 12,
                   "pv": ["h2e2", "h9g7"], "lines": [{"score": ..., "pv": [...]}, ...]}}
Scores are from the side to move; moves are 0-based ICCS (h2e2); "lines" are the MultiPV lines,
best first ("pv" alone is one line). Standard library only.
"""

import argparse
import hashlib
import json
import os
import re
import sys
import time

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# ElephantEye's mate score: MATE_VALUE minus the distance to mate in plies.
UCCI_MATE_VALUE = 10000
# The depth reported by a movetime or nodes search of a position the table gives no depth.
DEFAULT_DEPTH = 5
MOVE = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$")


def out(line):
    """Writes one line of text and flushes it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def spam(uci):
    """Writes info lines as fast as it can, forever (until its output is closed)."""
    line = "info depth 1 score cp 0 pv h2e2\n" if uci else "info depth 1 score 0 pv h2e2\n"
    block = (line * 2048).encode("ascii")
    while True:
        sys.stdout.buffer.write(block)
        sys.stdout.buffer.flush()


def endless():
    """Writes a line that never ends: bytes without a newline, forever."""
    block = b"x" * 65536
    while True:
        sys.stdout.buffer.write(block)
        sys.stdout.buffer.flush()


class Position:
    """A board of 10 rows (rank 9 first) of 9 squares, the side to move and the FEN's counters."""

    def __init__(self, fen):
        fields = fen.split()
        if not fields:
            raise ValueError("empty FEN")
        rows = fields[0].split("/")
        if len(rows) != 10:
            raise ValueError("not 10 ranks: " + fields[0])
        self.board = []
        for row in rows:
            squares = []
            for ch in row:
                if ch.isdigit():
                    squares.extend([None] * int(ch))
                else:
                    squares.append(ch)
            if len(squares) != 9:
                raise ValueError("a rank that is not 9 squares: " + row)
            self.board.append(squares)
        side = fields[1] if len(fields) > 1 else "w"
        self.side = "b" if side == "b" else "w"
        self.halfmove = _int_or(fields[4] if len(fields) > 4 else "0", 0)
        self.fullmove = _int_or(fields[5] if len(fields) > 5 else "1", 1)

    def play(self, move, ranks_from_one):
        """Moves whatever is on the move's first square to its second (no legality)."""
        m = MOVE.match(move)
        if not m:
            raise ValueError("not a move: " + move)
        base = 1 if ranks_from_one else 0
        ff, fr = ord(m.group(1)) - ord("a"), int(m.group(2)) - base
        tf, tr = ord(m.group(3)) - ord("a"), int(m.group(4)) - base
        if not (0 <= fr <= 9 and 0 <= tr <= 9):
            raise ValueError("a rank off the board: " + move)
        piece = self.board[9 - fr][ff]
        captured = self.board[9 - tr][tf]
        self.board[9 - tr][tf] = piece
        self.board[9 - fr][ff] = None
        self.halfmove = 0 if captured else self.halfmove + 1
        if self.side == "b":
            self.fullmove += 1
        self.side = "b" if self.side == "w" else "w"

    def key(self):
        """The first two FEN fields: the table's key."""
        rows = []
        for squares in self.board:
            row, empty = "", 0
            for piece in squares:
                if piece is None:
                    empty += 1
                else:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += piece
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows) + " " + self.side

    def fen(self):
        """The whole FEN."""
        return "%s - - %d %d" % (self.key(), self.halfmove, self.fullmove)


def _int_or(text, default):
    try:
        return int(text)
    except ValueError:
        return default


def hashed_cp(key):
    """A score in -100..100 that depends only on the position."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % 201 - 100


class Engine:
    """The engine's state and its answers to each command."""

    def __init__(self, args):
        self.args = args
        self.uci = args.protocol == "uci"
        self.table = {}
        if args.table:
            with open(args.table, encoding="utf-8") as f:
                self.table = json.load(f)
        self.position = Position(START_FEN)
        self.multipv = 1
        self.options = {}
        # Without --variant-option there is no variant to set: moves use ranks 0..9.
        self.variant = None if args.variant_option else "xiangqi"
        self.searches = 0

    # -- moves in the engine's own coordinates --------------------------------------------
    def ranks_from_one(self):
        return self.args.variant_option and self.variant == "xiangqi"

    def show_move(self, move):
        """A 0-based ICCS move as the engine writes it (ranks 1..10 once the variant is set)."""
        if not self.ranks_from_one():
            return move
        m = MOVE.match(move)
        if not m:
            return move
        return "%s%d%s%d" % (m.group(1), int(m.group(2)) + 1, m.group(3), int(m.group(4)) + 1)

    # -- the commands ---------------------------------------------------------------------
    def run(self):
        first = True
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            if first and not self.uci and line != "ucci":
                # ElephantEye leaves at once on a first line that is not "ucci".
                return 0
            first = False
            word = line.split()[0]
            if word == "quit":
                if not self.uci:
                    out("bye")
                return 0
            if word in ("uci", "ucci") and self.spams_handshake():
                spam(self.uci)
            handler = getattr(self, "cmd_" + word, None)
            wrong_handshake = word == ("ucci" if self.uci else "uci")
            if handler is None or wrong_handshake:
                # uci to a UCCI engine, ucci to a UCI one, or anything unknown.
                if self.uci:
                    out("Unknown command: '%s'. Type help for more information." % line)
                continue
            handler(line)
        return 0

    def cmd_uci(self, _line):
        out("id name " + self.args.name)
        out("id author qipu tests")
        out("option name Hash type spin default 16 min 1 max 33554432")
        out("option name Threads type spin default 1 min 1 max 1024")
        out("option name MultiPV type spin default 1 min 1 max 128")
        if self.args.variant_option:
            out("option name UCI_Variant type combo default chess var chess var xiangqi")
        out("uciok")

    def cmd_ucci(self, _line):
        out("id name " + self.args.name)
        out("id author qipu tests")
        out("option usemillisec type check default true")
        out("option usebook type check default true")
        out("option hashsize type spin min 16 max 1024 default 16")
        out("option threads type spin min 1 max 32 default 1")
        out("option multipv type spin min 1 max 16 default 1")
        out("ucciok")

    def cmd_isready(self, _line):
        out("readyok")

    def cmd_ucinewgame(self, _line):
        pass

    def cmd_stop(self, _line):
        if not self.uci:
            out("nobestmove")

    def cmd_setoption(self, line):
        words = line.split()[1:]
        if self.uci:
            # setoption name NAME [value VALUE]
            if not words or words[0] != "name":
                return
            rest = " ".join(words[1:])
            name, _, value = rest.partition(" value ")
            name, value = name.strip(), value.strip()
        else:
            # setoption NAME [VALUE]
            if not words:
                return
            name, value = words[0], " ".join(words[1:])
        self.options[name.lower()] = value
        if name.lower() == "multipv":
            self.multipv = max(1, _int_or(value, 1))
        if self.uci and name.lower() == "uci_variant" and self.args.variant_option:
            self.variant = value

    def cmd_position(self, line):
        words = line.split()[1:]
        if not words:
            return
        if words[0] == "startpos":
            fen, rest = START_FEN, words[1:]
        elif words[0] == "fen":
            fen_words = []
            rest = []
            for i, w in enumerate(words[1:]):
                if w == "moves":
                    rest = words[1 + i:]
                    break
                fen_words.append(w)
            fen = " ".join(fen_words)
        else:
            return
        try:
            position = Position(fen)
            if rest and rest[0] == "moves":
                for move in rest[1:]:
                    position.play(move, self.ranks_from_one())
        except ValueError as e:
            out("info string bad position: %s" % e)
            return
        self.position = position

    def cmd_go(self, line):
        self.searches += 1
        key = self.position.key()
        if self.args.log:
            with open(self.args.log, "a", encoding="utf-8") as log:
                log.write("%d %s\n" % (os.getpid(), self.position.fen()))
                log.flush()
        if self.args.variant_option and self.variant != "xiangqi":
            out("info string variant not set")
            out("bestmove (none)")
            return
        mode = self.args.mode
        if mode != "normal" and self.misbehaves():
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                while True:
                    time.sleep(3600)
            if mode == "garbage":
                out("bestmove ??")
                out("info score cp banana")
                out("info depth x score mate pv zz99")
                sys.stdout.flush()
                sys.stdout.buffer.write(b"\x00\xff\xfe\x9c garbage \x80\x81\n")
                sys.stdout.buffer.flush()
                out("bestmove")
                return
            if mode == "refuse":
                out("info string illegal position")
                out("nobestmove" if not self.uci else "bestmove (none)")
                return
            if mode == "spam":
                spam(self.uci)
            if mode == "endless":
                endless()
            if mode == "slow":
                time.sleep(self.args.sleep / 1000.0 if self.args.sleep else 1.0)
        elif self.args.sleep:
            time.sleep(self.args.sleep / 1000.0)
        self.answer(key, line.split()[1:])

    def spams_handshake(self):
        """Whether the handshake is answered by info lines without end."""
        if self.args.spam_handshake_if is not None:
            return os.path.exists(self.args.spam_handshake_if)
        return self.args.spam_handshake

    def misbehaves(self):
        """Whether this search is one of those the fault applies to (and, with --once, the first)."""
        if self.args.when is not None and self.searches != self.args.when:
            return False
        if self.args.fen_prefix is not None and not self.position.fen().startswith(
            self.args.fen_prefix
        ):
            return False
        if self.args.once:
            if os.path.exists(self.args.once):
                return False
            with open(self.args.once, "w", encoding="utf-8") as f:
                f.write("%d\n" % os.getpid())
        return True

    def answer(self, key, words):
        entry = self.table.get(key)
        limit = words[0] if words else "depth"
        asked = _int_or(words[1], DEFAULT_DEPTH) if len(words) > 1 else DEFAULT_DEPTH
        if entry is None:
            depth = asked if limit == "depth" else DEFAULT_DEPTH
            lines = [{"score": {"cp": hashed_cp(key)}, "pv": []}]
        else:
            depth = entry.get("depth", asked if limit == "depth" else DEFAULT_DEPTH)
            if entry.get("lines"):
                lines = entry["lines"]
            else:
                lines = [{"score": entry.get("score", {"cp": 0}), "pv": entry.get("pv", [])}]
        depth = max(1, int(depth))
        shown = lines[: max(1, self.multipv)]
        for d in range(max(1, depth - 2), depth + 1):
            final = d == depth
            for i, pv_line in enumerate(shown if final else shown[:1]):
                pv = pv_line.get("pv", [])
                if not final:
                    pv = pv[:1]
                self.info(d, i + 1, pv_line.get("score", {"cp": 0}), pv)
        best = lines[0].get("pv", [])
        if best:
            out("bestmove " + self.show_move(best[0]))
        else:
            out("bestmove 0000" if self.uci else "nobestmove")

    def info(self, depth, multipv, score, pv):
        moves = " ".join(self.show_move(m) for m in pv)
        nodes = 1000 * depth
        if self.uci:
            if "mate" in score:
                text = "mate %d" % score["mate"]
            else:
                text = "cp %d" % score["cp"]
            line = "info depth %d seldepth %d multipv %d score %s nodes %d nps 100000 time %d" % (
                depth,
                depth,
                multipv,
                text,
                nodes,
                depth,
            )
        else:
            line = "info depth %d score %d" % (depth, ucci_score(score))
            if self.multipv > 1:
                line += " multipv %d" % multipv
        if moves:
            line += " pv " + moves
        out(line)


def ucci_score(score):
    """A score as ElephantEye writes it: mates as 10000 less the plies to mate (negative when mated)."""
    if "mate" not in score:
        return int(score["cp"])
    n = int(score["mate"])
    if n > 0:
        return UCCI_MATE_VALUE - (2 * n - 1)
    return -(UCCI_MATE_VALUE - 2 * -n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--protocol", choices=["uci", "ucci"], default="uci", help="the handshake answered")
    parser.add_argument("--name", default="FakeEngine", help="its `id name`")
    parser.add_argument(
        "--variant-option",
        action="store_true",
        help="offer UCI_Variant as Fairy-Stockfish does; once xiangqi, moves use ranks 1..10",
    )
    parser.add_argument("--table", metavar="FILE", help="JSON answers keyed by the first two FEN fields")
    parser.add_argument(
        "--mode",
        choices=["normal", "crash", "hang", "garbage", "refuse", "slow", "spam", "endless"],
        default="normal",
        help="how it misbehaves on the searches chosen by --when, --fen-prefix and --once",
    )
    parser.add_argument("--when", type=int, metavar="K", help="only on the K-th go of the process (from 1)")
    parser.add_argument("--fen-prefix", metavar="S", help="only on positions whose FEN starts so")
    parser.add_argument("--once", metavar="FILE", help="only while this file does not exist (created on misbehaving)")
    parser.add_argument(
        "--sleep",
        type=int,
        default=0,
        metavar="MS",
        help="milliseconds to sleep before answering: each search in mode normal, the chosen ones in mode slow (default 1000 there)",
    )
    parser.add_argument("--log", metavar="FILE", help="append `PID FEN` to this file for each go")
    parser.add_argument(
        "--spam-handshake",
        action="store_true",
        help="answer uci or ucci with info lines without end, never uciok or ucciok",
    )
    parser.add_argument(
        "--spam-handshake-if",
        metavar="FILE",
        help="as --spam-handshake, but only when FILE exists (as --once leaves it)",
    )
    parser.add_argument(
        "--child",
        metavar="MARKER",
        help="start a process of its own that holds its standard output open and sleeps ten minutes"
        " (MARKER in its command line), as engines that start helpers do",
    )
    args = parser.parse_args()
    if args.child:
        import subprocess

        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", args.child])
    if args.protocol == "uci":
        out("%s by qipu tests" % args.name)
    try:
        return Engine(args).run()
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
