"""Board drawings: Position.svg() and Game.svg(), and the _repr_svg_ notebooks
(Jupyter, IPython) show, drawn by qipu's SVG diagram writer."""

import re

import pytest

import qipu

#: The characters of the pieces, as the diagram draws them.
RED = "帅仕相马车炮兵"
BLACK = "将士象马车炮卒"


def pieces(drawing: str) -> list:
    """The pieces placed on the board: the FEN letter of each <use>."""
    return re.findall(r'<use href="#qp-([KAEBHNRCPkaebhnrcp])"', drawing)


def test_a_position_draws_itself_for_notebooks():
    pos = qipu.Position()
    drawing = pos._repr_svg_()
    assert isinstance(drawing, str) and drawing.startswith("<svg")
    assert drawing.rstrip().endswith("</svg>")
    assert len(pieces(drawing)) == 32
    assert sorted(pieces(drawing)) == sorted("RNBAKABNRCCPPPPP" + "rnbakabnrccppppp")
    for char in RED + BLACK:
        assert char in drawing
    assert drawing == pos.svg()


def test_svg_takes_a_size_and_a_side_and_marks_the_last_move():
    pos = qipu.Position()
    assert 'width="450"' in pos.svg() and 'width="300"' in pos.svg(size=300)
    assert 'data-flip="1"' in pos.svg(flip=True) and 'data-flip="0"' in pos.svg()
    before = pos.svg()
    pos.push("炮二平五")
    after = pos.svg()
    # The cannon stands on e2 (x = 45 + 50 * 4, y = 75 + 50 * 7), and the move is marked.
    assert '<use href="#qp-C" x="245" y="425"/>' in after
    assert '<use href="#qp-C" x="245" y="425"/>' not in before
    assert len(after) > len(before)
    pos.pop()
    assert pos.svg() == before


def test_a_position_with_few_pieces_draws_only_those():
    pos = qipu.Position("4k4/9/9/9/9/9/9/9/3R5/3K5 w - - 0 1")
    assert sorted(pieces(pos._repr_svg_())) == ["K", "R", "k"]


def test_a_game_draws_its_final_position():
    (game,) = qipu.read(b"1. h2e2 h9g7 2. h0g2 *")
    final = qipu.Position(game.fens()[-1])
    drawing = game._repr_svg_()
    assert drawing.startswith("<svg") and drawing == game.svg()
    assert pieces(drawing) == pieces(final.svg())
    # The last move (h0g2) is marked as Position marks it.
    pos = qipu.Position()
    for move in game.moves("uci"):
        pos.push(move)
    assert drawing == pos.svg()
    assert game.svg(size=200, flip=True) == pos.svg(size=200, flip=True)


def test_a_game_with_a_wrong_move_draws_the_last_legal_position():
    (game,) = qipu.read(b"1. h2e2 h9g7 2. h0f1 *")
    assert game.status == "illegal"
    pos = qipu.Position()
    for move in ["h2e2", "h9g7"]:
        pos.push(move)
    assert game._repr_svg_() == pos.svg()


def test_an_unreadable_game_has_no_drawing():
    (game,) = qipu.read(b"\x00\x01 nothing")
    assert game.status == "unreadable"
    assert game._repr_svg_() is None
    with pytest.raises(ValueError, match="no legal position"):
        game.svg()
