//! The command's face: the order and the descriptions of its help, `-j`
//! and `-q`, one grammar of problem lines in every command, shell
//! completions and the manual page.

use std::path::Path;

use crate::common::qipu;

/// Standard output and standard error of `qipu ARGS`, and its exit code.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = qipu().args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (text(out.stdout), text(out.stderr), out.status.code().unwrap_or(-1))
}

const COMMANDS: [&str; 17] = [
    "validate",
    "convert",
    "fen",
    "export",
    "stats",
    "classify",
    "openings",
    "duplicates",
    "book",
    "index",
    "search",
    "explore",
    "analyse",
    "moves",
    "perft",
    "completions",
    "man",
];

#[test]
fn help_lists_the_commands_in_the_order_people_use_them() {
    let (help, _, code) = run(&["--help"]);
    assert_eq!(code, 0);
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    // Another command may stand between perft and completions; the order of these holds.
    let ours: Vec<&str> = listed.iter().copied().filter(|n| COMMANDS.contains(n)).collect();
    assert_eq!(ours, COMMANDS);
    assert_eq!(listed[..12], COMMANDS[..12]);
    assert_eq!(listed[listed.len() - 2..], ["completions", "man"]);
    assert!(help.contains("Examples:\n  qipu validate fixtures/pgn"), "{help}");
}

#[test]
fn every_command_has_a_long_description() {
    for command in COMMANDS {
        let (short, _, _) = run(&[command, "-h"]);
        let (long, _, code) = run(&["help", command]);
        assert_eq!(code, 0, "qipu help {command}");
        let about = short.lines().next().unwrap();
        let description: String = long.lines().take_while(|l| !l.starts_with("Usage:")).collect();
        assert!(
            description.len() > about.len() + 80,
            "qipu help {command} says little more than its one line: {description}"
        );
    }
}

