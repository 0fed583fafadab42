"""``qipu.read_arrow``: the tables of games and positions as an Arrow stream
(the Arrow PyCapsule interface), read by pyarrow, Polars and DuckDB; the
same rows as ``validate`` counts and ``qipu export`` writes."""

import collections

import pytest

import qipu
from conftest import ROOT

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install pyarrow)")

# The fixtures, and the test data with its illegal game and files that hold no record.
MIXED = [str(ROOT / "fixtures"), str(ROOT / "tests" / "data")]


def _games_of(paths, **kw):
    return pa.table(qipu.read_arrow(paths, **kw))


def test_every_game_is_a_row_with_validates_status(tmp_path):
    broken = tmp_path / "broken.xqf"
    broken.write_bytes(b"XQ" + bytes(range(200)))
    inputs = MIXED + [str(broken)]
    table = _games_of(inputs)
    # An input that holds no record is no game: validate tells it apart, the table has no row.
    reports = [r for r in qipu.validate(inputs) if r["status"] not in (None, "no-record")]
    assert table.num_rows == len(reports) > 1400
    rows = table.select(["source", "index", "status"]).to_pylist()
    assert [(r["source"], r["index"], r["status"]) for r in rows] == [
        (r["source"], r["index"], r["status"]) for r in reports
    ]
    statuses = collections.Counter(table.column("status").to_pylist())
    assert statuses["valid"] > 1400 and statuses["unreadable"] == 1 and statuses["illegal"] == 1, statuses


def test_illegal_and_unreadable_games_carry_their_error():
    bad = b'[Red "A"]\n1. h2e2 h9g7 2. h0g2 b9c7 3. b0c2 c9e7 4. a0a5 *\n'
    table = _games_of([bad, b"\x00\x01\x02 not a record"])
    games = table.to_pylist()
    assert [g["status"] for g in games] == ["illegal", "unreadable"]
    assert games[0]["error_ply"] == 7 and "illegal" in games[0]["error_message"]
    assert games[0]["moves"] == ["h2e2", "h9g7", "h0g2", "b9c7", "b0c2", "c9e7"]
    assert games[0]["red"] == "A"
    assert games[1]["error_message"]


def test_positions_are_the_main_line_with_the_move_played_from_each():
    pgn = b'[Result "1-0"]\n1. h2e2 {+0.30/10} h9g7 2. h0g2 1-0\n'
    rows = pa.table(qipu.read_arrow(pgn, positions=True)).to_pylist()
    assert [(r["ply"], r["move"], r["side"], r["result"]) for r in rows] == [
        (0, "h2e2", "red", "1-0"),
        (1, "h9g7", "black", "1-0"),
        (2, "h0g2", "red", "1-0"),
        (3, None, "black", "1-0"),
    ]
    assert rows[1]["eval"] == 30 and rows[0]["eval"] is None
    assert rows[0]["fen"] == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def test_selection_and_shards_apply():
    fixture = str(ROOT / "fixtures" / "pgn")
    assert _games_of(fixture, plies="100..").num_rows == len(qipu.validate(fixture, plies="100.."))
    parts = sum(_games_of(MIXED, shard=(k, 2)).num_rows for k in range(2))
    assert parts == _games_of(MIXED).num_rows


def test_a_stream_is_read_once():
    stream = qipu.read_arrow(str(ROOT / "fixtures" / "pgn"))
    assert stream.table == "games" and "unread" in repr(stream)
    assert pa.table(stream).num_rows == 1391
    with pytest.raises(ValueError, match="read already"):
        pa.table(stream)


def test_a_stream_dropped_unread_stops_its_reading():
    for _ in range(5):
        stream = qipu.read_arrow(str(ROOT / "fixtures"), positions=True)
        reader = pa.RecordBatchReader.from_stream(stream)
        first = reader.read_next_batch()
        assert first.num_rows > 0
        del reader, stream


def test_polars_and_duckdb_take_the_stream():
    pl = pytest.importorskip("polars", reason="polars is not installed (pip install polars)")
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (pip install duckdb)")
    fixture = str(ROOT / "fixtures" / "pgn")
    frame = pl.DataFrame(qipu.read_arrow(fixture))
    assert frame.height == 1391
    assert frame.filter(pl.col("plies") >= 100).height == len(qipu.validate(fixture, plies="100.."))
    stream = qipu.read_arrow(fixture, positions=True)
    (count,) = duckdb.sql("SELECT count(*) FROM stream WHERE ply = 0").fetchall()[0]
    assert count == 1391

def test_no_inputs_give_an_empty_table_with_the_columns():
    games = pa.table(qipu.read_arrow([]))
    positions = pa.table(qipu.read_arrow([], positions=True))
    assert games.num_rows == positions.num_rows == 0
    assert {"source", "index", "status", "moves", "red", "tags"} <= set(games.schema.names)
    assert {"source", "index", "ply", "fen", "move", "side", "result", "eval"} <= set(positions.schema.names)


@pytest.mark.parametrize("notation", ["uci", "chinese", "wxf"])
def test_fen_columns_and_the_positions_table_agree(notation):
    # fen_columns is built on the table's follower: in any notation its rows
    # are the table's, row for row; in UCI its moves are the table's too.
    fixture = str(ROOT / "fixtures" / "pgn")
    columns = qipu.fen_columns(fixture, notation=notation, plies="..30")
    table = pa.table(qipu.read_arrow(fixture, positions=True, plies="..30")).to_pydict()
    assert len(table["fen"]) == len(columns["fen"]) > 200
    for name in ("source", "index", "ply", "fen", "side", "result"):
        assert list(columns[name]) == table[name], name
    # A move from a position exactly where the table has one.
    assert [m is None for m in columns["next_move"]] == [m is None for m in table["move"]]
    if notation == "uci":
        assert list(columns["next_move"]) == table["move"]
