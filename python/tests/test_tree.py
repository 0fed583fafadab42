"""A game's move tree, node by node: walked, built from nothing, changed, and
written back, as python-chess's ``GameNode`` does."""

import pytest

import qipu

VARIATIONS = '[Event "x"]\n1. h2e2 h9g7 (1... g6g5) 2. h0g2 i9h9 (2... b9c7 3. i0h0) 3. i0h0 b9c7 *\n'


def read_one(path):
    games = list(qipu.read(path))
    assert len(games) == 1
    return games[0]


@pytest.fixture
def read_game(tmp_path):
    path = tmp_path / "v.pgn"
    path.write_text(VARIATIONS, encoding="utf-8")
    return read_one(path)


def movetext(game, notation="iccs"):
    """The moves of the PGN, on one line."""
    return " ".join(game.to_pgn(notation).split("\n\n", 1)[1].split())


def tree_of(node):
    """The tree below ``node`` as nested lists of (move, comment, subtree)."""
    return [(c.move, c.comment, tree_of(c)) for c in node.variations]


def lines_of(game):
    """The variations as ``game.variations`` gives them, from the nodes: each
    line that starts off a main continuation, with its ply and depth."""
    found = []
    stack = [(game.root, 0)]
    while stack:
        node, depth = stack.pop()
        line, at = [], node
        alternatives = []
        while True:
            if at != game.root:
                line.append(at)
            kids = at.variations
            alternatives.extend((k, depth + 1) for k in kids[1:])
            if not kids:
                break
            at = kids[0]
        if depth:
            found.append({"ply": node.ply, "depth": depth, "uci": [n.move for n in line]})
        stack.extend(reversed(alternatives))
    return found


def test_a_read_game_is_walked_node_by_node(read_game):
    game = read_game
    root = game.root
    assert root.move is None and root.parent is None and root.ply == 0
    assert root.fen() == qipu.Position().fen()
    main = game.mainline()
    assert [n.move for n in main] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
    assert [n.ply for n in main] == [1, 2, 3, 4, 5, 6]
    assert all(n.is_main_line() for n in main)
    assert [n.move for n in main[0].variations] == ["h9g7", "g6g5"]
    alt = main[0].variations[1]
    assert not alt.is_main_line() and not alt.is_main_variation()
    assert alt.parent == main[0] and alt.next() is None and alt.is_end()
    assert [n.move for n in main[2].variations] == ["i9h9", "b9c7"]
    assert main[2].variations[1].next().move == "i0h0"
    assert game.end() == main[-1] == root.end()
    assert main[1].next() == main[2]
    # The nodes say what the game's dicts say.
    given = [{k: v[k] for k in ("ply", "depth", "uci")} for v in game.variations]
    order = lambda v: (v["ply"], v["uci"])  # noqa: E731
    assert sorted(given, key=order) == sorted(lines_of(game), key=order)
    assert [n.written for n in main] == game.moves_as_written()
    assert [n.fen() for n in main] == game.fens()[1:]
    assert [n.move_as("chinese") for n in main] == game.moves("chinese")
    assert main[0].move_as("wxf") == "C2.5" and root.move_as("wxf") is None
    pos = main[1].position
    assert pos.move_stack == ["h2e2", "h9g7"] and pos.fen() == game.fens()[2]


def test_nodes_are_equal_by_game_and_place(read_game, tmp_path):
    a, b = read_game.root, read_game.root
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert read_game.root.variations[0] != read_game.root
    other = read_one(tmp_path / "v.pgn")
    assert other.root != read_game.root
    assert read_game.root != "root"
    assert repr(read_game.root) == "<Node root>"
    assert repr(read_game.mainline()[0]) == "<Node ply 1 h2e2>"


def test_a_game_is_built_and_changed_then_read_back(tmp_path):
    game = qipu.Game(tags={"Event": "built", "Red": "红"})
    assert (game.status, game.plies, game.source, game.format) == ("valid", 0, "<new>", "none")
    root = game.root
    root.comment = "about the game"
    first = root.add_variation("炮二平五")  # Chinese
    reply = first.add_variation("h9g7")  # coordinates
    other = first.add_variation("H2+3")  # WXF: b9c7
    assert other.move == "b9c7"
    assert first.add_variation("H9-G7") == reply, "a move played already is not added twice"
    reply.add_variation("H0-G2").add_variation("i9h9")
    other.comment = "solid"
    other.nags = [1]
    other.add_variation("h0g2")
    game.result = "1-0"
    assert movetext(game) == "{about the game} 1. H2-E2 H9-G7 (1... B9-C7 $1 {solid} 2. H0-G2) 2. H0-G2 I9-H9 1-0"
    assert game.plies == 4 and game.moves("uci") == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert game.result == "1-0" and game.tags["Result"] == "1-0"

    other.promote_to_main()
    assert movetext(game) == "{about the game} 1. H2-E2 B9-C7 $1 {solid} (1... H9-G7 2. H0-G2 I9-H9) 2. H0-G2 1-0"
    assert game.plies == 3 and game.mainline()[1] == other
    other.demote()
    assert game.mainline()[1] == reply
    third = first.add_main_variation("炮８平５")
    assert [n.move for n in first.variations] == ["h7e7", "h9g7", "b9c7"]
    third.demote()
    third.demote()
    assert [n.move for n in first.variations] == ["h9g7", "b9c7", "h7e7"]
    third.promote()
    assert [n.move for n in first.variations] == ["h9g7", "h7e7", "b9c7"]
    third.remove()
    with pytest.raises(ValueError, match="removed"):
        third.move
    assert movetext(game, "chinese") == (
        "{about the game} 1. 炮二平五 马８进７ (1... 马２进３ $1 {solid} 2. 马二进三) 2. 马二进三 车９平８ 1-0"
    )
    # Written and read again: the same tree.
    path = tmp_path / "built.pgn"
    path.write_text(game.to_pgn(), encoding="utf-8")
    back = read_one(path)
    assert tree_of(back.root) == tree_of(game.root)
    assert back.root.comment == "about the game"
    assert back.tags["Event"] == "built" and back.tags["Red"] == "红" and back.result == "1-0"
    assert back.to_pgn("iccs") == game.to_pgn("iccs")
    # JSON too.
    path = tmp_path / "built.json"
    path.write_text(game.to_json() + "\n", encoding="utf-8")
    assert tree_of(read_one(path).root) == tree_of(game.root)


