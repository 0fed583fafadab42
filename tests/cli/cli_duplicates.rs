//! `qipu duplicates` end to end: copies across formats and encodings,
//! truncated, mirrored and final-position copies, the keep policies, JSON,
//! standard input, and games that are not copies.

use crate::common::qipu;

use crate::common::scratch;
use serde_json::Value;

/// A classic line (中炮过河车对屏风马平炮兑车), 12 plies.
const MOVES: &str = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 兵七进一 卒７进１ 5. 车二进六 炮８平９ 6. 车二平三 炮９退１";
/// The same, mirrored left to right, in ICCS.
const MIRRORED: &str = "1. b2e2 b9c7 2. b0c2 a9b9 3. a0b0 h9g7 4. g3g4 c6c5 5. b0b6 b7a7 6. b6c6 a7a8";
/// Another order of the same moves: the same final position after 12 plies.
const REORDERED: &str = "1. h2e2 h9g7 2. h0g2 g6g5 3. i0h0 b9c7 4. c3c4 i9h9 5. h0h6 h7i7 6. h6g6 i7i8";

fn game(tags: &[(&str, &str)], moves: &str) -> String {
    let mut text: String = tags.iter().map(|(k, v)| format!("[{k} \"{v}\"]\n")).collect();
    text.push_str(moves);
    text.push_str(" *\n\n");
    text
}

fn players(red: &str, black: &str) -> Vec<(&'static str, String)> {
    vec![
        ("Red", red.to_string()),
        ("Black", black.to_string()),
        ("Event", "象棋".into()),
        ("Date", "1990.05.01".into()),
    ]
}

fn tagged(red: &str, black: &str, moves: &str) -> String {
    let tags = players(red, black);
    let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
    game(&tags, moves)
}

/// The groups of `args` on `input` given on standard input, as JSON, and
/// standard error.
fn groups(input: &str, args: &[&str]) -> (Vec<Value>, String) {
    let out =
        qipu().args(["duplicates", "-", "--format", "json"]).args(args).write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let rows =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (rows, String::from_utf8(out.stderr).unwrap())
}

