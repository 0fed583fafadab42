"""Repetition rulings: Game.ruling and Game.rulings, the rules= keyword, and
the terminations a selection takes."""

import pytest

import qipu
from conftest import json_lines

FEN = "3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1"


def perpetual_check(result: str) -> bytes:
    """Red's rook checks on g9 and g5 for ever: Red checks perpetually."""
    moves = "1. g5g9 f5f9 2. g9g5 f9f5 3. g5g9 f5f9 4. g9g5 f9f5 5. g5g9"
    return f'[FEN "{FEN}"]\n[Result "{result}"]\n{moves} {result}\n'.encode()


def test_the_ruling_a_game_ends_in():
    game = next(qipu.read(perpetual_check("1-0")))
    assert game.termination == "perpetual-check"
    assert game.rules == "asian"
    ruling = game.ruling
    assert ruling == game.rulings[0]
    assert ruling["plies"] == [0, 4, 8]
    assert ruling["end"] == 8
    assert (ruling["verdict"], ruling["kind"]) == ("red-loses", "perpetual-check")
    assert ruling["red"] == {
        "moves": 4, "checks": 4, "chases": 0, "mate_threats": 0, "idle": 0,
        "violation": "perpetual-check", "chased": [],
    }
    assert (ruling["black"]["idle"], ruling["black"]["violation"]) == (4, None)
    assert ruling["explanation"].startswith("Red checks perpetually")
    assert ruling["explanation"].endswith("Red loses (Asian rules)")
    report = game.report_dict()
    assert report["result_conflict"].startswith("result 1-0 contradicts the repetition ruling")
    assert (report["final_ruling"], report["move_limit_at"], report["dead_draw_at"]) == (0, None, None)


def test_rules_keyword():
    game = next(qipu.read(perpetual_check("0-1"), rules="chinese"))
    assert game.rules == "chinese"
    assert game.ruling["explanation"].endswith("(Chinese rules)")
    assert game.report_dict()["result_conflict"] is None
    with pytest.raises(ValueError, match="asian or chinese"):
        qipu.read(perpetual_check("0-1"), rules="foo")


def test_a_game_without_repetition():
    game = next(qipu.read(b"1. h2e2 h9g7 *\n"))
    assert (game.ruling, game.rulings) == (None, [])
    report = game.report_dict()
    assert (report["rules"], report["rulings"], report["final_ruling"]) == ("asian", [], None)


def test_validate_stats_and_selection_equal_the_command(cli, tmp_path):
    path = tmp_path / "pc.pgn"
    path.write_bytes(perpetual_check("1/2-1/2"))
    other = tmp_path / "b.pgn"
    other.write_bytes(b"1. h2e2 h9g7 *\n")
    for rules in ("asian", "chinese"):
        expected = json_lines(cli("validate", "--format", "json", "--rules", rules, path, other))
        assert qipu.validate([path, other], rules=rules) == expected
        assert [g.report_dict() for g in qipu.read([path, other], rules=rules)] == expected
        assert "one side alone broke the rules" in expected[0]["result_conflict"]
    chosen = qipu.validate([path, other], termination="perpetual-check,dead-draw")
    assert [r["source"] for r in chosen] == [str(path)]
    assert len(qipu.validate([path, other], termination="perpetual_check", rules="chinese")) == 1
    stats = qipu.stats([path, other])
    assert stats["repetition_rulings"]["by_kind"] == {"perpetual-check by Red": 1}
    assert stats["repetition_rulings"]["games_ending_in_ruling"] == 1
