//! `qipu convert --to cbl -o FILE` and `--to cbr -o DIR` end to end: the
//! written files validate to the same count of games, and read back to the
//! same moves, variations, comments and the tags CBR holds.

use crate::common::qipu;

use std::path::Path;

use crate::common::scratch;

const FIXTURE: &str = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";

/// Games with comments and variations, made for this test.
const COMMENTED: &str = "[Title \"中炮对屏风马\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n[Result \"1-0\"]\n\n\
{开局} 1. h2e2 {中炮} (1. b2e2 {左炮} h9g7) h9g7 2. h0g2 (2. b0c2 b9c7) i9h9 3. i0h0 1-0\n\n\
[Title \"第二局\"]\n[Event \"测试\"]\n[Result \"*\"]\n\n1. c3c4 {仙人指路} b9c7 (b7b3 {对兵}) *\n";

/// The last line of standard error: the summary.
fn summary(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("").to_string()
}

/// `convert --to pgn --notation iccs` of `path`: the move text and the
/// tags CBR holds, per game.
fn moves_and_tags(path: &Path) -> Vec<String> {
    let out = qipu().args(["convert", "--to", "pgn", "--notation", "iccs"]).arg(path).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.split("\n\n[")
        .map(|game| {
            game.lines()
                .filter(|l| {
                    let tag = l.trim_start_matches('[');
                    !l.starts_with('[') && !tag.starts_with('[') && !l.is_empty()
                        || ["Red ", "Black ", "Result ", "Title "].iter().any(|t| tag.starts_with(t))
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

fn games_valid(path: &Path) -> String {
    let out = qipu().arg("validate").arg(path).output().unwrap();
    let line = summary(&out);
    line.split(" (").next().unwrap().to_string()
}

fn check(input: &Path, dir: &Path) {
    let cbl = dir.join("games.cbl");
    let out = qipu().arg("convert").arg(input).args(["--to", "cbl", "-o"]).arg(&cbl).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let cbr = dir.join("cbr");
    let out = qipu().arg("convert").arg(input).args(["--to", "cbr", "-o"]).arg(&cbr).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let expected = moves_and_tags(input);
    assert!(expected.len() >= 2);
    assert_eq!(games_valid(&cbl), games_valid(input));
    assert_eq!(games_valid(&cbr), games_valid(input));
    assert_eq!(moves_and_tags(&cbl), expected);
    let mut from_cbr = moves_and_tags(&cbr);
    let mut sorted = expected.clone();
    from_cbr.sort();
    sorted.sort();
    assert_eq!(from_cbr, sorted, "the directory's files, in their names' order");
}

#[test]
fn a_fixture_comes_back_from_cbl_and_cbr() {
    check(Path::new(FIXTURE), &scratch("cbw-fixture"));
}

#[test]
fn comments_and_variations_come_back_from_cbl_and_cbr() {
    let dir = scratch("cbw-commented");
    let input = dir.join("commented.pgn");
    std::fs::write(&input, COMMENTED).unwrap();
    check(&input, &dir);
    let text = moves_and_tags(&dir.join("games.cbl")).join("\n");
    for needle in ["{开局}", "{中炮}", "(1. B2-E2", "{对兵}", "许银川"] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    let names: Vec<_> = std::fs::read_dir(dir.join("cbr")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(names.iter().any(|n| n == "中炮对屏风马.cbr"), "{names:?}");
}

#[test]
fn outputs_are_never_written_over_without_force() {
    let dir = scratch("cbw-force");
    let input = dir.join("commented.pgn");
    std::fs::write(&input, COMMENTED).unwrap();
    let cbl = dir.join("games.cbl");
    std::fs::write(&cbl, b"keep").unwrap();
    let out = qipu().arg("convert").arg(&input).args(["--to", "cbl", "-o"]).arg(&cbl).output().unwrap();
    assert!(!out.status.success());
    assert_eq!(std::fs::read(&cbl).unwrap(), b"keep");
    let out = qipu().arg("convert").arg(&input).args(["--to", "cbl", "-o"]).arg(&input).output().unwrap();
    assert!(!out.status.success(), "never over an input");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), COMMENTED);
    let out =
        qipu().arg("convert").arg(&input).args(["--to", "cbl", "--force", "-o"]).arg(&cbl).output().unwrap();
    assert!(out.status.success());
    assert!(std::fs::read(&cbl).unwrap().len() > 4096);
}

#[test]
fn tags_cbr_cannot_hold_are_kept_or_told_naming_the_game() {
    let dir = scratch("cbw-warn");
    let input = dir.join("w.pgn");
    let red = "许".repeat(40);
    std::fs::write(&input, format!("[Opening \"x\"]\n[Red \"{red}\"]\n[Result \"*\"]\n\n1. h2e2 *\n"))
        .unwrap();
    let cbl = dir.join("w.cbl");
    let out = qipu().arg("convert").arg(&input).args(["--to", "cbl", "-o"]).arg(&cbl).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("w.pgn: warning: game 1: tag Red: cut to 31 of its 40 characters"), "{err}");
    assert!(err.contains("; 1 written; 1 warning(s) of what was not kept"), "{err}");
    assert!(!err.contains("Opening"), "{err}");
    // CBR has no field for the opening: it comes back from the comment.
    let out = qipu().arg("convert").arg(&cbl).args(["--to", "pgn"]).output().unwrap();
    let back = String::from_utf8_lossy(&out.stdout);
    assert!(back.contains("[Opening \"x\"]"), "{back}");
    assert!(!back.contains('{'), "no comment left: {back}");
}