/// The (index, kept, why) of each member of each group.
fn shape(rows: &[Value]) -> Vec<Vec<(u64, bool, Option<String>)>> {
    rows.iter()
        .map(|g| {
            g["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["index"].as_u64().unwrap(),
                        m["kept"].as_bool().unwrap(),
                        m["why"].as_str().map(String::from),
                    )
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_same_game_as_xqf_big5_pgn_and_dhtmlxq_is_one_group_of_three() {
    let dir = scratch("dupes-formats");
    let source = dir.join("game.pgn");
    std::fs::write(&source, tagged("王天一", "李來群", MOVES)).unwrap();
    let convert = |args: &[&str]| {
        let out = qipu().arg("convert").arg(&source).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    };
    let (xqf, big5, dhtml) = (dir.join("xqf"), dir.join("big5.pgn"), dir.join("game.txt"));
    convert(&["--to", "xqf", "-o", xqf.to_str().unwrap()]);
    convert(&["--to", "pgn", "--output-encoding", "big5", "-o", big5.to_str().unwrap()]);
    convert(&["--to", "dhtmlxq", "-o", dhtml.to_str().unwrap()]);
    assert!(std::fs::read(&big5).unwrap().iter().any(|&b| b >= 0x80), "Big5 bytes");
    let out =
        qipu().arg("duplicates").args([&xqf, &big5, &dhtml]).args(["--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 1);
    let members = rows[0]["members"].as_array().unwrap();
    assert_eq!(members.len(), 3);
    let formats: Vec<&str> = members.iter().map(|m| m["format"].as_str().unwrap()).collect();
    assert_eq!(formats, ["xqf", "pgn", "dhtmlxq"]);
    assert!(members.iter().all(|m| m["plies"] == 12 && m["tags"]["Red"] == "王天一"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("3 game(s): 3 valid, 0 illegal, 0 unreadable (3 input(s)); 3 of 10 plies or more: 1 group(s), 2 copies"), "{stderr}");
    // Text for people: the group, its members, the kept one and why.
    let out = qipu().arg("duplicates").args([&xqf, &big5, &dhtml]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "group 1 (3 games)");
    assert!(
        lines[1].starts_with("  kept ") && lines[1].ends_with(": 王天一 – 李來群, 1990.05.01, 12 plies"),
        "{text}"
    );
    assert!(lines[2].starts_with("  copy ") && lines[2].contains(": the line of "), "{text}");
}

#[test]
fn different_tags_same_moves_and_the_json_fields() {
    let input =
        tagged("胡荣华", "杨官璘", MOVES) + &tagged("胡榮華", "楊官璘", MOVES) + &tagged("x", "y", REORDERED);
    let (rows, stderr) = groups(&input, &[]);
    assert_eq!(shape(&rows), [vec![(0, true, None), (1, false, Some("line".into()))]]);
    let g = &rows[0];
    assert_eq!(g["group"], 0);
    let copy = &g["members"][1];
    assert_eq!(copy["source"], "-");
    assert_eq!(copy["format"], "pgn");
    assert_eq!(copy["tags"]["Red"], "胡榮華");
    assert_eq!(copy["tags"]["Black"], "楊官璘");
    assert_eq!(copy["tags"]["Event"], "象棋");
    assert_eq!(copy["tags"]["Date"], "1990.05.01");
    assert_eq!(copy["plies"], 12);
    assert_eq!(copy["mirrored"], false);
    assert_eq!(copy["matches"], 0);
    assert_eq!(g["members"][0]["matches"], Value::Null);
    assert!(stderr.contains("3 game(s): 3 valid"), "{stderr}");
}

#[test]
fn a_truncated_copy_is_found_with_truncated_only_and_the_longer_is_kept() {
    let short = MOVES.rsplit_once(" 6.").unwrap().0;
    let input = tagged("a", "b", short) + &tagged("a", "b", MOVES);
    assert!(groups(&input, &[]).0.is_empty());
    let (rows, stderr) = groups(&input, &["--by", "line,truncated"]);
    assert_eq!(shape(&rows), [vec![(0, false, Some("truncated".into())), (1, true, None)]]);
    assert!(stderr.contains("1 group(s), 1 copies"), "{stderr}");
    // Repeated flags say the same.
    assert_eq!(groups(&input, &["--by", "line", "--by", "truncated"]).0, rows);
    // Shorter than --min-plies: no copy.
    assert!(groups(&input, &["--by", "truncated", "--min-plies", "11"]).0.is_empty());
}

#[test]
fn a_mirrored_copy_is_found_with_mirror_only() {
    let input = tagged("a", "b", MOVES) + &tagged("c", "d", MIRRORED);
    assert!(groups(&input, &[]).0.is_empty());
    let (rows, _) = groups(&input, &["--mirror"]);
    assert_eq!(shape(&rows), [vec![(0, true, None), (1, false, Some("line".into()))]]);
    assert_eq!(rows[0]["members"][1]["mirrored"], true);
}

#[test]
fn the_same_final_position_after_as_many_plies() {
    let input = tagged("a", "b", MOVES) + &tagged("c", "d", REORDERED);
    assert!(groups(&input, &[]).0.is_empty());
    let (rows, _) = groups(&input, &["--by", "final"]);
    assert_eq!(shape(&rows), [vec![(0, true, None), (1, false, Some("final".into()))]]);
}

#[test]
fn keep_policies_pick_the_right_game() {
    let long = format!("{MOVES} 7. 兵三进一");
    let annotated =
        game(&[("Red", "a"), ("Black", "b"), ("Event", "e"), ("Round", "1")], &format!("{{评注}} {MOVES}"));
    let input = tagged("a", "b", MOVES) + &annotated + &tagged("a", "b", &long);
    let kept = |keep: &str| -> Vec<u64> {
        let (rows, _) = groups(&input, &["--by", "line,truncated", "--keep", keep]);
        rows.iter()
            .flat_map(|g| {
                g["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|m| m["kept"] == true)
                    .map(|m| m["index"].as_u64().unwrap())
            })
            .collect::<Vec<_>>()
    };
    // The two 12-ply games are truncated copies of the 13-ply one: it is kept.
    assert_eq!(kept("first"), [2]);
    assert_eq!(kept("longest"), [2]);
    let kept_line = |keep: &str| -> u64 {
        let (rows, _) = groups(&input, &["--keep", keep]);
        rows[0]["members"].as_array().unwrap().iter().find(|m| m["kept"] == true).unwrap()["index"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(kept_line("first"), 0);
    assert_eq!(kept_line("most-annotated"), 1);
}

#[test]
fn another_start_with_the_same_moves_is_no_copy() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w";
    let input = tagged("a", "b", MOVES) + &game(&[("FEN", fen)], MOVES);
    let (rows, stderr) = groups(&input, &["--by", "line,truncated", "--mirror"]);
    assert!(rows.is_empty(), "{rows:?}");
    assert!(stderr.contains("2 game(s): 2 valid"), "{stderr}");
}

#[test]
fn copies_written_out_and_problems_counted() {
    let dir = scratch("dupes-out");
    let input = tagged("a", "b", MOVES) + &tagged("c", "d", MOVES) + "1. h2e2 h9g7 2. h0f1 *\n";
    let target = dir.join("copies.pgn");
    let run = |force: bool| {
        let mut cmd = qipu();
        cmd.args(["duplicates", "-", "--duplicates-out"]).arg(&target);
        if force {
            cmd.arg("--force");
        }
        cmd.write_stdin(input.clone()).output().unwrap()
    };
    let out = run(false);
    // An illegal game makes the exit code 1, as in every batch command.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(": error: game 3, ply 3: "), "{stderr}");
    assert!(stderr.contains("3 game(s): 2 valid, 1 illegal, 0 unreadable"), "{stderr}");
    let written = std::fs::read_to_string(&target).unwrap();
    assert_eq!(written.matches("[Red ").count(), 1, "{written}");
    assert!(written.contains("[Red \"c\"]") && written.contains("炮二平五"), "{written}");
    // Not written over without --force; with it, it is.
    let out = run(false);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("exists"));
    assert_eq!(run(true).status.code(), Some(1));
    // Never over an input.
    let source = dir.join("in.pgn");
    std::fs::write(&source, &input).unwrap();
    let out = qipu()
        .arg("duplicates")
        .arg(&source)
        .arg("--duplicates-out")
        .arg(&source)
        .arg("--force")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&source).unwrap(), input);
}

#[test]
fn the_groups_go_into_o_as_they_would_to_standard_output() {
    let dir = scratch("dupes-o");
    let source = dir.join("in.pgn");
    std::fs::write(&source, tagged("a", "b", MOVES) + &tagged("c", "d", MOVES)).unwrap();
    let printed = qipu().args(["duplicates", "--format", "json"]).arg(&source).output().unwrap();
    assert!(!printed.stdout.is_empty());
    let target = dir.join("groups.jsonl");
    let written =
        qipu().args(["duplicates", "--format", "json", "-o"]).arg(&target).arg(&source).output().unwrap();
    assert_eq!(written.status.code(), printed.status.code());
    assert!(written.stdout.is_empty());
    assert_eq!(std::fs::read(&target).unwrap(), printed.stdout);
    // Never over an input, never the same file as --duplicates-out.
    let over = qipu().args(["duplicates", "--force", "-o"]).arg(&source).arg(&source).output().unwrap();
    assert_eq!(over.status.code(), Some(2));
    let same = qipu()
        .args(["duplicates", "--force", "-o"])
        .arg(&target)
        .arg("--duplicates-out")
        .arg(&target)
        .arg(&source)
        .output()
        .unwrap();
    assert_eq!(same.status.code(), Some(2));
}

#[test]
fn untagged_games_are_named_by_what_they_have() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_duplicates_untagged");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.pgn");
    let moves = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9 5. a0b0 c6c5 6. c3c4 b7a7 *\n\n";
    std::fs::write(&path, format!("{moves}[Red \"甲\"]\n[Date \"2001\"]\n{moves}")).unwrap();
    let out = qipu().arg("duplicates").arg(&path).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].ends_with(": game 1: 12 plies"), "{text}");
    assert!(lines[2].contains(": game 2: 甲 – ?, 2001, 12 plies"), "{text}");
    assert!(!text.contains("? – ?"), "{text}");
}
