"""The batch functions give what the qipu command gives: validate, stats, the
FEN trail and convert, compared with the command's JSON and files."""

import json

import pytest

import qipu
from conftest import ROOT, json_lines


def test_validate_equals_the_command(cli, fixture, formats_dir):
    for paths in ([fixture], [formats_dir]):
        expected = json_lines(cli("validate", "--format", "json", *paths))
        assert qipu.validate(paths) == expected
    assert qipu.validate(fixture, jobs=1) == qipu.validate(fixture, jobs=2)


def test_validate_equals_the_command_on_the_corpus(cli, corpus_sample):
    expected = json_lines(cli("validate", "--format", "json", *corpus_sample))
    got = qipu.validate(corpus_sample)
    assert len(got) == len(expected) > 100
    assert got == expected
    statuses = {r["status"] for r in got}
    assert "valid" in statuses


def test_reports_of_games_equal_validate(formats_dir):
    reports = qipu.validate(formats_dir)
    games = list(qipu.read(formats_dir))
    assert [g.report_dict() for g in games] == reports
    names = {"valid": "valid", "illegal": "illegal", "unreadable": "unreadable"}
    assert [g.status for g in games] == [names[r["status"]] for r in reports]


def test_stats_equals_the_command(cli, fixture, formats_dir):
    for args in ([fixture], [formats_dir], [fixture, formats_dir]):
        expected = json.loads(cli("stats", "--format", "json", "--top", "5", *args))
        assert qipu.stats(args, top=5) == expected


def test_stats_of_engine_analysis_equals_the_command(cli):
    evals = str(ROOT / "tests" / "data" / "evals.pgn")
    expected = json.loads(cli("stats", "--format", "json", evals))
    got = qipu.stats(evals)
    assert got == expected
    analysis = got["engine_analysis"]
    assert (analysis["games"], analysis["evaluated_moves"]) == (2, 4)
    assert analysis["red"]["mean_acpl"] == 26.5 and analysis["black"]["blunders"] == 1


def test_fen_trail_equals_the_command(cli, fixture, formats_dir):
    for notation, paths in [("iccs", [fixture, formats_dir]), ("chinese", [fixture]), ("wxf", [formats_dir]), ("uci", [formats_dir])]:
        expected = json_lines(cli("fen", "--format", "json", "--notation", notation, *paths))
        assert qipu.fen_trail(paths, notation=notation) == expected


def test_fen_columns_are_lists_or_numpy_arrays(fixture):
    columns = qipu.fen_columns(fixture, numpy=False)
    assert list(columns) == ["source", "index", "ply", "move", "next_move", "fen", "side", "result"]
    assert len({len(c) for c in columns.values()}) == 1
    assert len(columns["fen"]) == sum(g.plies + 1 for g in qipu.read(fixture))
    assert columns["move"][0] is None and columns["ply"][:2] == [0, 1]
    np = pytest.importorskip("numpy")
    arrays = qipu.fen_columns(fixture)
    assert isinstance(arrays["ply"], np.ndarray) and arrays["ply"].dtype == np.int64
    assert arrays["fen"].tolist() == columns["fen"]


@pytest.mark.parametrize("notation", ["iccs", "uci", "chinese"])
def test_fen_columns_give_the_move_played_from_each_position(fixture, formats_dir, notation):
    # next_move is the move played from the position, in the notation asked
    # for: each game's moves in order, then None at its last position (the
    # end of the game, or the last position before a wrong move).
    paths = [fixture, formats_dir]
    columns = qipu.fen_columns(paths, notation=notation, numpy=False)
    games = [g for g in qipu.read(paths) if g.status != "unreadable"]
    want = []
    for game in games:
        want.extend(game.moves(notation) + [None])
    assert columns["next_move"] == want
    assert len(columns["next_move"]) == len(columns["fen"])
    rows = list(zip(columns["source"], columns["index"], columns["move"], columns["next_move"]))
    for (source, index, _, after), (source2, index2, move, _) in zip(rows, rows[1:]):
        if (source, index) == (source2, index2):
            assert after == move
        else:
            assert after is None
    if notation == "uci":
        # The fixture's first game opens 1. g0e2 b9c7.
        assert columns["next_move"][:2] == ["g0e2", "b9c7"]
        assert columns["move"][1:3] == ["g0e2", "b9c7"]


