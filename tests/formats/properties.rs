//! Properties over generated games and damaged files (proptest):
//! - any legal game, written in any format and notation qipu writes, reads
//!   back to the same moves;
//! - a game whose tags and comments hold every awkward character, written in
//!   every format, notation and output encoding, reads back as one game
//!   with the same moves, variations, glyphs, comments and tags (changed
//!   only as each writer documents);
//! - any one-byte change of a valid file (PGN, XQF, DhtmlXQ, JSON, `.mxq`,
//!   `.SG`, `.che`, `.ccm`, `.chn`) gives records or an error, never a
//!   panic, and never more games than the original.

use proptest::prelude::*;
use qipu::formats::{self, dhtmlxq, json, pgn, xqf};
use qipu::notation::Notation;
use qipu::notation::chinese::Style;
use qipu::record::replay::replay;
use qipu::{Move, Position};

/// A legal game from the start: each choice picks one of the legal moves.
fn game(choices: &[u8]) -> (String, Vec<Move>) {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    let mut text = String::from("[Event \"generated\"]\n");
    for (ply, &c) in choices.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&format!("{m} "));
        pos.play_unchecked(m);
        moves.push(m);
    }
    text.push_str("*\n");
    (text, moves)
}

/// The main-line moves of every record of `bytes`, read as qipu reads a file.
fn read_moves(bytes: &[u8]) -> Vec<Vec<Move>> {
    formats::read(bytes, None).expect("readable").records.iter().map(|r| replay(r).moves).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_legal_game_reads_back_from_every_format(choices in prop::collection::vec(any::<u8>(), 0..120)) {
        let (text, moves) = game(&choices);
        let record = &pgn::read(&text)[0];
        let replayed = replay(record);
        prop_assert!(replayed.is_valid());
        prop_assert_eq!(&replayed.moves, &moves);
        for notation in [
            Notation::Chinese(Style::Simplified),
            Notation::Chinese(Style::Traditional),
            Notation::Wxf,
            Notation::Iccs,
            Notation::Uci,
        ] {
            let written = pgn::write(record, notation);
            prop_assert_eq!(read_moves(written.as_bytes()), vec![moves.clone()], "{:?}: {}", notation, written);
        }
        let written = json::write(record);
        prop_assert_eq!(read_moves(written.as_bytes()), vec![moves.clone()]);
        let written = dhtmlxq::write(record).unwrap();
        prop_assert_eq!(read_moves(written.as_bytes()), vec![moves.clone()]);
        for version in [xqf::Version::V10, xqf::Version::V18] {
            let written = xqf::write(record, version).unwrap();
            prop_assert_eq!(read_moves(&written), vec![moves.clone()]);
        }
        prop_assert_eq!(read_moves(&mxq_bytes(&moves)), vec![moves.clone()]);
        if moves.len() <= 450 {
            prop_assert_eq!(read_moves(&sg_bytes(&moves)), vec![moves.clone()]);
        }
        if !moves.is_empty() {
            for (k, bytes) in [che_bytes(&moves), ccm_bytes(&moves, false), ccm_bytes(&moves, true),
                               chn_bytes(&moves, false), chn_bytes(&moves, true)].iter().enumerate() {
                prop_assert_eq!(read_moves(bytes), vec![moves.clone()], "online layout {}", k);
            }
        }
    }

    #[test]
    fn a_changed_byte_never_panics_nor_adds_games(
        choices in prop::collection::vec(any::<u8>(), 1..60),
        format in 0usize..10,
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        change in 0usize..3,
    ) {
        let (text, _) = game(&choices);
        let two = format!("{text}\n{text}");
        let record = &pgn::read(&text)[0];
        let original: Vec<u8> = match format {
            0 => two.into_bytes(),
            1 => xqf::write(record, xqf::Version::V10).unwrap(),
            2 => xqf::write(record, xqf::Version::V18).unwrap(),
            3 => dhtmlxq::write(record).unwrap().into_bytes(),
            4 => json::write(record).into_bytes(),
            5 => mxq_bytes(&replay(record).moves),
            6 => sg_bytes(&replay(record).moves),
            7 => che_bytes(&replay(record).moves),
            8 => ccm_bytes(&replay(record).moves, true),
            _ => chn_bytes(&replay(record).moves, true),
        };
        let games = formats::read(&original, None).unwrap().records.len();
        let mut damaged = original.clone();
        let i = at.index(damaged.len());
        match change {
            0 => damaged[i] = byte,
            1 => { damaged.remove(i); }
            _ => damaged.insert(i, byte),
        }
        if let Ok(parsed) = formats::read(&damaged, None) {
            // No game is invented: the games that read are at most those
            // there were. A changed byte may cut one damaged stretch in two
            // (a newline inside a JSON line makes two lines, each reported
            // as one unreadable game), never more.
            let read = parsed.records.iter().filter(|r| r.unreadable().is_none()).count();
            prop_assert!(read <= games, "{} games read from {}", read, games);
            prop_assert!(parsed.records.len() <= games + 1, "{} games from {}", parsed.records.len(), games);
            for r in &parsed.records {
                let _ = replay(r);
            }
        }
    }
}

