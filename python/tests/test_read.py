"""qipu.read: files, folders, lists and bytes of every format, streamed; games
with their tags, moves, positions, variations, comments, ECCO and writers."""

import os

import pytest

import qipu


def test_a_file_gives_every_game(fixture):
    games = list(qipu.read(fixture))
    assert len(games) == 1391
    assert all(g.status == "valid" and g.error is None for g in games)
    first = games[0]
    assert (first.source, first.index, first.format, first.encoding) == (str(fixture), 0, "pgn", "utf-8")
    assert first.tags["Red"] == "HU RongHua"
    assert first.tag("red") == "HU RongHua" and first.tag("Nope", "-") == "-"
    assert first.moves("chinese")[:2] == ["相三进五", "马２进３"]
    assert first.moves("uci")[0] == "g0e2" and first.moves()[0] == "G0-E2"
    assert len(first.fens()) == first.plies + 1 == 66
    assert first.fens()[0] == first.start_fen
    assert first.ecco["code"] == "A15"
    assert [g.index for g in games[:3]] == [0, 1, 2]


def test_folders_lists_and_path_objects(fixture, formats_dir):
    from_folder = list(qipu.read(formats_dir))
    from_list = list(qipu.read([str(p) for p in sorted(formats_dir.iterdir())]))
    assert [(g.source, g.index) for g in from_folder] == [(g.source, g.index) for g in from_list]
    formats = {g.format for g in from_folder}
    assert {"xqf", "dhtmlxq", "pgn", "json"} <= formats
    assert len(list(qipu.read(fixture.parent))) == 1391
    assert len(list(qipu.read(os.fspath(fixture)))) == 1391


def test_every_format_reads_back_the_same_moves(fixture, formats_dir):
    originals = [g.moves("uci") for g in qipu.read(fixture)][:12]
    by_file = {}
    for g in qipu.read(formats_dir):
        by_file.setdefault(os.path.basename(g.source), []).append(g)
    for k in range(4):
        (game,) = by_file[f"game{k}.xqf"]
        assert game.moves("uci") == originals[k]
    assert [g.moves("uci") for g in by_file["games.dhtml"]] == originals[4:7]
    assert [g.moves("uci") for g in by_file["gbk.pgn"]] == originals[7:10]
    assert by_file["gbk.pgn"][0].encoding == "gb18030"
    assert [g.moves("uci") for g in by_file["big5.pgn"]] == originals[7:10]
    assert by_file["big5.pgn"][0].encoding == "big5"
    assert [g.moves("uci") for g in by_file["games.json"]] == originals[10:12]


def test_bad_games_have_a_status_and_an_error(formats_dir):
    games = list(qipu.read(formats_dir / "illegal.pgn"))
    assert [g.status for g in games] == ["illegal", "valid"]
    error = games[0].error
    assert (error.ply, error.move, error.line, error.column, error.offset) == (3, "h0f1", 2, 17, None)
    assert "horse" in error.message
    with pytest.raises(qipu.IllegalMoveError) as e:
        games[0].check()
    assert (e.value.ply, e.value.move, e.value.line, e.value.column, e.value.index) == (3, "h0f1", 2, 17, 0)
    games[1].check()  # valid: nothing raised
    (damaged,) = qipu.read(formats_dir / "damaged.xqf")
    assert damaged.status == "unreadable"
    with pytest.raises(qipu.UnreadableError) as e:
        damaged.check()
    assert e.value.source.endswith("damaged.xqf")


def test_a_file_that_cannot_be_read_as_a_record_is_one_unreadable_game(tmp_path):
    # A file that is there but holds no record is a game whose status says so,
    # and the others are still read; a missing path raises (see test_inputs.py).
    junk = tmp_path / "junk.pgn"
    junk.write_bytes(b"\x00\x01 nothing here")
    games = list(qipu.read([junk, b"1. h2e2 h9g7 *"]))
    assert [g.status for g in games] == ["unreadable", "valid"]


def test_bytes_are_read_in_any_encoding():
    text = '[Red "許銀川"]\n1. 炮二平五 馬８進７ *\n'
    (game,) = qipu.read(text.encode("big5"))
    assert (game.source, game.encoding, game.tags["Red"]) == ("<bytes>", "big5", "許銀川")
    assert game.moves("uci") == ["h2e2", "h9g7"]
    (forced,) = qipu.read('[Red "许银川"]\n1. 炮二平五 *\n'.encode("gb18030"), encoding="gbk")
    assert forced.tags["Red"] == "许银川"
    with pytest.raises(ValueError):
        qipu.read(b"", encoding="klingon")


def test_variations_and_comments():
    text = "{开局} 1. h2e2 {中炮} h9g7 (1... b9c7 {c} 2. h0g2 (2. b0c2)) 2. h0g2 *"
    (game,) = qipu.read(text.encode())
    assert game.comments == [
        {"ply": 0, "in_variation": False, "text": "开局"},
        {"ply": 1, "in_variation": False, "text": "中炮"},
        {"ply": 2, "in_variation": True, "text": "c"},
    ]
    assert game.variations == [
        {"ply": 2, "depth": 1, "moves": ["b9c7", "h0g2"], "uci": ["b9c7", "h0g2"]},
        {"ply": 3, "depth": 2, "moves": ["b0c2"], "uci": ["b0c2"]},
    ]
    assert game.variation_plies == 3


