//! `-o FILE` of every printing command, and `convert --split` and
//! `--split-by`, end to end: what is written, what is refused, and that
//! nothing partial is ever left.

use crate::common::{qipu, stderr};

use std::path::{Path, PathBuf};

use crate::common::scratch;

/// Three games, the second with an illegal move (so every command exits 1).
const GAMES: &str = "[Event \"甲级联赛\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n[Date \"1999.05.01\"]\n[Result \"1-0\"]\n\
1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n\n\
[Event \"甲级联赛\"]\n[Red \"吕钦\"]\n[Result \"0-1\"]\n1. 炮二平五 马８进７ 2. 马二进四 *\n\n\
[Event \"Open\"]\n[Red \"许银川\"]\n[Date \"2001\"]\n[Result \"1/2-1/2\"]\n1. 相三进五 炮８平５ 1/2-1/2\n";

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The printing commands, each with options that change what it prints.
const COMMANDS: &[&[&str]] = &[
    &["validate"],
    &["validate", "--format", "json"],
    &["fen"],
    &["fen", "--format", "csv", "--notation", "chinese"],
    &["stats"],
    &["stats", "--format", "json"],
    &["stats", "--format", "html"],
    &["classify"],
    &["classify", "--format", "json"],
    &["openings", "--depth", "4"],
    &["openings", "--to", "pgn"],
    &["convert", "--to", "pgn"],
    &["convert", "--to", "json"],
];

#[test]
fn every_printing_command_writes_into_o_what_it_prints() {
    let dir = scratch("output-same");
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    for (k, args) in COMMANDS.iter().enumerate() {
        let printed = qipu().args(*args).arg(&input).output().unwrap();
        assert_eq!(printed.status.code(), Some(1), "{args:?}: {}", stderr(&printed));
        assert!(!printed.stdout.is_empty(), "{args:?}");
        let target = dir.join(format!("out-{k}.txt"));
        let written = qipu().args(*args).arg("-o").arg(&target).arg(&input).output().unwrap();
        assert_eq!(written.status.code(), Some(1), "{args:?}: {}", stderr(&written));
        assert!(written.stdout.is_empty(), "{args:?}: nothing on standard output");
        assert_eq!(std::fs::read(&target).unwrap(), printed.stdout, "{args:?}");
        // Problems (but validate's, its report) and summary lines still go
        // to standard error.
        let told = stderr(&written);
        assert_eq!(told.contains(": error: game 2, ply 3: "), args[0] != "validate", "{args:?}: {told}");
        assert!(told.contains("3 game(s): 2 valid, 1 illegal, 0 unreadable"), "{args:?}: {told}");
        // `-o -` is standard output.
        let dash = qipu().args(*args).args(["-o", "-"]).arg(&input).output().unwrap();
        assert_eq!(dash.stdout, printed.stdout, "{args:?}");
    }
    assert_eq!(names(&dir).len(), COMMANDS.len() + 1, "no temporary file left: {:?}", names(&dir));
}

#[test]
fn no_command_writes_over_an_input_or_an_existing_file_without_force() {
    let dir = scratch("output-refused");
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let theirs = dir.join("theirs.txt");
    for args in COMMANDS {
        // Over an input, by its name or another one, even with --force.
        let other_name = dir.join(".").join("games.pgn");
        for (target, force) in [(&input, false), (&input, true), (&other_name, true)] {
            let mut cmd = qipu();
            cmd.args(*args).arg("-o").arg(target).arg(&input);
            if force {
                cmd.arg("--force");
            }
            let out = cmd.output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(
                stderr(&out).contains("is an input file; not written over"),
                "{args:?}: {}",
                stderr(&out)
            );
            assert_eq!(std::fs::read_to_string(&input).unwrap(), GAMES, "{args:?}: the input is untouched");
        }
        // An existing file, only with --force.
        std::fs::write(&theirs, "someone's file").unwrap();
        let out = qipu().args(*args).arg("-o").arg(&theirs).arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("theirs.txt: exists; not written over (use --force)"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "someone's file");
        let out = qipu().args(*args).arg("--force").arg("-o").arg(&theirs).arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert_ne!(std::fs::read_to_string(&theirs).unwrap(), "someone's file", "{args:?}");
    }
    assert_eq!(names(&dir), ["games.pgn", "theirs.txt"], "no temporary file left");
}

