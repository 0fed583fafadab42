//! `qipu fen` and `qipu convert` end to end.

use crate::common::qipu;

use crate::common::scratch;

const GAME: &str = "[Game \"Chinese Chess\"]\n[Event \"测试\"]\n[Result \"*\"]\n{开局}\n1. 炮二平五 {中炮} 马８进７ (1... 象３进５) 2. 马二进三 *\n";
const AFTER_1: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

#[test]
fn fen_trails_in_three_formats() {
    let out = qipu().args(["fen", "-"]).write_stdin(GAME).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    // Text numbers games from 1.
    assert_eq!(lines[0], format!("-\t1\t0\t-\t{}", qipu::fen::START));
    assert_eq!(lines[1], format!("-\t1\t1\tH2-E2\t{AFTER_1}"));

    let out = qipu()
        .args(["fen", "-", "--format", "json", "--notation", "chinese"])
        .write_stdin(GAME)
        .output()
        .unwrap();
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["ply"], 0);
    assert_eq!(rows[0]["move"], serde_json::Value::Null);
    assert_eq!(rows[1]["source"], "-");
    assert_eq!(rows[1]["index"], 0);
    assert_eq!(rows[1]["move"], "炮二平五");
    assert_eq!(rows[1]["fen"], AFTER_1);
    assert_eq!(rows[2]["move"], "马８进７");
    // `jsonl` names the same output.
    let jsonl =
        qipu().args(["fen", "-", "--format", "jsonl", "--notation", "chinese"]).write_stdin(GAME).output();
    let jsonl: Vec<serde_json::Value> = String::from_utf8(jsonl.unwrap().stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(jsonl, rows);

    let out =
        qipu().args(["fen", "-", "--format", "csv", "--notation", "uci"]).write_stdin(GAME).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().next(), Some("source,index,ply,move,fen,side,result"));
    assert_eq!(text.lines().nth(2), Some(format!("-,0,1,h2e2,{AFTER_1},black,*").as_str()));

    let bad = "1. 炮二平五 马８进７ 2. 马二进四";
    let out = qipu().args(["fen", "-"]).write_stdin(bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 3);
    assert!(String::from_utf8(out.stderr).unwrap().contains("horse leg"));
}

#[test]
fn convert_to_pgn_reads_back() {
    for (notation, first) in
        [("chinese", "1. 炮二平五"), ("wxf", "1. C2.5"), ("iccs", "1. H2-E2"), ("uci", "1. h2e2")]
    {
        let out = qipu()
            .args(["convert", "-", "--to", "pgn", "--notation", notation])
            .write_stdin(GAME)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{notation}");
        let pgn = String::from_utf8(out.stdout).unwrap();
        assert!(pgn.starts_with("[Game \"Chinese Chess\"]\n[Event \"测试\"]\n"), "{pgn}");
        assert!(pgn.contains(first) && pgn.contains("{开局}") && pgn.contains("{中炮}"), "{pgn}");
        assert!(pgn.contains("(1..."), "{pgn}");
        let out = qipu().args(["validate", "--format", "json", "-"]).write_stdin(pgn).output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (v["status"].as_str(), v["plies"].as_u64(), v["variation_plies"].as_u64()),
            (Some("valid"), Some(3), Some(1))
        );
    }
}

#[test]
fn convert_to_json() {
    let out = qipu().args(["convert", "-", "--to", "json"]).write_stdin(GAME).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tags"][1], serde_json::json!(["Event", "测试"]));
    assert_eq!(v["fen"], qipu::fen::START);
    assert_eq!(v["comment"], "开局");
    assert_eq!(v["result"], "*");
    let nodes = v["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 4);
    assert_eq!(nodes[0]["move"], "h2e2");
    assert_eq!(nodes[0]["text"], "炮二平五");
    assert_eq!(nodes[0]["comment"], "中炮");
    assert_eq!(nodes[1]["parent"], nodes[0]["id"]);
}

#[test]
fn convert_writes_files_but_never_over_an_input() {
    let dir = scratch("convert");
    let input = dir.join("in.pgn");
    std::fs::write(&input, GAME).unwrap();
    let out = qipu().args(["convert", "--to", "pgn", "-o"]).arg(&input).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), GAME, "input untouched");

    let target = dir.join("out.pgn");
    let out = qipu()
        .args(["convert", "--to", "pgn", "--output-encoding", "gbk", "-o"])
        .arg(&target)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let bytes = std::fs::read(&target).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "GBK, not UTF-8");
    let (text, _, bad) = encoding_rs::GBK.decode(&bytes);
    assert!(!bad && text.contains("炮二平五"));
}

