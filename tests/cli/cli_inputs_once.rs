//! Every input read once: a file named twice (by the same name, through a
//! link, or named and also found in a folder named) is read once, and a
//! file the command writes into (standard output redirected into an input
//! folder or appended to an input, `-o` found in a folder read) is not
//! read; each is told in a note and counted in the summary.

use crate::common::{self, qipu, qipu_process, stderr, stdout};

use std::process::Stdio;

/// The fixture of 1391 games.
const FIXTURE: &str = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";

/// A scratch folder holding a copy of the fixture, `games.pgn`.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = common::scratch(name);
    std::fs::create_dir(dir.join("games")).unwrap();
    std::fs::copy(FIXTURE, dir.join("games/games.pgn")).unwrap();
    dir
}

/// The summary line `validate` ends its report with.
fn summary(out: &std::process::Output) -> String {
    stdout(out).lines().last().unwrap_or_default().to_string()
}

#[test]
fn a_file_named_twice_is_read_once() {
    let dir = folder("twice");
    let pgn = dir.join("games/games.pgn");
    let out = qipu().arg("validate").arg(&pgn).arg(&pgn).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        summary(&out),
        "1391 game(s): 1391 valid, 0 illegal, 0 unreadable (2 input(s)); \
         1 input(s) not read (named twice, or written by this run)"
    );
    let note = format!("{}: note: named again; read once\n", pgn.display());
    assert_eq!(stderr(&out), note);
}

#[test]
fn a_file_named_and_found_in_a_folder_named_is_read_once() {
    let dir = folder("named-and-found");
    let out =
        qipu().arg("validate").arg(dir.join("games")).arg(dir.join("games/games.pgn")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(summary(&out).starts_with("1391 game(s): 1391 valid"), "{}", summary(&out));
    assert!(summary(&out).contains("(2 input(s)); 1 input(s) not read"), "{}", summary(&out));
    assert_eq!(stderr(&out).matches(": note: named again; read once").count(), 1, "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_file_named_through_a_link_is_read_once() {
    let dir = folder("link");
    std::os::unix::fs::symlink("games/games.pgn", dir.join("link.pgn")).unwrap();
    let out = qipu().current_dir(&dir).args(["validate", "games/games.pgn", "link.pgn"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(summary(&out).starts_with("1391 game(s): 1391 valid"), "{}", summary(&out));
    assert_eq!(stderr(&out), "link.pgn: note: the same file as games/games.pgn; read once\n");
    // Found in a folder through a link too.
    std::os::unix::fs::symlink("games.pgn", dir.join("games/also.pgn")).unwrap();
    let out = qipu().current_dir(&dir).args(["validate", "games"]).output().unwrap();
    assert!(summary(&out).starts_with("1391 game(s): 1391 valid"), "{}", summary(&out));
    assert!(stderr(&out).contains("games/games.pgn: note: the same file as games/also.pgn; read once"));
}

#[test]
fn output_redirected_into_the_folder_read_is_not_read() {
    let dir = folder("stdout-in-folder");
    let target = dir.join("games/out.pgn");
    let file = std::fs::File::create(&target).unwrap();
    let out = qipu_process()
        .args(["convert", "--to", "pgn"])
        .arg(dir.join("games"))
        .stdout(Stdio::from(file))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: note: where this run writes its output; not read", target.display())),
        "{err}"
    );
    assert!(
        err.contains("1391 game(s): 1391 valid, 0 illegal, 0 unreadable (2 input(s)); 1 input(s) not read"),
        "{err}"
    );
    assert!(!err.contains("error"), "{err}");
    // What was written is the fixture's games, once.
    let written = std::fs::read_to_string(&target).unwrap();
    assert_eq!(written.matches("[Event ").count(), 1391);
}

#[test]
fn output_appended_to_an_input_is_not_read() {
    let dir = folder("stdout-appended");
    let pgn = dir.join("games/games.pgn");
    let before = std::fs::metadata(&pgn).unwrap().len();
    let file = std::fs::OpenOptions::new().append(true).open(&pgn).unwrap();
    let out =
        qipu_process().args(["convert", "--to", "pgn"]).arg(&pgn).stdout(Stdio::from(file)).output().unwrap();
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: note: where this run writes its output; not read", pgn.display())),
        "{err}"
    );
    assert!(err.starts_with("0 game(s)") || err.contains("\n0 game(s)"), "{err}");
    assert_eq!(std::fs::metadata(&pgn).unwrap().len(), before, "nothing read, nothing written");
}

#[test]
fn an_output_file_found_in_the_folder_read_is_not_read() {
    let dir = folder("dash-o-in-folder");
    let target = dir.join("games/all.pgn");
    std::fs::write(&target, "").unwrap();
    let out = qipu()
        .args(["convert", "--to", "pgn", "--force", "-o"])
        .arg(&target)
        .arg(dir.join("games"))
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!("{}: note: where this run writes its output; not read", target.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap().matches("[Event ").count(), 1391);
    // Named itself, it is an input, never written over.
    let out =
        qipu().args(["convert", "--to", "pgn", "--force", "-o"]).arg(&target).arg(&target).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is an input file; not written over"), "{}", stderr(&out));
}

#[test]
fn ordinary_inputs_are_told_nothing_new() {
    let out = qipu().args(["validate", FIXTURE]).output().unwrap();
    assert_eq!(summary(&out), "1391 game(s): 1391 valid, 0 illegal, 0 unreadable (1 input(s))");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}
