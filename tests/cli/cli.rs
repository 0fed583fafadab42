//! The `qipu` command end to end.

use crate::common::qipu;

fn stdout_of(args: &[&str]) -> String {
    let out = qipu().args(args).output().unwrap();
    assert!(out.status.success(), "qipu {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn moves_of_the_start_position() {
    let text = stdout_of(&["moves", "startpos"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 44);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "sorted");
    assert!(lines.contains(&"h2e2") && lines.contains(&"b0c2") && lines.contains(&"a3a4"));
    // The same position as a FEN, quoted or as separate words.
    assert_eq!(stdout_of(&["moves", qipu::fen::START]), text);
    let words: Vec<&str> = qipu::fen::START.split(' ').collect();
    let mut args = vec!["moves"];
    args.extend(words);
    assert_eq!(stdout_of(&args), text);
}

#[test]
fn moves_in_other_notations() {
    let chinese = stdout_of(&["moves", "startpos", "--notation", "chinese"]);
    assert_eq!(chinese.lines().count(), 44);
    assert!(chinese.lines().any(|l| l == "炮二平五"));
    let traditional = stdout_of(&["moves", "startpos", "--notation", "chinese", "--chinese", "traditional"]);
    assert!(traditional.lines().any(|l| l == "砲二平五"));
    let wxf = stdout_of(&["moves", "startpos", "--notation", "wxf"]);
    assert!(wxf.lines().any(|l| l == "C2.5"));
    let iccs = stdout_of(&["moves", "startpos", "--notation", "iccs"]);
    assert_eq!(iccs.lines().next(), Some("A0-A1"));
    let out = qipu().args(["moves", "startpos", "--notation", "klingon"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn convert_writes_each_game_in_the_script_of_its_moves_with_chinese_input() {
    let text = concat!(
        "[Event \"a\"]\n1. 砲二平五 馬８進７ 2. 馬二進三 車９平８ *\n\n",
        "[Event \"b\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n\n",
        "[Event \"c\"]\n1. h2e2 h9g7 2. h0g2 i9h9 *\n",
    );
    let convert = |args: &[&str]| {
        let out = qipu().args(["convert", "--to", "pgn", "-"]).args(args).write_stdin(text).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().filter(|l| l.starts_with("1. ")).map(str::to_string).collect::<Vec<_>>()
    };
    let traditional = "1. 砲二平五 馬８進７ 2. 馬二進三 車９平８ *";
    let simplified = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ *";
    assert_eq!(convert(&["--chinese", "input"]), [traditional, simplified, simplified]);
    assert_eq!(convert(&[]), [simplified; 3]);
    assert_eq!(convert(&["--chinese", "traditional"]), [traditional; 3]);
    // In an HTML page too.
    let out = qipu()
        .args(["convert", "--to", "html", "--chinese", "input", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains("砲二平五") && page.contains("炮二平五"));
}

#[test]
fn moves_of_a_position_without_moves() {
    let out = qipu().args(["moves", "3k5/4P4/4P4/9/9/9/9/9/9/4K4 b"]).output().unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("stalemated"));
    let out = qipu().args(["moves", "R2k5/1R7/9/9/9/9/9/9/9/4K4 b"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("Black is checkmated"));
}

#[test]
fn perft_counts() {
    assert_eq!(stdout_of(&["perft", "startpos", "3"]), "79666\n");
    assert_eq!(stdout_of(&["perft", "startpos", "0"]), "1\n");
    assert_eq!(stdout_of(&["perft", "4k4/9/9/9/9/9/9/9/9/3K5", "w", "1"]), "1\n");
}

#[test]
fn perft_divide() {
    let text = stdout_of(&["perft", "startpos", "2", "--divide"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 46, "44 moves, a blank line, the total");
    assert_eq!(lines[0], "a0a1 44");
    assert_eq!(lines[44], "");
    assert_eq!(lines[45], "1920");
}

#[test]
fn bad_input_is_a_usage_error_with_a_reason() {
    let out = qipu().args(["moves", "4k4/9/9"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("placement field") && err.contains("expected 10 ranks"), "{err}");

    let out = qipu().args(["moves", "4k4/9/9/9/9/9/9/9/9/4K4 w"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("kings face each other"));

    let out = qipu().args(["perft", "startpos", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("depth \"x\""));

    let out = qipu().args(["perft", "startpos"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = qipu().args(["frobnicate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_explains_the_commands() {
    let text = stdout_of(&["--help"]);
    assert!(text.contains("moves") && text.contains("perft"));
    let text = stdout_of(&["perft", "--help"]);
    assert!(text.contains("--divide") && text.contains("133312995"));
}

#[test]
fn output_into_a_closed_pipe_is_quiet() {
    // Like `qipu perft ... --divide | head -0`: the reader is gone before qipu writes.
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_qipu"))
        .args(["perft", "startpos", "3", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit {:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn classify_names_openings_and_compares_tags() {
    let games = "[ECCO \"B05\"]\n1. 炮八平五 马２进３ 2. 马八进七 车１平２ *\n\n\
                 [ECCO \"A11\"]\n1. 相三进五 象３进５ *\n\n\
                 [FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1. 帅五进一 *\n\n\
                 1. 相三进五 象３进５ 2. 帅五进二 *\n";
    let out = qipu().args(["classify", "--format", "json", "-"]).write_stdin(games).output().unwrap();
    // The last game has an illegal move: exit code 1, as validate gives.
    assert_eq!(out.status.code(), Some(1));
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 4);
    // Red's left-wing opening is read mirrored: 炮二平五 马８进７ 马二进三 车９平８.
    assert_eq!((rows[0]["ecco"].as_str(), rows[0]["tagged"].as_str()), (Some("B05"), Some("B05")));
    assert_eq!(rows[0]["opening"], "中炮对进左马");
    assert_eq!(rows[0]["opening_terms"], serde_json::json!(["中炮"]));
    assert_eq!(rows[0]["index"], 0);
    // 1. 相三进五 象３进５ is A12 (列相局), whatever the tag says.
    assert_eq!((rows[1]["ecco"].as_str(), rows[1]["tagged"].as_str()), (Some("A12"), Some("A11")));
    assert!(rows[2]["ecco"].is_null());
    assert_eq!(rows[2]["status"], "valid");
    // An illegal game is classified by the moves before its first wrong one.
    assert_eq!((rows[3]["ecco"].as_str(), rows[3]["status"].as_str()), (Some("A12"), Some("illegal")));
    assert_eq!((rows[3]["error"]["ply"].as_u64(), rows[3]["error"]["line"].as_u64()), (Some(3), Some(10)));
    assert!(rows[0]["error"].is_null());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("-:10:"), "the illegal move's place is told: {stderr}");
    assert!(stderr.contains(": error: game 4, ply 3: "), "the illegal move is told: {stderr}");
    assert!(
        stderr.contains(
            "4 game(s): 3 valid, 1 illegal, 0 unreadable (1 input(s))\n\
             3 from the standard start classified; 2 carry an ECCO tag, 1 of them agree"
        ),
        "{stderr}"
    );
}

#[test]
fn openings_tree_merges_transpositions_and_writes_a_book() {
    let games = "[Result \"1-0\"]\n1. 炮二平五 马８进７ 2. 兵三进一 1-0\n\n\
                 [Result \"0-1\"]\n1. 兵三进一 马８进７ 2. 炮二平五 0-1\n\n\
                 [Result \"1/2-1/2\"]\n1. 炮二平五 马２进３ 1/2-1/2\n";
    let out = qipu().args(["openings", "--depth", "3", "-"]).write_stdin(games).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("start position: 3 game(s), +1 =1 -1, Red 50.0%"), "{text}");
    assert!(text.contains("  1... 马８进７  1 game(s), +1 =0 -0, Red 100.0%"), "{text}");
    // 兵三进一 马８进７ 炮二平五 reaches the position of 炮二平五 马８进７ 兵三进一:
    // each move order has one game, the position two, and the line says so.
    assert!(
        text.contains(
            "    2. 兵三进一  1 game(s) by this move order; with transpositions: 2 game(s), +1 =0 -1, Red 50.0%, B05\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "    2. 炮二平五  1 game(s) by this move order; with transpositions: 2 game(s), +1 =0 -1, \
             Red 50.0%, B05  (transposes to a position above)"
        ),
        "{text}"
    );
    let out = qipu()
        .args(["openings", "--depth", "3", "--format", "json", "-"])
        .write_stdin(games)
        .output()
        .unwrap();
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["games"], 3);
    let merged: Vec<&serde_json::Value> = rows.iter().filter(|r| r["ply"] == 3).collect();
    assert_eq!(merged.len(), 2, "reached twice, by two move orders");
    assert_eq!(merged[0]["id"], merged[1]["id"]);
    assert_eq!(merged[0]["games"], 2);
    assert_eq!((merged[0]["path_games"].as_u64(), merged[1]["path_games"].as_u64()), (Some(1), Some(1)));
    assert_eq!(merged.iter().filter(|r| r["transposition"] == true).count(), 1);
    // The book is a PGN that qipu reads back as a valid game with variations.
    let out =
        qipu().args(["openings", "--depth", "3", "--to", "pgn", "-"]).write_stdin(games).output().unwrap();
    let book = String::from_utf8(out.stdout).unwrap();
    assert!(book.contains("(1. 兵三进一"), "{book}");
    let out = qipu().args(["validate", "--format", "json", "-"]).write_stdin(book.clone()).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "valid", "{book}");
    assert_eq!(report["plies"], 3);
    assert!(report["variation_plies"].as_u64().unwrap() >= 3);
}

#[test]
fn validate_tells_warnings_of_valid_games_in_text() {
    let games = "[Event \"a\"]\n1. h2e2 {no end h9g7\n\n[Event \"b\"]\n1. h2e2 *\n";
    let out = qipu().args(["validate", "-"]).write_stdin(games).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // The comment without end stops at the next game's tags, after an empty line.
    assert!(text.contains("-:2:9: warning: game 1: comment not closed with '}'"), "{text}");
    assert!(text.ends_with("2 game(s): 2 valid, 0 illegal, 0 unreadable (1 input(s))\n"), "{text}");
}

#[test]
fn convert_takes_format_for_to_and_suggests_it_for_a_mistyped_word() {
    let by = |flag: &str| qipu().args(["convert", flag, "json", "fixtures/pgn"]).output().unwrap();
    let (to, format) = (by("--to"), by("--format"));
    assert!(to.status.success() && format.status.success());
    assert_eq!(to.stdout, format.stdout);
    for typo in ["--formt", "--foramt", "--form"] {
        let out = by(typo);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{typo}");
        assert!(
            err.contains("similar argument exists: '--format'") && !err.contains("--force"),
            "{typo}: {err}"
        );
    }
}

#[test]
fn fix_results_sets_the_result_the_end_of_the_game_gives() {
    let mate = "[FEN \"3nkn3/R8/2N6/9/9/9/9/9/9/3K5 w - - 0 1\"]";
    let text = format!(
        "[Event \"a\"]\n{mate}\n[Result \"0-1\"]\n1. a8e8 0-1\n\n\
         [Event \"b\"]\n{mate}\n1. a8e8 *\n\n\
         [Event \"c\"]\n{mate}\n[Result \"1-0\"]\n1. a8e8 1-0\n\n\
         [Event \"d\"]\n1. h2e2 h9g7 *\n\n\
         [Event \"e\"]\n[FEN \"3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1\"]\n[Result \"1-0\"]\n\
         1. g5g9 f5f9 2. g9g5 f9f5 3. g5g9 f5f9 4. g9g5 f9f5 5. g5g9 1-0\n\n\
         [Event \"f\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n1. d0d1 *\n"
    );
    let dir = std::env::temp_dir().join(format!("qipu-cli-fix-results-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("results.pgn");
    std::fs::write(&path, &text).unwrap();
    let results = |args: &[&str]| {
        let out = qipu().arg("convert").arg(&path).args(["--to", "pgn"]).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let pgn = String::from_utf8(out.stdout).unwrap();
        let tags: Vec<String> =
            pgn.lines().filter(|l| l.starts_with("[Result ")).map(str::to_string).collect();
        (tags, String::from_utf8(out.stderr).unwrap())
    };
    // Without the flag, every result stays as recorded.
    let (kept, _) = results(&[]);
    assert_eq!(kept, ["0-1", "*", "1-0", "*", "1-0", "*"].map(|r| format!("[Result \"{r}\"]")));
    let (set, told) = results(&["--fix-results"]);
    assert_eq!(set, ["1-0", "1-0", "1-0", "*", "0-1", "1/2-1/2"].map(|r| format!("[Result \"{r}\"]")));
    let notes: Vec<&str> = told.lines().filter(|l| l.contains(": note: ")).collect();
    assert_eq!(notes.len(), 4, "{told}");
    assert!(notes[0].ends_with("game 1: result 0-1 set to 1-0 (checkmate)"), "{told}");
    assert!(notes[1].ends_with("game 2: result * set to 1-0 (checkmate)"), "{told}");
    assert!(notes[2].ends_with("game 5: result 1-0 set to 0-1 (perpetual-check)"), "{told}");
    assert!(notes[3].ends_with("game 6: result * set to 1/2-1/2 (dead-draw)"), "{told}");
    assert!(told.contains("; 4 result(s) set; 6 written"), "{told}");
    // Written as XQF (the result in its header), the games read back with
    // the results set, and no conflict of result and end.
    let xqf = dir.join("xqf");
    let out = qipu()
        .arg("convert")
        .arg(&path)
        .args(["--to", "xqf", "--fix-results", "-o"])
        .arg(&xqf)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("; 4 result(s) set; 6 written"));
    let out = qipu().arg("validate").arg(&xqf).output().unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(!report.contains("contradicts"), "{report}");
    assert!(report.contains("6 game(s): 6 valid"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}
