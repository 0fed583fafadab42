//! `qipu show`: board diagrams of a FEN or of a game's position, for the
//! terminal and as SVG.

use std::path::PathBuf;

use assert_cmd::Command;
use quick_xml::XmlVersion;
use quick_xml::events::Event;
use quick_xml::reader::Reader;

fn qipu() -> Command {
    let mut command = Command::cargo_bin("qipu").unwrap();
    command.arg("--color").arg("never");
    command
}

fn stdout_of(args: &[&str]) -> String {
    let out = qipu().args(args).output().unwrap();
    assert!(out.status.success(), "qipu {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A file of the test's own holding `text`.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_show");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");

#[test]
fn the_start_position_has_every_piece_in_its_place() {
    let board = stdout_of(&["show", "startpos"]);
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows.len(), 22, "{board}");
    assert_eq!(rows[0], " １  ２  ３  ４  ５  ６  ７  ８  ９");
    assert_eq!(rows[1], " 車──馬──象──士──将──士──象──馬──車");
    assert_eq!(rows[5], " ├───砲──┼───┼───┼───┼───┼───砲──┤");
    assert_eq!(rows[7], " 卒──┼───卒──┼───卒──┼───卒──┼───卒");
    assert!(rows[10].contains("楚  河") && rows[10].contains("汉  界"));
    assert_eq!(rows[13], " 兵──┼───兵──┼───兵──┼───兵──┼───兵");
    assert_eq!(rows[15], " ├───炮──┼───┼───┼───┼───┼───炮──┤");
    assert_eq!(rows[19], " 车──马──相──仕──帅──仕──相──马──车");
    assert_eq!(rows[20], " 九  八  七  六  五  四  三  二  一");
    assert_eq!(rows[21], "Red to move");
    assert!(!board.contains('\x1b'));
    // Coloured, Black's pieces keep the characters the two sides share.
    let out =
        Command::cargo_bin("qipu").unwrap().args(["show", "startpos", "--color", "always"]).output().unwrap();
    let coloured = String::from_utf8(out.stdout).unwrap();
    assert!(coloured.lines().nth(1).unwrap().starts_with(" \x1b[1m车\x1b[0m──\x1b[1m马"), "{coloured}");
}

#[test]
fn flip_shows_the_board_from_blacks_side() {
    let board = stdout_of(&["show", "startpos", "--flip"]);
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows[0], " 一  二  三  四  五  六  七  八  九");
    assert_eq!(rows[1], " 车──马──相──仕──帅──仕──相──马──车");
    assert_eq!(rows[7], " 兵──┼───兵──┼───兵──┼───兵──┼───兵");
    assert_eq!(rows[19], " 車──馬──象──士──将──士──象──馬──車");
    assert_eq!(rows[20], " ９  ８  ７  ６  ５  ４  ３  ２  １");
    // A lone piece off the middle moves to the other side.
    let fen = ["3k5/9/9/9/9/9/9/9/9/1N2K4", "w"];
    let plain = stdout_of(&["show", fen[0], fen[1]]);
    let flipped = stdout_of(&["show", fen[0], fen[1], "--flip"]);
    assert_eq!(plain.lines().nth(19), Some(" └───马──┴───┴───帅──┴───┴───┴───┘"));
    assert_eq!(flipped.lines().nth(1), Some(" ┌───┬───┬───┬───帅──┬───┬───马──┐"));
}

#[test]
fn a_fen_with_few_pieces_puts_each_where_it_stands() {
    // The FEN as separate words.
    let board = stdout_of(&["show", "3k5/4P4/9/9/2b6/6R2/9/9/4A4/3AK4", "b", "-", "-", "0", "1"]);
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows[1], " ┌───┬───┬───将──┬───┬───┬───┬───┐");
    assert_eq!(rows[3], " ├───┼───┼───┼───兵──┼───┼───┼───┤");
    assert_eq!(rows[9], " ├───┴───象──┴───┴───┴───┴───┴───┤");
    assert_eq!(rows[11], " ├───┬───┬───┬───┬───┬───车──┬───┤");
    assert_eq!(rows[17], " ├───┼───┼───┼───仕──┼───┼───┼───┤");
    assert_eq!(rows[19], " └───┴───┴───仕──帅──┴───┴───┴───┘");
    assert_eq!(rows[21], "Black to move");
    // Every other row holds no piece.
    for (i, row) in rows.iter().enumerate().take(21) {
        if ![1, 3, 9, 11, 17, 19].contains(&i) {
            assert!(!row.chars().any(|c| "车马相仕帅炮兵将士象卒車馬砲".contains(c)), "{i}: {row}");
        }
    }
}