/// A QQ象棋 `.che` file of `moves` (qipu writes none: made here for the
/// test, as `crates/qipu/src/formats/online/mod.rs` describes the layout).
fn che_bytes(moves: &[Move]) -> Vec<u8> {
    let mut text = format!("1 {} ", moves.len());
    for (k, m) in moves.iter().enumerate() {
        let (f, t) = (m.from, m.to);
        let (r1, c1, r2, c2) = (f.rank().index(), f.file().index(), t.rank().index(), t.file().index());
        text += &format!("0 32 {} {r1} {c1} {r2} {c2} 0 {} 0 ", 1 - k % 2, k + 1);
    }
    text.into_bytes()
}

/// Column and row (from the top) of a move's squares, the board turned
/// round when `turned`.
fn cells(m: Move, turned: bool) -> [u8; 4] {
    let cell = |s: qipu::Square| {
        let (c, r) = (s.file().index() as u8, 9 - s.rank().index() as u8);
        if turned { (8 - c, 9 - r) } else { (c, r) }
    };
    let ((c1, r1), (c2, r2)) = (cell(m.from), cell(m.to));
    [c1, r1, c2, r2]
}

/// A 中游 `.ccm` file of `moves` (made here, as for `.che`).
fn ccm_bytes(moves: &[Move], turned: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for &m in moves {
        let [c1, r1, c2, r2] = cells(m, turned);
        out.extend([1, 0, 0, c1, c2, r1, r2]);
    }
    out
}

/// A 联众 `.chn` file of `moves` (made here, as for `.che`).
fn chn_bytes(moves: &[Move], turned: bool) -> Vec<u8> {
    let mut out = vec![0; 188];
    for &m in moves {
        let [c1, r1, c2, r2] = cells(m, turned);
        for word in [0, 0, c1, r1, c2, r2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {
            out.extend(u16::from(word).to_le_bytes());
        }
    }
    out
}

/// A 象棋世家 `.mxq` file of `moves` (qipu writes none: made here for the
/// test, as `crates/qipu/src/formats/mxq.rs` describes the layout).
fn mxq_bytes(moves: &[Move]) -> Vec<u8> {
    let mut strings: Vec<String> =
        ["room", "2003", "a-胜-b", "1", "2", "3", "4", "5", "6", "7", "end", "Moves"]
            .map(String::from)
            .to_vec();
    for m in moves {
        let t = m.to_string().into_bytes();
        let point = |f: u8, r: u8| format!("{}{}", (f - b'a' + b'0') as char, (r - b'0' + b'A') as char);
        strings.push(format!("{}-{}", point(t[0], t[1]), point(t[2], t[3])));
    }
    strings.extend(["Ends".to_string(), "CommentsEnd".to_string()]);
    let mut out = Vec::new();
    for s in strings {
        let (gbk, _, _) = encoding_rs::GBK.encode(&s);
        out.push(gbk.len() as u8);
        out.extend_from_slice(&gbk);
    }
    out
}

/// An `.SG` record of `moves` (at most 450; qipu writes none: made here
/// for the test, as `crates/qipu/src/formats/sg.rs` describes the layout).
fn sg_bytes(moves: &[Move]) -> Vec<u8> {
    let mut r = vec![b' '; 1192];
    r[0..3].copy_from_slice(b"red");
    r[0x40..0x43].copy_from_slice(b"D==");
    r[0x48..0x52].copy_from_slice(b"2004-05-29");
    let pieces = "148 150 152 154 156 165 171 197 203 196 204 198 202 199 201 200 \
                  100 102 104 106 108 085 091 053 059 052 060 054 058 055 057 056 ";
    r[0x52..0xD2].copy_from_slice(pieces.as_bytes());
    let point = |s: qipu::Square| (s.file().index() * 10 + (9 - s.rank().index()) + 10) as u8;
    let mut at = 0xD2;
    for m in moves {
        r[at] = point(m.from);
        r[at + 1] = point(m.to);
        at += 2;
    }
    if at < 0x456 {
        r[at] = 0x09;
    }
    r[0x456..0x45C].copy_from_slice(b"0 1 1 ");
    r[0x45C..].fill(0);
    r
}

/// Text for tags and comments with every awkward thing in it: quotes,
/// backslashes, braces, brackets, line breaks, control characters,
/// character references, DhtmlXQ and PGN syntax, white space at the ends,
/// characters of every width.
fn awkward() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        " ",
        "\"",
        "\\",
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        ";",
        "|",
        "||",
        "&#",
        "&#39532;",
        "\\u9a6c",
        "\n",
        "\r\n",
        "\r",
        "\t",
        "\0",
        "\u{14}",
        "马",
        "許",
        "　",
        "1-0",
        "*",
        "$1",
        "}END",
        "START{",
        "[DhtmlXQ]",
        "[/DhtmlXQ_comment1]",
        "\n\n[Event \"x\"]\n",
        "%",
        "😀",
        "\u{feff}",
        "炮二平五",
    ]);
    prop::collection::vec(pieces, 0..8).prop_map(|v| v.concat())
}

