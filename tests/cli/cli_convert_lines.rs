//! `qipu convert --variations-as-games`: each line of a game written as a
//! game of its own, for every target, with the summary counting the games
//! read and every game written.

use crate::common::{qipu, stderr};

use std::path::Path;

use crate::common::scratch;
use qipu::formats::pgn;
use qipu::record::Record;

/// A game with nested variations and a variation of the first move, and a
/// game without variations.
const GAMES: &str = concat!(
    "[Event \"e\"]\n[Red \"许银川\"]\n[Result \"1-0\"]\n",
    "{about} 1. h2e2 {center} (1. c3c4 h9g7) h9g7 (1... b9c7 2. h0g2 (2. b0c2 {knight} c6c5) i9i8) ",
    "(1... c9e7) 2. h0g2 i9h9 1-0\n\n",
    "[Event \"f\"]\n[Red \"吕钦\"]\n[Result \"0-1\"]\n1. b2e2 h9g7 0-1\n",
);

/// The moves of a record's main line, as points.
fn moves(record: &Record) -> String {
    let tree = record.tree();
    let moves: Vec<String> =
        tree.main_line().map(|id| tree.node(id).mv.as_ref().unwrap().points().unwrap().to_string()).collect();
    moves.join(" ")
}

/// Converts `text` (standard input) with `args`; the output and standard
/// error.
fn convert(text: &str, args: &[&str]) -> std::process::Output {
    qipu().arg("convert").arg("-").args(args).write_stdin(text).output().unwrap()
}