#[test]
fn the_last_move_of_a_game_is_marked() {
    let game = file("two.pgn", "[Event \"t\"]\n1. h2e2 h9g7 *\n");
    let game = game.to_str().unwrap();
    let after_one = stdout_of(&["show", game, "--ply", "1"]);
    let rows: Vec<&str> = after_one.lines().collect();
    assert_eq!(rows[15], " ├───炮──┼───┼──[炮]─┼───┼──(┼)──┤");
    assert_eq!(rows[21], "Black to move; last move H2-E2");
    // By default the last position: Black's horse went h9-g7.
    let last = stdout_of(&["show", game]);
    let rows: Vec<&str> = last.lines().collect();
    assert_eq!(rows[1], " 車──馬──象──士──将──士──象─(┬)──車");
    assert_eq!(rows[5], " ├───砲──┼───┼───┼───┼──[馬]─砲──┤");
    assert_eq!(rows[21], "Red to move; last move H9-G7");
    // Ply 0 is the start, with no move marked.
    let start = stdout_of(&["show", game, "--ply", "0"]);
    assert_eq!(start, stdout_of(&["show", "startpos"]));
    // Coloured when asked: the moved piece highlighted.
    let out = Command::cargo_bin("qipu").unwrap().args(["show", game, "--color", "always"]).output().unwrap();
    let coloured = String::from_utf8(out.stdout).unwrap();
    assert!(coloured.contains("\x1b[1;30;43m马\x1b[0m"), "{coloured}");
    assert!(coloured.contains("\x1b[1;31m兵\x1b[0m"));
}

/// The pieces of an SVG drawing: (symbol id, x, y), and the root's
/// geometry (x0, y0, step, flip); the drawing must be well-formed XML.
fn svg_pieces(svg: &str) -> (Vec<(String, i64, i64)>, [i64; 4]) {
    let mut reader = Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let (mut pieces, mut geometry) = (Vec::new(), None);
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) => {
                let get = |name: &str| {
                    e.attributes()
                        .map(Result::unwrap)
                        .find(|a| a.key.0 == name)
                        .map(|a| a.normalized_value(XmlVersion::Implicit1_0).unwrap().into_owned())
                };
                match e.name().0 {
                    "svg" => {
                        assert_eq!(get("xmlns").as_deref(), Some("http://www.w3.org/2000/svg"));
                        let n = |k: &str| get(k).unwrap().parse::<i64>().unwrap();
                        geometry = Some([n("data-x0"), n("data-y0"), n("data-step"), n("data-flip")]);
                    }
                    "use" => pieces.push((
                        get("href").unwrap(),
                        get("x").unwrap().parse().unwrap(),
                        get("y").unwrap().parse().unwrap(),
                    )),
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (pieces, geometry.expect("a root <svg>"))
}

/// Where the root's geometry puts the point of `file` (0…8) and `rank` (0…9).
fn point(geometry: [i64; 4], file: i64, rank: i64) -> (i64, i64) {
    let [x0, y0, step, flip] = geometry;
    if flip == 1 {
        (x0 + step * (8 - file), y0 + step * rank)
    } else {
        (x0 + step * file, y0 + step * (9 - rank))
    }
}

#[test]
fn svg_of_the_start_places_32_pieces_where_the_geometry_says() {
    for flip in [false, true] {
        let mut args = vec!["show", "startpos", "--format", "svg", "--size", "600"];
        if flip {
            args.push("--flip");
        }
        let svg = stdout_of(&args);
        assert!(svg.contains("width=\"600\""));
        let (pieces, geometry) = svg_pieces(&svg);
        assert_eq!(geometry[3], i64::from(flip));
        assert_eq!(pieces.len(), 32);
        let at = |id: &str, file: i64, rank: i64| {
            let (x, y) = point(geometry, file, rank);
            assert!(pieces.contains(&(id.to_string(), x, y)), "{id} at {x},{y} (flip {flip}): {pieces:?}");
        };
        at("#qp-K", 4, 0);
        at("#qp-k", 4, 9);
        at("#qp-R", 0, 0);
        at("#qp-N", 7, 0);
        at("#qp-c", 1, 7);
        at("#qp-P", 8, 3);
        at("#qp-p", 0, 6);
    }
    // Flipping mirrors every piece through the middle of the board.
    let (plain, g) = svg_pieces(&stdout_of(&["show", "startpos", "--format", "svg"]));
    let (flipped, _) = svg_pieces(&stdout_of(&["show", "startpos", "--format", "svg", "--flip"]));
    let (x0, y0, step) = (g[0], g[1], g[2]);
    let mut mirrored: Vec<_> =
        plain.iter().map(|(id, x, y)| (id.clone(), 2 * x0 + 8 * step - x, 2 * y0 + 9 * step - y)).collect();
    let mut flipped = flipped;
    mirrored.sort();
    flipped.sort();
    assert_eq!(mirrored, flipped);
}

#[test]
fn svg_into_a_file_never_over_the_input() {
    let game = file("svg.pgn", "[Event \"t\"]\n1. h2e2 h9g7 *\n");
    let out = game.with_file_name("board.svg");
    let _ = std::fs::remove_file(&out);
    let g = game.to_str().unwrap();
    let o = out.to_str().unwrap();
    assert_eq!(stdout_of(&["show", g, "--format", "svg", "-o", o]), "");
    let svg = std::fs::read_to_string(&out).unwrap();
    let (pieces, geometry) = svg_pieces(&svg);
    assert_eq!(pieces.len(), 32);
    let (x, y) = point(geometry, 6, 7);
    assert!(pieces.contains(&("#qp-n".to_string(), x, y)));
    // The last move marked: the group of marks is filled.
    assert!(svg.contains("<g id=\"qp-marks\"><"));
    // An existing file needs --force; the input is never written over.
    let again = qipu().args(["show", g, "--format", "svg", "-o", o]).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    let over = qipu().args(["show", g, "--format", "svg", "-o", g, "--force"]).output().unwrap();
    assert_eq!(over.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&over.stderr).contains("svg.pgn"));
    assert_eq!(std::fs::read_to_string(&game).unwrap(), "[Event \"t\"]\n1. h2e2 h9g7 *\n");
}

