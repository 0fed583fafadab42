//! 鹏飞 PFC and 广东象棋网 DHJHtmlXQ: the fixtures vschess wrote
//! (`scripts/gen-vschess-fixtures.sh`) read as the games they were written
//! from, through `validate` and `convert`; damaged inputs are errors, not
//! panics, and deep or long inputs read in linear time.

use crate::common;

use assert_cmd::Command;
use qipu::formats::{self, dhtmlxq::dhj, pfc, pgn};
use qipu::notation::Notation;
use qipu::record::Record;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vschess");

fn source() -> Vec<Record> {
    let text = std::fs::read_to_string(format!("{DIR}/source.pgn")).unwrap();
    pgn::read(&text)
}

fn read_one(name: &str) -> (String, Record) {
    let bytes = std::fs::read(format!("{DIR}/{name}")).unwrap();
    let mut parsed = formats::read(&bytes, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(parsed.records.len(), 1, "{name}");
    (parsed.format.name().to_string(), parsed.records.remove(0))
}

/// The move text of a game as ICCS PGN: its moves, variations and
/// comments, without the tags.
fn moves(record: &Record) -> String {
    let text = pgn::write(record, Notation::Iccs);
    text.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join("\n")
}

/// The main line with the comment after each move, and the game's.
fn main_line(record: &Record) -> Vec<(String, Option<String>)> {
    let tree = record.tree();
    let mut out = vec![("start".to_string(), tree.node(tree.root()).comment().map(str::to_string))];
    for (ply, id) in record.plies().zip(tree.main_line()) {
        out.push((ply.mv.to_string(), tree.node(id).comment().map(str::to_string)));
    }
    out
}

const TAGS: [&str; 6] = ["Event", "Date", "Red", "Black", "Round", "Result"];

#[test]
fn pfc_fixtures_read_as_their_source_games() {
    for (k, want) in source().iter().enumerate() {
        let name = format!("game-{}.pfc", k + 1);
        let (format, got) = read_one(&name);
        assert_eq!(format, "pfc");
        assert!(got.replayed().is_valid(), "{name}");
        assert_eq!(moves(&got), moves(want), "{name}");
        assert_eq!(got.fen(), want.fen(), "{name}");
        for tag in TAGS {
            assert_eq!(got.tag(tag), want.tag(tag), "{name} {tag}");
        }
        assert!(got.warnings().is_empty(), "{name}: {:?}", got.warnings());
    }
}

#[test]
fn dhj_fixtures_read_as_the_main_lines_of_their_source_games() {
    for (k, want) in source().iter().enumerate() {
        let name = format!("game-{}.dhj.txt", k + 1);
        let (format, got) = read_one(&name);
        assert_eq!(format, "dhjhtmlxq");
        assert!(got.replayed().is_valid(), "{name}");
        assert_eq!(got.tree().variation_count(), 0, "{name}: the format holds no variations");
        assert_eq!(main_line(&got), main_line(want), "{name}");
        // The board and the side to move; the move number is what the file's
        // start step (always 1 from vschess) says.
        let position = |r: &Record| r.fen().map(|f| f.split(' ').take(2).collect::<Vec<_>>().join(" "));
        assert_eq!(position(&got), position(want), "{name}");
        for tag in TAGS {
            assert_eq!(got.tag(tag), want.tag(tag), "{name} {tag}");
        }
        assert!(got.warnings().is_empty(), "{name}: {:?}", got.warnings());
    }
}

/// The fixtures in GBK and in Big5 (their XML declaration saying so, for
/// PFC) read as the UTF-8 ones: the text is decoded before it is told.
#[test]
fn gbk_and_big5_fixtures_read_as_the_utf8_ones() {
    let cases = [
        ("game-1.pfc", encoding_rs::GBK),
        ("game-1.dhj.txt", encoding_rs::GBK),
        ("game-3.pfc", encoding_rs::GBK),
        ("game-3.pfc", encoding_rs::BIG5),
        ("game-3.dhj.txt", encoding_rs::BIG5),
    ];
    for (name, encoding) in cases {
        let big5 = encoding == encoding_rs::BIG5;
        let label = if big5 { "big5" } else { "gbk" };
        let text = traditional(&std::fs::read_to_string(format!("{DIR}/{name}")).unwrap(), big5);
        let text = text.replace("encoding=\"utf-8\"", &format!("encoding=\"{label}\""));
        let (bytes, _, unmappable) = encoding.encode(&text);
        assert!(!unmappable, "{name} in {label}");
        let parsed = formats::read(&bytes, None).unwrap_or_else(|e| panic!("{name} in {label}: {e}"));
        let (format, utf8) = read_one(name);
        assert_eq!(parsed.format.name(), format, "{name} in {label}");
        let told = if big5 { "big5" } else { "gb18030" };
        assert_eq!(parsed.encoding.map(|e| e.name()), Some(told), "{name} in {label}");
        let got = &parsed.records[0];
        let want = pgn::read(&traditional(&pgn::write(&utf8, Notation::Iccs), big5)).remove(0);
        assert_eq!(moves(got), moves(&want), "{name} in {label}");
        assert_eq!(got.tag("Event"), want.tag("Event"), "{name} in {label}");
        assert_eq!(got.tag("Red"), want.tag("Red"), "{name} in {label}");
    }
}

/// `text` with game 3's simplified characters turned traditional (for
/// Big5, which holds only those), when `big5`.
fn traditional(text: &str, big5: bool) -> String {
    const TURNED: [(char, char); 5] = [('残', '殘'), ('练', '練'), ('习', '習'), ('将', '將'), ('军', '軍')];
    let turn = |c| TURNED.iter().find(|t| big5 && t.0 == c).map_or(c, |t| t.1);
    text.chars().map(turn).collect()
}

#[test]
fn validate_accounts_for_every_fixture() {
    let out =
        Command::cargo_bin("qipu").unwrap().args(["validate", "--format", "json", DIR]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let formats: Vec<&str> = stdout
        .lines()
        .map(|l| {
            if l.contains("\"format\":\"pfc\"") {
                "pfc"
            } else if l.contains("\"format\":\"dhjhtmlxq\"") {
                "dhj"
            } else {
                "other"
            }
        })
        .collect();
    assert_eq!(formats.iter().filter(|f| **f == "pfc").count(), 3, "{stdout}");
    assert_eq!(formats.iter().filter(|f| **f == "dhj").count(), 3, "{stdout}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("9 game(s): 9 valid, 0 illegal, 0 unreadable (7 input(s))")
    );
}

#[test]
fn convert_to_pgn_and_back_keeps_the_games() {
    let dir = common::scratch("vschess-convert");
    for name in ["game-1.pfc", "game-2.pfc", "game-3.pfc", "game-1.dhj.txt", "game-3.dhj.txt"] {
        let out = dir.join(format!("{name}.pgn"));
        Command::cargo_bin("qipu")
            .unwrap()
            .args(["-q", "convert", &format!("{DIR}/{name}"), "--to", "pgn", "-o"])
            .arg(&out)
            .assert()
            .success();
        let back = &pgn::read(&std::fs::read_to_string(&out).unwrap())[0];
        let (_, original) = read_one(name);
        assert_eq!(moves(back), moves(&original), "{name}");
        assert_eq!(back.fen(), original.fen(), "{name}");
        for tag in TAGS {
            assert_eq!(back.tag(tag), original.tag(tag), "{name} {tag}");
        }
    }
}

/// Every cut of a fixture, and bytes changed here and there, read to
/// records or errors, never a panic; a PFC cut inside its root is an error
/// naming its place.
#[test]
fn truncated_and_mutated_fixtures_give_errors_not_panics() {
    let mut random = common::Rng(0x9e37_79b9_7f4a_7c15);
    for name in ["game-2.pfc", "game-3.pfc", "game-2.dhj.txt", "game-3.dhj.txt"] {
        let bytes = std::fs::read(format!("{DIR}/{name}")).unwrap();
        for end in (0..bytes.len()).step_by(3) {
            let _ = formats::read(&bytes[..end], None);
        }
        for _ in 0..300 {
            let mut mutated = bytes.clone();
            for _ in 0..1 + random.below(4) {
                let k = random.below(mutated.len());
                mutated[k] = b"<>\"&/[]n= 0179abz*"[random.below(18)];
            }
            if let Ok(parsed) = formats::read(&mutated, None) {
                for record in &parsed.records {
                    let _ = record.replayed();
                }
            }
        }
    }
    let text = std::fs::read_to_string(format!("{DIR}/game-2.pfc")).unwrap();
    let cut = &text[..text.len() / 2];
    let e = pfc::read(cut).unwrap_err();
    assert!(e.to_string().starts_with("line 1, column "), "{e}");
    assert!(
        matches!(e.kind, pfc::PfcErrorKind::Truncated { .. } | pfc::PfcErrorKind::NotWellFormed { .. }),
        "{e}"
    );
    let e = formats::read(cut.as_bytes(), None).unwrap_err();
    assert_eq!(e.format.name(), "pfc");
}

#[test]
fn deep_nesting_and_long_lines_read_in_linear_time() {
    // 200,000 nested moves, kings stepping back and forth.
    let n = 200_000;
    let mut text = String::from("<n version=\"2\" m=\"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\">");
    let steps = ["d0d1", "e9e8", "d1d0", "e8e9"];
    for i in 0..n {
        text.push_str(&format!("<n m=\"{}\">", steps[i % 4]));
    }
    text.push_str(&"</n>".repeat(n + 1));
    let started = std::time::Instant::now();
    let record = pfc::read(&text).unwrap();
    assert_eq!(record.tree().main_line().count(), n);
    assert!(record.replayed().is_valid());
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    // Cut: truncated, with the elements left open.
    let e = pfc::read(&text[..text.len() - 4 * (n / 2)]).unwrap_err();
    assert_eq!(e.kind, pfc::PfcErrorKind::Truncated { depth: n / 2 });

    // A DHJHtmlXQ block of 100,000 unclosed tags on one line.
    let block = format!(
        "[DHJHtmlXQ]{}[DHJHtmlXQ_34]7242[/DHJHtmlXQ_34][/DHJHtmlXQ]",
        "[DHJHtmlXQ_11]x".repeat(100_000)
    );
    let started = std::time::Instant::now();
    let games = dhj::read(&block);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tree().main_line().count(), 1);
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());

    // 60,000 comments on three nodes taken in turn, in DHJHtmlXQ and in
    // DhtmlXQ: each node's put once, not copied again at each one.
    let n = 60_000;
    let comments = |open: &str, close: &str| -> String {
        (0..n).map(|i| format!("[{open}{}]c{i}[/{close}{}]", i % 3, i % 3)).collect()
    };
    let started = std::time::Instant::now();
    let dhj_text = format!(
        "[DHJHtmlXQ][DHJHtmlXQ_34]72427967[/DHJHtmlXQ_34]{}[/DHJHtmlXQ]",
        comments("game_comment_0_", "comment_0_")
    );
    let dhtml_text = format!(
        "[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]{}[/DhtmlXQ]",
        comments("DhtmlXQ_comment", "DhtmlXQ_comment")
    );
    for game in [&dhj::read(&dhj_text)[0], &formats::dhtmlxq::read(&dhtml_text)[0]] {
        let tree = game.tree();
        let last = tree.main_line().last().unwrap();
        let comment = tree.node(last).comment().unwrap();
        assert_eq!(comment.lines().count(), n / 3);
        assert!(comment.starts_with("c2\nc5\n"), "{}", &comment[..20]);
    }
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

/// `convert --to pfc -o DIR` writes a document per game that reads back
/// as the game (`scripts/gen-vschess-fixtures.sh` checks that vschess
/// reads them as the games too); only UTF-8 is written.
#[test]
fn convert_to_pfc_writes_documents_that_read_back() {
    let dir = common::scratch("vschess-to-pfc");
    let out = dir.join("pfc");
    Command::cargo_bin("qipu")
        .unwrap()
        .args(["-q", "convert", &format!("{DIR}/source.pgn"), "--to", "pfc", "-o"])
        .arg(&out)
        .assert()
        .success();
    for (k, want) in source().iter().enumerate() {
        let bytes = std::fs::read(out.join(format!("source-{}.pfc", k + 1))).unwrap();
        let parsed = formats::read(&bytes, None).unwrap();
        assert_eq!(parsed.format.name(), "pfc");
        let got = &parsed.records[0];
        assert_eq!(moves(got), moves(want), "game {}", k + 1);
        assert_eq!(got.fen(), want.fen(), "game {}", k + 1);
        for tag in TAGS {
            assert_eq!(got.tag(tag), want.tag(tag), "game {} {tag}", k + 1);
        }
    }
    let refused = Command::cargo_bin("qipu")
        .unwrap()
        .args(["convert", &format!("{DIR}/source.pgn"), "--to", "pfc", "--output-encoding", "gbk", "-o"])
        .arg(dir.join("gbk"))
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--to pfc writes documents in utf-8 only"));
}