/// A record of a legal game with a variation, comments and annotation
/// glyphs, its tags and comments taken from `texts`.
fn awkward_record(choices: &[u8], texts: &[String], nags: &[u8]) -> qipu::record::Record {
    use qipu::record::{MoveText, Record, RecordedMove, Span};
    let mut record = Record::default();
    record.push_tag("Event", texts[0].clone());
    record.push_tag("Red", texts[1].clone());
    let tree = record.tree_mut();
    let root = tree.root();
    tree.node_mut(root).notes_mut().comment = Some(texts[2].clone()).filter(|t| !t.is_empty());
    let mut pos = Position::start();
    let mut at = root;
    for (ply, &c) in choices.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        let node = tree.add_child(at, RecordedMove { text: MoveText::Coords(m), at: Span::default() });
        if ply == 1 && legal.len() > 1 {
            let other = legal[(c as usize + 1) % legal.len()];
            let alt = tree.add_child(at, RecordedMove { text: MoveText::Coords(other), at: Span::default() });
            tree.node_mut(alt).notes_mut().comment = Some(texts[3].clone()).filter(|t| !t.is_empty());
        }
        let text = &texts[4 + ply % (texts.len() - 4)];
        if !text.is_empty() {
            tree.node_mut(node).notes_mut().comment = Some(text.clone());
        }
        if let Some(&nag) = nags.get(ply) {
            tree.node_mut(node).notes_mut().nags.push(nag);
        }
        pos.play_unchecked(m);
        at = node;
    }
    record
}

/// `text` cut on a character boundary to at most `capacity` bytes of
/// GB18030, as an XQF header field holds it.
fn within(text: &str, capacity: usize) -> String {
    let mut end = text.len();
    while encoding_rs::GB18030.encode(&text[..end]).0.len() > capacity {
        end = text[..end].char_indices().next_back().map_or(0, |(i, _)| i);
    }
    text[..end].to_string()
}

/// Whether `line` reads as a tag line `[Name "value"]`, as qipu writes
/// tags into the comment about the game of XQF and DhtmlXQ.
fn tag_line(line: &str) -> bool {
    let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else { return false };
    let Some((name, quoted)) = inner.split_once(' ') else { return false };
    let named = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let Some(body) = quoted.strip_prefix('"').and_then(|q| q.strip_suffix('"')) else { return false };
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.next(), Some('\\' | '"')) => {}
            '\\' | '"' => return false,
            _ => {}
        }
    }
    named
}

/// The comment about the game as XQF and DhtmlXQ write it: a last line
/// that reads as a tag line gets `［` (the comment then written as a
/// reader sees it).
fn tag_guarded(comment: &str) -> String {
    let cleaned = qipu::formats::clean::lines(comment);
    let text = cleaned.trim_end();
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    if !tag_line(&text[start..]) {
        return comment.to_string();
    }
    format!("{}［{}", &cleaned[..start], &cleaned[start + 1..])
}