#[test]
fn each_line_is_a_game_in_the_order_a_pgn_writer_meets_them() {
    let out = convert(GAMES, &["--to", "pgn", "--notation", "iccs", "--variations-as-games"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let games = pgn::read(&String::from_utf8(out.stdout.clone()).unwrap());
    let got: Vec<(String, Option<&str>, Option<&str>, String)> = games
        .iter()
        .map(|g| (moves(g), g.tag("Line"), g.tag("Result"), g.tag("Event").unwrap().to_string()))
        .collect();
    let want = [
        ("h2e2 h9g7 h0g2 i9h9", None, Some("1-0"), "e"),
        ("c3c4 h9g7", Some("1"), Some("*"), "e"),
        ("h2e2 b9c7 h0g2 i9i8", Some("2"), Some("*"), "e"),
        ("h2e2 b9c7 b0c2 c6c5", Some("2.1"), Some("*"), "e"),
        ("h2e2 c9e7", Some("3"), Some("*"), "e"),
        ("b2e2 h9g7", None, Some("0-1"), "f"),
    ];
    let want: Vec<(String, Option<&str>, Option<&str>, String)> =
        want.iter().map(|(m, l, r, e)| (m.to_string(), *l, *r, e.to_string())).collect();
    assert_eq!(got, want);
    for game in &games {
        assert_eq!(game.tree().variation_count(), 0);
        assert!(game.replayed().is_valid());
        let tree = game.tree();
        assert_eq!(
            tree.node(tree.root()).comment(),
            Some("about").filter(|_| game.tag("Event") == Some("e"))
        );
    }
    // Comments stay on the moves kept, those of the shared moves too.
    let comments = |g: &Record| -> Vec<String> {
        let tree = g.tree();
        tree.main_line().filter_map(|id| tree.node(id).comment().map(str::to_string)).collect()
    };
    assert_eq!(comments(&games[0]), ["center"]);
    assert_eq!(comments(&games[1]), Vec::<String>::new());
    assert_eq!(comments(&games[3]), ["center", "knight"]);
    assert!(
        stderr(&out).ends_with(
            "2 game(s): 2 valid, 0 illegal, 0 unreadable (1 input(s)); 6 written (4 of them variations)\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn without_the_flag_nothing_changes() {
    let out = convert(GAMES, &["--to", "pgn", "--notation", "iccs"]);
    let games = pgn::read(&String::from_utf8(out.stdout.clone()).unwrap());
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tree().variation_count(), 4);
    assert!(stderr(&out).ends_with("; 2 written\n"), "{}", stderr(&out));
}

#[test]
fn selection_chooses_the_games_read_shaping_applies_to_each_line() {
    let out =
        convert(GAMES, &["--to", "pgn", "--notation", "iccs", "--variations-as-games", "--player", "许银川"]);
    let said = stderr(&out);
    assert!(said.contains("1 selected, 1 left out"), "{said}");
    assert!(said.ends_with("; 5 written (4 of them variations)\n"), "{said}");
    let out =
        convert(GAMES, &["--to", "pgn", "--notation", "iccs", "--variations-as-games", "--plies-max", "2"]);
    let games = pgn::read(&String::from_utf8(out.stdout.clone()).unwrap());
    let lengths: Vec<usize> = games.iter().map(|g| g.tree().main_line().count()).collect();
    assert_eq!(lengths, [2, 2, 2, 2, 2, 2]);
    // --main-line would drop what the flag writes: refused.
    let out = convert(GAMES, &["--to", "pgn", "--variations-as-games", "--main-line"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--main-line"), "{}", stderr(&out));
}

#[test]
fn a_game_from_a_fen_start_keeps_it_in_every_line() {
    let text = concat!(
        "[FEN \"4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\"]\n[Result \"1-0\"]\n",
        "1. a1a8 (1. a1a5 e9d9 2. a5d5) e9d9 1-0\n"
    );
    let out = convert(text, &["--to", "pgn", "--notation", "iccs", "--variations-as-games"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let games = pgn::read(&String::from_utf8(out.stdout.clone()).unwrap());
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.fen(), Some("4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1"));
        assert!(game.replayed().is_valid());
    }
    assert_eq!(moves(&games[1]), "a1a5 e9d9 a5d5");
}

#[test]
fn lines_through_an_illegal_move_are_written_as_the_game_is_and_counted_once() {
    // Ply 3 of the main line is illegal: the variation of ply 4 holds it,
    // the two of ply 2 do not; the first of them holds an illegal move of
    // its own (the chariot's way is blocked).
    let text = "[Result \"*\"]\n1. h2e2 h9g7 (1... b9c7 2. a0a5) (1... c9e7) 2. h2h9 b9c7 (2... c9e7) *\n";
    let out = convert(text, &["--to", "pgn", "--notation", "iccs", "--variations-as-games"]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert_eq!(said.lines().filter(|l| l.contains("error")).count(), 1, "the game told once: {said}");
    assert!(said.contains("error: game 1, ply 3"), "{said}");
    assert!(
        said.ends_with(
            "1 game(s): 0 valid, 1 illegal, 0 unreadable (1 input(s)); 4 written (3 of them variations)\n"
        ),
        "{said}"
    );
    let games = pgn::read(&String::from_utf8(out.stdout.clone()).unwrap());
    let errors: Vec<Option<usize>> =
        games.iter().map(|g| g.replayed().error.as_ref().map(|e| e.ply)).collect();
    assert_eq!(errors, [Some(3), Some(3), None, Some(3)]);
    // With --rejected, the lines with a move that does not replay go there.
    let dir = scratch("lines-rejected");
    let rejected = dir.join("rejected.pgn");
    let out = qipu()
        .args(["convert", "-", "--to", "pgn", "--variations-as-games", "--rejected"])
        .arg(&rejected)
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(pgn::read(&String::from_utf8(out.stdout.clone()).unwrap()).len(), 1);
    assert_eq!(pgn::read(&std::fs::read_to_string(&rejected).unwrap()).len(), 3);
    assert!(stderr(&out).ends_with("; 1 written (1 of them variations)\n"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_target_writes_the_lines_xqf_files_named_per_line() {
    let dir = scratch("lines-xqf");
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let xqf = dir.join("xqf");
    let out = qipu()
        .arg("convert")
        .arg(&input)
        .args(["--to", "xqf", "--variations-as-games", "-o"])
        .arg(&xqf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).ends_with("; 6 written (4 of them variations)\n"), "{}", stderr(&out));
    assert_eq!(
        names(&xqf),
        [
            "games-1-line-1.xqf",
            "games-1-line-2.1.xqf",
            "games-1-line-2.xqf",
            "games-1-line-3.xqf",
            "games-1.xqf",
            "games-2.xqf"
        ]
    );
    // Read back: the moves of each line.
    let back = |name: &str| {
        let out = qipu()
            .arg("convert")
            .arg(xqf.join(name))
            .args(["--to", "pgn", "--notation", "iccs"])
            .output()
            .unwrap();
        pgn::read(&String::from_utf8(out.stdout.clone()).unwrap()).remove(0)
    };
    assert_eq!(moves(&back("games-1.xqf")), "h2e2 h9g7 h0g2 i9h9");
    assert_eq!(moves(&back("games-1-line-2.1.xqf")), "h2e2 b9c7 b0c2 c6c5");
    assert_eq!(back("games-1-line-2.1.xqf").tag("Line"), Some("2.1"));
    assert_eq!(moves(&back("games-1-line-1.xqf")), "c3c4 h9g7");
    let out = qipu().arg("validate").arg(&xqf).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("6 game(s): 6 valid"));
    // A library, a page, the text formats and a split: every line written.
    for (to, file) in [
        ("cbl", "games.cbl"),
        ("html", "games.html"),
        ("json", "games.json"),
        ("dhtmlxq", "games.txt"),
        ("uci", "games.uci"),
    ] {
        let out = qipu()
            .arg("convert")
            .arg(&input)
            .args(["--to", to, "--variations-as-games", "-o"])
            .arg(dir.join(file))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{to}: {}", stderr(&out));
        assert!(stderr(&out).ends_with("; 6 written (4 of them variations)\n"), "{to}: {}", stderr(&out));
    }
    let out = qipu().arg("validate").arg(dir.join("games.cbl")).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("6 game(s): 6 valid"));
    let page = std::fs::read_to_string(dir.join("games.html")).unwrap();
    assert!(page.contains("(line 2.1)"), "the chooser names the line");
    let out = qipu()
        .arg("convert")
        .arg(&input)
        .args(["--to", "pgn", "--variations-as-games", "--split", "4", "-o"])
        .arg(dir.join("split.pgn"))
        .output()
        .unwrap();
    assert!(stderr(&out).contains("; 6 written (4 of them variations)\n"), "{}", stderr(&out));
    assert!(names(&dir).contains(&"split-0002.pgn".to_string()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fix_results_sets_the_result_a_line_ends_in_and_names_the_line() {
    // The main line leaves the game open; its variation mates.
    let text = "[FEN \"3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1\"]\n[Result \"*\"]\n1. a8a7 (1. b0b9) d9d8 *\n";
    let out = convert(text, &["--to", "pgn", "--notation", "iccs", "--variations-as-games", "--fix-results"]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("-: note: game 1: line 1: result * set to 1-0 (checkmate)"), "{said}");
    assert!(said.ends_with("; 1 result(s) set; 2 written (1 of them variations)\n"), "{said}");
    let games = pgn::read(&String::from_utf8(out.stdout.clone()).unwrap());
    let results: Vec<Option<&str>> = games.iter().map(|g| g.tag("Result")).collect();
    assert_eq!(results, [Some("*"), Some("1-0")]);
}

#[test]
fn a_line_the_format_cannot_hold_is_told_by_its_id_and_not_counted_written() {
    // XQF stores points: a line with a move that is no move cannot be
    // written; the other lines are.
    let dir = scratch("lines-not-written");
    let out = qipu()
        .args(["convert", "-", "--to", "xqf", "--variations-as-games", "-o"])
        .arg(dir.join("xqf"))
        .write_stdin("1. h2e2 h9g7 (1... zzzz) (1... b9c7) *\n")
        .output()
        .unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("-: error: game 1: line 1: not written: the move zzzz"), "{said}");
    assert!(said.ends_with("(1 input(s)); 2 written (1 of them variations)\n"), "{said}");
    assert_eq!(names(&dir.join("xqf")), ["--1-line-2.xqf", "--1.xqf"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