#[test]
fn j_is_jobs() {
    let fixture = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";
    let (out, err, code) = run(&["validate", fixture, "-j", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last().unwrap(), "1391 game(s): 1391 valid, 0 illegal, 0 unreadable (1 input(s))");
    let (_, err, code) = run(&["validate", fixture, "-j", "0"]);
    assert_eq!((code, err.as_str()), (2, "qipu: error: --jobs must be at least 1\n"));
}

/// A folder of one valid game, one illegal game and one unreadable input.
fn mixed(dir: &Path) -> String {
    std::fs::write(dir.join("good.pgn"), "[Event \"x\"]\n1. h2e2 h9g7 2. h0g2 *\n").unwrap();
    std::fs::write(dir.join("bad.pgn"), "[Event \"x\"]\n\n1. h2e2 h9g7\n2. h2e2 *\n").unwrap();
    std::fs::write(dir.join("empty.pgn"), "").unwrap();
    dir.to_str().unwrap().to_string()
}

#[test]
fn quiet_keeps_problems_and_the_summary() {
    let dir = tempdir("quiet");
    let path = mixed(&dir);
    let (_, loud, code) = run(&["classify", &path]);
    assert_eq!(code, 1);
    assert!(loud.contains(" classified; "), "{loud}");
    for args in [["-q", "classify", &path], ["classify", &path, "--quiet"]] {
        let (_, quiet, code) = run(&args);
        assert_eq!(code, 1);
        let lines: Vec<&str> = quiet.lines().collect();
        assert_eq!(lines.len(), 3, "{quiet}");
        assert!(lines[0].contains(": error: game 1, ply 3: h2e2: "), "{quiet}");
        assert!(lines[1].ends_with("empty.pgn: error: unreadable: empty file"), "{quiet}");
        assert_eq!(lines[2], "3 game(s): 1 valid, 1 illegal, 1 unreadable (3 input(s))");
        // What -q leaves out is exactly the informational line.
        assert_eq!(loud.lines().filter(|l| !lines.contains(l)).count(), 1, "{loud}");
    }
}

#[test]
fn problem_lines_are_the_same_in_every_command() {
    let dir = tempdir("lines");
    let path = mixed(&dir);
    let bad =
        format!("{}:4:4: error: game 1, ply 3: h2e2: no Red piece on h2", dir.join("bad.pgn").display());
    let empty = format!("{}: error: unreadable: empty file", dir.join("empty.pgn").display());
    let (out, _, code) = run(&["validate", &path]);
    assert_eq!(code, 1);
    assert!(out.lines().any(|l| l == bad), "validate: {out}");
    assert!(out.lines().any(|l| l == empty), "validate: {out}");
    let notes = [
        ("fen", " (the trail stops there)"),
        ("convert", " (moves from there on are kept as written)"),
        ("stats", ""),
        ("classify", ""),
        ("openings", ""),
        ("duplicates", " (keyed on the moves before it)"),
    ];
    for (command, note) in notes {
        let mut args = vec![command, path.as_str()];
        if command == "convert" {
            args.extend(["--to", "pgn"]);
        }
        let (_, err, code) = run(&args);
        assert_eq!(code, 1, "{command}");
        assert!(err.lines().any(|l| l == format!("{bad}{note}")), "{command}: {err}");
        assert!(err.lines().any(|l| l == empty), "{command}: {err}");
    }
    // An unreadable game, told alike by validate (from its report) and the others.
    let page = dir.join("page.html");
    std::fs::write(&page, "<p>[DhtmlXQ][DhtmlXQ_binit]12[/DhtmlXQ_binit][/DhtmlXQ]</p>\n").unwrap();
    let page = page.to_str().unwrap();
    let told = format!(
        "{page}:1:28: error: game 1: unreadable: binit: 2 characters; 64 digits (32 points) are needed"
    );
    let (out, _, _) = run(&["validate", page]);
    assert_eq!(out.lines().next(), Some(told.as_str()));
    let (_, err, _) = run(&["fen", page]);
    assert_eq!(err.lines().next(), Some(told.as_str()));
    // A binary record gives a byte offset; the command's own problems name qipu.
    let xqf = dir.join("xqf");
    let (_, err, code) =
        run(&["convert", &dir.join("bad.pgn").to_string_lossy(), "--to", "xqf", "-o", xqf.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let (out, _, _) = run(&["validate", xqf.to_str().unwrap()]);
    let line = out.lines().next().unwrap();
    let (place, rest) = line.split_once(": error: game 1, ply 3: h2e2: ").expect(line);
    assert!(rest.starts_with("no ") && rest.ends_with(" on h2"), "{line}");
    let offset = place.rsplit_once('@').expect(line).1;
    assert!(offset.parse::<u32>().unwrap() > 0, "{line}");
    let (_, err, code) = run(&["moves", "not a fen"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("qipu: error: invalid FEN"), "{err}");
}

#[test]
fn completions_name_the_commands() {
    let (bash, _, code) = run(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(bash.contains("_qipu()") && bash.contains("validate") && bash.contains("--jobs"), "{bash}");
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let (script, _, code) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(script.contains("validate") && script.contains("duplicates"), "{shell}");
    }
    let (_, err, code) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn man_is_a_roff_page_that_names_the_commands() {
    let (page, _, code) = run(&["man"]);
    assert_eq!(code, 0);
    let header = page.lines().find(|l| l.starts_with(".TH")).expect("a .TH line");
    assert!(page.starts_with(".ie \\n(.g .ds Aq") || page.starts_with(".TH"), "{page}");
    assert!(header.starts_with(".TH qipu 1"), "{header}");
    assert!(page.contains(".SH NAME") && page.contains(".SH SYNOPSIS"), "{page}");
    for command in COMMANDS {
        assert!(page.contains(&format!("qipu\\-{}(1)", command.replace('-', "\\-"))), "{command}");
    }
    let (validate, _, code) = run(&["man", "validate"]);
    assert_eq!(code, 0);
    assert!(validate.contains(".TH qipu-validate 1") && validate.contains("\\-\\-format"), "{validate}");
    let (build, _, code) = run(&["man", "book", "build"]);
    assert_eq!(code, 0);
    assert!(build.contains(".TH qipu-book-build 1"), "{build}");
    let (_, err, code) = run(&["man", "nothing"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("qipu: error: man: no command \"nothing\""), "{err}");
}

/// A fresh folder under the target directory, for one test.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_face-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn classify_text_is_tab_separated() {
    let (out, _, code) = run(&["classify", "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn"]);
    assert_eq!(code, 0);
    let first: Vec<&str> = out.lines().next().unwrap().split('\t').collect();
    assert_eq!(first.len(), 7, "{first:?}");
    assert_eq!((first[1], first[2]), ("1", "A15"));
}
