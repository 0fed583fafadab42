//! `qipu validate` end to end: text and JSON output, exit codes, inputs.

use crate::common::qipu;

use crate::common::scratch;

const GOOD: &str = "[Game \"Chinese Chess\"]\n[Result \"*\"]\n1. 炮二平五 马８进７ 2. 马二进三 *\n";
const BAD: &str = "[Game \"Chinese Chess\"]\n1. 炮二平五 马８进７\n2. 马二进四 *\n";

#[test]
fn valid_games_exit_zero_with_a_summary() {
    let dir = scratch("good");
    std::fs::write(dir.join("a.pgn"), GOOD.repeat(3)).unwrap();
    let out = qipu().arg("validate").arg(dir.join("a.pgn")).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "3 game(s): 3 valid, 0 illegal, 0 unreadable (1 input(s))\n"
    );
}

#[test]
fn an_illegal_move_is_reported_with_place_and_reason() {
    let dir = scratch("bad");
    let path = dir.join("b.pgn");
    std::fs::write(&path, format!("{GOOD}\n{BAD}")).unwrap();
    let out = qipu().arg("validate").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = format!(
        "{}:7:4: error: game 2, ply 3: 马二进四: illegal: h0f1: the horse is blocked at g0 (horse leg)\n\
         2 game(s): 1 valid, 1 illegal, 0 unreadable (1 input(s))\n",
        path.display()
    );
    assert_eq!(text, expected);
}

#[test]
fn json_lines_have_the_contract_fields() {
    let dir = scratch("json");
    let path = dir.join("c.pgn");
    std::fs::write(&path, format!("{GOOD}\n{BAD}")).unwrap();
    let out = qipu().args(["validate", "--format", "json"]).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    let ok = &lines[0];
    assert_eq!(ok["source"], path.display().to_string());
    assert_eq!(ok["index"], 0);
    assert_eq!(ok["status"], "valid");
    assert_eq!(ok["format"], "pgn");
    assert_eq!(ok["encoding"], "utf-8");
    assert_eq!(ok["plies"], 3);
    assert_eq!(ok["variation_plies"], 0);
    assert_eq!(ok["result"], "*");
    assert_eq!(ok["termination"], serde_json::Value::Null);
    assert_eq!(ok["error"], serde_json::Value::Null);
    let bad = &lines[1];
    assert_eq!(bad["index"], 1);
    assert_eq!(bad["status"], "illegal");
    assert_eq!(bad["plies"], 2);
    assert_eq!(bad["error"]["ply"], 3);
    assert_eq!(bad["error"]["move"], "马二进四");
    assert_eq!(bad["error"]["line"], 7);
    assert_eq!(bad["error"]["column"], 4);
    assert!(bad["error"]["message"].as_str().unwrap().contains("horse leg"));
    // The summary goes to standard error, so the output stays JSON lines.
    assert!(String::from_utf8(out.stderr).unwrap().contains("2 game(s): 1 valid, 1 illegal"));
}