@pytest.mark.parametrize(
    "to,options,flags",
    [
        ("pgn", {}, []),
        ("pgn", {"notation": "wxf", "set_ecco": True}, ["--notation", "wxf", "--set-ecco"]),
        ("pgn", {"output_encoding": "big5", "notation": "chinese-traditional"}, ["--output-encoding", "big5", "--notation", "chinese", "--chinese", "traditional"]),
        ("json", {}, []),
        ("dhtmlxq", {}, []),
        ("uci", {}, []),
    ],
)
def test_convert_writes_what_the_command_writes(cli, tmp_path, fixture, formats_dir, to, options, flags):
    output = tmp_path / f"out.{to}"
    counts = qipu.convert([fixture, formats_dir], to=to, output=output, **options)
    expected = cli("convert", "--to", to, *flags, fixture, formats_dir)
    assert output.read_bytes() == expected
    assert counts["games"] == counts["valid"] + counts["illegal"] + counts["unreadable"]
    assert counts["unreadable"] == 1  # the damaged XQF
    assert counts["written"] + len(counts["not_written"]) == counts["games"] - counts["unreadable"]


def test_convert_tells_what_the_format_cannot_keep(tmp_path):
    game = tmp_path / "game.pgn"
    red = "许" * 20
    game.write_text(f'[Red "{red}"]\n[Round "3"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    counts = qipu.convert(game, to="xqf", output=tmp_path / "xqf")
    assert counts["written"] == 1
    assert len(counts["warnings"]) == 1
    assert "game 1: tag Red: cut to 7 of its 20 characters" in counts["warnings"][0]
    # XQF has no field for the round: it comes back from the comment about the game.
    (back,) = qipu.read(tmp_path / "xqf")
    assert back.tag("Round") == "3"


def test_convert_never_writes_over_an_input(tmp_path, fixture):
    copy = tmp_path / "games.pgn"
    copy.write_bytes(fixture.read_bytes())
    with pytest.raises(OSError, match="one of the inputs"):
        qipu.convert(copy, to="pgn", output=copy, force=True)
    assert copy.read_bytes() == fixture.read_bytes()
    other = tmp_path / "other.pgn"
    other.write_text("keep me")
    with pytest.raises(OSError, match="exists"):
        qipu.convert(copy, to="json", output=other)
    assert other.read_text() == "keep me"
    qipu.convert(copy, to="json", output=other, force=True)
    assert other.read_text().count("\n") == 1391
    with pytest.raises(OSError):
        qipu.convert(copy, to="json", output=tmp_path)  # a folder
    with pytest.raises(OSError, match="no folder"):
        qipu.convert(copy, to="xqf", output=other)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn", "other.pgn"]


@pytest.mark.parametrize("version", [10, 18])
def test_convert_to_xqf_writes_the_files_the_command_writes(cli, tmp_path, fixture, formats_dir, version):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    counts = qipu.convert([fixture, formats_dir], to="xqf", output=ours, xqf_version=version, games="1-40")
    cli("convert", "--to", "xqf", "--xqf-version", str(version), "--games", "1-40", "-o", theirs, fixture, formats_dir)
    names = sorted(p.name for p in theirs.iterdir())
    assert sorted(p.name for p in ours.iterdir()) == names
    assert len(names) == counts["written"] > 40
    for name in names:
        assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name
    # Again: every file exists, and none is written over without force.
    again = qipu.convert(fixture, to="xqf", output=ours, games="1-3")
    assert again["written"] == 0 and len(again["not_written"]) == 3
    assert all("exists" in why for why in again["not_written"])
    assert qipu.convert(fixture, to="xqf", output=ours, games="1-3", force=True)["written"] == 3
    with pytest.raises(ValueError):
        qipu.convert(fixture, to="xqf", output=ours, xqf_version=12)