#[test]
fn convert_to_xqf_writes_one_file_per_game() {
    let dir = scratch("xqf");
    let input = dir.join("games.pgn");
    let two = format!("{GAME}\n[Game \"Chinese Chess\"]\n[Title \"第二局\"]\n1. h2e2 h9g7 1-0\n");
    std::fs::write(&input, &two).unwrap();
    let out_dir = dir.join("out");
    let out = qipu().args(["convert", "--to", "xqf", "-o"]).arg(&out_dir).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    names.sort();
    assert_eq!(names, ["games-1.xqf", "第二局.xqf"]);
    let first = std::fs::read(out_dir.join("games-1.xqf")).unwrap();
    assert_eq!(&first[..3], b"XQ\x0a");
    // The files read back: same moves and comments.
    let out =
        qipu().args(["fen", "--notation", "chinese"]).arg(out_dir.join("games-1.xqf")).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\t1\t炮二平五\t") && text.contains("\t3\t马二进三\t"), "{text}");
    let json = qipu().args(["convert", "--to", "json"]).arg(out_dir.join("games-1.xqf")).output().unwrap();
    let json = String::from_utf8(json.stdout).unwrap();
    assert!(json.contains("\"comment\":\"中炮\"") && json.contains("\"comment\":\"开局\""), "{json}");

    // Existing files are kept unless --force; version 18 on request.
    let again = qipu().args(["convert", "--to", "xqf", "-o"]).arg(&out_dir).arg(&input).output().unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists; not written over (use --force)"));
    assert_eq!(std::fs::read(out_dir.join("games-1.xqf")).unwrap(), first);
    let forced = qipu()
        .args(["convert", "--to", "xqf", "--xqf-version", "18", "--force", "-o"])
        .arg(&out_dir)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(forced.status.code(), Some(0));
    assert_eq!(&std::fs::read(out_dir.join("games-1.xqf")).unwrap()[..3], b"XQ\x12");

    // Never over an input, even with --force; -o is required.
    let xqf_input = out_dir.join("第二局.xqf");
    let onto_input =
        qipu().args(["convert", "--to", "xqf", "--force", "-o"]).arg(&out_dir).arg(&xqf_input).output();
    let onto_input = onto_input.unwrap();
    assert_eq!(onto_input.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&onto_input.stderr).contains("is an input file"));
    let no_dir = qipu().args(["convert", "--to", "xqf"]).arg(&input).output().unwrap();
    assert_eq!(no_dir.status.code(), Some(2));
}

#[test]
fn stats_in_text_and_json() {
    let games = format!(
        "{GAME}\n[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n[Result \"1-0\"]\n1. 炮二平五 马８进７ 2. 马二进三 1-0\n\n\
         [Game \"Chinese Chess\"]\n1. 马二进四 *\n"
    );
    let out = qipu().args(["stats", "-"]).write_stdin(games.clone()).output().unwrap();
    // One game has an illegal move: told, counted, and exit code 1 as validate gives.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(": error: game 3, ply 1: "), "{stderr}");
    assert!(stderr.ends_with("3 game(s): 2 valid, 1 illegal, 0 unreadable (1 input(s))\n"), "{stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("games: 3\n"), "{text}");
    assert!(text.contains("illegal") && text.contains("炮二平五"), "{text}");
    let json = qipu().args(["stats", "--format", "json", "-"]).write_stdin(games.clone()).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["games"], 3);
    assert_eq!(v["by_status"]["valid"], 2);
    assert_eq!(v["by_status"]["illegal"], 1);
    assert_eq!(v["by_result"]["1-0"], 1);
    assert_eq!(v["first_moves_red"][0]["move"], "炮二平五");
    assert_eq!(v["first_moves_red"][0]["games"], 2);
    assert_eq!(v["first_moves_red"][0]["score"], 1.0);
    assert_eq!(v["median_plies"], 3.0);
    assert_eq!(v["top_players"][0]["name"], "许银川");
    assert_eq!(v["with_variations"], 1);
    // One thread gives the same answer.
    let one =
        qipu().args(["stats", "--format", "json", "--jobs", "1", "-"]).write_stdin(games).output().unwrap();
    assert_eq!(one.stdout, json.stdout);
}