#[test]
fn a_folder_is_refused_and_a_missing_folder_leaves_nothing() {
    let dir = scratch("output-folder");
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let out = qipu().args(["stats", "-o"]).arg(&dir).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is a directory; not written into"), "{}", stderr(&out));
    let out = qipu().args(["fen", "-o"]).arg(dir.join("missing/out.txt")).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing/out.txt"), "the error names the file: {}", stderr(&out));
    assert_eq!(names(&dir), ["games.pgn"]);
}

#[test]
fn a_device_is_written_into_and_never_replaced() {
    let out = qipu().args(["classify", "-o", "/dev/null", "-"]).write_stdin(GAMES).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(Path::new("/dev/null").metadata().is_ok_and(|m| !m.is_file()), "still a device");
    // Nothing is ever created under /dev.
    let out =
        qipu().args(["fen", "-o", "/dev/qipu-no-such-device", "-"]).write_stdin(GAMES).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!Path::new("/dev/qipu-no-such-device").exists());
}

/// The games of `files` read back, each as the JSON line `convert` writes.
fn games_of(files: &[PathBuf]) -> Vec<String> {
    let mut games = Vec::new();
    for file in files {
        let out = qipu().args(["convert", "--to", "json"]).arg(file).output().unwrap();
        assert!(out.status.code().is_some_and(|c| c <= 1), "{}", stderr(&out));
        games.extend(String::from_utf8(out.stdout).unwrap().lines().map(str::to_string));
    }
    games
}

/// The files of `dir` whose names start with `prefix`, sorted.
fn parts(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    names(dir).into_iter().filter(|n| n.starts_with(prefix)).map(|n| dir.join(n)).collect()
}

/// `n` games `1. h2e2 *`, each with the tags `tags(i)` gives.
fn generated(n: usize, tags: impl Fn(usize) -> String) -> String {
    (0..n).map(|i| format!("{}\n1. 炮二平五 *\n\n", tags(i))).collect()
}

#[test]
fn split_writes_n_games_a_file_in_order() {
    let dir = scratch("split-n");
    let input = dir.join("in.pgn");
    std::fs::write(&input, generated(7, |i| format!("[Round \"{}\"]", i + 1))).unwrap();
    for to in ["pgn", "json", "dhtmlxq"] {
        let base = dir.join(format!("out.{to}"));
        let out = qipu()
            .args(["convert", "--to", to, "--split", "3", "-o"])
            .arg(&base)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let files = parts(&dir, "out-");
        let expected: Vec<String> = (1..=3).map(|k| format!("out-000{k}.{to}")).collect();
        let got: Vec<String> =
            files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(got, expected);
        let counts: Vec<usize> = files.iter().map(|f| games_of(std::slice::from_ref(f)).len()).collect();
        assert_eq!(counts, [3, 3, 1], "{to}");
        assert!(stderr(&out).contains("3 files written: "), "{}", stderr(&out));
        // All the games of one file, in their order.
        let whole = dir.join(format!("whole.{to}"));
        qipu().args(["convert", "--to", to, "-o"]).arg(&whole).arg(&input).assert().success();
        assert_eq!(games_of(&files), games_of(std::slice::from_ref(&whole)), "{to}");
        std::fs::remove_file(whole).unwrap();
        for f in files {
            std::fs::remove_file(f).unwrap();
        }
    }
    assert_eq!(names(&dir), ["in.pgn"], "no temporary file left");
}

