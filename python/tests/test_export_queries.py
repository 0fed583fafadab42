"""The user guide's queries of ``qipu export``'s tables (docs/guide.md, "Tables
for data tools"), run as written with DuckDB and Polars on what the command
writes of the fixtures and the test data; the tables hold what ``validate``
counts and what ``read_arrow`` gives."""

import collections
import re

import pytest

import qipu
from conftest import ROOT, json_lines

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install pyarrow)")
duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (pip install duckdb)")
pl = pytest.importorskip("polars", reason="polars is not installed (pip install polars)")

INPUTS = [str(ROOT / "fixtures"), str(ROOT / "tests" / "data")]


def _section():
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    start = guide.index("## Tables for data tools")
    return guide[start : guide.index("\n## ", start + 1)]


@pytest.fixture
def exported(tmp_path, cli, monkeypatch):
    cli("export", *INPUTS, "-o", f"{tmp_path}/out/", "--positions")
    cli("export", *INPUTS, "-o", f"{tmp_path}/parts/", "--partition-by", "year")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_guides_duckdb_queries_run(exported, cli):
    (sql,) = re.findall(r"```sql\n(.*?)```", _section(), flags=re.S)
    statements = [s.strip() for s in sql.split(";") if s.strip()]
    assert len(statements) == 3
    answers = []
    for statement in statements:
        query = statement.replace("'out/games/*/*.parquet'", "'parts/games/*/*.parquet'")
        answers.append(duckdb.sql(query).fetchall())
    by_red, won, by_year = answers
    reports = [
        r for r in json_lines(cli("validate", "--format", "json", *INPUTS)) if r["status"] not in (None, "no-record")
    ]
    assert sum(n for _, n in by_red) == sum(n for _, n in by_year) == len(reports) > 1400
    wins = [r for r in reports if r["result"] == "1-0" and r["status"] != "unreadable"]
    assert len(won) == sum(max(0, r["plies"] + 1 - 21) for r in wins) > 0
    assert all(fen.count("/") == 9 for fen, _ in won)


def test_the_guides_polars_example_runs(exported, capsys):
    (code,) = re.findall(r"```python\n(.*?)```", _section(), flags=re.S)
    scope = {}
    exec(compile(code, "docs/guide.md", "exec"), scope)
    games, positions = scope["games"], scope["positions"]
    assert "ecco" in capsys.readouterr().out and games.height > 1400
    assert positions.height > 0 and positions["eval"].null_count() == 0
    # The file holds what read_arrow gives of the same inputs, row for row.
    streamed = pa.table(qipu.read_arrow(INPUTS))
    assert games.height == streamed.num_rows
    statuses = collections.Counter(games["status"].to_list())
    assert statuses == collections.Counter(streamed.column("status").to_pylist())
    assert games.select(["source", "index", "moves"]).to_dicts() == (
        pl.DataFrame(streamed).select(["source", "index", "moves"]).to_dicts()
    )