#[test]
fn convert_ecco_adds_and_corrects_opening_tags() {
    let games = "[Event \"x\"]\n[ECCO \"A00\"]\n[Variation \"old\"]\n1. 炮八平五 马２进３ 2. 马八进七 车１平２ *\n\n\
                 [Event \"y\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n[ECCO \"A00\"]\n1. 帅五进一 *\n";
    let out = qipu().args(["convert", "--to", "pgn", "--set-ecco", "-"]).write_stdin(games).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let (first, second) = text.split_once("[Event \"y\"]").unwrap();
    assert!(first.contains("[ECCO \"B05\"]") && first.contains("[Opening \"中炮对进左马\"]"), "{first}");
    assert!(!first.contains("Variation"), "B05 has no variation: the old tag goes: {first}");
    assert!(second.contains("[ECCO \"A00\"]"), "another start keeps its tags: {second}");
    // Without --set-ecco, tags are kept as written.
    let out = qipu().args(["convert", "--to", "pgn", "-"]).write_stdin(games).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("[Variation \"old\"]"));
}

#[test]
fn convert_output_is_written_whole_and_never_over_a_file_without_force() {
    let dir = scratch("output-safety");
    let input = dir.join("in.pgn");
    std::fs::write(&input, "[Event \"x\"]\n1. 炮二平五 马８进７ *\n").unwrap();
    let target = dir.join("out.pgn");
    std::fs::write(&target, "someone's games").unwrap();
    let out = qipu().args(["convert", "--to", "pgn", "-o"]).arg(&target).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists; not written over (use --force)"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "someone's games");
    let out =
        qipu().args(["convert", "--to", "pgn", "--force", "-o"]).arg(&target).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::read_to_string(&target).unwrap().contains("炮二平五"));
    // Into an input, even with --force: refused.
    let out =
        qipu().args(["convert", "--to", "pgn", "--force", "-o"]).arg(&input).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// Starts a long `convert -o` into `dir`, waits until its output file is
/// open, sends `signal`, and returns how it ended.
#[cfg(unix)]
fn convert_interrupted(dir: &std::path::Path, signal: &str) -> std::process::ExitStatus {
    let input = dir.join("in.pgn");
    let game = "[Event \"x\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ *\n\n";
    std::fs::write(&input, game.repeat(400_000)).unwrap();
    let target = dir.join("out.pgn");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("qipu"))
        .args(["convert", "--to", "pgn", "--jobs", "1", "-o"])
        .arg(&target)
        .arg(&input)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The output is open once a file of the directory other than the input
    // is open (Linux: an unnamed file shows as `DIR/#INODE (deleted)`) or a
    // temporary name appears in it (elsewhere).
    let fds = std::path::PathBuf::from(format!("/proc/{}/fd", child.id()));
    let open = || {
        let named = std::fs::read_dir(dir)
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().contains("qipu-partial"));
        let unnamed = std::fs::read_dir(&fds).into_iter().flatten().flatten().any(|fd| {
            std::fs::read_link(fd.path()).is_ok_and(|to| to.starts_with(dir) && !to.ends_with("in.pgn"))
        });
        named || unnamed
    };
    let start = std::time::Instant::now();
    while !open() && start.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(open(), "the output is being written");
    std::thread::sleep(std::time::Duration::from_millis(100));
    std::process::Command::new("kill").arg(signal).arg(child.id().to_string()).status().unwrap();
    let status = child.wait().unwrap();
    if status.success() {
        // It finished first: the output is whole.
        assert!(target.exists());
    }
    status
}

#[cfg(unix)]
fn names_in(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

#[cfg(unix)]
#[test]
fn an_interrupted_convert_leaves_no_file_behind() {
    let dir = scratch("interrupted");
    let status = convert_interrupted(&dir, "-INT");
    if !status.success() {
        assert_eq!(status.code(), Some(130));
        assert_eq!(names_in(&dir), ["in.pgn"], "no partial output");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_convert_leaves_no_file_behind() {
    let dir = scratch("killed");
    let status = convert_interrupted(&dir, "-KILL");
    if !status.success() {
        assert_eq!(names_in(&dir), ["in.pgn"], "nothing left, not even a temporary file");
    }
}