#[test]
fn split_numbers_take_more_digits_when_needed() {
    let dir = scratch("split-wide");
    let input = dir.join("in.pgn");
    std::fs::write(&input, generated(10_001, |_| String::new())).unwrap();
    let out = qipu()
        .args(["convert", "--to", "json", "--split", "1", "-o"])
        .arg(dir.join("g.jsonl"))
        .arg(&input)
        .output();
    let out = out.unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let files = names(&dir);
    assert_eq!(files.len(), 10_002);
    assert_eq!(files[0], "g-00001.jsonl");
    assert_eq!(files[9_999], "g-10000.jsonl");
    assert_eq!(files[10_000], "g-10001.jsonl");
    assert_eq!(files[10_001], "in.pgn");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn split_refuses_what_it_cannot_do() {
    let dir = scratch("split-usage");
    let input = dir.join("in.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--to", "pgn", "--split", "2"], "give -o NAME.EXT"),
        (&["--to", "pgn", "--split", "2", "-o", "-"], "not -"),
        (&["--to", "pgn", "--split", "0", "-o", "x.pgn"], "at least 1"),
        (&["--to", "xqf", "--split", "2", "-o", "x"], "--to xqf writes a file per game already"),
        (&["--to", "xqf", "--split-by", "red", "-o", "x"], "--to xqf writes a file per game already"),
        (&["--to", "pgn", "--split-by", "red", "-o", "/dev/null"], "not a file name"),
        (&["--to", "pgn", "--split", "2", "--split-by", "red", "-o", "x.pgn"], "cannot be used with"),
    ];
    for (args, told) in cases {
        let out = qipu().current_dir(&dir).arg("convert").args(*args).arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(told), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(names(&dir), ["in.pgn"]);
}

