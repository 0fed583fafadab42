//! WXF files and plain Chinese text over a megabyte are read a piece at a
//! time: random legal games, every one read and valid, the same report on
//! one thread and on two, and a game too long to hold is one unreadable
//! game while the rest read.

use crate::common::qipu;

use crate::common::{Rng, scratch};
use qipu::notation::{chinese, wxf};
use qipu::{Move, Position};

/// A random legal game of up to `plies` plies from the start, each move
/// written by `write` in the position it is played in.
fn game(rng: &mut Rng, plies: usize, write: impl Fn(&Position, Move) -> String) -> Vec<String> {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(write(&pos, m));
        let _ = pos.play_unchecked(m);
    }
    moves
}

/// Numbered moves, `per_line` moves a line.
fn numbered(moves: &[String], per_line: usize) -> String {
    let mut text = String::new();
    for (k, pair) in moves.chunks(2).enumerate() {
        text.push_str(&format!("{:>3}. {}", k + 1, pair.join(" ")));
        text.push(if (k + 1) % per_line == 0 { '\n' } else { ' ' });
    }
    text
}

/// PlayOK's WXF files, one after the other.
fn wxf_file(games: usize, rng: &mut Rng) -> String {
    let mut text = String::new();
    for g in 0..games {
        let plies = 1 + rng.below(150);
        let moves = game(rng, plies, |pos, m| wxf::write(pos, m).unwrap());
        text.push_str(&format!(
            "FORMAT  WXF\nRED     player{g} ; 1200 ;;\nBLACK   other ; 1240 ;;\nRESULT  *\nSTART{{\n{} }}END\n",
            numbered(&moves, 3)
        ));
    }
    text
}

/// A tournament text file: a header line a game, then its moves.
fn plain_file(games: usize, rng: &mut Rng) -> String {
    let mut text = String::new();
    for g in 0..games {
        let plies = 1 + rng.below(150);
        let moves = game(rng, plies, |pos, m| chinese::write(pos, m, chinese::Style::Simplified).unwrap());
        text.push_str(&format!("第{g}局  甲队{g}  红先和  乙队\n{}\n\n", numbered(&moves, 2)));
    }
    text
}

/// `validate --format json --jobs N` on `path`: standard output, and the
/// summary line on standard error.
fn validate(path: &std::path::Path, jobs: &str) -> (String, String) {
    let out = qipu().args(["validate", "--format", "json", "--jobs", jobs]).arg(path).output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn large_wxf_and_plain_text_files_read_every_game() {
    let dir = scratch("stream-text");
    let mut rng = Rng(36);
    for (name, text, format) in
        [("games.wxf", wxf_file(4000, &mut rng), "wxf"), ("games.txt", plain_file(3000, &mut rng), "text")]
    {
        let games = if format == "wxf" { 4000 } else { 3000 };
        assert!(text.len() > 2 << 20, "{name}: {} bytes, over the megabyte read first", text.len());
        let path = dir.join(name);
        std::fs::write(&path, &text).unwrap();
        let (one, summary) = validate(&path, "1");
        assert_eq!(one.matches(&format!("\"format\":\"{format}\"")).count(), games, "{name}");
        assert_eq!(one.matches("\"status\":\"valid\"").count(), games, "{name}: every game replays");
        let all = format!("{games} game(s): {games} valid, 0 illegal, 0 unreadable (1 input(s))");
        assert!(summary.contains(&all), "{name}: {summary}");
        assert_eq!(validate(&path, "2").0, one, "{name}: the same on two threads");
    }
}

#[test]
fn a_plain_text_game_too_long_to_hold_is_one_unreadable_game() {
    let dir = scratch("stream-text-long");
    let mut rng = Rng(37);
    let mut text = plain_file(500, &mut rng);
    let before = text.lines().count();
    // 17 MB of move lines with no header line between them: no place where
    // a game surely starts.
    text.push_str("长局\n");
    text.push_str(&"1. 炮二平五 马８进７ 2. 炮五平二 马７退８\n".repeat((17 << 20) / 60 + 1));
    text.push_str(&plain_file(500, &mut rng));
    let path = dir.join("long.txt");
    std::fs::write(&path, &text).unwrap();
    let out = qipu().arg("validate").arg(&path).assert().code(1).get_output().clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.ends_with("1001 game(s): 1000 valid, 0 illegal, 1 unreadable (1 input(s))\n"), "{stdout}");
    let line = before + 1;
    let last = line + (17 << 20) / 60 + 1;
    let told = format!(
        "long.txt:{line}:1: error: game 501: unreadable: more than 16 MB of text with no place where the next game surely starts: lines {line} to {last} not read"
    );
    assert!(stdout.contains(&told), "{stdout}");
}