def test_a_game_from_a_fen(tmp_path):
    fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
    game = qipu.Game(fen=fen)
    assert game.start_fen == fen and game.root.fen() == fen
    game.root.add_variation("e1e9").add_variation("d9d8").add_variation("e9e8")
    assert game.root.end().position.turn == "black"
    assert game.plies == 3
    text = game.to_pgn("iccs")
    assert f'[FEN "{fen}"]' in text
    path = tmp_path / "fen.pgn"
    path.write_text(text, encoding="utf-8")
    back = read_one(path)
    assert back.start_fen == fen and back.moves("uci") == ["e1e9", "d9d8", "e9e8"]
    with pytest.raises(qipu.FenError):
        qipu.Game(fen="not a fen")


def test_an_illegal_move_raises_and_changes_nothing(read_game):
    before = read_game.to_pgn("iccs")
    last = read_game.end()
    with pytest.raises(qipu.IllegalMoveError) as e:
        last.add_variation("h2h9")
    assert e.value.ply == 7 and e.value.move == "h2h9"
    with pytest.raises(qipu.InvalidMoveError):
        read_game.root.add_main_variation("hello")
    with pytest.raises(ValueError):
        read_game.root.remove()
    with pytest.raises(ValueError):
        read_game.result = "red wins"
    assert read_game.to_pgn("iccs") == before
    assert len(read_game.root.variations) == 1 and read_game.plies == 6


def test_a_read_game_is_changed_and_written_as_xqf(read_game, tmp_path):
    game = read_game
    first = game.mainline()[0]
    first.variations[1].promote_to_main()  # 1... g6g5 is the main line now
    first.next().add_variation("h0g2").add_variation("h7h0")
    game.mainline()[0].comment = "中炮"
    game.set_tag("Red", "许银川")
    game.set_tag("Event", None)
    assert game.tag("Event") is None and game.tags["Red"] == "许银川"
    assert game.moves("uci") == ["h2e2", "g6g5", "h0g2", "h7h0"]
    assert game.plies == 4 and game.status == "valid"
    assert game.comments[0]["text"] == "中炮"
    path = tmp_path / "changed.xqf"
    game.write(path)
    assert path.read_bytes() == game.to_xqf()
    back = read_one(path)
    assert tree_of(back.root) == tree_of(game.root)
    assert back.moves("uci") == game.moves("uci") and back.tags["Red"] == "许银川"
    assert movetext(back) == movetext(game)


def test_the_replay_follows_each_change(read_game):
    game = read_game
    assert game.variation_plies == 3
    game.mainline()[2].variations[1].remove()
    assert game.variation_plies == 1
    assert len(game.variations) == 1
    # An illegal start after a FEN set by hand: the report says so.
    game.set_tag("FEN", "4k4/9/9/9/9/9/9/9/9/3K5 w")
    assert game.status == "illegal" and game.plies == 0
    with pytest.raises(ValueError, match="not known"):
        game.mainline()[0].position
    game.set_tag("FEN", None)
    assert game.status == "valid" and game.plies == 6


def test_a_change_keeps_the_rules_and_the_nodes_taken(tmp_path):
    game = qipu.Game(rules="chinese")
    first = game.root.add_main_variation("h2e2")
    assert game.rules == "chinese"
    kept = game.root.variations
    assert first.add_main_variation("h9g7") == first.next()
    first.add_main_variation("b9c7")  # made the main continuation, h9g7 kept after it
    assert [n.move for n in first.variations] == ["b9c7", "h9g7"]
    assert first.add_main_variation("h9g7") == first.next()  # there already: made main again
    assert [n.move for n in first.variations] == ["h9g7", "b9c7"]
    assert game.root.variations == kept and game.rules == "chinese"
    path = tmp_path / "r.pgn"
    path.write_text(VARIATIONS, encoding="utf-8")
    read = list(qipu.read(path, rules="chinese"))[0]
    read.mainline()[-1].remove()
    assert read.rules == "chinese" and read.plies == 5


def test_a_game_is_written_to_a_file_in_the_format_asked(read_game, tmp_path):
    read_game.mainline()[0].comment = "中炮"
    for name, format in [("g.pgn", None), ("g.json", None), ("g.dhtml", None), ("g.txt", "pgn"), ("g.bin", "xqf")]:
        path = tmp_path / name
        read_game.write(str(path) if format else path, format)
        assert movetext(read_one(path)) == movetext(read_game), name
    assert (tmp_path / "g.txt").read_text(encoding="utf-8") == read_game.to_pgn()
    with pytest.raises(ValueError, match="format"):
        read_game.write(tmp_path / "g.doc")
