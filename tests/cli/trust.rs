//! Nothing lost, nothing invented: records read whole and written back as
//! they were, on inputs shaped like the real ones (endgame puzzles with a
//! start position qipu rejects, mate diagrams with the wrong side to move,
//! XQF titles that overflow their field, text for a Big5 output, comments
//! with white space at their ends, JSON into a closed pipe).

use crate::common::{self, qipu};

use std::io::{BufRead, BufReader};
use std::process::{Command as Process, Stdio};

use qipu::formats::{self, xqf};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Red to move while Black's general, on e9, is in check from the pawn on
/// e8: no legal position, as 适情雅趣 puzzles are stored with the wrong side.
const RED_TO_MOVE_BLACK_IN_CHECK: &str = "4k4/4P4/9/9/9/9/9/9/9/3K5 w - - 0 1";

/// An XQF file of `fen` with the coordinate moves `moves`, written the way
/// XQStudio stores a position: its piece slots and the side byte.
fn xqf_file(fen: &str, moves: &[&str], title: &str) -> Vec<u8> {
    let nodes: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                r#"{{"id":{},"parent":{},"move":"{m}","text":"{m}","comment":null,"comment_before":null,"nags":[]}}"#,
                i + 1,
                i
            )
        })
        .collect();
    let line = format!(
        r#"{{"tags":[["Title",{}],["FEN","{fen}"]],"fen":null,"result":"*","comment":null,"nodes":[{}]}}"#,
        serde_json::to_string(title).unwrap(),
        nodes.join(",")
    );
    let record = formats::read(line.as_bytes(), None).unwrap().records.remove(0);
    xqf::write(&record, xqf::Version::V10).unwrap()
}

