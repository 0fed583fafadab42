//! `qipu openings --suite`: opening suites on games whose answer is known,
//! the positions checked by replaying the games with the library.

use crate::common::qipu;
use qipu::{Move, Position};

/// Eight games. After two plies:
/// - h2e2 h9g7 (炮二平五 马８进７): games 1 (1-0), 2 (0-1) and 3 (1-0);
/// - b2e2 b9c7, its mirror: games 4 (½) and 5 (0-1);
/// - g3g4 h9g7: game 6 (1-0);
/// - h2e2 b9c7: game 7 (no result);
/// - game 8 stops after one ply.
const GAMES: &str = concat!(
    "[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n",
    "[Result \"0-1\"]\n1. h2e2 h9g7 2. h0g2 b9c7 0-1\n\n",
    "[Result \"1-0\"]\n1. h2e2 h9g7 2. b0c2 i9h9 1-0\n\n",
    "[Result \"1/2-1/2\"]\n1. b2e2 b9c7 2. b0c2 a9b9 1/2-1/2\n\n",
    "[Result \"0-1\"]\n1. b2e2 b9c7 2. h0g2 a9b9 0-1\n\n",
    "[Result \"1-0\"]\n1. g3g4 h9g7 2. h2e2 i9h9 1-0\n\n",
    "1. h2e2 b9c7 2. h0g2 *\n\n",
    "[Result \"1-0\"]\n1. h2e2 1-0\n",
);

fn scratch_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qipu-suite-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

fn suite(args: &[&str]) -> (Vec<String>, String) {
    let path = scratch_file(&args.join("_").replace(['.', '/'], "-"), GAMES);
    let out =
        qipu().arg("openings").arg("--suite").arg(&path).args(args).assert().success().get_output().clone();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
    let lines = String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    (lines, String::from_utf8(out.stderr).unwrap())
}

/// The EPD position fields of the position after `moves` from the start.
fn epd_after(moves: &str) -> String {
    let mut pos = Position::start();
    for m in moves.split_whitespace() {
        let m: Move = m.parse().unwrap();
        assert!(pos.is_legal(m), "{m}");
        let _ = pos.play_unchecked(m);
    }
    let fen = pos.fen();
    fen.rsplitn(3, ' ').nth(2).unwrap().to_string()
}

/// An opcode's operand in an EPD line.
fn opcode<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.split(';').map(str::trim).find_map(|op| {
        let op = op.rsplit(" - - ").next().unwrap();
        op.strip_prefix(name).and_then(|rest| rest.strip_prefix(' '))
    })
}

#[test]
fn positions_at_a_ply_are_counted_with_results_and_most_played_first() {
    let (lines, stderr) = suite(&["--at-ply", "2"]);
    assert_eq!(lines.len(), 4, "{lines:#?}");
    assert!(lines[0].starts_with(&epd_after("h2e2 h9g7")), "{}", lines[0]);
    assert_eq!(opcode(&lines[0], "games"), Some("3"));
    assert_eq!(opcode(&lines[0], "red_wins"), Some("2"));
    assert_eq!(opcode(&lines[0], "black_wins"), Some("1"));
    assert_eq!(opcode(&lines[0], "score"), Some("0.667"));
    assert_eq!(opcode(&lines[0], "ply"), Some("2"));
    assert!(lines[1].starts_with(&epd_after("b2e2 b9c7")), "{}", lines[1]);
    assert_eq!(opcode(&lines[1], "games"), Some("2"));
    assert_eq!(opcode(&lines[1], "score"), Some("0.250"));
    // One game each, in the order first met.
    assert!(lines[2].starts_with(&epd_after("g3g4 h9g7")));
    assert!(lines[3].starts_with(&epd_after("h2e2 b9c7")));
    assert_eq!(opcode(&lines[3], "score"), None, "a game with no result has no score");
    assert!(stderr.contains("8 game(s): 8 valid"), "{stderr}");
    assert!(stderr.contains("4 position(s) in the suite, of 4 distinct at ply 2 in 8 game(s)"), "{stderr}");
}

