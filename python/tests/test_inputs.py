"""Every function that reads games takes its inputs the same way: a path (str
or os.PathLike), a list or tuple of them, bytes, bytearray, memoryview, or a
file object (binary or text); a missing path raises FileNotFoundError, and
anything else TypeError."""

import io
import pathlib
import warnings

import pytest

import qipu

GAME = "[Event \"一\"]\n[Red \"胡荣华\"]\n1. 炮二平五 马８进７ 2. 马二进三 *\n"
UCI = ["h2e2", "h9g7", "h0g2"]


def sources(function, inputs, tmp_path):
    """The games `function` finds in `inputs`, each as (source, moves in UCI)."""
    if function == "read":
        return [(g.source, g.moves("uci")) for g in qipu.read(inputs)]
    if function in ("fen_columns", "fen_trail"):
        if function == "fen_columns":
            columns = qipu.fen_columns(inputs, notation="uci", numpy=False)
            rows = zip(columns["source"], columns["ply"], columns["move"])
        else:
            rows = ((r["source"], r["ply"], r["move"]) for r in qipu.fen_trail(inputs, notation="uci"))
        games = []
        for source, ply, move in rows:
            if ply == 0:  # a game begins
                games.append((source, []))
            else:
                games[-1][1].append(move)
        return games
    if function == "validate":
        return [(r["source"], r["plies"]) for r in qipu.validate(inputs)]
    if function == "stats":
        return qipu.stats(inputs)["by_status"].get("valid", 0)
    if function == "convert":
        out = tmp_path / "out.pgn"
        counts = qipu.convert(inputs, to="pgn", output=out, notation="iccs", force=True)
        return counts["written"]
    raise AssertionError(function)


FUNCTIONS = ["read", "validate", "stats", "fen_columns", "fen_trail", "convert"]


def want(function, names):
    """What `sources` gives for one game of GAME in each input named."""
    if function in ("read", "fen_columns", "fen_trail"):
        return [(name, UCI) for name in names]
    if function == "validate":
        return [(name, 3) for name in names]
    # stats and convert: the games counted or written.
    return len(names)


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.pgn"
    path.write_text(GAME, encoding="utf-8")
    return path


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_function_takes_paths_lists_bytes_and_file_objects(function, game_file, tmp_path):
    name = str(game_file)
    given = [
        (name, [name]),
        (game_file, [name]),  # pathlib.Path
        ([game_file, game_file], [name]),  # a list of Paths: the same file read once
        ((name, game_file), [name]),  # a tuple of both
        (game_file.read_bytes(), ["<bytes>"]),
        (bytearray(game_file.read_bytes()), ["<bytes>"]),
        (memoryview(game_file.read_bytes()), ["<bytes>"]),
        (io.BytesIO(game_file.read_bytes()), ["<stream>"]),
        (io.StringIO(GAME), ["<stream>"]),
    ]
    for inputs, names in given:
        with warnings.catch_warnings(record=True) as told:
            warnings.simplefilter("always")
            got = sources(function, inputs, tmp_path)
        assert got == want(function, names), (type(inputs).__name__, got)
        # A file named twice is read once, and told.
        again = [str(w.message) for w in told if "read once" in str(w.message)]
        if isinstance(inputs, (list, tuple)):
            assert again == [f"{name}: note: named again; read once"], (type(inputs).__name__, again)
        else:
            assert again == [], (type(inputs).__name__, again)
    # A file object opened on a path, binary or text, is named by its path.
    for mode in ("rb", "r"):
        with open(game_file, mode, **({"encoding": "utf-8"} if mode == "r" else {})) as f:
            got = sources(function, f, tmp_path)
        assert got == want(function, [name]), (mode, got)
    # A list may mix paths, bytes and file objects, read in order.
    mixed = [game_file, io.StringIO(GAME), game_file.read_bytes()]
    assert sources(function, mixed, tmp_path) == want(function, [name, "<stream>", "<bytes>"])


def test_a_text_file_object_is_read_whole_not_taken_for_a_list_of_paths(game_file):
    # Two games in one file: read from the file object as from the path.
    path = game_file.with_name("two.pgn")
    path.write_text(GAME + "\n" + GAME, encoding="utf-8")
    with open(path, encoding="utf-8") as text:
        games = list(qipu.read(text))
    assert [(g.source, g.index, g.status) for g in games] == [(str(path), 0, "valid"), (str(path), 1, "valid")]
    assert games[0].tags["Red"] == "胡荣华"
    # Text is given to the reader as UTF-8, whatever the file was.
    big5 = path.with_name("big5.pgn")
    big5.write_bytes('[Red "許銀川"]\n1. 炮二平五 馬８進７ 2. 馬二進三 *\n'.encode("big5"))
    with open(big5, encoding="big5") as text:
        (game,) = qipu.read(text)
    assert (game.encoding, game.tags["Red"], game.moves("uci")) == ("utf-8", "許銀川", UCI)


