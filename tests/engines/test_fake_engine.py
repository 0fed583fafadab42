"""Drives tests/engines/fake_engine.py through subprocess: both protocols, the variant option,
the table, MultiPV, position commands and every fault mode.

    python3 -m unittest discover -s tests/engines
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engine.py")
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
AFTER_H2E2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"
MATE_IN_ONE = "3k5/9/9/9/9/9/9/9/4R4/4K4 w"


def run(args, commands, timeout=10):
    """Runs the fake with the commands on its input; returns (exit code, output lines)."""
    proc = subprocess.run(
        [sys.executable, FAKE] + args,
        input="".join(c + "\n" for c in commands).encode(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=timeout,
    )
    text = proc.stdout.decode("utf-8", "replace")
    return proc.returncode, text.splitlines()


def bestmoves(lines):
    return [line for line in lines if line.startswith("bestmove") or line == "nobestmove"]


def infos(lines):
    return [line for line in lines if line.startswith("info depth")]


class Scratch(unittest.TestCase):
    """A test with a scratch folder and a table file in it."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.table = self.path("table.json")
        table = {
            START: {"score": {"cp": 38}, "depth": 12, "pv": ["h2e2", "h9g7", "h0g2"]},
            AFTER_H2E2: {
                "depth": 9,
                "lines": [
                    {"score": {"cp": -20}, "pv": ["h9g7", "h0g2"]},
                    {"score": {"cp": -45}, "pv": ["b9c7"]},
                    {"score": {"cp": -60}, "pv": ["h7e7"]},
                ],
            },
            MATE_IN_ONE: {"score": {"mate": 1}, "depth": 3, "pv": ["e1d1"]},
        }
        with open(self.table, "w", encoding="utf-8") as f:
            json.dump(table, f)

    def path(self, name):
        return os.path.join(self.dir.name, name)


