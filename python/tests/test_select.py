"""The selection keyword arguments select what the command's selection flags
select, on every batch function."""

import json

import pytest

import qipu
from conftest import json_lines

AFTER_H2E2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR"

CASES = [
    ({"red": "^HU"}, ["--red", "^HU"]),
    ({"player": "XU|LU", "invert": True}, ["--player", "XU|LU", "--invert"]),
    ({"tag": {"Event": "1998"}}, ["--tag", "Event=1998"]),
    ({"tag": ["Event=Team", "Black=^L"]}, ["--tag", "Event=Team", "--tag", "Black=^L"]),
    ({"event": "Championship", "skip": 3, "limit": 20}, ["--event", "Championship", "--skip", "3", "--limit", "20"]),
    ({"plies": "100.."}, ["--plies", "100.."]),
    ({"plies": 40}, ["--plies", "40"]),
    ({"games": "2,5-9,1300-"}, ["--games", "2,5-9,1300-"]),
    ({"status": ["illegal", "unreadable"]}, ["--status", "illegal,unreadable"]),
    ({"status": "valid", "result": "unknown"}, ["--status", "valid", "--result", "unknown"]),
    ({"termination": "checkmate,none", "limit": 50}, ["--termination", "checkmate,none", "--limit", "50"]),
    ({"ecco": "B..C", "limit": 40}, ["--ecco", "B..C", "--limit", "40"]),
    ({"opening": "中炮"}, ["--opening", "中炮"]),
    ({"position": AFTER_H2E2, "mirror": True}, ["--position", AFTER_H2E2, "--mirror"]),
    ({"material": "R* vs R*", "material_at": "any", "limit": 30}, ["--material", "R* vs R*", "--material-at", "any", "--limit", "30"]),
    ({"moves": "炮二平五 马8进7"}, ["--moves", "炮二平五 马8进7"]),
    ({"moves": ["1. h2e2 h9g7 2. h0g2", "C2=5"], "mirror": True, "in_variations": True},
     ["--moves", "1. h2e2 h9g7 2. h0g2", "--moves", "C2=5", "--mirror", "--in-variations"]),
    ({"has_comments": True}, ["--has-comments"]),
    ({"has_variations": True, "red": "^X"}, ["--has-variations", "--red", "^X"]),
    ({"dedupe": True}, ["--dedupe"]),
    ({"dedupe": "line,truncated"}, ["--dedupe=line,truncated"]),
    ({"dedupe": ["line", "mirror"], "keep": "longest"}, ["--dedupe=line,mirror", "--keep", "longest"]),
    ({"dedupe": "final", "keep": "most-annotated", "limit": 900}, ["--dedupe=final", "--keep", "most-annotated", "--limit", "900"]),
]


@pytest.fixture(scope="module")
def collection(tmp_path_factory, fixture, formats_dir):
    """The fixture, the formats folder, and a file of copies: the first 60 games
    again, some cut short."""
    out = tmp_path_factory.mktemp("copies")
    games = [g for _, g in zip(range(60), qipu.read(fixture))]
    text = "".join(g.to_pgn("iccs") + "\n" for g in games)
    (out / "copies.pgn").write_text(text, encoding="utf-8")
    cut = []
    for g in games[:20]:
        moves = g.moves("uci")[: max(12, g.plies // 2)]
        cut.append("1. " + " ".join(moves) + " *\n")
    (out / "cut.pgn").write_text("\n".join(cut), encoding="utf-8")
    notes = '[Red "HU RongHua"]\n{start} 1. h2e2 {central} h9g7 (1... b9c7) 2. h0g2 *\n\n[Red "X"]\n1. h2e2 (1. b2e2) *\n'
    (out / "notes.pgn").write_text(notes, encoding="utf-8")
    return [fixture, formats_dir, out]


@pytest.mark.parametrize("kwargs,flags", CASES, ids=[" ".join(f) for _, f in CASES])
def test_validate_selects_as_the_command(cli, collection, kwargs, flags):
    expected = json_lines(cli("validate", "--format", "json", *flags, *collection))
    got = qipu.validate(collection, **kwargs)
    assert got == expected
    assert len(got) > 0


@pytest.mark.parametrize("kwargs,flags", CASES[::4], ids=[" ".join(f) for _, f in CASES[::4]])
def test_stats_and_fen_trail_select_as_the_command(cli, collection, kwargs, flags):
    assert qipu.stats(collection, **kwargs) == json.loads(cli("stats", "--format", "json", *flags, *collection))
    assert qipu.fen_trail(collection, **kwargs) == json_lines(cli("fen", "--format", "json", *flags, *collection))


def test_convert_selects_as_the_command(cli, tmp_path, collection):
    out = tmp_path / "selected.pgn"
    counts = qipu.convert(collection, to="pgn", output=out, dedupe="line,truncated", red="^HU")
    assert out.read_bytes() == cli("convert", "--to", "pgn", "--dedupe=line,truncated", "--red", "^HU", *collection)
    assert counts["written"] == out.read_text().count("[Game ")


def test_not_in_leaves_out_the_reference_games_as_the_command(cli, tmp_path, collection, fixture):
    reference = tmp_path / "reference.pgn"
    qipu.convert(fixture, to="pgn", output=reference, games="1-200")
    expected = json_lines(cli("validate", "--format", "json", "--not-in", str(reference), *collection))
    got = qipu.validate(collection, not_in=reference)
    assert got == expected
    everything = qipu.validate(collection)
    assert 0 < len(got) <= len(everything) - 200
    assert qipu.validate(collection, not_in=[reference, tmp_path / "reference.pgn"]) == expected


@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        ({"mirror": True}, ValueError, "mirror needs position"),
        ({"keep": "longest"}, ValueError, "keep needs dedupe"),
        ({"in_variations": True}, ValueError, "in_variations needs position"),
        ({"material_at": "any"}, ValueError, "material_at needs material"),
        ({"red": "("}, ValueError, "red"),
        ({"position": "xx"}, ValueError, "position"),
        ({"result": "win"}, ValueError, "result"),
        ({"dedupe": "same"}, ValueError, "dedupe"),
        ({"date": "yesterday"}, ValueError, "date"),
        ({"limit": -1}, TypeError, "limit"),
        ({"colour": "red"}, TypeError, "colour"),
        ({"moves": "h2e2 h9g7 h0g4"}, ValueError, "move 3"),
        ({"moves": "h2e2", "position": AFTER_H2E2}, ValueError, "moves cannot be given with position"),
        ({"not_in": "/no/such/reference.pgn"}, FileNotFoundError, "reference.pgn"),
        ({"not_in": 3}, TypeError, "not_in"),
    ],
)
def test_bad_selections_raise(fixture, kwargs, error, words):
    with pytest.raises(error, match=words):
        qipu.validate(fixture, **kwargs)
