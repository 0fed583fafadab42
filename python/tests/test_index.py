"""qipu.build_index and qipu.Index: a position index of the repository's
fixtures, asked as `qipu search` and `qipu explore` ask it, and checked
against `qipu validate --position`, against replaying the games, and
against the command."""

import json

import pytest

import qipu
from conftest import ROOT, json_lines

FIXTURES = ROOT / "fixtures"
AFTER_H2E2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR"
HIT_KEYS = {"source", "index", "ply", "next", "result", "valid", "year", "red_elo", "black_elo", "termination"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The fixtures' index, and what its build returned."""
    out = tmp_path_factory.mktemp("index") / "fixtures.qidx"
    summary = qipu.build_index(str(FIXTURES), out, jobs=2)
    return out, summary


@pytest.fixture(scope="module")
def index(built):
    return qipu.Index(built[0])


def games_of(source):
    """The games of `source`, read once."""
    return list(qipu.read(source))


def position_of(hit, cache):
    """The position of `hit`, its game read again and replayed to its ply."""
    if hit["source"] not in cache:
        cache[hit["source"]] = games_of(hit["source"])
    game = cache[hit["source"]][hit["index"]]
    return qipu.Position(game.fens()[hit["ply"]])


def test_the_build_counts_the_games_and_the_index_holds_them(built, index):
    _, summary = built
    assert set(summary) == {
        "games", "positions", "without_positions", "inputs_read", "inputs_unchanged",
        "inputs_replaced", "total_games", "total_positions", "variations", "variation_positions",
        "variations_left_out", "total_variations",
    }
    assert summary["variations"] == summary["total_variations"] == 0
    assert summary["games"] > 1000 and summary["positions"] > summary["games"]
    assert summary["inputs_unchanged"] == summary["inputs_replaced"] == 0
    assert (index.games, index.positions) == (summary["total_games"], summary["total_positions"])
    assert (index.games, index.positions) == (summary["games"], summary["positions"])
    assert index.mirror is False
    assert sum(games for _, games in index.sources()) == index.games
    assert all(name.startswith(str(FIXTURES)) for name, _ in index.sources())
    assert "games" in repr(index)


def test_a_second_build_reads_nothing(built):
    out, first = built
    again = qipu.build_index(str(FIXTURES), out)
    assert again["inputs_read"] == 0 and again["games"] == 0 and again["positions"] == 0
    assert again["inputs_unchanged"] == first["inputs_read"]
    assert (again["total_games"], again["total_positions"]) == (first["total_games"], first["total_positions"])


def test_the_build_tells_what_the_command_tells(cli, built, tmp_path):
    out = tmp_path / "cli.qidx"
    cli("index", "build", str(FIXTURES), "-o", str(out))
    theirs = qipu.Index(out)
    ours = qipu.Index(built[0])
    assert (theirs.games, theirs.positions, theirs.sources()) == (ours.games, ours.positions, ours.sources())


@pytest.mark.parametrize("fen", [AFTER_H2E2, AFTER_H2E2 + " b", "startpos"])
def test_find_agrees_with_validate_position(cli, index, fen):
    hits = index.find(fen)
    assert hits and all(set(h) == HIT_KEYS for h in hits)
    position = qipu.Position().fen().split()[0] + " w" if fen == "startpos" else fen
    selected = json_lines(cli("validate", str(FIXTURES), "--position", position, "--format", "json"))
    assert {(h["source"], h["index"]) for h in hits} == {(r["source"], r["index"]) for r in selected}


def test_find_gives_every_time_and_the_move_played_next(index):
    cache = {}
    hits = index.find(AFTER_H2E2, tags=True)
    for hit in hits[:40]:
        pos = position_of(hit, cache)
        assert pos.fen().split()[0] == AFTER_H2E2
        game = cache[hit["source"]][hit["index"]]
        moves = game.moves("uci")
        assert hit["next"] == (moves[hit["ply"]] if hit["ply"] < len(moves) else None)
        assert hit["result"] == (game.result or "*")
        assert hit["tags"].get("Red") == game.tags.get("Red")
    # With the side to move: only Black's.
    assert index.find(AFTER_H2E2, side="red") == []
    assert index.find(AFTER_H2E2, side="black") == index.find(AFTER_H2E2 + " b")


def test_search_pieces_finds_positions_that_hold_them(index):
    hits = index.search(pieces="C@e2 n@g7", side="red")
    assert hits
    cache = {}
    for hit in hits[:60]:
        pos = position_of(hit, cache)
        assert pos.piece_at("e2") == "C" and pos.piece_at("g7") == "n" and pos.turn == "red"
    # One hit a game: the first position where they hold.
    assert len({(h["source"], h["index"]) for h in hits}) == len(hits)


def test_search_agrees_with_the_command(cli, built, index):
    out = built[0]
    for kwargs, flags in [
        ({"pieces": "R@e? k@e9", "mirror": True}, ["--pieces", "R@e? k@e9", "--mirror"]),
        ({"material": "RCP* vs RA*", "side": "black"}, ["--material", "RCP* vs RA*", "--side", "black"]),
        ({"sequence": ["h2e2", "H9-G7"], "side": "red"}, ["--sequence", "h2e2 h9g7", "--side", "red"]),
        ({"imbalance": "N vs C"}, ["--imbalance", "N vs C"]),
    ]:
        got = index.search(**kwargs, jobs=2, tags=True)
        expected = json_lines(cli("search", str(out), *flags, "--format", "json"))
        assert got == expected, kwargs
        assert got


def test_explore_totals_and_the_command(cli, built, index):
    out = built[0]
    for fen, flags in [("startpos", []), (AFTER_H2E2 + " b", ["--mirror"])]:
        explored = index.explore(fen, mirror=bool(flags))
        assert explored["games"] == sum(m["games"] for m in explored["moves"]) + explored["ended"]
        assert explored["games"] > 0 and explored["moves"]
        words = [] if fen == "startpos" else fen.split()
        expected = json.loads(cli("explore", str(out), *words, *flags, "--format", "json", "--notation", "iccs"))
        assert explored == expected
    chinese = index.explore(notation="chinese")
    assert chinese["moves"][0]["move"] == "炮二平五" and chinese["moves"][0]["iccs"] == "h2e2"


def test_errors_raise_with_the_reason(built, index, tmp_path):
    with pytest.raises(qipu.FenError, match="invalid FEN"):
        index.find("rnbakabnr/9/zz")
    with pytest.raises(ValueError):
        index.explore("not a fen")
    with pytest.raises(ValueError, match="pieces="):
        index.search(pieces="X@z9")
    with pytest.raises(ValueError, match="material="):
        index.search(material="Q vs K")
    with pytest.raises(ValueError, match="imbalance="):
        index.search(imbalance="RR vs RH")
    with pytest.raises(ValueError, match="sequence"):
        index.search(sequence="h2e2 炮二平五")
    with pytest.raises(ValueError, match="needs a question"):
        index.search(side="red")
    with pytest.raises(ValueError, match="side="):
        index.find(AFTER_H2E2, side="green")
    with pytest.raises(ValueError, match="notation"):
        index.explore(notation="nope")
    with pytest.raises(FileNotFoundError):
        qipu.Index(tmp_path / "none.qidx")
    with pytest.raises(TypeError, match="reads files"):
        qipu.build_index(b"1. h2e2 *\n", tmp_path / "bytes.qidx")
    with pytest.raises(ValueError, match="mirror"):
        qipu.build_index(str(FIXTURES / "pgn"), built[0], merge_mirrors=True)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    with pytest.raises(FileExistsError, match="not an index"):
        qipu.build_index(str(FIXTURES / "pgn"), tmp_path / "full")


def test_a_merged_index_and_a_selection(tmp_path):
    out = tmp_path / "hu.qidx"
    summary = qipu.build_index(str(FIXTURES / "pgn"), out, merge_mirrors=True, red="胡荣华|Hu")
    index = qipu.Index(out)
    assert index.mirror and index.games == summary["games"] > 0
    selected = qipu.validate(str(FIXTURES / "pgn"), red="胡荣华|Hu")
    assert index.games == sum(1 for r in selected if r["status"] != "unreadable")
    # Mirrors merged: the position and its mirror are found together.
    mirrored = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b"
    assert index.find(AFTER_H2E2 + " b") == index.find(mirrored)


def test_an_index_of_all_lines_finds_variations_as_the_command(cli, tmp_path):
    out = tmp_path / "lines.qidx"
    summary = qipu.build_index(str(FIXTURES), out, all_lines=True, jobs=2)
    assert summary["variations"] > 0 and summary["variation_positions"] > 0
    index = qipu.Index(out)
    for fen in [AFTER_H2E2 + " b", AFTER_H2E2]:
        got = index.find(fen, tags=True)
        expected = json_lines(cli("search", str(out), "--fen", fen, "--format", "json"))
        assert got == expected and got
    # The first position of each line with a cannon on the central file.
    got = index.search(pieces="C@e?", tags=True)
    assert got == json_lines(cli("search", str(out), "--pieces", "C@e?", "--format", "json"))
    assert any(hit["line"] > 0 for hit in got), "variations are searched"
    with pytest.raises(ValueError, match="all-lines"):
        qipu.build_index(str(FIXTURES), out, jobs=2)