class Uci(Scratch):
    def test_handshake_offers_the_options(self):
        code, lines = run(["--name", "Pika"], ["uci", "isready", "quit"])
        self.assertEqual(code, 0)
        self.assertIn("id name Pika", lines)
        for name in ("Hash", "Threads", "MultiPV"):
            self.assertTrue(any(l.startswith("option name %s type spin" % name) for l in lines))
        self.assertFalse(any("UCI_Variant" in l for l in lines))
        self.assertLess(lines.index("id name Pika"), lines.index("uciok"))
        self.assertEqual(lines[-1], "readyok")

    def test_unknown_commands_are_told_and_passed_over(self):
        _, lines = run([], ["ucci", "fen " + START, "startpos", "uci", "isready"])
        unknown = [l for l in lines if l.startswith("Unknown command: ")]
        self.assertEqual(len(unknown), 3)
        self.assertIn("uciok", lines)
        self.assertEqual(lines[-1], "readyok")

    def test_table_position_gives_its_line(self):
        _, lines = run(
            ["--table", self.table],
            ["uci", "position fen %s - - 0 1" % START, "go depth 5"],
        )
        found = infos(lines)
        self.assertGreaterEqual(len(found), 2)
        self.assertIn(" depth 12 ", found[-1])
        self.assertIn("score cp 38", found[-1])
        self.assertTrue(found[-1].endswith(" pv h2e2 h9g7 h0g2"))
        self.assertEqual(bestmoves(lines), ["bestmove h2e2"])

    def test_moves_are_applied_to_startpos_and_to_a_fen(self):
        for position in ("position startpos moves h2e2", "position fen %s - - 0 1 moves h2e2" % START):
            _, lines = run(["--table", self.table], ["uci", position, "go depth 4"])
            self.assertEqual(bestmoves(lines), ["bestmove h9g7"], position)
            self.assertIn(" depth 9 ", infos(lines)[-1])

    def test_unknown_position_scores_by_hash_without_a_move(self):
        fen = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
        _, first = run([], ["uci", "position fen " + fen, "go depth 7"])
        _, again = run([], ["uci", "position fen " + fen, "go depth 7"])
        self.assertEqual(first, again)
        last = infos(first)[-1]
        self.assertIn(" depth 7 ", last)
        cp = int(last.split("score cp ")[1].split()[0])
        self.assertTrue(-100 <= cp <= 100)
        self.assertNotIn(" pv", last)
        self.assertEqual(bestmoves(first), ["bestmove 0000"])
        _, other = run([], ["uci", "position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "go depth 7"])
        self.assertEqual(len(infos(other)), 3)

    def test_movetime_and_nodes_answer_too(self):
        for go in ("go movetime 50", "go nodes 1"):
            _, lines = run(["--table", self.table], ["uci", "position startpos", go])
            self.assertEqual(bestmoves(lines), ["bestmove h2e2"], go)
            self.assertIn(" depth 12 ", infos(lines)[-1])

    def test_mate_score(self):
        _, lines = run(["--table", self.table], ["uci", "position fen " + MATE_IN_ONE, "go depth 1"])
        self.assertIn("score mate 1", infos(lines)[-1])
        self.assertEqual(bestmoves(lines), ["bestmove e1d1"])

    def test_multipv_lines(self):
        _, lines = run(
            ["--table", self.table],
            ["uci", "setoption name MultiPV value 2", "position startpos moves h2e2", "go depth 9"],
        )
        last = [l for l in infos(lines) if " depth 9 " in l]
        self.assertEqual(len(last), 2)
        self.assertIn("multipv 1 score cp -20", last[0])
        self.assertIn("multipv 2 score cp -45", last[1])
        self.assertTrue(last[1].endswith("pv b9c7"))
        self.assertEqual(bestmoves(lines), ["bestmove h9g7"])

    def test_variant_option_and_ranks_from_one(self):
        code, lines = run(
            ["--variant-option", "--table", self.table],
            ["uci", "position startpos", "go depth 3", "setoption name UCI_Variant value xiangqi",
             "position startpos moves h3e3", "go depth 3", "position startpos", "go depth 3"],
        )
        self.assertEqual(code, 0)
        self.assertIn("option name UCI_Variant type combo default chess var chess var xiangqi", lines)
        self.assertIn("info string variant not set", lines)
        self.assertEqual(bestmoves(lines), ["bestmove (none)", "bestmove h10g8", "bestmove h3e3"])
        self.assertTrue(any(l.endswith("pv h10g8 h1g3") for l in infos(lines)))


class Ucci(Scratch):
    def test_handshake(self):
        code, lines = run(["--protocol", "ucci", "--name", "ElephantEye"], ["ucci", "isready", "quit"])
        self.assertEqual(code, 0)
        self.assertIn("id name ElephantEye", lines)
        self.assertIn("option hashsize type spin min 16 max 1024 default 16", lines)
        self.assertEqual(lines[-3:], ["ucciok", "readyok", "bye"])

    def test_exits_on_a_first_line_that_is_not_ucci(self):
        start = time.monotonic()
        code, lines = run(["--protocol", "ucci"], ["uci", "isready", "ucci"])
        self.assertEqual(code, 0)
        self.assertEqual(lines, [])
        self.assertLess(time.monotonic() - start, 5)

    def test_scores_and_mates_as_elephanteye(self):
        _, lines = run(
            ["--protocol", "ucci", "--table", self.table],
            ["ucci", "setoption usebook false", "position fen " + START + " - - 0 1",
             "go depth 3", "position fen " + MATE_IN_ONE, "go depth 1",
             "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w", "go time 100 movestogo 1"],
        )
        found = infos(lines)
        self.assertIn("info depth 12 score 38 pv h2e2 h9g7 h0g2", found)
        self.assertIn("info depth 3 score 9999 pv e1d1", found)
        self.assertEqual(bestmoves(lines), ["bestmove h2e2", "bestmove e1d1", "nobestmove"])

    def test_mated_side_scores_minus(self):
        table = self.path("mated.json")
        with open(table, "w", encoding="utf-8") as f:
            json.dump({START: {"score": {"mate": -2}, "pv": ["a0a1"]}}, f)
        _, lines = run(["--protocol", "ucci", "--table", table], ["ucci", "position startpos", "go depth 2"])
        self.assertTrue(infos(lines)[-1].startswith("info depth 2 score -9996 "))

    def test_refuse_says_nobestmove(self):
        _, lines = run(
            ["--protocol", "ucci", "--mode", "refuse", "--table", self.table],
            ["ucci", "position startpos", "go depth 3"],
        )
        self.assertIn("info string illegal position", lines)
        self.assertEqual(bestmoves(lines), ["nobestmove"])


class Faults(Scratch):
    def test_crash_on_the_kth_search(self):
        code, lines = run(
            ["--mode", "crash", "--when", "2", "--table", self.table],
            ["uci", "position startpos", "go depth 3", "go depth 3", "go depth 3"],
        )
        self.assertEqual(code, 3)
        self.assertEqual(bestmoves(lines), ["bestmove h2e2"])

    def test_crash_on_a_fen_prefix(self):
        prefix = AFTER_H2E2.split()[0]
        code, lines = run(
            ["--mode", "crash", "--fen-prefix", prefix, "--table", self.table],
            ["uci", "position startpos", "go depth 3", "position startpos moves h2e2", "go depth 3"],
        )
        self.assertEqual(code, 3)
        self.assertEqual(bestmoves(lines), ["bestmove h2e2"])

    def test_once_misbehaves_in_the_first_process_only(self):
        flag = self.path("crashed")
        args = ["--mode", "crash", "--once", flag, "--table", self.table]
        code, _ = run(args, ["uci", "position startpos", "go depth 3"])
        self.assertEqual(code, 3)
        self.assertTrue(os.path.exists(flag))
        code, lines = run(args, ["uci", "position startpos", "go depth 3"])
        self.assertEqual(code, 0)
        self.assertEqual(bestmoves(lines), ["bestmove h2e2"])

    def test_hang_answers_nothing_and_dies_when_killed(self):
        proc = subprocess.Popen(
            [sys.executable, FAKE, "--mode", "hang"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        proc.stdin.write(b"uci\nposition startpos\ngo depth 3\nisready\n")
        proc.stdin.flush()
        time.sleep(1)
        self.assertIsNone(proc.poll())
        proc.send_signal(signal.SIGTERM)
        self.assertIsNotNone(proc.wait(timeout=5))
        output = proc.stdout.read().decode()
        proc.stdin.close()
        proc.stdout.close()
        self.assertIn("uciok", output)
        self.assertNotIn("bestmove", output)
        self.assertNotIn("readyok", output)

    def test_garbage_gives_no_valid_bestmove(self):
        proc = subprocess.run(
            [sys.executable, FAKE, "--mode", "garbage", "--table", self.table],
            input=b"uci\nposition startpos\ngo depth 3\nisready\n",
            stdout=subprocess.PIPE,
            timeout=10,
        )
        self.assertEqual(proc.returncode, 0)
        self.assertIn(b"\x00\xff", proc.stdout)
        lines = proc.stdout.decode("utf-8", "replace").splitlines()
        self.assertIn("info score cp banana", lines)
        moves = [l for l in lines if l.startswith("bestmove ")]
        self.assertEqual(moves, ["bestmove ??"])
        self.assertEqual(lines[-1], "readyok")

    def test_refuse(self):
        _, lines = run(["--mode", "refuse", "--table", self.table], ["uci", "position startpos", "go depth 3"])
        self.assertIn("info string illegal position", lines)
        self.assertEqual(bestmoves(lines), ["bestmove (none)"])

    def test_slow_sleeps_before_answering(self):
        start = time.monotonic()
        _, lines = run(
            ["--mode", "slow", "--sleep", "600", "--table", self.table],
            ["uci", "position startpos", "go depth 3"],
        )
        self.assertGreaterEqual(time.monotonic() - start, 0.6)
        self.assertEqual(bestmoves(lines), ["bestmove h2e2"])

    def test_normal_with_sleep_is_a_cost_per_search(self):
        start = time.monotonic()
        run(["--sleep", "300"], ["uci", "position startpos", "go depth 1", "go depth 1"])
        self.assertGreaterEqual(time.monotonic() - start, 0.6)

    def test_log_has_a_line_per_search(self):
        log = self.path("searches.log")
        for _ in range(2):
            run(["--log", log], ["uci", "position startpos", "go depth 1", "position startpos moves h2e2", "go depth 1"])
        with open(log, encoding="utf-8") as f:
            entries = [line.split(" ", 1) for line in f.read().splitlines()]
        self.assertEqual(len(entries), 4)
        self.assertEqual(len({pid for pid, _ in entries}), 2)
        self.assertEqual(entries[0][1], START + " - - 0 1")
        self.assertEqual(entries[1][1], AFTER_H2E2 + " - - 1 1")


    def talker(self, args, commands):
        """Starts the fake with `args` and writes it `commands`; the process."""
        proc = subprocess.Popen(
            [sys.executable, FAKE] + args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.addCleanup(proc.wait, 10)
        self.addCleanup(proc.kill)
        proc.stdin.write("".join(c + "\n" for c in commands).encode())
        proc.stdin.flush()
        return proc

    def read_at_least(self, proc, n):
        """The first n bytes or more of the output (the process still writing)."""
        data = b""
        while len(data) < n:
            chunk = proc.stdout.read1(65536)
            self.assertTrue(chunk, "the output ended")
            data += chunk
        self.assertIsNone(proc.poll())
        return data

    def test_spam_writes_info_lines_without_end_and_no_bestmove(self):
        for protocol, info in (("uci", "info depth 1 score cp 0 pv h2e2"), ("ucci", "info depth 1 score 0 pv h2e2")):
            proc = self.talker(
                ["--mode", "spam", "--protocol", protocol, "--table", self.table],
                [protocol, "isready", "position startpos", "go depth 3"],
            )
            data = self.read_at_least(proc, 4 << 20)
            lines = data.decode().split("\n")[:-1]
            self.assertIn("readyok", lines)
            spammed = lines[lines.index("readyok") + 1:]
            self.assertGreater(len(spammed), 100000)
            self.assertEqual(set(spammed), {info})
            # It ends when its output is closed.
            proc.stdout.close()
            self.assertIsNotNone(proc.wait(timeout=10))

    def test_endless_writes_a_line_that_never_ends(self):
        proc = self.talker(["--mode", "endless", "--table", self.table], ["uci", "isready", "position startpos", "go depth 3"])
        data = self.read_at_least(proc, 4 << 20)
        head, _, tail = data.partition(b"readyok\n")
        self.assertIn(b"uciok", head)
        self.assertGreater(len(tail), 3 << 20)
        self.assertEqual(set(tail), {ord("x")})
        proc.stdout.close()
        self.assertIsNotNone(proc.wait(timeout=10))

    def test_spam_chooses_its_search_as_the_other_faults(self):
        _, lines = run(["--mode", "spam", "--when", "2", "--table", self.table], ["uci", "position startpos", "go depth 3"])
        self.assertEqual(bestmoves(lines), ["bestmove h2e2"])

    def test_spam_handshake_never_says_uciok(self):
        for protocol in ("uci", "ucci"):
            proc = self.talker(["--spam-handshake", "--protocol", protocol], [protocol, "isready"])
            data = self.read_at_least(proc, 1 << 20)
            lines = data.decode().split("\n")[:-1]
            self.assertNotIn("uciok", lines)
            self.assertNotIn("ucciok", lines)
            self.assertNotIn("readyok", lines)
            self.assertGreater(sum(line.startswith("info depth 1 ") for line in lines), 10000)
            proc.stdout.close()
            self.assertIsNotNone(proc.wait(timeout=10))
    def test_spam_handshake_if_a_file_exists(self):
        flag = self.path("crashed")
        args = ["--mode", "crash", "--once", flag, "--spam-handshake-if", flag, "--table", self.table]
        code, lines = run(args, ["uci", "position startpos", "go depth 3"])
        self.assertEqual(code, 3)
        self.assertIn("uciok", lines)
        proc = self.talker(args, ["uci", "isready"])
        lines = self.read_at_least(proc, 1 << 20).decode().split("\n")[:-1]
        self.assertNotIn("uciok", lines)
        self.assertGreater(sum(line.startswith("info depth 1 ") for line in lines), 10000)
        proc.stdout.close()
        self.assertIsNotNone(proc.wait(timeout=10))


if __name__ == "__main__":
    unittest.main()