/// What a record must still say after a trip through a format: its moves
/// and their places in the tree, its comments and its tags, each as the
/// format's writer documents it writes them.
fn said(record: &qipu::record::Record, through: &str) -> Vec<String> {
    use qipu::formats::clean;
    let r = replay(record);
    let tree = &record.tree();
    let guard = |t: &str| {
        t.replace("[DhtmlXQ", "［DhtmlXQ").replace("[dhtmlxq", "［dhtmlxq").replace("[/DhtmlXQ", "［/DhtmlXQ")
    };
    let text = |c: Option<String>| -> Option<String> {
        let c = c?;
        let c = match through {
            "json" => c,
            "pgn" => {
                let mut lines = Vec::new();
                let mut after_blank = false;
                for line in clean::lines(&c).replace('}', "｝").split('\n') {
                    let guarded = after_blank && line.trim_start().starts_with('[') && line.contains('"');
                    lines.push(if guarded { line.replacen('[', "［", 1) } else { line.to_string() });
                    after_blank = line.trim().is_empty();
                }
                lines.join("\n")
            }
            "xqf" => clean::lines(&c).into_owned(),
            _ => guard(&clean::lines(&c)),
        };
        Some(c).filter(|c| !c.is_empty())
    };
    let mut out = Vec::new();
    for id in tree.depth_first() {
        let node = tree.node(id);
        let comment = match through {
            "json" | "pgn" => node.comment().map(str::to_string),
            _ if id == tree.root() => node.merged_comment().map(|c| tag_guarded(&c)),
            _ => node.merged_comment(),
        };
        let nags = if matches!(through, "json" | "pgn") { node.nags().to_vec() } else { Vec::new() };
        let place = node.parent.map(|p| tree.children(p).position(|c| c == id).unwrap());
        out.push(format!("{:?} {place:?} {:?} {nags:?}", r.resolution.move_of(id), text(comment)));
    }
    for (name, capacity) in [("Event", 63), ("Red", 15)] {
        let value = record.tag(name).map(|v| match through {
            "json" => v.to_string(),
            "pgn" => clean::one_line(v).into_owned(),
            "xqf" => within(&clean::one_line(v), capacity),
            _ => guard(&clean::one_line(v)),
        });
        let value = value.filter(|v| match through {
            "dhtmlxq" => !v.trim().is_empty(),
            "xqf" => !v.is_empty(),
            _ => true,
        });
        out.push(format!("{name}={value:?}"));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Everything qipu writes, in every format, notation and output
    /// encoding, reads back as one game that says the same.
    #[test]
    fn awkward_text_reads_back_from_every_format_and_encoding(
        choices in prop::collection::vec(any::<u8>(), 1..12),
        texts in prop::collection::vec(awkward(), 8),
        nags in prop::collection::vec(1u8..7, 0..12),
    ) {
        use qipu::formats::encoding::Encoding;
        let record = awkward_record(&choices, &texts, &nags);
        let replayed = replay(&record);
        prop_assert!(replayed.is_valid());
        let mut written: Vec<(&str, Notation, String)> = Vec::new();
        for notation in [Notation::Chinese(Style::Simplified), Notation::Chinese(Style::Traditional), Notation::Wxf, Notation::Iccs] {
            written.push(("pgn", notation, pgn::write(&record, notation)));
        }
        written.push(("json", Notation::Uci, json::write(&record)));
        written.push(("dhtmlxq", Notation::Uci, dhtmlxq::write(&record).unwrap()));
        for version in [xqf::Version::V10, xqf::Version::V18] {
            let bytes = xqf::write(&record, version).unwrap();
            let back = xqf::read(&bytes).unwrap();
            prop_assert_eq!(said(&back, "xqf"), said(&record, "xqf"), "{:?}", version);
        }
        for (format, notation, text) in &written {
            for encoding in [Encoding::Utf8, Encoding::Gb18030, Encoding::Big5] {
                if encoding == Encoding::Big5 && *notation == Notation::Chinese(Style::Simplified) {
                    continue; // Big5 output writes traditional moves
                }
                let Ok(bytes) = encoding.encode(text) else {
                    prop_assert_eq!(encoding, Encoding::Big5, "only Big5 lacks characters");
                    continue;
                };
                // Chinese moves tell GBK from Big5 by content; otherwise
                // a few characters cannot, and the encoding is given (as
                // `--encoding` does).
                let chinese = matches!(notation, Notation::Chinese(_)) && choices.len() >= 4;
                let parsed = formats::read(&bytes, (!chinese).then_some(encoding));
                let parsed = parsed.map_err(|e| TestCaseError::fail(format!("{format} {encoding}: {e}: {text}")))?;
                prop_assert_eq!(parsed.records.len(), 1, "{} {}: {}", format, encoding, text);
                prop_assert_eq!(said(&parsed.records[0], format), said(&record, format), "{} {} {:?}: {}", format, encoding, notation, text);
            }
        }
    }
}

/// Lines of PGN-like text of every kind a chunk boundary could fall next
/// to: tags, empty lines, moves, results, comments open and closed, `;`
/// comments, variations, separators, footers, stray brackets.
fn pgn_line() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "[Event \"a\"]",
        "[Site \"b\"]",
        "[Event \"a\"] [Round \"2\"]",
        "",
        "",
        "",
        "1. h2e2 h9g7",
        "2. h0g2",
        "1. 炮二平五 马８进７",
        "h2e2 h9g7",
        "*",
        "1-0",
        "2. h0g2 0-1",
        "{ a comment",
        "closes } 1. h2e2",
        "{ whole }",
        "; a comment 1-0",
        "(1. b2e2)",
        "( 1. b2e2",
        ")",
        "=====",
        "footer text",
        "[x 1-0",
        "1. h2e2 { x } {",
        "} {",
        "1-0 {",
        "\u{3000}; x",
        "[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// A PGN text read in chunks (with heads and pieces small enough to put
    /// a boundary at every line) gives exactly the games of reading it whole.
    #[test]
    fn pgn_read_in_chunks_equals_pgn_read_whole(
        lines in prop::collection::vec(pgn_line(), 1..60),
        head in 8usize..64,
        piece in 1usize..40,
    ) {
        let text = format!("[Event \"first\"]\n{}\n", lines.join("\n"));
        let whole = formats::read(text.as_bytes(), None);
        let mut streamed = Vec::new();
        let read = formats::stream::split_sized(text.as_bytes(), None, head, piece).and_then(|split| {
            formats::stream::read_split(split, &mut qipu::record::RecordBuilder::default(), |r| streamed.push(r))
        });
        match (whole, read) {
            (Ok(whole), Ok(read)) => {
                prop_assert_eq!(whole.format, read.format);
                prop_assert_eq!(whole.records, streamed);
            }
            (Err(a), Err(b)) => prop_assert_eq!(a.reason, b.reason),
            (a, b) => prop_assert!(false, "whole {:?}, streamed {:?}", a.map(|r| r.records.len()), b),
        }
    }
}