#[test]
fn directories_standard_input_and_encodings() {
    let dir = scratch("dir");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let (gbk, _, _) = encoding_rs::GBK.encode(GOOD);
    std::fs::write(dir.join("sub/gbk.pgn"), &gbk[..]).unwrap();
    std::fs::write(dir.join("a.pgn"), GOOD).unwrap();
    std::fs::write(dir.join("notes.txt"), "just some notes\n").unwrap();
    std::fs::write(dir.join("image.bin"), [0u8, 1, 2, 3, 4]).unwrap();
    let out = qipu().args(["validate", "--format", "json"]).arg(&dir).output().unwrap();
    // Notes and an image among records hold no record: no failure.
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary: Vec<(String, String)> = lines
        .iter()
        .map(|l| {
            let src = l["source"].as_str().unwrap();
            let name = src.rsplit(['/', '\\']).next().unwrap().to_string();
            (name, l["status"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("a.pgn".to_string(), "valid".to_string()),
            ("image.bin".to_string(), "no-record".to_string()),
            ("notes.txt".to_string(), "no-record".to_string()),
            ("gbk.pgn".to_string(), "valid".to_string()),
        ]
    );
    assert_eq!(lines[3]["encoding"], "gb18030");

    let out = qipu().args(["validate", "-"]).write_stdin(GOOD).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    // A missing path is an unreadable input: reported, and the rest read.
    let out = qipu().args(["validate", "/no/such/file.pgn"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stdout).unwrap().contains("/no/such/file.pgn: error: unreadable: no such file")
    );
    let out = qipu().args(["validate", "-", "--encoding", "latin-9"]).write_stdin(GOOD).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn output_follows_input_order_whatever_the_threads() {
    let dir = scratch("order");
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(if i % 7 == 3 { BAD } else { GOOD });
        text.push('\n');
    }
    let path = dir.join("many.pgn");
    std::fs::write(&path, text).unwrap();
    let run = |jobs: &str| {
        let out = qipu().args(["validate", "--format", "json", "--jobs", jobs]).arg(&path).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("8"));
    let indexes: Vec<u64> = one
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indexes, (0..200).collect::<Vec<_>>());
}

#[test]
fn one_unreadable_record_among_several_is_counted_and_placed() {
    let text = "<p>[DhtmlXQ][DhtmlXQ_binit]12[/DhtmlXQ_binit][/DhtmlXQ]</p>\n\
                <p>[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]</p>\n";
    let out = qipu().args(["validate", "-"]).write_stdin(text).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("-:1:28: error: game 1: unreadable: binit: 2 characters"), "{stdout}");
    assert!(stdout.contains("2 game(s): 1 valid, 0 illegal, 1 unreadable (1 input(s))"), "{stdout}");
    let out = qipu().args(["validate", "--format", "json", "-"]).write_stdin(text).output().unwrap();
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        (rows[0]["status"].as_str(), rows[0]["format"].as_str()),
        (Some("unreadable"), Some("dhtmlxq"))
    );
    assert_eq!(rows[1]["status"], "valid");
}

#[test]
fn one_thread_and_two_give_the_same_output_in_input_order() {
    // Many small files (read many at a time) and, among them, one large one
    // (streamed in batches in its turn): the output must not depend on the
    // number of threads.
    let dir = scratch("jobs");
    for i in 0..40 {
        let game = if i % 7 == 3 { BAD } else { GOOD };
        std::fs::write(dir.join(format!("{i:02}.pgn")), game.repeat(1 + i % 3)).unwrap();
    }
    let big: String = (0..16_000).map(|i| if i % 500 == 7 { BAD } else { GOOD }).collect();
    assert!(big.len() > 1 << 20, "large enough to be streamed");
    std::fs::write(dir.join("19x-big.pgn"), big).unwrap();
    for args in [&["validate", "--format", "json"][..], &["fen", "--format", "json"][..], &["stats"][..]] {
        let run = |jobs: &str| qipu().args(args).args(["--jobs", jobs]).arg(&dir).output().unwrap().stdout;
        let one = run("1");
        assert!(!one.is_empty());
        assert_eq!(one, run("2"), "{args:?}");
        if args[0] == "validate" {
            // The large file's games come between those of 19.pgn and 20.pgn.
            let sources: Vec<String> = String::from_utf8(one)
                .unwrap()
                .lines()
                .map(|l| {
                    serde_json::from_str::<serde_json::Value>(l).unwrap()["source"]
                        .as_str()
                        .unwrap()
                        .to_string()
                })
                .collect();
            let at = |name: &str| sources.iter().position(|s| s.ends_with(name)).unwrap();
            let big = at("19x-big.pgn");
            assert!(at("19.pgn") < big && big < at("20.pgn"));
            assert_eq!(sources.iter().filter(|s| s.ends_with("19x-big.pgn")).count(), 16_000);
        }
    }
}