def test_evaluations_of_the_main_line_moves():
    text = (
        "1. h2e2 {好棋 +0.38/19} h9g7 {中局} (1... b9c7 {#5}) "
        "2. h0g2 {[%eval -1.20]} i9h9 {#-3/7} 3. i0h0 {2019.05} *"
    )
    (game,) = qipu.read(text.encode())
    assert game.evaluations == [
        {"cp": 38, "depth": 19},
        None,
        {"cp": -120},
        {"mate": -3, "depth": 7},
        None,
    ]
    assert len(game.evaluations) == len(game.moves_as_written())
    (plain,) = qipu.read(b"1. h2e2 h9g7 *")
    assert plain.evaluations == [None, None]


def test_writers_round_trip(fixture):
    game = next(iter(qipu.read(fixture)))
    for text in [game.to_pgn(), game.to_pgn("wxf"), game.to_pgn("iccs"), game.to_json(), game.to_dhtmlxq()]:
        (back,) = qipu.read(text.encode())
        assert back.moves("uci") == game.moves("uci")
    for version in (10, 18):
        (back,) = qipu.read(game.to_xqf(version))
        assert back.format == "xqf" and back.moves("uci") == game.moves("uci")
    assert game.to_uci().startswith("position startpos moves g0e2 ")
    with pytest.raises(ValueError):
        game.to_xqf(12)


def test_reading_streams_and_stops_early(tmp_path, fixture):
    # 40 copies of the fixture: 55,640 games, read a few at a time.
    big = tmp_path / "big.pgn"
    data = fixture.read_bytes()
    with big.open("wb") as f:
        for _ in range(40):
            f.write(data)
    reader = qipu.read(big, jobs=2)
    taken = [next(reader) for _ in range(5)]
    assert [g.index for g in taken] == [0, 1, 2, 3, 4]
    reader.close()
    assert list(reader) == []
    with qipu.read(big) as games:
        for n, _ in enumerate(games):
            if n == 100:
                break
    count = sum(1 for _ in qipu.read(big, jobs=2))
    assert count == 1391 * 40


def test_small_inputs_read_at_the_call_give_what_streaming_gives(tmp_path, fixture):
    # Two copies of the fixture (over 1 MB) stream from other threads; a few
    # of its games, as a small file, a list of small files or bytes, are read
    # at the call.
    text = fixture.read_text(encoding="utf-8")
    big = tmp_path / "big.pgn"
    big.write_text(text + "\n\n" + text, encoding="utf-8")
    assert big.stat().st_size > 1 << 20
    streamed = list(qipu.read(big, jobs=2))
    assert len(streamed) == 2 * 1391
    games = text.split("\n\n[Event")
    small = tmp_path / "small.pgn"
    small.write_text(games[0] + "".join("\n\n[Event" + g for g in games[1:4]) + "\n", encoding="utf-8")
    other = tmp_path / "other.pgn"
    other.write_text("[Event" + games[4] + "\n", encoding="utf-8")
    want = [g.moves("uci") for g in streamed[:5]]
    from_files = list(qipu.read([small, other]))
    assert [g.moves("uci") for g in from_files] == want
    assert [(g.source, g.index) for g in from_files] == [(str(small), i) for i in range(4)] + [(str(other), 0)]
    from_bytes = list(qipu.read(small.read_bytes()))
    assert [g.moves("uci") for g in from_bytes] == want[:4]
    assert [g.tags for g in from_files[:4]] == [g.tags for g in streamed[:4]]
    # A reader read at the call still stops early and closes.
    reader = qipu.read(small)
    assert next(reader).index == 0
    reader.close()
    assert list(reader) == []
    # Nothing is missed when the small files are many, or one is unreadable.
    junk = tmp_path / "junk.pgn"
    junk.write_bytes(b"\x00\x01")
    copies = []
    for i in range(50):
        copy = tmp_path / f"small-{i}.pgn"
        copy.write_bytes(small.read_bytes())
        copies.append(copy)
    many = list(qipu.read(copies + [junk]))
    assert len(many) == 4 * 50 + 1 and many[-1].status == "unreadable"


def test_hostile_bytes_never_crash(fixture):
    import random

    rng = random.Random(7)
    seeds = [fixture.read_bytes()[:5000]]
    seeds.append(next(iter(qipu.read(fixture))).to_xqf())
    seeds.append(b"[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]")
    for seed in seeds:
        for _ in range(150):
            data = bytearray(seed)
            for _ in range(rng.randint(1, 20)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            cut = rng.randrange(1, len(data) + 1)
            for game in qipu.read(bytes(data[:cut])):
                assert game.status in ("valid", "illegal", "unreadable")
                game.moves("chinese")
                game.fens()
                game.variations
                game.comments
                game.to_pgn()