/// Lines of DhtmlXQ text and of the web pages that hold it, of every kind a
/// chunk boundary could fall next to: blocks opened and closed (any kind,
/// any case, alone on their line, in markup, several to a line), tags
/// open, closed and left open, values across lines, mentions of a block's
/// name without tags, closing tags of another kind.
fn dhtmlxq_line() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "[DhtmlXQ]",
        "[dhtmlxq]",
        "[/DhtmlXQ]",
        "[DhtmlXQiFrame]",
        "[/DHTMLXQIFRAME]",
        "<p>[DhtmlXQHTML]",
        "[/dhtmlxqhtml]</p>",
        "[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]",
        "[DhtmlXQ_movelist]7747",
        "7062[/DhtmlXQ_movelist]",
        "[DhtmlXQ_move_0_2_1]1022[/DhtmlXQ_move_0_2_1]",
        "[DhtmlXQ_comment1]中炮",
        "說明[/DhtmlXQ_comment1]",
        "[DhtmlXQ_title]開局[/DhtmlXQ_title][/DhtmlXQ]",
        "[DhtmlXQ][DhtmlXQ_red]許銀川[/DhtmlXQ_red][/DhtmlXQ] [DhtmlXQ][DhtmlXQ_black]b",
        "<div>[DhtmlXQiFrame][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQiFrame]</div>",
        "[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]",
        "[DhtmlXQ_result]红胜[/DhtmlXQ_result]",
        "The export uses `[DhtmlXQ]` (not `[DhtmlXQiFrame]`).",
        "[/DhtmlXQiFrame] [DhtmlXQ_event]e[/DhtmlXQ_event]",
        "<html><body>",
        "</body></html>",
        "",
        "\r",
        "[DhtmlXQ_",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// A DhtmlXQ text read in chunks (with heads that hold its first block
    /// and pieces small enough to put a boundary at every line) gives
    /// exactly the records of reading it whole.
    #[test]
    fn dhtmlxq_read_in_chunks_equals_dhtmlxq_read_whole(
        lines in prop::collection::vec(dhtmlxq_line(), 1..60),
        head in 70usize..160,
        piece in 1usize..40,
    ) {
        let text = format!(
            "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n{}\n{}\n",
            lines.join("\n"),
            "<p>the end of the page</p>".repeat(4),
        );
        let whole = formats::read(text.as_bytes(), None).unwrap();
        prop_assert_eq!(whole.format, formats::detect::Format::Dhtmlxq);
        let mut streamed = Vec::new();
        let split = formats::stream::split_sized(text.as_bytes(), None, head, piece).unwrap();
        prop_assert!(matches!(split, formats::stream::Split::Chunks(_)));
        let read = formats::stream::read_split(split, &mut qipu::record::RecordBuilder::default(), |r| streamed.push(r)).unwrap();
        prop_assert_eq!(read.format, formats::detect::Format::Dhtmlxq);
        prop_assert_eq!(whole.records, streamed);
    }
}
