//! A DhtmlXQ or DHJHtmlXQ block quoted in another format's text (a JSON
//! record's string, a PGN comment or tag value, a comment of PGN move text
//! without tags) is none of its records: the file is still read as its own
//! format, with all its games (issue 50). Genuine blocks (a DhtmlXQ page,
//! DHJHtmlXQ blocks, a block after a PGN's games) are read as before.

use crate::common;

use assert_cmd::Command;
use qipu::formats::{self, detect::Format};

const BLOCK: &str = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]";
const DHJ: &str = "[DHJHtmlXQ][DHJHtmlXQ_34]7747[/DHJHtmlXQ_34][/DHJHtmlXQ]";

/// Two games, the first quoting `block` in a comment (`in_tag` false) or
/// in a tag value.
fn pgn(block: &str, in_tag: bool) -> String {
    if in_tag {
        format!("[Event \"x\"]\n[Annotator \"{block}\"]\n1. h2e2 h9g7 *\n\n[Event \"y\"]\n1. h2e2 *\n")
    } else {
        format!("[Event \"x\"]\n{{see {block}}} 1. h2e2 h9g7 *\n\n[Event \"y\"]\n1. h2e2 *\n")
    }
}

fn told(bytes: &[u8]) -> (Format, usize) {
    let parsed = formats::read(bytes, None).unwrap();
    (parsed.format, parsed.records.len())
}

/// `text`'s games written as qipu's JSON lines.
fn json(text: &str) -> String {
    let options = formats::WriteOptions::new(formats::write::WriteFormat::Json);
    let records = formats::read(text.as_bytes(), None).unwrap().records;
    records.iter().map(|r| String::from_utf8(formats::write(r, &options).unwrap()).unwrap()).collect()
}

#[test]
fn a_quoted_block_does_not_decide_the_format() {
    for block in [BLOCK, DHJ] {
        for in_tag in [false, true] {
            let text = pgn(block, in_tag);
            assert_eq!(told(text.as_bytes()), (Format::Pgn, 2), "{text}");
            // One game only: the count of games cannot outvote the block.
            let one = &text[..text.find("\n\n").unwrap() + 1];
            assert_eq!(told(one.as_bytes()), (Format::Pgn, 1), "{one}");
            let json = json(&text);
            assert_eq!(told(json.as_bytes()), (Format::Json, 2), "{json}");
            let json_one = json.lines().next().unwrap();
            assert_eq!(told(json_one.as_bytes()), (Format::Json, 1), "{json_one}");
        }
        // PGN move text without tags.
        let tagless = format!("1. h2e2 {{{block}}} h9g7 *\n");
        assert_eq!(told(tagless.as_bytes()), (Format::Pgn, 1), "{tagless}");
    }
}

#[test]
fn genuine_blocks_are_read_as_before() {
    // A block alone, after a brace comment, and on a page.
    assert_eq!(told(BLOCK.as_bytes()).0, Format::Dhtmlxq);
    assert_eq!(told(format!("{{intro}}\n{BLOCK}\n").as_bytes()).0, Format::Dhtmlxq);
    assert_eq!(told(format!("<html><body>{BLOCK}</body></html>").as_bytes()).0, Format::Dhtmlxq);
    assert_eq!(told(DHJ.as_bytes()).0, Format::Dhj);
    // A brace in a genuine block's comment opens no PGN comment.
    let comment = "[DhtmlXQ][DhtmlXQ_comment1]{ 中炮[/DhtmlXQ_comment1][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]";
    assert_eq!(told(format!("{comment}\n{BLOCK}\n").as_bytes()), (Format::Dhtmlxq, 2));
    // A PGN whose games are followed by a genuine block is a PGN.
    let after = format!("[Event \"x\"]\n1. h2e2 *\n\n[Event \"y\"]\n1. h2e2 *\n\n{BLOCK}\n");
    assert_eq!(told(after.as_bytes()).0, Format::Pgn);
    // The DHJHtmlXQ fixtures.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/vschess");
    for n in 1..=3 {
        let bytes = std::fs::read(dir.join(format!("game-{n}.dhj.txt"))).unwrap();
        assert_eq!(told(&bytes), (Format::Dhj, 1));
    }
    // A real DhtmlXQ text and web pages.
    let Some(corpus) = common::corpus("dhtmlxq") else { return };
    for file in common::files(&corpus) {
        let bytes = std::fs::read(&file).unwrap();
        let Ok(parsed) = formats::read(&bytes, None) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        if text.contains("[DhtmlXQ") {
            assert_eq!(parsed.format, Format::Dhtmlxq, "{}", file.display());
        }
    }
}

#[test]
fn qipus_own_json_of_a_pgn_quoting_a_block_reads_back_whole() {
    let dir = common::scratch("quoted-blocks");
    for (name, block, in_tag) in
        [("comment", BLOCK, false), ("tag", BLOCK, true), ("dhj", DHJ, false), ("dhj-tag", DHJ, true)]
    {
        let pgn_path = dir.join(format!("{name}.pgn"));
        let json_path = dir.join(format!("{name}.json"));
        std::fs::write(&pgn_path, pgn(block, in_tag)).unwrap();
        Command::cargo_bin("qipu")
            .unwrap()
            .args(["convert", "--to", "json", "-q", "-o"])
            .arg(&json_path)
            .arg(&pgn_path)
            .assert()
            .success();
        let out = Command::cargo_bin("qipu").unwrap().arg("validate").arg(&json_path).output().unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(
            report.ends_with("2 game(s): 2 valid, 0 illegal, 0 unreadable (1 input(s))\n"),
            "{name}: {report}"
        );
    }
}

/// Found by the `roundtrip` fuzz target: the PFC document qipu wrote of a
/// PGN game whose tag quoted a DHJHtmlXQ block read back as DHJHtmlXQ,
/// without its moves.
#[test]
fn an_xml_record_whose_attributes_quote_a_block_is_itself() {
    for block in [DHJ, BLOCK] {
        let pfc = format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<n version=\"2\" win=\"*\" m=\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\" c=\"\" event=\"x\" remark=\"{block}\">\n<n m=\"h2e2\" c=\"\" default=\"true\"><n m=\"h9g7\" c=\"\" default=\"true\" /></n>\n</n>\n"
        );
        let parsed = formats::read(pfc.as_bytes(), None).unwrap();
        assert_eq!((parsed.format, parsed.records.len()), (Format::Pfc, 1), "{pfc}");
        assert_eq!(parsed.records[0].replayed().plies, 2);
    }
}
