//! An output with no room left (a full disk, a used-up quota, a file too
//! large): writing stops at the first error, told once with the output's
//! name and the reason; the summary counts the games not written, and the
//! exit code is 2. A full disk is `/dev/full` (every write fails with
//! `ENOSPC`); a file too large is a file size limit (`ulimit -f`, with
//! `SIGXFSZ` ignored so that writes fail with `EFBIG`).

use crate::common::{self, qipu_process as qipu, stderr};

use std::process::{Command, Output};

/// The fixture of 1391 games.
const FIXTURE: &str = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";

/// `qipu ARGS` with files limited to `blocks` blocks of 512 bytes.
fn qipu_limited(blocks: u32, args: &[&str]) -> Command {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(format!("trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_qipu"))
        .args(args);
    command
}

/// The lines of standard error that tell an error.
fn errors(out: &Output) -> Vec<String> {
    stderr(out).lines().filter(|l| l.contains(": error: ")).map(str::to_string).collect()
}

#[test]
fn standard_output_on_a_full_disk_stops_at_the_first_error() {
    let full = std::fs::File::options().write(true).open("/dev/full").unwrap();
    let out = qipu().args(["convert", "--to", "pgn", FIXTURE]).stdout(full).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let errors = errors(&out);
    assert_eq!(errors.len(), 1, "{}", stderr(&out));
    assert!(
        errors[0].contains("standard output: No space left on device")
            && errors[0].ends_with("; no more games are written"),
        "{}",
        errors[0]
    );
    // Every game is accounted for: written (into the buffer before the
    // first failed write) or not.
    let summary = stderr(&out).lines().last().unwrap().to_string();
    let numbers: Vec<usize> = summary
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(summary.ends_with(" not written (no room left on the output)"), "{summary}");
    // 1391 game(s): 1391 valid, 0 illegal, 0 unreadable (1 input(s)); W written; N not written
    assert_eq!(numbers[5] + numbers[6], 1391, "{summary}");
}

#[test]
fn a_report_on_a_full_disk_is_told_once() {
    let full = std::fs::File::options().write(true).open("/dev/full").unwrap();
    let out = qipu().args(["validate", FIXTURE]).stdout(full).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(errors(&out).len(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("standard output: No space left on device"), "{}", stderr(&out));
}

#[test]
fn a_file_per_game_stops_at_the_first_file_too_large() {
    let dir = common::scratch("full-files");
    let target = dir.join("games");
    let target = target.to_str().unwrap();
    let out = qipu_limited(0, &["convert", "--to", "xqf", "-o", target, FIXTURE]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let errors = errors(&out);
    assert_eq!(errors.len(), 1, "{}", stderr(&out));
    assert!(errors[0].starts_with(target) && errors[0].contains("File too large"), "{}", errors[0]);
    assert!(
        stderr(&out).contains("; 0 written; 1391 not written (no room left on the output)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_output_file_too_large_is_told_once_and_removed() {
    let dir = common::scratch("full-file");
    let target = dir.join("all.pgn");
    let out = qipu_limited(100, &["convert", "--to", "pgn", "-o", target.to_str().unwrap(), FIXTURE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(errors(&out).len(), 1, "{}", stderr(&out));
    assert!(errors(&out)[0].contains(&format!("{}: File too large", target.display())), "{}", stderr(&out));
    assert!(stderr(&out).contains("; 0 written; 1391 not written"), "{}", stderr(&out));
    assert!(!target.exists(), "no partial file is left");
    // A library too.
    let library = dir.join("all.cbl");
    let out = qipu_limited(0, &["convert", "--to", "cbl", "-o", library.to_str().unwrap(), FIXTURE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(errors(&out).len(), 1, "{}", stderr(&out));
}