#[test]
fn a_split_that_fails_leaves_nothing_and_never_writes_over() {
    let dir = scratch("split-fails");
    let input = dir.join("in.pgn");
    std::fs::write(&input, GAMES).unwrap();
    // The second value's file exists: the run stops, the first part goes.
    std::fs::write(dir.join("by-吕钦.pgn"), "theirs").unwrap();
    let base = dir.join("by.pgn");
    let out = qipu()
        .args(["convert", "--to", "pgn", "--split-by", "red", "-o"])
        .arg(&base)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("by-吕钦.pgn: exists; not written over (use --force)"), "{}", stderr(&out));
    assert_eq!(names(&dir), ["by-吕钦.pgn", "in.pgn"], "nothing else is left");
    assert_eq!(std::fs::read_to_string(dir.join("by-吕钦.pgn")).unwrap(), "theirs");
    // With --force it is written over.
    let out = qipu()
        .args(["convert", "--to", "pgn", "--force", "--split-by", "red", "-o"])
        .arg(&base)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(names(&dir), ["by-吕钦.pgn", "by-许银川.pgn", "in.pgn"]);
    assert!(std::fs::read_to_string(dir.join("by-吕钦.pgn")).unwrap().contains("[Red \"吕钦\"]"));
    // A part named like an input: never written, even with --force.
    let source = dir.join("src");
    std::fs::create_dir(&source).unwrap();
    std::fs::write(source.join("in-0001.pgn"), GAMES).unwrap();
    let out = qipu()
        .args(["convert", "--to", "pgn", "--force", "--split", "5", "-o"])
        .arg(source.join("in.pgn"))
        .arg(source.join("in-0001.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "the part would be the input");
    assert!(stderr(&out).contains("in-0001.pgn: is an input file; not written over"), "{}", stderr(&out));
    assert_eq!(names(&source), ["in-0001.pgn"], "nothing left");
    assert_eq!(std::fs::read_to_string(source.join("in-0001.pgn")).unwrap(), GAMES);
}

/// The games of each file of a split by `key`, as (file name, Red tags).
fn split_by(dir: &Path, key: &str, inputs: &[PathBuf], extra: &[&str]) -> Vec<(String, Vec<String>)> {
    let base = dir.join(format!("{key}.jsonl"));
    let out = qipu()
        .args(["convert", "--to", "json", "--split-by", key])
        .args(extra)
        .arg("-o")
        .arg(&base)
        .args(inputs)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{key}: {}", stderr(&out));
    let files = parts(dir, &format!("{key}-"));
    assert!(stderr(&out).contains(&format!("{} file", files.len())), "{}", stderr(&out));
    files
        .iter()
        .map(|f| {
            let reds = games_of(std::slice::from_ref(f))
                .iter()
                .map(|g| {
                    let game: serde_json::Value = serde_json::from_str(g).unwrap();
                    let tags = game["tags"].as_array().unwrap();
                    let red = tags.iter().find(|t| t[0] == "Red").map(|t| t[1].as_str().unwrap().to_string());
                    red.unwrap_or_default()
                })
                .collect();
            (f.file_name().unwrap().to_string_lossy().into_owned(), reds)
        })
        .collect()
}

#[test]
fn split_by_each_key_gives_safe_names() {
    let dir = scratch("split-by");
    let long = "長".repeat(120);
    let reds = ["许银川", "CON", "a/b", "..", &long, "", "Hu", "HU", "a:b"];
    let mut text = String::new();
    for (i, red) in reds.iter().enumerate() {
        let date = ["1999.05.01", "2001", "", "19870304"][i % 4];
        let result = ["1-0", "0-1", "1/2-1/2", "*"][i % 4];
        let ecco = ["B10", "", "C/4"][i % 3];
        text.push_str(&format!(
            "[Red \"{red}\"]\n[Event \"Event {}\"]\n[Date \"{date}\"]\n[Result \"{result}\"]\n[ECCO \"{ecco}\"]\n1. 炮二平五 {result}\n\n",
            i % 2
        ));
    }
    text.push_str("[Event \"no Red tag\"]\n1. 炮二平五 *\n\n");
    let input = dir.join("one.pgn");
    std::fs::write(&input, &text).unwrap();
    let other = dir.join("two.pgn");
    std::fs::write(&other, "[Red \"x\"]\n1. 炮二平五 *\n").unwrap();
    let inputs = [input.clone()];

    let by_red = split_by(&dir, "red", &inputs, &[]);
    let files: Vec<&str> = by_red.iter().map(|(f, _)| f.as_str()).collect();
    let long_name = format!("red-{}.jsonl", "長".repeat(33));
    let mut expected =
        vec!["red-CON_.jsonl", "red-Hu.jsonl", "red-__.jsonl", "red-a_b.jsonl", "red-unknown.jsonl"];
    expected.push("red-许银川.jsonl");
    expected.push(&long_name);
    expected.sort();
    assert_eq!(files, expected);
    let games = |name: &str| by_red.iter().find(|(f, _)| f == name).unwrap().1.clone();
    assert_eq!(games("red-Hu.jsonl"), ["Hu", "HU"], "the same name but for case: one file, first spelling");
    assert_eq!(games("red-a_b.jsonl"), ["a/b", "a:b"], "the same safe name: one file, in input order");
    assert_eq!(games("red-unknown.jsonl"), ["", ""], "empty and missing");
    assert_eq!(games(&long_name), [long.as_str()], "cut to 99 bytes, the game whole");
    assert_eq!(by_red.iter().map(|(_, g)| g.len()).sum::<usize>(), reds.len() + 1, "every game once");

    let by = |key: &str, inputs: &[PathBuf], extra: &[&str]| -> Vec<(String, usize)> {
        split_by(&dir, key, inputs, extra).into_iter().map(|(f, g)| (f, g.len())).collect()
    };
    let s = |pairs: &[(&str, usize)]| pairs.iter().map(|(f, n)| (f.to_string(), *n)).collect::<Vec<_>>();
    assert_eq!(
        by("year", &inputs, &[]),
        s(&[
            ("year-1987.jsonl", 2),
            ("year-1999.jsonl", 3),
            ("year-2001.jsonl", 2),
            ("year-unknown.jsonl", 3)
        ])
    );
    assert_eq!(
        by("result", &inputs, &[]),
        s(&[
            ("result-0-1.jsonl", 2),
            ("result-1-0.jsonl", 3),
            ("result-draw.jsonl", 2),
            ("result-unknown.jsonl", 3)
        ])
    );
    assert_eq!(
        by("event", &inputs, &[]),
        s(&[("event-Event 0.jsonl", 5), ("event-Event 1.jsonl", 4), ("event-no Red tag.jsonl", 1)])
    );
    assert_eq!(
        by("ecco", &inputs, &[]),
        s(&[("ecco-B10.jsonl", 3), ("ecco-C_4.jsonl", 3), ("ecco-unknown.jsonl", 4)])
    );
    assert_eq!(
        by("source", &[input.clone(), other.clone()], &[]),
        s(&[("source-one.jsonl", 10), ("source-two.jsonl", 1)])
    );
    // With --set-ecco, the code computed from the moves (炮二平五 alone: A classified code for all).
    let computed = by("black", &inputs, &[]);
    assert_eq!(computed, s(&[("black-unknown.jsonl", 10)]));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(&input, &text).unwrap();
    let computed = by("ecco", &inputs, &["--set-ecco"]);
    assert_eq!(computed.len(), 1, "one code from the same moves: {computed:?}");
    assert_ne!(computed[0].0, "ecco-unknown.jsonl");
    assert_eq!(computed[0].1, 10);
    assert!(!names(&dir).iter().any(|n| n.contains("qipu-partial")));
}

#[test]
fn split_by_many_values_keeps_few_files_open() {
    let dir = scratch("split-many");
    let input = dir.join("in.pgn");
    // 300 players, each Red in three games far apart: every file is closed
    // and opened again to append to (more files than are kept open).
    std::fs::write(&input, generated(900, |i| format!("[Red \"P{}\"]\n[Round \"{i}\"]", i % 300))).unwrap();
    let out = qipu()
        .args(["convert", "--to", "json", "--jobs", "1", "--split-by", "red", "-o"])
        .arg(dir.join("p.jsonl"))
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("300 files written"), "{}", stderr(&out));
    let files = parts(&dir, "p-");
    assert_eq!(files.len(), 300);
    for (k, file) in files.iter().enumerate().step_by(37) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let player: usize = name.trim_start_matches("p-P").trim_end_matches(".jsonl").parse().unwrap();
        let rounds: Vec<String> = games_of(std::slice::from_ref(file))
            .iter()
            .map(|g| {
                let game: serde_json::Value = serde_json::from_str(g).unwrap();
                let tags = game["tags"].as_array().unwrap();
                tags.iter().find(|t| t[0] == "Round").unwrap()[1].as_str().unwrap().to_string()
            })
            .collect();
        let expected: Vec<String> = (0..3).map(|r| (player + 300 * r).to_string()).collect();
        assert_eq!(rounds, expected, "file {k}: its games in input order");
    }
    assert_eq!(names(&dir).len(), 301, "no temporary file left");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A long split interrupted while its parts are being written leaves
/// nothing (or, had it ended first, every file whole).
#[cfg(unix)]
#[test]
fn an_interrupted_split_leaves_nothing() {
    let dir = scratch("split-interrupted");
    let input = dir.join("in.pgn");
    let game = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ *\n\n";
    let text: String = (0..200_000).map(|i| format!("[Red \"P{}\"]\n{game}", i % 500)).collect();
    std::fs::write(&input, text).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("qipu"))
        .args(["convert", "--to", "pgn", "--jobs", "1", "--split-by", "red", "-o"])
        .arg(dir.join("p.pgn"))
        .arg(&input)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let partial = || names(&dir).iter().filter(|n| n.contains("qipu-partial")).count();
    let start = std::time::Instant::now();
    while partial() < 100 && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let status = child.wait().unwrap();
    if status.success() {
        assert_eq!(names(&dir).len(), 501, "it finished first: every file is whole");
    } else {
        assert_eq!(status.code(), Some(130));
        assert_eq!(names(&dir), ["in.pgn"], "interrupted: nothing is left");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
