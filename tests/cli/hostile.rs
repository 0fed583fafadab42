//! Hostile input and hostile file systems: link loops, folders that cannot
//! be read, devices and pipes as inputs and outputs, file names that would
//! forge report lines, titles too long for a file name, files whose
//! content would fool detection, text after a result, damaged JSON lines,
//! and more threads than cores. Each case is small, generated here, and
//! fails on a reader or a command that loses, invents or hangs.

use crate::common::{self, qipu, stderr, stdout};

use std::process::Command as Process;

const GAME: &str = "[Event \"x\"]\n1. 炮二平五 马８进７ 2. 马二进三 *\n";

#[cfg(unix)]
#[test]
fn link_loops_are_walked_once_and_told_once() {
    let dir = common::scratch("loops");
    std::fs::write(dir.join("game.pgn"), GAME).unwrap();
    std::os::unix::fs::symlink(".", dir.join("a")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("b")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("sub/up")).unwrap();
    let out = qipu().arg("validate").arg(&dir).timeout(std::time::Duration::from_secs(20)).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("1 game(s): 1 valid, 0 illegal, 0 unreadable (1 input(s))\n"),
        "{}",
        stdout(&out)
    );
    // Each loop is told once.
    assert_eq!(stderr(&out).matches("a link to a folder already read").count(), 3, "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_folder_that_cannot_be_read_is_reported_and_the_rest_is_read() {
    // A folder deeper than PATH_MAX: made step by step from within, as no
    // single path to it can be given.
    let dir = common::scratch("deep");
    std::fs::write(dir.join("game.pgn"), GAME).unwrap();
    let long = "d".repeat(250);
    let script = format!("cd '{}' && for i in $(seq 20); do mkdir {long} && cd {long}; done", dir.display());
    assert!(Process::new("bash").arg("-c").arg(&script).status().unwrap().success());
    let out = qipu().arg("validate").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains(": error: unreadable: cannot read: "), "the deep folder is told: {text}");
    assert!(text.contains("1 valid"), "the game beside it is read: {text}");
}

#[cfg(unix)]
#[test]
fn pipes_and_devices_are_streamed_refused_or_written_into() {
    let dir = common::scratch("devices");
    std::fs::write(dir.join("game.pgn"), GAME).unwrap();
    // A pipe met while walking a folder is not opened (it would wait forever).
    assert!(Process::new("mkfifo").arg(dir.join("pipe.pgn")).status().unwrap().success());
    let out = qipu().arg("validate").arg(&dir).timeout(std::time::Duration::from_secs(20)).output().unwrap();
    assert!(
        stdout(&out).contains(
            "pipe.pgn: warning: holds no record: a named pipe (FIFO), not opened while walking a folder"
        ),
        "{}",
        stdout(&out)
    );
    // An endless device named on the command line is refused on its start.
    let out =
        qipu().args(["validate", "/dev/zero"]).timeout(std::time::Duration::from_secs(20)).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("/dev/zero: error: unreadable: binary data"), "{}", stdout(&out));
    // A device as the output is written into, never replaced by a file.
    let device = dir.join("null");
    let made = Process::new("mknod").arg(&device).args(["c", "1", "3"]).status();
    if made.is_ok_and(|s| s.success()) {
        let out = qipu()
            .args(["convert", "--to", "pgn", "--force", "-o"])
            .arg(&device)
            .arg(dir.join("game.pgn"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&device).unwrap().file_type().is_char_device(), "still a device");
    } else {
        eprintln!("skipped the device part: mknod needs root");
    }
    // A link to a regular file: the file is replaced, the link stays.
    std::fs::write(dir.join("real.pgn"), "old").unwrap();
    std::os::unix::fs::symlink("real.pgn", dir.join("link.pgn")).unwrap();
    let out = qipu()
        .args(["convert", "--to", "pgn", "--force", "-o"])
        .arg(dir.join("link.pgn"))
        .arg(dir.join("game.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(dir.join("link.pgn")).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(dir.join("real.pgn")).unwrap().contains("炮二平五"));
}

#[cfg(unix)]
#[test]
fn file_names_cannot_forge_report_lines_and_differ_when_their_bytes_do() {
    use std::os::unix::ffi::OsStrExt;
    let dir = common::scratch("names");
    let forged = "a.pgn:1:4: error: game 1, ply 1: h2e2: illegal\nb.pgn";
    std::fs::write(dir.join(forged), "1. h2e9 *\n").unwrap();
    for byte in [0xFEu8, 0xFF] {
        let bytes = [b'x', byte, b'.', b'p', b'g', b'n'];
        std::fs::write(dir.join(std::ffi::OsStr::from_bytes(&bytes)), "1. h2e9 *\n").unwrap();
    }
    let out = qipu().arg("validate").arg(&dir).output().unwrap();
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 4, "three reports and the summary: {text}");
    assert!(text.contains("illegal\\nb.pgn:1:4: error: game 1"), "{text}");
    assert!(
        text.contains("x\\xfe.pgn:1:4: error: game 1") && text.contains("x\\xff.pgn:1:4: error: game 1"),
        "{text}"
    );
    // JSON keeps a UTF-8 name exact, and says when it had to escape one.
    let out = qipu().args(["validate", "--format", "json"]).arg(&dir).output().unwrap();
    let rows: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(rows.iter().any(|r| r["source"].as_str().unwrap().ends_with(forged)));
    assert_eq!(rows.iter().filter(|r| r["source_escaped"] == true).count(), 2);
}