#[test]
fn game_and_ply_out_of_range_are_told() {
    let out = qipu().args(["show", FIXTURE, "--game", "1392"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Hu_Ronghua_1391_UCI_games.pgn: --game 1392: the file holds 1391 game(s)"), "{err}");
    let out = qipu().args(["show", FIXTURE, "--game", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = qipu().args(["show", FIXTURE, "--ply", "66"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 1: --ply 66: the main line has 65 plies (0 to 65)"), "{err}");
    // The last ply is in range.
    assert!(stdout_of(&["show", FIXTURE, "--ply", "65"]).ends_with("\n"));
    // --ply means nothing to a FEN.
    let out = qipu().args(["show", "startpos", "--ply", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_game_with_an_illegal_move_shows_the_last_legal_position() {
    let game = file("illegal.pgn", "[Game \"Chinese Chess\"]\n1. 炮二平五 马８进７\n2. 马二进四 *\n");
    let g = game.to_str().unwrap();
    let out = qipu().args(["show", g]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("illegal.pgn:3:4: error: game 1, ply 3: 马二进四: illegal"), "{err}");
    assert!(err.contains("after ply 2"), "{err}");
    let board = String::from_utf8(out.stdout).unwrap();
    assert_eq!(board, stdout_of(&["show", g, "--ply", "2"]));
    assert!(board.ends_with("Red to move; last move H9-G7\n"), "{board}");
    // Past the illegal move is out of range, and says why.
    let out = qipu().args(["show", g, "--ply", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only 2 plies replay"));
}

#[test]
fn bad_input_is_told() {
    let out = qipu().args(["show", "rnbakabnr/9/9"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid FEN"));
    let out = qipu().args(["show", "no-such-game.pgn"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-game.pgn: no such file, nor a FEN"));
    let empty = file("empty.pgn", "");
    let out = qipu().args(["show", empty.to_str().unwrap()]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("empty.pgn"));
}

#[test]
fn gzip_data_shows_as_the_file_it_holds() {
    let text = "[Event \"a\"]\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. b2e2 b9c7 2. h0g2 *\n";
    let plain = file("two.pgn", text);
    let gz = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_show").join("two.pgn.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, text.as_bytes()).unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    for ply in ["0", "2", "3"] {
        let want = stdout_of(&["show", plain.to_str().unwrap(), "--game", "2", "--ply", ply]);
        let got = stdout_of(&["show", gz.to_str().unwrap(), "--game", "2", "--ply", ply]);
        assert_eq!(got, want, "ply {ply}");
    }
    assert!(stdout_of(&["show", gz.to_str().unwrap(), "--game", "2"]).contains("last move H0-G2"));
    let out = qipu().args(["show", gz.to_str().unwrap(), "--game", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds 2 game(s)"));
}

#[test]
fn a_folder_shows_a_game_of_its_files_counted_in_order() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_show_folder");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.pgn"), "1. h2e2 *\n\n1. b2e2 *\n").unwrap();
    std::fs::write(dir.join("b.pgn"), "1. c3c4 *\n").unwrap();
    let folder = dir.to_str().unwrap();
    for (game, fen) in [("2", "1C5C1/9"), ("3", "P1P5P")] {
        let shown = stdout_of(&["show", folder, "--game", game, "--format", "svg"]);
        let alone = stdout_of(&[
            "show",
            &format!("{folder}/{}", if game == "2" { "a.pgn" } else { "b.pgn" }),
            "--game",
            if game == "2" { "2" } else { "1" },
            "--format",
            "svg",
        ]);
        assert_eq!(shown, alone, "game {game} ({fen})");
    }
    let out = qipu().args(["show", folder, "--game", "4"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("holds 3 game(s)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
