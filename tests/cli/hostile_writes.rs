//! Records that qipu writes past what it reads (issue 50): a game written
//! larger than a reader's limit is written whole with a warning that it
//! will not read back, and a record of many tags that a format cannot
//! keep is told of in a few lines, not one a tag. Each record is generated
//! here.

use crate::common::{self, qipu};

/// A JSON record of one move whose comment is `comment`, with `tags`.
fn json_record(comment: &str, tags: &[(String, String)]) -> String {
    let tags: Vec<String> = tags.iter().map(|(n, v)| format!("[\"{n}\",\"{v}\"]")).collect();
    format!(
        "{{\"tags\":[{}],\"fen\":null,\"result\":\"*\",\"comment\":null,\"nodes\":[{{\"id\":1,\"parent\":0,\"move\":\"h2e2\",\"text\":\"h2e2\",\"comment\":\"{comment}\",\"comment_before\":null,\"nags\":[]}}]}}\n",
        tags.join(",")
    )
}

#[test]
fn a_game_written_past_a_readers_limit_is_told_it_will_not_read_back() {
    let dir = common::scratch("write-limits");
    let input = dir.join("big.json");
    std::fs::write(&input, json_record(&"x".repeat(17 << 20), &[])).unwrap();
    // PGN writes the comment on one line of 17 MB, longer than a line qipu reads.
    let pgn = dir.join("big.pgn");
    let out = qipu()
        .args(["convert", "--to", "pgn", "--notation", "iccs", "-o"])
        .arg(&pgn)
        .arg(&input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "big.json: warning: game 1: written as a PGN line of 17 MB; qipu reads lines up to 16 MB, so it will not read back"
        ),
        "{err}"
    );
    // Written whole all the same.
    assert!(std::fs::metadata(&pgn).unwrap().len() > 17 << 20);
    let out = qipu().arg("validate").arg(&pgn).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 unreadable"));
    // JSON lines read back whatever their length: no warning.
    let json = dir.join("again.json");
    let out = qipu().args(["convert", "--to", "json", "-o"]).arg(&json).arg(&input).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("read back"));
    let out = qipu().arg("validate").arg(&json).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 valid"));
}

#[test]
fn many_tags_a_format_cannot_keep_are_told_in_a_few_lines() {
    let dir = common::scratch("many-tags");
    let tags: Vec<(String, String)> =
        (0..100_000).map(|k| (format!("bad name {k}"), "v".to_string())).collect();
    let input = dir.join("tags.json");
    std::fs::write(&input, json_record("c", &tags)).unwrap();
    let out =
        qipu().args(["convert", "--to", "pgn", "-o"]).arg(dir.join("tags.pgn")).arg(&input).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() <= 8, "{} lines: {:?}", lines.len(), &lines[..lines.len().min(10)]);
    assert!(
        err.contains(
            "tags.json: warning: game 1: and 99995 more tag(s) whose names PGN cannot write; not written"
        ),
        "{err}"
    );
    // The summary still counts every tag.
    assert!(err.contains("100000 warning(s) of what was not kept"), "{err}");
}

/// Found by the `roundtrip` fuzz target: a game with a tag given twice
/// (two `Event` tags on one line) was written as a PFC element with the attribute
/// twice, which no XML reader reads. The first is written, the second told.
#[test]
fn a_tag_given_twice_is_written_once_as_a_pfc_attribute() {
    use qipu::formats::{
        self,
        detect::Format,
        write::{self, WriteFormat, WriteOptions, WriteWarning},
    };
    // Two tags on one line, as the fuzz target's input had them.
    let pgn = "[Event \"Computer Chess Game\"][Event \"China Team Championship 1998\"]\n1. h2e2 h9g7 *\n";
    let record = &formats::read(pgn.as_bytes(), None).unwrap().records[0];
    let written = write::write_with_warnings(record, &WriteOptions::new(WriteFormat::Pfc)).unwrap();
    assert_eq!(written.warnings, vec![WriteWarning::TagRepeated { tag: "Event".into(), format: "PFC" }]);
    let back = formats::read(&written.bytes, None).unwrap();
    assert_eq!((back.format, back.records.len()), (Format::Pfc, 1));
    assert_eq!(back.records[0].tag("Event"), Some("Computer Chess Game"));
    assert_eq!(back.records[0].replayed().plies, 2);
}

/// Found by the `roundtrip` fuzz target: an EPD line with an opcode given
/// twice (`bm`) read as a game with two `bm` tags, written as PGN with the
/// tag twice, which reads back as two games (a tag given again starts a
/// game). PGN, DhtmlXQ and PFC hold a tag of a name once: the first is
/// written, the others told.
#[test]
fn a_tag_given_again_is_written_once_and_told() {
    use qipu::formats::{
        self,
        write::{self, WriteFormat, WriteOptions, WriteWarning},
    };
    let epd = "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - id \"x\"; bm d0e0; Bm \"d0d1\"; bm x;\n";
    let record = &formats::read(epd.as_bytes(), None).unwrap().records[0];
    assert_eq!(record.tags().iter().filter(|(n, _)| n.eq_ignore_ascii_case("bm")).count(), 3);
    for (format, name) in
        [(WriteFormat::Pgn, "PGN"), (WriteFormat::Dhtmlxq, "DhtmlXQ"), (WriteFormat::Pfc, "PFC")]
    {
        let written = write::write_with_warnings(record, &WriteOptions::new(format)).unwrap();
        let again = |tag: &str| WriteWarning::TagRepeated { tag: tag.into(), format: name };
        assert_eq!(written.warnings, [again("Bm"), again("bm")], "{format:?}");
        let back = formats::read(&written.bytes, None).unwrap();
        assert_eq!(back.records.len(), 1, "{format:?}: {}", String::from_utf8_lossy(&written.bytes));
        let fen = back.records[0].replayed().resolution.start.as_ref().map(|p| p.fen());
        assert_eq!(fen.as_deref(), Some("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1"), "{format:?}");
    }
    // JSON keeps every tag.
    let json = write::write_with_warnings(record, &WriteOptions::new(WriteFormat::Json)).unwrap();
    assert!(json.warnings.is_empty());
    assert_eq!(formats::read(&json.bytes, None).unwrap().records[0].tags(), record.tags());
    let told = WriteWarning::TagRepeated { tag: "bm".into(), format: "PGN" }.to_string();
    assert_eq!(told, "tag bm: given again; PGN holds a tag of a name once; the first written, not this one");
}