#[test]
fn a_rejected_start_position_is_kept_by_every_writer() {
    let dir = common::scratch("rejected-start");
    // A CCPD-shaped PGN whose FEN has no black king, and one with a red
    // elephant on g1; an XQF endgame with Red to move while Black is in check.
    let no_king = "[Game \"Chinese Chess\"]\n[Event \"殘局\"]\n[FEN \"3a5/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\"]\n1. 仕四進五 *\n";
    let elephant = "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/6B2/RNBAKA1NR w - - 0 1\"]\n1. 炮二平五 *\n";
    std::fs::write(dir.join("no-king.pgn"), no_king).unwrap();
    std::fs::write(dir.join("elephant.pgn"), elephant).unwrap();
    std::fs::write(
        dir.join("puzzle.xqf"),
        xqf_file(RED_TO_MOVE_BLACK_IN_CHECK, &["d0d1", "e9e8"], "兵马出塞"),
    )
    .unwrap();
    let cases = [
        (
            "no-king.pgn",
            "3a5/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
            ":3:1: error: game 1, start position: invalid position: Black has no king",
        ),
        (
            "elephant.pgn",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/6B2/RNBAKA1NR w - - 0 1",
            ":2:1: error: game 1, start position: invalid position: Red elephant on g1",
        ),
        (
            "puzzle.xqf",
            RED_TO_MOVE_BLACK_IN_CHECK,
            "@16: error: game 1, start position: invalid position: Black is in check",
        ),
    ];
    for (name, fen, why) in cases {
        let path = dir.join(name);
        // The error is still reported, at the place the position is written.
        let out = qipu().arg("validate").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(stdout(&out).contains(why), "{name}: {}", stdout(&out));
        // PGN and JSON keep the placement, not the standard start.
        let out = qipu().args(["convert", "--to", "pgn"]).arg(&path).output().unwrap();
        assert!(stdout(&out).contains(&format!("[FEN \"{fen}\"]")), "{name}: {}", stdout(&out));
        assert!(stderr(&out).contains("1 written"), "{name}");
        let out = qipu().args(["convert", "--to", "json"]).arg(&path).output().unwrap();
        let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["fen"], fen, "{name}");
        // fen prints the placement as ply 0, and the trail stops there.
        let out = qipu().args(["fen", "--format", "csv"]).arg(&path).output().unwrap();
        let csv = stdout(&out);
        assert_eq!(csv.lines().count(), 2, "{name}: {csv}");
        // (then the side to move and the result)
        assert!(csv.lines().nth(1).unwrap().contains(&format!(",0,0,,{fen},red,")), "{name}: {csv}");
    }
    // Formats that store points keep the moves stored as points.
    let xqf_path = dir.join("puzzle.xqf");
    let out = qipu().args(["convert", "--to", "dhtmlxq"]).arg(&xqf_path).output().unwrap();
    let block = stdout(&out);
    assert!(block.contains(&format!("[DhtmlXQ_fen]{RED_TO_MOVE_BLACK_IN_CHECK}[/DhtmlXQ_fen]")), "{block}");
    assert!(block.contains("[DhtmlXQ_binit]"), "{block}");
    assert!(block.contains("[DhtmlXQ_movelist]39384041[/DhtmlXQ_movelist]"), "{block}");
    let out_dir = dir.join("out");
    let out = qipu().args(["convert", "--to", "xqf", "-o"]).arg(&out_dir).arg(&xqf_path).output().unwrap();
    assert!(stderr(&out).contains("1 written"), "{}", stderr(&out));
    let written = std::fs::read(out_dir.join("兵马出塞.xqf")).unwrap();
    let back = xqf::read(&written).unwrap();
    assert_eq!(back.fen(), Some(RED_TO_MOVE_BLACK_IN_CHECK));
    assert_eq!(back.tree().main_line().count(), 2);
    // A FEN that does not parse is kept as written, never replaced.
    let out = qipu()
        .args(["convert", "--to", "pgn", "-"])
        .write_stdin("[FEN \"rnbakabnr/9/x\"]\n1. h2e2 *\n")
        .output()
        .unwrap();
    assert!(stdout(&out).contains("[FEN \"rnbakabnr/9/x\"]"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("RNBAKABNR"), "{}", stdout(&out));
    let out = qipu().args(["fen", "-"]).write_stdin("[FEN \"rnbakabnr/9/x\"]\n1. h2e2 *\n").output().unwrap();
    assert_eq!(stdout(&out), "", "no trail is invented");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_diagram_whose_side_to_move_could_take_the_general_is_turned_with_a_warning() {
    let dir = common::scratch("diagram");
    // An XQF mate diagram: no moves, side byte 0 (Red), Black in check.
    let mut diagram = xqf_file(RED_TO_MOVE_BLACK_IN_CHECK, &[], "示意图");
    diagram[0x32] = 0;
    std::fs::write(dir.join("示意图.XQF"), diagram).unwrap();
    std::fs::write(dir.join("diagram.pgn"), format!("[FEN \"{RED_TO_MOVE_BLACK_IN_CHECK}\"]\n*\n")).unwrap();
    for name in ["示意图.XQF", "diagram.pgn"] {
        let path = dir.join(name);
        let out = qipu().arg("validate").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stdout(&out));
        assert!(
            stdout(&out).contains(
                "the record says Red is to move, but Black is in check (its general could be taken): \
                 read as a diagram with Black to move"
            ),
            "{name}: {}",
            stdout(&out)
        );
        assert!(stdout(&out).contains(": warning: game 1: "), "{name}: {}", stdout(&out));
        let out = qipu().args(["fen"]).arg(&path).output().unwrap();
        assert!(stdout(&out).contains("4k4/4P4/9/9/9/9/9/9/9/3K5 b - - 0 1"), "{name}: {}", stdout(&out));
    }
    // With moves, the first move settles the side, and the position is what it is.
    std::fs::write(dir.join("moves.pgn"), format!("[FEN \"{RED_TO_MOVE_BLACK_IN_CHECK}\"]\n1. d0d1 *\n"))
        .unwrap();
    let out = qipu().arg("validate").arg(dir.join("moves.pgn")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn fixed_size_fields_end_at_their_first_nul_and_no_writer_emits_control_characters() {
    let dir = common::scratch("nul");
    let mut bytes = xqf_file("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", &["h2e2"], "x");
    // A title longer than its 63-byte field, as XQStudio writes one: the
    // next field's length byte is part of it, and NULs follow.
    let (title, _, _) = encoding_rs::GBK
        .encode("古谱全局谱第一百二十三局，红先胜，着法精妙，值得细细品味，一二三四五六七八九十");
    bytes[0x50] = 0x70;
    bytes[0x51..0x91].copy_from_slice(&title[..0x40]);
    bytes[0x91..0xD0].fill(0);
    std::fs::write(dir.join("title.xqf"), &bytes).unwrap();
    let out = qipu().args(["convert", "--to", "json"]).arg(dir.join("title.xqf")).output().unwrap();
    let json = stdout(&out);
    assert!(!json.contains("\\u0000"), "{json}");
    let out = qipu().args(["validate"]).arg(dir.join("title.xqf")).output().unwrap();
    assert!(stdout(&out).contains("Title: length 112 is past its field of 63 bytes"), "{}", stdout(&out));
    // Control characters between words (0x14 in real XQF titles) and a
    // line break in a tag are spaces in PGN and DhtmlXQ.
    std::fs::write(
        dir.join("controls.xqf"),
        xqf_file(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            &["h2e2"],
            "R.LINDROO\u{14}VS\u{14}胡允锡",
        ),
    )
    .unwrap();
    for to in ["pgn", "dhtmlxq"] {
        let out = qipu()
            .args(["convert", "--to", to])
            .arg(dir.join("controls.xqf"))
            .arg(dir.join("title.xqf"))
            .output()
            .unwrap();
        let text = stdout(&out);
        assert!(text.contains("R.LINDROO VS 胡允锡"), "{to}: {text}");
        assert!(text.chars().all(|c| !c.is_control() || c == '\n' || c == '\t'), "{to}: {text:?}");
    }
    let injected = "[Event \"a\"]\n1. h2e2 *\n";
    let line = r#"{"tags":[["Event","x\n\n[Event \"injected\"]\n1. h2e2 *"]],"fen":null,"result":"*","comment":"a\u0001b","nodes":[]}"#;
    let out = qipu().args(["convert", "--to", "pgn", "-"]).write_stdin(line).output().unwrap();
    let text = stdout(&out);
    assert!(!text.contains(injected), "{text}");
    let again = qipu().args(["validate", "-"]).write_stdin(text.clone()).output().unwrap();
    assert!(stdout(&again).contains("1 game(s)"), "one game, not two: {text}");
}

#[test]
fn big5_output_is_traditional_and_reads_back() {
    let game = "[Game \"Chinese Chess\"]\n[Red \"許銀川\"]\n1. 炮二平五 马８进７ {屏風馬} 2. 马二进三 *\n";
    let out = qipu()
        .args(["convert", "--to", "pgn", "--output-encoding", "big5", "-"])
        .write_stdin(game)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (text, _, bad) = encoding_rs::BIG5.decode(&out.stdout);
    assert!(!bad);
    assert!(text.contains("1. 砲二平五 馬８進７ {屏風馬} 2. 馬二進三 *"), "{text}");
    assert!(!text.contains("&#"), "{text}");
    let back = qipu().args(["validate", "-"]).write_stdin(out.stdout.clone()).output().unwrap();
    assert_eq!(back.status.code(), Some(0), "{}", stdout(&back));
    // A character Big5 lacks is an error naming the game, or with
    // --unmappable replace a '?'.
    let simplified = "[Red \"许银川\"]\n1. 炮二平五 *\n";
    let out = qipu()
        .args(["convert", "--to", "pgn", "--output-encoding", "big5", "-"])
        .write_stdin(simplified)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("-: error: game 1: not written: '许' (U+8BB8) cannot be written in big5"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("0 written"), "{}", stderr(&out));
    let out = qipu()
        .args(["convert", "--to", "pgn", "--output-encoding", "big5", "--unmappable", "replace", "-"])
        .write_stdin(simplified)
        .output()
        .unwrap();
    let (text, _, _) = encoding_rs::BIG5.decode(&out.stdout);
    assert!(text.contains("[Red \"??川\"]"), "{text}");
    // Other tools write `&#NNNN;` for what their encoding lacks: read as the character.
    let entities = "1. &#28846;二平五 &#39532;８&#x8FDB;７ *\n";
    let out = qipu().args(["validate", "--format", "json", "-"]).write_stdin(entities).output().unwrap();
    assert!(stdout(&out).contains("\"status\":\"valid\""), "{}", stdout(&out));
}

#[test]
fn comments_keep_their_white_space_through_pgn_and_dhtmlxq() {
    let line = r#"{"tags":[],"fen":null,"result":"*","comment":"\n   橘中秘 卷上","nodes":[{"id":1,"parent":0,"move":"h2e2","text":"h2e2","comment":"红胜\n","comment_before":null,"nags":[]},{"id":2,"parent":1,"move":"h9g7","text":"h9g7","comment":"  以下 ","comment_before":null,"nags":[]}]}"#;
    let original = formats::read(line.as_bytes(), None).unwrap().records.remove(0);
    for to in ["pgn", "dhtmlxq"] {
        let out = qipu().args(["convert", "--to", to, "-"]).write_stdin(line).output().unwrap();
        let back = formats::read(&out.stdout, None).unwrap().records.remove(0);
        let comments = |r: &qipu::record::Record| -> Vec<Option<String>> {
            r.tree().depth_first().map(|id| r.tree().node(id).comment().map(str::to_string)).collect()
        };
        assert_eq!(comments(&back), comments(&original), "{to}: {}", stdout(&out));
    }
}

#[test]
fn json_into_a_closed_pipe_ends_quietly_and_dash_is_standard_output() {
    let mut games = String::new();
    for _ in 0..20_000 {
        games.push_str("[Event \"x\"]\n1. h2e2 h9g7 2. h0g2 *\n\n");
    }
    for args in [
        vec!["validate", "--format", "json", "-"],
        vec!["classify", "--format", "json", "-"],
        vec!["openings", "--format", "json", "--depth", "40", "-"],
        vec!["fen", "--format", "json", "-"],
        vec!["convert", "--to", "json", "-o", "-", "-"],
    ] {
        let mut child = Process::new(env!("CARGO_BIN_EXE_qipu"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let text = games.clone();
        let feeder = std::thread::spawn(move || {
            use std::io::Write;
            let _ = input.write_all(text.as_bytes());
        });
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(first.starts_with('{'), "{args:?}: {first}");
        // The reader is gone: the rest goes into a closed pipe.
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("Broken pipe") && !err.contains("qipu:"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
    // `-o -` writes to standard output, and makes no file called `-`.
    let dir = common::scratch("dash");
    let out = qipu()
        .current_dir(&dir)
        .args(["convert", "--to", "pgn", "-o", "-", "-"])
        .write_stdin("1. h2e2 *\n")
        .output()
        .unwrap();
    assert!(stdout(&out).contains("1. 炮二平五 *"), "{}", stdout(&out));
    assert!(!dir.join("-").exists());
}
