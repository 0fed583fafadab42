"""Shared test fixtures: the bundled fixture, the corpus when present, and the
``qipu`` command to compare with (``QIPU_BIN``, else the repository's
``target/debug/qipu`` or ``target/release/qipu``)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "pgn" / "Hu_Ronghua_1391_UCI_games.pgn"
CORPUS = ROOT.parent / "shared" / "corpus"


def _cli() -> Path | None:
    given = os.environ.get("QIPU_BIN")
    if given:
        path = Path(given)
        if not path.is_file():
            raise RuntimeError(f"QIPU_BIN={given}: no such file")
        return path
    for profile in ("debug", "release"):
        path = ROOT / "target" / profile / "qipu"
        if path.is_file():
            return path
    return None


CLI = _cli()


@pytest.fixture
def cli():
    """Runs the qipu command; returns its standard output (bytes)."""
    if CLI is None:
        pytest.skip("no qipu command: build it (cargo build) or set QIPU_BIN")

    def run(*args: str) -> bytes:
        done = subprocess.run([str(CLI), *map(str, args)], capture_output=True)
        assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
        return done.stdout

    return run


def json_lines(data: bytes) -> List[dict]:
    return [json.loads(line) for line in data.decode().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def fixture() -> Path:
    return FIXTURE


@pytest.fixture(scope="session")
def corpus_sample() -> List[Path]:
    """A sample of the corpus (every format), or a skip when it is not beside the project."""
    if not CORPUS.is_dir():
        pytest.skip(f"skipped: the corpus ({CORPUS}) is not there")
    folders = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    sample: List[Path] = []
    for folder in folders:
        files = sorted(p for p in folder.rglob("*") if p.is_file())
        sample.extend(files[:: max(1, len(files) // 40)])
    return sample


@pytest.fixture(scope="session")
def formats_dir(tmp_path_factory) -> Path:
    """A folder of the fixture's first games in several formats and encodings,
    written by qipu itself: XQF files, a DhtmlXQ file, a GBK and a Big5 PGN, a
    JSON file, and a file with an illegal move and a damaged XQF."""
    import qipu

    out = tmp_path_factory.mktemp("formats")
    games = []
    for game in qipu.read(FIXTURE):
        games.append(game)
        if len(games) == 12:
            break
    for k, game in enumerate(games[:4]):
        (out / f"game{k}.xqf").write_bytes(game.to_xqf(10 if k % 2 else 18))
    (out / "games.dhtml").write_text("\n".join(g.to_dhtmlxq() for g in games[4:7]), encoding="utf-8")
    pgn = "\n".join(g.to_pgn("chinese") for g in games[7:10])
    (out / "gbk.pgn").write_bytes(pgn.encode("gb18030"))
    (out / "big5.pgn").write_bytes("\n".join(g.to_pgn("chinese-traditional") for g in games[7:10]).encode("big5"))
    (out / "games.json").write_text("\n".join(g.to_json() for g in games[10:12]) + "\n", encoding="utf-8")
    (out / "illegal.pgn").write_text('[Event "x"]\n1. h2e2 h9g7 2. h0f1 *\n\n[Event "y"]\n1. 炮二平五 *\n', encoding="utf-8")
    damaged = bytearray(games[0].to_xqf())
    (out / "damaged.xqf").write_bytes(bytes(damaged[:700]))
    return out
