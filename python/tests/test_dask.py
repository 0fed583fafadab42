"""The recipe for work past one machine: Dask workers (a LocalCluster of two
processes) each write their shard of the same inputs as one part of a Parquet
dataset (``qipu.dataset.write_shard``); DuckDB and Polars read the dataset, and
it holds what ``qipu validate`` counts of the same inputs."""

import collections

import pytest

import qipu
import qipu.dataset
from conftest import ROOT, json_lines

pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install pyarrow)")
distributed = pytest.importorskip("dask.distributed", reason="dask[distributed] is not installed")
duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (pip install duckdb)")
pl = pytest.importorskip("polars", reason="polars is not installed (pip install polars)")

#: Games with results, so that openings have scores: 3 games of 中炮 (h2e2)
#: (1-0, 1-0, 0-1), 2 of 仙人指路 (c3c4) (draw, 0-1), one of them illegal.
RESULTS = (
    '[Result "1-0"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n'
    '[Result "1-0"]\n1. h2e2 b9c7 1-0\n\n'
    '[Result "0-1"]\n1. h2e2 h9g7 2. b0c2 0-1\n\n'
    '[Result "1/2-1/2"]\n1. c3c4 c6c5 1/2-1/2\n\n'
    '[Result "0-1"]\n1. c3c4 h9g7 2. a0a5 0-1\n'
)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dask-inputs")
    (folder / "results.pgn").write_text(RESULTS)
    (folder / "broken.xqf").write_bytes(b"XQ" + bytes(range(200)))
    return [str(ROOT / "fixtures"), str(folder)]


@pytest.fixture(scope="module")
def dataset(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("dask-dataset")
    count = 4
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            futures = client.map(
                qipu.dataset.write_shard, [inputs] * count, range(count), [count] * count, [str(out)] * count,
                positions=True, jobs=1,
            )
            written = client.gather(futures)
    assert len(written) == count and all(w["games"] > 0 for w in written)
    return out


def test_the_dataset_holds_what_validate_counts(dataset, inputs, cli):
    # An input that holds no record is no game: validate tells it apart, the dataset has no row.
    reports = [
        r
        for r in json_lines(cli("validate", "--format", "json", *inputs))
        if r["status"] not in (None, "no-record")
    ]
    expected = collections.Counter(r["status"] for r in reports)
    got = dict(duckdb.sql(f"SELECT status, count(*) FROM '{dataset}/games/*.parquet' GROUP BY status").fetchall())
    assert got == dict(expected)
    assert expected["unreadable"] == 1 and expected["illegal"] == 1 and expected["valid"] > 1400
    (plies,) = duckdb.sql(f"SELECT sum(plies) FROM '{dataset}/games/*.parquet'").fetchall()[0]
    assert plies == sum(r["plies"] for r in reports)
    (positions,) = duckdb.sql(f"SELECT count(*) FROM '{dataset}/positions/*.parquet'").fetchall()[0]
    assert positions == sum(r["plies"] + 1 for r in reports if r["status"] != "unreadable")


def test_a_position_is_found_with_duckdb(dataset):
    # The position after 1. h2e2 h9g7: which games reached it, and what Red played next.
    fen = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    rows = duckdb.sql(
        f"SELECT source, \"index\", move FROM '{dataset}/positions/*.parquet' WHERE fen = '{fen}' ORDER BY move"
    ).fetchall()
    moves = [m for source, _, m in rows if source.endswith("results.pgn")]
    assert moves == ["b0c2", "h0g2"]


def test_openings_with_reds_score_in_polars(dataset):
    games = pl.read_parquet(f"{dataset}/games/*.parquet")
    ours = games.filter(pl.col("source").str.ends_with("results.pgn"))
    score = (
        ours.with_columns(
            first=pl.col("moves").list.first(),
            red=pl.col("result").replace_strict({"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}, default=None),
        )
        .group_by("first")
        .agg(games=pl.len(), red_score=pl.col("red").mean())
        .sort("first")
    )
    assert score.rows() == [("c3c4", 2, 0.25), ("h2e2", 3, 2 / 3)]
    assert ours.filter(pl.col("status") == "illegal").height == 1