def test_a_file_object_without_a_text_name_is_a_stream():
    class Source:
        name = 3  # a file opened on a descriptor has an int name

        def read(self):
            return GAME.encode()

    (game,) = qipu.read(Source())
    assert game.source == "<stream>" and game.moves("uci") == UCI


def test_what_a_file_object_reads_must_be_bytes_or_text():
    class Odd:
        def read(self):
            return 42

    with pytest.raises(TypeError, match="bytes or str"):
        qipu.read(Odd())


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_missing_path_raises_file_not_found(function, tmp_path, game_file):
    missing = tmp_path / "nothing-here.pgn"
    for inputs in (str(missing), missing, [game_file, missing], (missing,)):
        with pytest.raises(FileNotFoundError) as e:
            sources(function, inputs, tmp_path)
        assert e.value.filename == str(missing)
        assert str(missing) in str(e.value)
    with pytest.raises(FileNotFoundError) as e:
        sources(function, "/nonexistent", tmp_path)
    assert e.value.filename == "/nonexistent"


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_file_that_is_no_record_is_still_an_unreadable_game(function, tmp_path, game_file):
    junk = tmp_path / "junk.pgn"
    junk.write_bytes(b"\x00\x01\x02 no game here")
    if function == "validate":
        reports = qipu.validate([junk, game_file])
        assert [r["status"] for r in reports] == ["unreadable", "valid"]
    elif function == "read":
        assert [g.status for g in qipu.read([junk, game_file])] == ["unreadable", "valid"]
    elif function == "stats":
        assert qipu.stats([junk, game_file])["by_status"] == {"valid": 1, "unreadable": 1}
    elif function == "convert":
        counts = qipu.convert([junk, game_file], to="pgn", output=tmp_path / "out.pgn")
        assert (counts["unreadable"], counts["written"]) == (1, 1)
    else:
        assert sources(function, [junk, game_file], tmp_path) == want(function, [str(game_file)])


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("wrong", [3, 2.5, None, object(), [3], [b"x", [str(pathlib.Path("a"))]]])
def test_anything_else_is_a_type_error_that_says_what_is_accepted(function, wrong, tmp_path):
    with pytest.raises(TypeError) as e:
        sources(function, wrong, tmp_path)
    message = str(e.value)
    assert "os.PathLike" in message and "file object" in message and "bytes" in message


def test_large_bytes_and_file_objects_stream_as_a_large_file_does(tmp_path, fixture):
    # Over 1 MB: read on other threads, in chunks, the games numbered on.
    big = tmp_path / "big.pgn"
    big.write_bytes(fixture.read_bytes() * 2)
    assert big.stat().st_size > 1 << 20
    want = [(g.index, g.moves("uci")) for g in qipu.read(big, jobs=2)]
    assert len(want) == 2 * 1391
    with open(big, "rb") as binary:
        assert [(g.index, g.moves("uci")) for g in qipu.read(binary, jobs=2)] == want
    with open(big, encoding="utf-8") as text:
        assert [(g.index, g.moves("uci")) for g in qipu.read(text, jobs=2)] == want
    assert [(g.index, g.moves("uci")) for g in qipu.read(memoryview(big.read_bytes()), jobs=2)] == want
    assert len(qipu.validate(io.BytesIO(big.read_bytes()), jobs=2)) == 2 * 1391


@pytest.mark.parametrize("function", FUNCTIONS)
def test_the_bytes_of_a_zip_archive_are_read_as_its_members(function, tmp_path):
    import zipfile

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("b.pgn", GAME)
        z.writestr("a/c.pgn", GAME + "\n" + GAME)
    data = archive.getvalue()
    # As a file of the archive is read: the members in name order, each named inside it.
    names = ["<bytes>:a/c.pgn", "<bytes>:a/c.pgn", "<bytes>:b.pgn"]
    assert sources(function, data, tmp_path) == want(function, names)
    path = tmp_path / "games.zip"
    path.write_bytes(data)
    in_file = [name.replace("<bytes>", str(path)) for name in names]
    assert sources(function, str(path), tmp_path) == want(function, in_file)