#[test]
fn long_titles_make_file_names_that_fit_and_stay_unique() {
    let dir = common::scratch("titles");
    let title = "😀长".repeat(60);
    let games = format!("[Title \"{title}\"]\n1. h2e2 *\n\n[Title \"{title}\"]\n1. h2e2 h9g7 *\n");
    std::fs::write(dir.join("games.pgn"), games).unwrap();
    let out = qipu()
        .args(["convert", "--to", "xqf", "-o"])
        .arg(dir.join("out"))
        .arg(dir.join("games.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names: Vec<_> = std::fs::read_dir(dir.join("out")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.iter().all(|n| n.len() <= 255));
}

#[test]
fn detection_never_drops_a_files_games() {
    // A 50-game PGN whose comments quote DhtmlXQ blocks.
    let mut pgn = String::new();
    for i in 0..50 {
        let comment = if i % 17 == 0 {
            "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]"
        } else {
            "中炮"
        };
        pgn.push_str(&format!("[Event \"{i}\"]\n1. 炮二平五 {{{comment}}} 马８进７ *\n\n"));
    }
    let out = qipu().args(["validate", "-"]).write_stdin(pgn.clone()).output().unwrap();
    assert!(
        stdout(&out).ends_with("50 game(s): 50 valid, 0 illegal, 0 unreadable (1 input(s))\n"),
        "{}",
        stdout(&out)
    );
    // A PGN that opens with a comment is not JSON.
    let out = qipu().args(["validate", "-"]).write_stdin("{开局} 1. 炮二平五 马８进７ *\n").output().unwrap();
    assert!(stdout(&out).contains("1 valid"), "{}", stdout(&out));
    // A control byte is a problem of the game that holds it, not of the file.
    let mut bytes = pgn.into_bytes();
    let at = bytes.iter().position(|&b| b == b'*').unwrap();
    bytes.insert(at, 0x01);
    let out = qipu().args(["validate", "-"]).write_stdin(bytes).output().unwrap();
    assert!(
        stdout(&out).ends_with("50 game(s): 49 valid, 1 illegal, 0 unreadable (1 input(s))\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn text_after_a_result_is_the_next_game_or_told() {
    let text = "[Event \"a\"]\n1. 炮二平五 马８进７ 1-0\n炮二平五 马８进７ 马二进三 1-0\n\n[Event \"b\"]\n1. h2e2 *\n欢迎访问\nwww.example.com\n";
    let out = qipu().args(["validate", "-"]).write_stdin(text).output().unwrap();
    let report = stdout(&out);
    assert!(report.ends_with("3 game(s): 3 valid, 0 illegal, 0 unreadable (1 input(s))\n"), "{report}");
    assert!(
        report.contains("-:7:1: warning: game 3: 2 line(s) of text after the result, not moves: not read"),
        "{report}"
    );
}

#[test]
fn json_lines_stream_and_a_damaged_line_is_one_game() {
    let line = r#"{"tags":[["Event","x"]],"fen":null,"result":"*","comment":null,"nodes":[{"id":1,"parent":0,"move":"h2e2","text":"h2e2","comment":null,"comment_before":null,"nags":[]}]}"#;
    let mut text = String::new();
    for i in 0..122 {
        text.push_str(if i == 60 { &line[..40] } else { line });
        text.push('\n');
    }
    let out = qipu().args(["validate", "-"]).write_stdin(text).output().unwrap();
    let report = stdout(&out);
    assert!(report.ends_with("122 game(s): 121 valid, 0 illegal, 1 unreadable (1 input(s))\n"), "{report}");
    assert!(
        report.contains("-:61:40: error: game 61: unreadable: JSON record: EOF while parsing"),
        "{report}"
    );
}

/// qipu reads back the JSON it writes, whatever a line's length: a record
/// with a comment over 16 MB, and one of many variations over 16 MB.
#[test]
fn json_lines_longer_than_16_mb_read_back() {
    use qipu::formats::{json, pgn};
    let mut long = pgn::read("[Event \"long\"]\n1. h2e2 {a} h9g7 2. h0g2 *").remove(0);
    let tree = long.tree_mut();
    let first = tree.main_line().next().unwrap();
    tree.node_mut(first).notes_mut().comment = Some("长".repeat(6 << 20));
    let mut pgn = String::from("[Event \"wide\"]\n1. h2e2 ");
    for i in 0..80_000 {
        pgn.push_str(&format!("(1. {} {{{i}: {}}}) ", ["b2e2", "h0g2", "c3c4"][i % 3], "v".repeat(180)));
    }
    pgn.push_str("h9g7 *\n");
    let wide = pgn::read(&pgn).remove(0);
    let small = pgn::read(GAME).remove(0);
    let lines: Vec<String> = [&small, &long, &small, &wide].iter().map(|r| json::write(r)).collect();
    assert!(lines[1].len() > 16 << 20 && lines[3].len() > 16 << 20);
    let text = lines.join("\n") + "\n";
    let out = qipu().args(["validate", "-"]).write_stdin(text.clone()).output().unwrap();
    let report = stdout(&out);
    assert!(report.ends_with("4 game(s): 4 valid, 0 illegal, 0 unreadable (1 input(s))\n"), "{report}");
    assert_eq!(out.status.code(), Some(0));
    // Converted again, each reads back the same (node ids numbered again
    // in the tree's order, as reading any record numbers them).
    let out = qipu().args(["convert", "--to", "json", "-"]).write_stdin(text).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let again = String::from_utf8(out.stdout).unwrap();
    let again: Vec<&str> = again.lines().collect();
    assert_eq!(again.len(), 4);
    for (i, line) in lines.iter().enumerate() {
        assert!(again[i] == json::write(&json::read(line)[0]), "record {i} reads back the same");
    }
    assert!(again[1] == lines[1], "the long comment reads back as written");
}

/// A JSON line that is not a record is dropped as it comes: one
/// unreadable game, told where it stops being JSON.
#[test]
fn a_long_json_line_of_junk_is_one_unreadable_game() {
    let small = qipu::formats::json::write(&qipu::formats::pgn::read(GAME)[0]);
    let text = format!("{small}\n{{\"tags\":[],\"nodes\":[{}\n{small}\n", "z".repeat(20 << 20));
    let out = qipu().args(["validate", "-"]).write_stdin(text).output().unwrap();
    let report = stdout(&out);
    assert!(report.ends_with("3 game(s): 2 valid, 0 illegal, 1 unreadable (1 input(s))\n"), "{report}");
    assert!(report.contains("-:2:21: error: game 2: unreadable: JSON record: expected value"), "{report}");
}

#[test]
fn jobs_are_capped_at_a_few_a_core() {
    let out =
        qipu().args(["validate", "--jobs", "18446744073709551615", "-"]).write_stdin(GAME).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("--jobs 18446744073709551615 is more than 4 a core"), "{}", stderr(&out));
}

#[test]
fn pgn_move_text_without_tags_keeps_its_variations_and_games() {
    // Plain-text lines cannot hold a variation or a comment between moves:
    // such a text is read as PGN, every game and move of it kept.
    let read = |text: &str| {
        let read = qipu::formats::read(text.as_bytes(), None).unwrap();
        let counts: Vec<(usize, usize)> = read
            .records
            .iter()
            .map(|r| {
                let replayed = qipu::record::replay::replay(r);
                (replayed.plies, replayed.variation_plies)
            })
            .collect();
        (read.format.name(), counts)
    };
    assert_eq!(
        read("1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *\n\n1. c3c4 *\n"),
        ("pgn", vec![(3, 2), (1, 0)])
    );
    assert_eq!(read("1. 炮二平五 (1. 相三进五) 马８进７\n2. 马二进三 *\n"), ("pgn", vec![(3, 1)]));
    assert_eq!(read("1. 炮二平五 {中炮} 马８进７\n2. 马二进三 *\n"), ("pgn", vec![(3, 0)]));
    // Plain text stays plain text: its header lines are no moves.
    assert_eq!(
        read("吉林洪智  红先和  上海林宏敏\n  1. 兵七进一  炮２平３    2. 炮八平五  炮８平５\n"),
        ("text", vec![(4, 0)])
    );
    assert_eq!(read("第1局 炮二平五 对 马８进７\n1. 炮二平五 马８进７\n"), ("text", vec![(2, 0)]));
}

#[test]
fn online_game_room_records_that_lie_are_refused_in_bounded_memory() {
    let dir = common::scratch("online-lies");
    // A .che file that declares 4,294,967,295 moves and holds one; one with
    // a number of 10,000 digits; a .ccm file of 1 MB of moves with a square
    // off the board near its end; a .chn file of a move and a record cut
    // short.
    let mut che_huge = b"1 4294967295 ".to_vec();
    che_huge.extend(b"26 32 1 2 7 2 4 0 1 0 ");
    let mut che_digits = b"1 1 26 32 1 2 7 2 4 0 1 0 ".to_vec();
    che_digits.extend(std::iter::repeat_n(b'9', 10_000));
    let mut ccm = Vec::new();
    for k in 0..150_000u32 {
        // h2-e2 and e2-h2 turned round, over and over.
        ccm.extend(if k % 2 == 0 { [1, 0, 0, 1, 4, 2, 2] } else { [1, 0, 0, 4, 1, 2, 2] });
    }
    let near_end = ccm.len() - 7 * 3 + 6;
    ccm[near_end] = 77;
    let mut chn = vec![0u8; 188];
    chn.extend([0, 0, 0, 0, 1, 0, 2, 0, 4, 0, 2, 0]);
    chn.extend([0; 20]);
    chn.extend([0, 0, 0, 0, 1, 0, 9, 0, 2, 0, 7, 0]);
    let cases: [(&str, &[u8], String); 4] = [
        (
            "huge.che",
            &che_huge,
            "byte 35: 4294967295 moves declared, so 42949672952 numbers, but the file holds 12".into(),
        ),
        ("digits.che", &che_digits, "byte 26: a number of 10000 digits: too large".into()),
        ("long.ccm", &ccm, format!("byte {near_end}: row 77 is off the board (0 to 9)")),
        (
            "cut.chn",
            &chn,
            "byte 220: a move record of 12 bytes at the end of the file: a record has 32".into(),
        ),
    ];
    for (name, bytes, reason) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let out =
            qipu().arg("validate").arg(&path).timeout(std::time::Duration::from_secs(20)).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        assert!(stdout(&out).contains(&format!(": error: unreadable: {reason}")), "{name}: {}", stdout(&out));
    }
}

/// Texts that mention or quote the PFC and DHJHtmlXQ formats are not
/// taken for them, and their games are kept; a file of both readers'
/// openings and nothing else holds no game.
#[test]
fn pfc_and_dhj_look_alikes_keep_their_games() {
    // A PGN whose comments quote DHJHtmlXQ blocks.
    let mut pgn = String::new();
    for i in 0..20 {
        let comment =
            if i % 7 == 0 { "[DHJHtmlXQ][DHJHtmlXQ_34]7242[/DHJHtmlXQ_34][/DHJHtmlXQ]" } else { "中炮" };
        pgn.push_str(&format!("[Event \"{i}\"]\n1. 炮二平五 {{{comment}}} 马８进７ *\n\n"));
    }
    let out = qipu().args(["validate", "-"]).write_stdin(pgn).output().unwrap();
    assert!(
        stdout(&out).ends_with("20 game(s): 20 valid, 0 illegal, 0 unreadable (1 input(s))\n"),
        "{}",
        stdout(&out)
    );
    // XML rooted at <n> without a version or a start: not a PFC record.
    let out = qipu()
        .args(["validate", "--format", "json", "-"])
        .write_stdin("<n><p>1. 炮二平五 马８进７</p></n>\n")
        .output()
        .unwrap();
    assert!(!stdout(&out).contains("\"format\":\"pfc\""), "{}", stdout(&out));
    // Prose naming the dialect's block: no record of it.
    let out = qipu()
        .args(["validate", "--format", "json", "-"])
        .write_stdin("The export uses [DHJHtmlXQ] blocks.\n")
        .output()
        .unwrap();
    assert!(!stdout(&out).contains("\"format\":\"dhjhtmlxq\""), "{}", stdout(&out));
    // A PFC document cut inside its tree is one unreadable input, named with its place.
    let out = qipu()
        .args(["validate", "-"])
        .write_stdin("<n version=\"2\" m=\"\"><n m=\"h2e2\">")
        .output()
        .unwrap();
    let report = stdout(&out);
    assert!(
        report.contains(
            "error: unreadable: line 1, column 33: truncated: the document ends inside <n> (depth 2)"
        ),
        "{report}"
    );
}

/// Tag names PGN cannot hold (from JSON records or DhtmlXQ pages: a `?`, a
/// `.`, a new line, a NUL, a space, a quote, a bracket) are left out of the
/// PGN written, each told on one line; what is written reads back as the
/// one valid game it was, with the tags PGN can hold.
#[test]
fn tag_names_pgn_cannot_hold_are_left_out_and_told() {
    let odd = ["Who?", "A.B", "new\nline", "nul\u{0}", "two words", "quo\"te", "br]ack[et", ""];
    let mut tags = vec![serde_json::json!(["Event", "x"])];
    tags.extend(odd.iter().map(|name| serde_json::json!([name, "v"])));
    tags.push(serde_json::json!(["Red_Team2", "kept"]));
    let record = serde_json::json!({"tags": tags, "nodes": [{"id": 1, "parent": 0, "move": "h2e2"}]});
    let out =
        qipu().args(["convert", "--to", "pgn", "-"]).write_stdin(format!("{record}\n")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = stdout(&out);
    assert!(written.contains("[Red_Team2 \"kept\"]"), "{written}");
    let report = stderr(&out);
    // The first five told one by one, the rest in one line.
    let told: Vec<&str> =
        report.lines().filter(|l| l.contains("PGN cannot write a tag of that name")).collect();
    assert_eq!(told.len(), 5, "{report}");
    assert!(
        report.contains("game 1: and 3 more tag(s) whose names PGN cannot write; not written"),
        "{report}"
    );
    assert!(report.contains("8 warning(s) of what was not kept"), "{report}");
    for line in &told {
        assert!(!line.contains('\0'), "{line:?}");
    }
    let back = qipu().args(["validate", "-"]).write_stdin(written.clone()).output().unwrap();
    assert_eq!(stdout(&back), "1 game(s): 1 valid, 0 illegal, 0 unreadable (1 input(s))\n", "{written}");
    let read = qipu::formats::pgn::read(&written);
    assert_eq!(read.len(), 1);
    let names: Vec<&str> = read[0].tags().iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"Event") && names.contains(&"Red_Team2"), "{names:?}");
    assert!(names.iter().all(|n| !odd.contains(n)), "{names:?}");
}
