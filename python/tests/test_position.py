"""qipu.Position: moves in every notation, legality, check, the end of a game."""

import pytest

import qipu

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def test_start_position_and_its_moves():
    pos = qipu.Position()
    assert pos.fen() == START
    assert pos == qipu.Position(START)
    assert pos.turn == "red"
    assert len(pos.legal_moves()) == 44
    assert "h2e2" in pos.legal_moves()
    assert "炮二平五" in pos.legal_moves("chinese")
    assert "C2.5" in pos.legal_moves("wxf")
    assert "H2-E2" in pos.legal_moves("iccs")


@pytest.mark.parametrize("written", ["h2e2", "H2-E2", "C2.5", "炮二平五", "砲二平五"])
def test_push_takes_every_notation(written):
    pos = qipu.Position()
    assert pos.push(written) == "h2e2"
    assert pos.turn == "black"
    assert pos.move_stack == ["h2e2"]


def test_move_to_writes_a_move_in_another_notation():
    pos = qipu.Position()
    assert pos.move_to("h2e2", "chinese") == "炮二平五"
    assert pos.move_to("炮二平五", "wxf") == "C2.5"
    assert pos.move_to("C2.5", "iccs") == "H2-E2"
    assert pos.move_to("h2e2", "chinese-traditional") == "砲二平五"
    with pytest.raises(ValueError):
        pos.move_to("h2e2", "klingon")


def test_pop_takes_moves_back():
    pos = qipu.Position()
    pos.push("h2e2")
    pos.push("h9g7")
    assert pos.pop() == "h9g7"
    assert pos.move_stack == ["h2e2"]
    assert pos.pop() == "h2e2"
    assert pos == qipu.Position()
    with pytest.raises(IndexError):
        pos.pop()


def test_illegal_and_invalid_moves_raise_with_their_fields():
    pos = qipu.Position()
    with pytest.raises(qipu.IllegalMoveError) as e:
        pos.push("马二进四")
    assert e.value.move == "马二进四" and e.value.ply == 1 and e.value.fen == START
    assert "horse" in e.value.message
    assert isinstance(e.value, ValueError) and isinstance(e.value, qipu.QipuError)
    with pytest.raises(qipu.InvalidMoveError):
        pos.push("hello")
    assert not pos.is_legal("a0a5")
    assert pos.is_legal("a0a1")
    assert pos.fen() == START  # nothing was played


def test_a_bad_fen_raises():
    with pytest.raises(qipu.FenError) as e:
        qipu.Position("rnbakabnr/9/9 w")
    assert e.value.fen == "rnbakabnr/9/9 w"
    with pytest.raises(ValueError):
        qipu.Position("9/9/9/9/9/9/9/9/9/9 w - - 0 1")  # no kings


def test_check_checkmate_and_outcome():
    # Two rooks: one holds rank 8, the other checks on rank 9.
    mate = qipu.Position("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1")
    assert mate.outcome() is None and not mate.is_check()
    mate.push("b0b9")
    assert mate.is_check()
    assert mate.is_checkmate()
    assert mate.outcome() == {"termination": "checkmate", "winner": "red"}
    assert mate.legal_moves() == []


def test_repetition_is_seen():
    pos = qipu.Position()
    for _ in range(2):
        for mv in ["h0g2", "h9g7", "g2h0", "g7h9"]:
            pos.push(mv)
    assert pos.is_repetition(3)
    assert not pos.is_repetition(4)


def test_piece_at_copy_and_hash():
    pos = qipu.Position()
    assert pos.piece_at("e0") == "K"
    assert pos.piece_at("e9") == "k"
    assert pos.piece_at("e4") is None
    with pytest.raises(ValueError):
        pos.piece_at("z9")
    copy = pos.copy()
    copy.push("h2e2")
    assert copy != pos
    assert hash(qipu.Position()) == hash(pos)
    assert {pos, qipu.Position()} == {pos}
