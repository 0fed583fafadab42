"""convert's other targets and options, compared with what the command
writes: a file per game (cbr, pfc), a library (cbl), a viewer page (html),
the files of a split (split, split_by) and the rejected games (rejected)."""

from pathlib import Path

import pytest

import qipu


def files_below(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("to", ["cbr", "pfc"])
def test_a_file_per_game_as_the_command_writes_them(cli, tmp_path, fixture, formats_dir, to):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    counts = qipu.convert([fixture, formats_dir], to=to, output=ours, games="1-30")
    cli("convert", "--to", to, "--games", "1-30", "-o", theirs, fixture, formats_dir)
    got, expected = files_below(ours), files_below(theirs)
    assert got == expected
    assert len(got) == counts["written"] > 30
    assert all(name.endswith(f".{to}") for name in got)


def test_a_folder_found_is_mirrored_as_the_command_mirrors_it(cli, tmp_path, fixture):
    tree = tmp_path / "tree" / "1990" / "全国赛"
    tree.mkdir(parents=True)
    (tree / "a.pgn").write_bytes(fixture.read_bytes()[:3000])
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    counts = qipu.convert(tmp_path / "tree", to="xqf", output=ours)
    cli("convert", "--to", "xqf", "-o", theirs, tmp_path / "tree")
    got = files_below(ours)
    assert got == files_below(theirs)
    assert counts["written"] == len(got) > 0
    assert all(name.startswith(str(Path("1990") / "全国赛")) for name in got)


def test_a_library_as_the_command_writes_it(cli, tmp_path, fixture, formats_dir):
    ours, theirs = tmp_path / "ours.cbl", tmp_path / "theirs.cbl"
    counts = qipu.convert([fixture, formats_dir], to="cbl", output=ours, games="1-50")
    cli("convert", "--to", "cbl", "--games", "1-50", "-o", theirs, fixture, formats_dir)
    # The library is named after its file's stem: the same stem, the same bytes.
    again = tmp_path / "same"
    again.mkdir()
    qipu.convert([fixture, formats_dir], to="cbl", output=again / "theirs.cbl", games="1-50")
    assert (again / "theirs.cbl").read_bytes() == theirs.read_bytes()
    assert counts["written"] > 50
    assert len(list(qipu.read(ours))) == counts["written"]
    with pytest.raises(OSError, match="exists"):
        qipu.convert(fixture, to="cbl", output=ours)


def test_a_page_as_the_command_writes_it(cli, tmp_path, fixture):
    ours = tmp_path / "games.html"
    counts = qipu.convert(fixture, to="html", output=ours, games="1-5", notation="wxf")
    expected = cli("convert", "--to", "html", "--notation", "wxf", "--games", "1-5", fixture)
    # Standard output has no file name to title the page after.
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    cli("convert", "--to", "html", "--notation", "wxf", "--games", "1-5", "-o", theirs / "games.html", fixture)
    assert ours.read_bytes() == (theirs / "games.html").read_bytes()
    assert b"<html" in expected.lower()
    assert counts["written"] == 5


@pytest.mark.parametrize(
    "options,flags",
    [
        ({"split": 300}, ["--split", "300"]),
        ({"split_by": "red"}, ["--split-by", "red"]),
        ({"split_by": "event"}, ["--split-by", "event"]),
        ({"split_by": "source"}, ["--split-by", "source"]),
    ],
)
def test_a_split_as_the_command_writes_it(cli, tmp_path, fixture, formats_dir, options, flags):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    counts = qipu.convert([fixture, formats_dir], to="pgn", output=ours / "all.pgn", **options)
    cli("convert", "--to", "pgn", *flags, "-o", theirs / "all.pgn", fixture, formats_dir)
    got = files_below(ours)
    assert got == files_below(theirs)
    assert len(got) == len(counts["files"]) > 1
    assert sorted(Path(f).name for f in counts["files"]) == sorted(got)


def test_split_and_split_by_are_checked(tmp_path, fixture):
    with pytest.raises(ValueError, match="at least 1"):
        qipu.convert(fixture, to="pgn", output=tmp_path / "a.pgn", split=0)
    with pytest.raises(ValueError, match="split_by"):
        qipu.convert(fixture, to="pgn", output=tmp_path / "a.pgn", split_by="colour")
    with pytest.raises(ValueError, match="not both"):
        qipu.convert(fixture, to="pgn", output=tmp_path / "a.pgn", split=2, split_by="red")
    with pytest.raises(ValueError, match="split"):
        qipu.convert(fixture, to="xqf", output=tmp_path / "x", split=2)
    with pytest.raises(OSError, match="not a file name"):
        qipu.convert(fixture, to="pgn", output=tmp_path, split=2)
    assert list(tmp_path.iterdir()) == []


def test_rejected_as_the_command_writes_them(cli, tmp_path, fixture, formats_dir):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    counts = qipu.convert(
        [fixture, formats_dir], to="pgn", output=ours / "kept.pgn", rejected=ours / "rejected.pgn", black="XU"
    )
    cli(
        "convert", "--to", "pgn", "--black", "XU", "-o", theirs / "kept.pgn",
        "--rejected", theirs / "rejected.pgn", fixture, formats_dir,
    )
    assert files_below(ours) == files_below(theirs)
    assert counts["rejected"] > 0 and counts["written"] > 0
    assert len(list(qipu.read(ours / "rejected.pgn"))) == counts["rejected"]
    with pytest.raises(ValueError, match="of its own"):
        qipu.convert(fixture, to="pgn", output=ours / "x.pgn", rejected=ours / "x.pgn")
    with pytest.raises(ValueError, match="rejected"):
        qipu.convert(fixture, to="cbl", output=ours / "x.cbl", rejected=ours / "r.pgn")


def test_every_target_is_known(tmp_path, fixture):
    with pytest.raises(ValueError, match="cbl or html"):
        qipu.convert(fixture, to="doc", output=tmp_path / "a.doc")
    with pytest.raises(ValueError, match="utf-8 only"):
        qipu.convert(fixture, to="pfc", output=tmp_path / "pfc", output_encoding="gbk")
