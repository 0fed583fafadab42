"""The Python walk-through (docs/python.md) runs, on the bundled fixtures in
place of its folder of games. Blocks fenced ``py`` rather than ``python`` (the
cluster recipes, which need a scheduler or Spark) are not run here; the Dask
recipe is run on a local cluster by test_dask.py."""

import re

import qipu
from conftest import ROOT


def test_the_readme_walk_through_runs(tmp_path, monkeypatch, formats_dir):
    page = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    assert blocks, "docs/python.md has no Python example"
    games = tmp_path / "games"
    games.mkdir()
    (games / "fixture.pgn").write_bytes((ROOT / "fixtures" / "pgn" / "Hu_Ronghua_1391_UCI_games.pgn").read_bytes())
    for f in formats_dir.iterdir():
        (games / f.name).write_bytes(f.read_bytes())
    monkeypatch.chdir(tmp_path)
    scope = {}
    for block in blocks:
        exec(compile(block, "docs/python.md", "exec"), scope)
    assert (tmp_path / "all.pgn").is_file()
    assert scope["pos"].move_stack == ["h2e2", "h9g7"]
    assert scope["openings"].most_common(1)[0][1] > 10
    assert isinstance(qipu.__version__, str)