#[test]
fn mirrors_merge_with_mirror() {
    let (lines, _) = suite(&["--at-ply", "2", "--mirror"]);
    assert_eq!(lines.len(), 3, "{lines:#?}");
    // 炮二平五 马８进７ and its mirror 炮八平五 马２进３: five games, shown as first reached.
    assert!(lines[0].starts_with(&epd_after("h2e2 h9g7")));
    assert_eq!(opcode(&lines[0], "games"), Some("5"));
    assert_eq!(opcode(&lines[0], "draws"), Some("1"));
    assert_eq!(opcode(&lines[0], "score"), Some("0.500"));
}

#[test]
fn min_games_and_score_band_leave_positions_out() {
    let (lines, _) = suite(&["--at-ply", "2", "--min-games", "2"]);
    assert_eq!(lines.len(), 2);
    let (lines, _) = suite(&["--at-ply", "2", "--score", "0.2..0.3"]);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with(&epd_after("b2e2 b9c7")));
    let (lines, _) = suite(&["--at-ply", "2", "--mirror", "--score", "0.35..0.65", "--min-games", "2"]);
    assert_eq!(lines.len(), 1);
    assert_eq!(opcode(&lines[0], "games"), Some("5"));
}

#[test]
fn a_band_of_plies_gives_at_most_one_position_per_game() {
    let (lines, stderr) = suite(&["--at-ply", "1..2"]);
    // Ply 1: h2e2 (games 1, 2, 3, 7, 8), b2e2 (4, 5), g3g4 (6). Taken first, h2e2 uses up
    // games 1, 2, 3, 7 and 8, b2e2 games 4 and 5, g3g4 game 6: no ply-2 position is left.
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(lines[0].starts_with(&epd_after("h2e2")));
    assert_eq!(opcode(&lines[0], "games"), Some("5"));
    assert!(stderr.contains("of 7 distinct at plies 1 to 2"), "{stderr}");
}

#[test]
fn shuffled_with_a_seed_is_the_same_set_in_a_repeatable_order() {
    let (plain, _) = suite(&["--at-ply", "2"]);
    let (a, _) = suite(&["--at-ply", "2", "--shuffle", "--seed", "7"]);
    let (b, _) = suite(&["--at-ply", "2", "--shuffle", "--seed", "7"]);
    assert_eq!(a, b);
    let mut sorted = a.clone();
    sorted.sort();
    let mut expected = plain.clone();
    expected.sort();
    assert_eq!(sorted, expected);
    let orders: std::collections::HashSet<Vec<String>> =
        (0..8).map(|seed| suite(&["--at-ply", "2", "--shuffle", "--seed", &seed.to_string()]).0).collect();
    assert!(orders.len() > 1, "some seed changes the order");
    let (two, _) = suite(&["--at-ply", "2", "--positions", "2"]);
    assert_eq!(two, plain[..2]);
}

#[test]
fn pgn_suite_replays_to_each_position() {
    let (lines, _) = suite(&["--at-ply", "2", "--to", "pgn", "--notation", "iccs"]);
    let text = lines.join("\n");
    let records = qipu::formats::pgn::read(&text);
    assert_eq!(records.len(), 4);
    let first = &records[0];
    assert_eq!(first.tag("Games"), Some("3"));
    assert_eq!(first.tag("Score"), Some("0.667"));
    assert!(text.contains("H2-E2 H9-G7 *"), "{text}");
}

#[test]
fn selection_applies_and_usage_errors_are_told() {
    let path = scratch_file("select", GAMES);
    let out = qipu()
        .args(["openings", "--suite", "--at-ply", "2", "--result", "1-0"])
        .arg(&path)
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    for (args, message) in [
        (&["openings", "--to", "epd"][..], "--suite"),
        (&["openings", "--suite", "--score", "0.7..0.2"], "LO..HI"),
        (&["openings", "--suite", "--at-ply", "1000"], "at most"),
        (&["validate", "--mirror"], "--mirror needs --position"),
    ] {
        let out = qipu().args(args).arg(&path).assert().code(2).get_output().clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
