//! Streamed and whole readings agree.

use super::*;
use crate::formats::pgn;
use crate::record::{Record, RecordBuilder};

/// The records of `bytes` read a piece at a time, with heads and
/// pieces of the sizes given, and how it was read.
fn read_stream_sized(bytes: &[u8], head: usize, piece: usize) -> Result<(Read, Vec<Record>), Unreadable> {
    read_stream_in(bytes, None, head, piece)
}

/// [`read_stream_sized`] in the encoding given.
fn read_stream_in(
    bytes: &[u8],
    encoding: Option<Encoding>,
    head: usize,
    piece: usize,
) -> Result<(Read, Vec<Record>), Unreadable> {
    let mut records = Vec::new();
    let split = split_sized(bytes, encoding, head, piece)?;
    let read = read_split(split, &mut RecordBuilder::default(), |r| records.push(r))?;
    Ok((read, records))
}

fn read_stream(bytes: &[u8]) -> Result<(Read, Vec<Record>), Unreadable> {
    read_stream_sized(bytes, HEAD, PIECE)
}

#[test]
fn a_large_text_streams_in_pieces_with_the_same_games() {
    // Over HEAD bytes of GBK PGN: read in pieces, with line numbers that go on.
    let game = "[Event \"全国赛\"]\r\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\r\n\r\n";
    let text = game.repeat(HEAD / game.len() * 2 + 3);
    let (gbk, _, _) = encoding_rs::GBK.encode(&text);
    let (read, streamed) = read_stream(&gbk).unwrap();
    assert_eq!((read.format, read.encoding), (Format::Pgn, Some(Encoding::Gb18030)));
    let whole = pgn::read(&text);
    assert_eq!(streamed.len(), whole.len());
    assert_eq!(streamed, whole);
    let Split::Chunks(chunks) = split(&gbk[..], None).unwrap() else { panic!("read in chunks") };
    assert!(chunks.count() >= 2);
}

/// Reads `bytes` a piece at a time and whole; both must give the same
/// games, and they are returned.
fn streamed_and_whole(bytes: &[u8]) -> Vec<Record> {
    let (_, streamed) = read_stream(bytes).unwrap();
    let whole = super::super::read(bytes, None).unwrap().records;
    assert_eq!(streamed.len(), whole.len());
    assert!(streamed == whole, "streamed and whole readings differ");
    streamed
}

#[test]
fn a_large_text_of_mixed_encodings_reads_each_line_in_its_own() {
    let game = |event: &str| format!("[Event \"{event}\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n\n");
    let national = game("全国赛");
    let (gbk, _, _) = encoding_rs::GBK.encode(&national);
    let copies = HEAD / gbk.len() * 2;
    // GB18030 with UTF-8 games after the first megabyte, and the other way round.
    let mut legacy_first = gbk.repeat(copies);
    legacy_first.extend_from_slice(game("统一码·赛").as_bytes());
    legacy_first.extend_from_slice(&gbk);
    let mut utf8_first = game("统一码·赛").repeat(copies).into_bytes();
    utf8_first.extend_from_slice(&gbk);
    utf8_first.extend_from_slice(game("统一码 — 赛").as_bytes());
    for bytes in [legacy_first, utf8_first] {
        let games = streamed_and_whole(&bytes);
        assert!(games.len() > copies);
        for g in &games {
            let event = g.tag("Event").unwrap();
            assert!(["全国赛", "统一码·赛", "统一码 — 赛"].contains(&event), "{event}");
            assert_eq!(g.tree().main_line().count(), 4);
        }
        assert!(games.iter().any(|g| g.tag("Event") == Some("全国赛")));
    }
}

#[test]
fn a_large_utf16_text_streams() {
    let text = "[Event \"赛\"]\r\n1. 炮二平五 马８进７ *\r\n\r\n".repeat(HEAD / 40);
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let games = streamed_and_whole(&bytes);
    assert_eq!(games.len(), HEAD / 40);
    assert_eq!(games[7].tag("Event"), Some("赛"));
}

#[test]
fn tiny_pieces_cut_characters_and_lines_anywhere() {
    let text =
        "[Event \"赛\"]\n{开局\n说明}\n1. 炮二平五 马８进７\r\n2. 马二进三 *\n\n[Event \"b\"]\n1. h2e2 *\n";
    let whole = pgn::read(text);
    for (head, piece) in [(16, 1), (20, 3), (33, 7), (64, 2)] {
        let (_, streamed) = read_stream_sized(text.as_bytes(), head, piece).unwrap();
        assert_eq!(streamed, whole, "head {head}, piece {piece}");
    }
}

#[test]
fn a_line_too_long_to_read_fails_its_game_only() {
    let game = |n: usize| format!("[Event \"{n}\"]\n1. h2e2 h9g7 *\n\n");
    let mut text = game(1).repeat(HEAD / 20);
    let before = pgn::read(&text).len();
    text.push_str("[Event \"long\"]\n1. h2e2 {");
    text.push_str(&"x".repeat(MAX_LINE + 10));
    text.push_str("}\n*\n\n");
    text.push_str(&game(3));
    let (_, games) = read_stream(text.as_bytes()).unwrap();
    assert_eq!(games.len(), before + 2);
    let long = &games[before];
    let why = long.unreadable().expect("the long line's game fails");
    assert!(why.message.contains("line longer than 16 MB"), "{}", why.message);
    assert_eq!(why.at.line as usize, 3 * before + 2, "three lines a game before it");
    assert!(games[before + 1].unreadable().is_none(), "the next game reads");
    assert_eq!(games[before + 1].tag("Event"), Some("3"));
}

#[test]
fn a_large_wxf_file_is_not_taken_for_pgn() {
    // A line of its header that reads as a PGN tag does not make it PGN.
    let game = "FORMAT  WXF\nRED     a ; 1200 ;;\n[Note \"x\"]\nSTART{\n 1. C2.5 h8+7 }END\n";
    let text = game.repeat(HEAD / game.len() + 10);
    let (read, games) = read_stream(text.as_bytes()).unwrap();
    assert_eq!((read.format, games.len()), (Format::Wxf, HEAD / game.len() + 10));
}

#[test]
fn small_and_other_inputs_are_read_whole() {
    assert_eq!(read_stream(b"[Event \"a\"]\n1. h2e2 *\n").unwrap().1.len(), 1);
    assert!(read_stream(b"\x00\x01binary").is_err());
}

#[test]
fn tags_right_after_a_game_start_a_chunk_unless_a_comment_may_be_open() {
    // Tags right after the result (no empty line): a new game. Inside a
    // comment (here opened on the line before it) the same line is
    // comment text. In Big5 `吥` ends in the byte of `}`, 叻 in that
    // of `{`; in GBK `亇` and `亄`.
    let text = "[Event \"a\"]\n1. h2e2\n1-0\n[Event \"b\"]\n1. h2e2 { open\n[Event \"c\"]\nclosed }\n\
                [Event \"d\"]\n1. h2e2 {叻} 叻\n[Event \"e\"]\n1. h2e2 { 吥 亇\n[Event \"f\"]\n}\n";
    for (encode, encoding) in [
        (encoding_rs::UTF_8, Encoding::Utf8),
        (encoding_rs::BIG5, Encoding::Big5),
        (encoding_rs::GBK, Encoding::Gb18030),
    ] {
        let (bytes, _, _) = encode.encode(text);
        let whole = super::super::read(&bytes, Some(encoding)).unwrap().records;
        assert_eq!(whole.len(), 4, "c is inside b's comment, f inside e's");
        for (head, piece) in [(8, 1), (16, 3), (24, 7), (40, 2)] {
            let (_, streamed) = read_stream_in(&bytes, Some(encoding), head, piece).unwrap();
            assert_eq!(streamed, whole, "{} head {head}, piece {piece}", encode.name());
        }
    }
}

#[test]
fn chunks_cut_only_where_every_reading_starts_a_game() {
    // Games that end in every way a chunk boundary could be misread:
    // a result in a `;` comment, in an open comment, tags that go on
    // after an empty line, a footer, move text without tags, a `(` left
    // open, a result written inside a comment; games without results,
    // a line that opens with `[` but is no tag, a variation without a
    // move before it, a separator, a full-width space.
    let text = "[Event \"a\"]\n1. h2e2 h9g7 1-0\n\n[Event \"b\"]\n; note 0-1\n\n[Site \"b2\"]\n1. h2e2 *\n\n\
                [Event \"c\"]\n1. h2e2 {open 1-0\n\n[Event \"d\"]\n1. b2e2 (1. h2e2 *\n\n[Event \"e\"]\n\
                1. h2e2 1/2-1/2\nfooter 0-1\n\n[Event \"f\"]\n1. h2e2 *\n1. b2e2 *\n\n[Event \"g\"]\n{x 1-0}\n\n[Event \"h\"]\n*\n\n\
                [Event \"i\"]\n[x 1-0\n\n[Site \"i2\"]\n1. h2e2\n\n[Event \"j\"]\n(1. h2e2)\n\n[Site \"j2\"]\n\
                1. h2e2\n\n[Event \"k\"]\n=====\n\n[Site \"k2\"]\n1. h2e2\n\n[Event \"l\"]\n\u{3000};x\n\n[Site \"l2\"]\n\
                1. h2e2\n\n[Event \"m\"]\n1. h2e2\n\n[Event \"n\"]\n[Event \"n2\"]\n1. h2e2\n";
    let whole = pgn::read(text);
    for (head, piece) in [(8, 1), (8, 5), (16, 11), (40, 3), (64, 64), (200, 7)] {
        let (_, streamed) = read_stream_sized(text.as_bytes(), head, piece).unwrap();
        assert_eq!(streamed, whole, "head {head}, piece {piece}");
    }
}

/// Reads `bytes` whole and a piece at a time with heads and pieces of the
/// sizes given: the same format, the same records (compared with `==`:
/// every span, warning and error), or the same error. Returns whether the
/// input was read in chunks (else it was read whole), and the records.
fn same_as_whole(
    bytes: &[u8],
    encoding: Option<Encoding>,
    head: usize,
    piece: usize,
) -> (bool, Result<Vec<Record>, Unreadable>) {
    let whole = super::super::read(bytes, encoding);
    let chunked = matches!(split_sized(bytes, encoding, head, piece), Ok(Split::Chunks(_)));
    let streamed = read_stream_in(bytes, encoding, head, piece);
    let at = format!("head {head}, piece {piece}, {} bytes", bytes.len());
    match (whole, streamed) {
        (Ok(whole), Ok((read, streamed))) => {
            assert_eq!(whole.format, read.format, "{at}");
            assert_eq!(whole.records.len(), streamed.len(), "{at}");
            for (k, (w, s)) in whole.records.iter().zip(&streamed).enumerate() {
                assert!(w == s, "{at}: record {k} differs:\nwhole {w:?}\nstreamed {s:?}");
            }
            (chunked, Ok(streamed))
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                (a.format, &a.reason, a.holds_no_record),
                (b.format, &b.reason, b.holds_no_record),
                "{at}"
            );
            (chunked, Err(b))
        }
        (a, b) => panic!("{at}: whole {:?}, streamed {:?}", a.map(|p| p.records.len()), b.map(|r| r.1.len())),
    }
}

/// The chunks `bytes` is cut into, with heads and pieces of the sizes given.
fn chunk_count(bytes: &[u8], encoding: Option<Encoding>, head: usize, piece: usize) -> usize {
    match split_sized(bytes, encoding, head, piece).unwrap() {
        Split::Chunks(chunks) => chunks.count(),
        Split::Whole(_) => 0,
    }
}

/// A character whose second byte in `encoding` is `[` (0x5B), if it has one.
fn bracket_trail(encoding: &'static encoding_rs::Encoding) -> Option<char> {
    ('\u{4E00}'..='\u{9FA5}').find(|&c| {
        let mut buf = [0; 4];
        let (bytes, _, bad) = encoding.encode(c.encode_utf8(&mut buf));
        !bad && bytes.len() == 2 && bytes[1] == b'['
    })
}

/// DhtmlXQ blocks in every shape a cut could be misread in: on one line,
/// across lines (a tag's value too), in a web page, in every kind and
/// case, not closed (before a block that opens at a line's start, and in
/// a line), closed by the tag of another kind, a mention of `[DhtmlXQ]`
/// without tags, a tag left open; `trap` is a character whose second byte
/// is `[`, before `/DhtmlXQ]` in a comment (a closing tag in the bytes,
/// not in the text).
fn dhtmlxq_text(copies: usize, trap: char) -> String {
    let mut text = String::from(
        "[DhtmlXQ][DhtmlXQ_title]開局[/DhtmlXQ_title][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]\n",
    );
    for i in 0..copies {
        text.push_str(&format!(
            "[DhtmlXQ]\n[DhtmlXQ_red]許銀川 {i}[/DhtmlXQ_red]\n[DhtmlXQ_movelist]7747\n7062[/DhtmlXQ_movelist]\n\
             [DhtmlXQ_comment1]中炮\r\n說明[/DhtmlXQ_comment1]\n[/DhtmlXQ]\n\
             <div class=\"x\">[dhtmlxqiframe][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DHTMLXQIFRAME]</div><p>[DhtmlXQHTML]\n\
             [DhtmlXQ_title]b{i}[/DhtmlXQ_title]\n[/dhtmlxqhtml]</p>\n\
             [DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_comment0]open\n<p>not closed</p>\n\
             [DhtmlXQ][DhtmlXQ_movelist]1022[/DhtmlXQ_movelist][/DhtmlXQ]\n\
             [DhtmlXQ][DhtmlXQ_movelist]7967[/DhtmlXQ_movelist][DhtmlXQ_comment0]x\n<p>x [DhtmlXQiFrame][DhtmlXQ_title]c[/DhtmlXQ_title][/DhtmlXQiFrame]</p>\n\
             [DhtmlXQ][DhtmlXQ_title]x[/DhtmlXQ_title][/DhtmlXQiFrame]\nmore[DhtmlXQ_event]e[/DhtmlXQ_event]\n[/DhtmlXQ]\n\
             <p>The export uses `[DhtmlXQ]` here</p>\n<p>and here</p>\n\
             [DhtmlXQ][DhtmlXQ_title]an open tag\n[/DhtmlXQ]\n\
             [DhtmlXQ][DhtmlXQ_comment0]{trap}/DhtmlXQ]\n繼續 {trap}/DhtmlXQ][/DhtmlXQ_comment0]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n\
             <p>{trap}DhtmlXQ] 中</p>\n"
        ));
    }
    text
}

#[test]
fn dhtmlxq_read_in_chunks_equals_dhtmlxq_read_whole() {
    let utf8_trap = '中';
    for (name, encoding) in [
        ("utf-8", None),
        ("gbk", Some((encoding_rs::GBK, Encoding::Gb18030))),
        ("big5", Some((encoding_rs::BIG5, Encoding::Big5))),
    ] {
        let trap = encoding.map_or(Some(utf8_trap), |(e, _)| bracket_trail(e)).expect("a character");
        let text = dhtmlxq_text(12, trap);
        let (bytes, forced) = match encoding {
            None => (text.clone().into_bytes(), None),
            Some((e, ours)) => {
                let (bytes, _, bad) = e.encode(&text);
                assert!(!bad, "{name}");
                (bytes.into_owned(), Some(ours))
            }
        };
        let whole = super::super::read(&bytes, forced).unwrap();
        assert_eq!(whole.format, Format::Dhtmlxq);
        assert_eq!(whole.records.len(), 1 + 12 * 9, "{name}");
        assert!(whole.records.iter().any(|r| r.warnings().iter().any(|w| w.message.contains("not closed"))));
        let mut chunked = 0;
        for (head, piece) in [(110, 1), (120, 5), (200, 17), (400, 64), (1000, 333), (4000, 2000)] {
            let (in_chunks, _) = same_as_whole(&bytes, forced, head, piece);
            chunked += usize::from(in_chunks);
        }
        assert_eq!(chunked, 6, "{name}: every head holds a block and is read in chunks");
        assert!(chunk_count(&bytes, forced, 200, 17) > 12 * 5, "{name}: cut often");
    }
    // Blocks never closed, each opening a line: cut between them.
    let unclosed = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_comment0]x\n".repeat(50);
    let (_, records) = same_as_whole(unclosed.as_bytes(), None, 100, 100);
    assert_eq!(records.unwrap().len(), 50);
    assert!(chunk_count(unclosed.as_bytes(), None, 100, 100) > 10);
}

#[test]
fn a_large_dhtmlxq_text_streams_in_its_encoding() {
    // Over HEAD bytes, undetected encodings: GBK with a UTF-8 line in it,
    // Big5, UTF-16 with its mark; the whole reading is the reference.
    let text = dhtmlxq_text(HEAD / 900 + 40, '中');
    assert!(text.len() > HEAD + 20_000);
    let utf8_line = "<p>統一碼 — 說明</p>\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(&text);
    let mut mixed = gbk.into_owned();
    mixed.extend_from_slice(utf8_line.as_bytes());
    mixed.extend_from_slice(
        &encoding_rs::GBK.encode("[DhtmlXQ][DhtmlXQ_title]尾[/DhtmlXQ_title][/DhtmlXQ]\n").0,
    );
    let (big5, _, _) = encoding_rs::BIG5.encode(&text);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    for (bytes, encoding) in
        [(mixed, Encoding::Gb18030), (big5.into_owned(), Encoding::Big5), (utf16, Encoding::Utf16Le)]
    {
        let (read, _) = read_stream(&bytes).unwrap();
        assert_eq!((read.format, read.encoding), (Format::Dhtmlxq, Some(encoding)));
        assert!(chunk_count(&bytes, None, HEAD, PIECE) >= 2);
        let (chunked, records) = same_as_whole(&bytes, None, HEAD, PIECE);
        assert!(chunked);
        let records = records.unwrap();
        assert!(records.iter().any(|r| r.tag("Red") == Some("許銀川 3")), "{encoding}");
    }
}

#[test]
fn a_dhtmlxq_line_too_long_to_read() {
    let text = dhtmlxq_text(HEAD / 900 + 2, '中');
    assert!(text.len() > HEAD);
    let lines = text.lines().count() as u32;
    let block = "[DhtmlXQ][DhtmlXQ_title]after[/DhtmlXQ_title][/DhtmlXQ]\n";
    // A line of markup, too long to read, between blocks: skipped, as the
    // whole reading skips text between blocks.
    let long = format!("<p>{}</p>\n", "x".repeat(MAX_LINE + 10));
    let between = format!("{text}{long}{block}");
    let (chunked, records) = same_as_whole(between.as_bytes(), None, HEAD, PIECE);
    assert!(chunked);
    let records = records.unwrap();
    assert_eq!(records.last().unwrap().tag("Title"), Some("after"));
    assert_eq!(records.last().unwrap().at().line, lines + 2);
    // In a block, or holding a block's opening tag (here cut between two
    // pieces, after the first 16 MB of the line): an unreadable game at the
    // line; the block before it ends there.
    let opening = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n";
    let seam = HEAD + (MAX_LINE / PIECE + 8) * PIECE - 4;
    let start = text.len();
    let tag = "[dhtmlXQ]";
    let mut cut_tag = format!("<p>{}", "y".repeat(seam - start - 3));
    cut_tag.push_str(tag);
    cut_tag.push_str(&"y".repeat(PIECE));
    cut_tag.push('\n');
    for (before, line) in [(opening, long.as_str()), ("", cut_tag.as_str())] {
        let input = format!("{text}{before}{line}{block}");
        let (_, games) = read_stream(input.as_bytes()).unwrap();
        let n = games.len();
        assert_eq!(games[n - 1].tag("Title"), Some("after"));
        let why = games[n - 2].unreadable().expect("the long line is a game");
        assert!(why.message.contains("line longer than 16 MB"), "{}", why.message);
        let long_line = lines + 1 + u32::from(!before.is_empty());
        assert_eq!((why.at.line, games[n - 1].at().line), (long_line, long_line + 1));
        if !before.is_empty() {
            assert!(
                games[n - 3].warnings()[0].message.contains("not closed"),
                "{:?}",
                games[n - 3].warnings()
            );
            assert_eq!(games[n - 3].tree().main_line().count(), 1);
        }
    }
}

mod libraries {
    use super::*;
    use crate::formats::ccbridge::testing::*;
    use crate::formats::ccbridge::{COMPRESSED_FORMAT, COMPRESSED_MAGIC};

    const INDEX_AT: usize = 66_624;
    const ENTRY_LEN: usize = 276;
    const SLOT_LEN: usize = 4096;

    /// A plain library with every kind of entry: records, unused and
    /// deleted entries, a record in an unknown state, records longer than
    /// a slot, a record that cannot be read (a square off the board) and
    /// one that is not a record, in 40 index entries.
    fn plain_library() -> Vec<u8> {
        let mut good = cbr_header();
        good.extend(tree_with_a_variation());
        let mut bad = cbr_header();
        bad.extend(node(0, 0, 0, None));
        bad.extend(node(0x01, 70, 99, None));
        let mut long = cbr_header();
        long.extend(node(0, 0, 0, Some(&"長".repeat(2500))));
        long.extend(node(0x01, 70, 67, None));
        assert!(long.len() > SLOT_LEN);
        let records = [
            (7, good.clone()),
            (0, Vec::new()),
            (5, good.clone()),
            (7, bad),
            (7, long.clone()),
            (0, Vec::new()),
            (3, good.clone()),
            (7, b"not a record".to_vec()),
            (5, long.clone()),
            (7, good.clone()),
            (7, long),
            (7, good),
        ];
        library(40, &records)
    }

    /// Every place a library can be cut at: in the header, in the index, in
    /// a record, at a slot's end.
    fn cuts(len: usize) -> Vec<usize> {
        let index_end = INDEX_AT + 40 * ENTRY_LEN;
        let mut cuts =
            vec![0, 10, 63, 64, 100, INDEX_AT - 1, INDEX_AT + 5, index_end - 1, index_end, index_end + 2000];
        cuts.extend((1..len.div_ceil(SLOT_LEN)).map(|k| index_end + k * SLOT_LEN / 2));
        cuts.retain(|&cut| cut < len);
        cuts.push(len);
        cuts
    }

    #[test]
    fn a_plain_library_read_in_chunks_equals_it_read_whole() {
        let file = plain_library();
        let (chunked, records) = same_as_whole(&file, None, 100, 5000);
        assert!(chunked);
        let records = records.unwrap();
        assert_eq!(records.len(), 8, "deleted and unused entries are not games");
        assert_eq!(records.iter().filter(|r| r.unreadable().is_some()).count(), 2);
        assert!(chunk_count(&file, None, 100, 3000) >= 4);
        let mut streamed = 0;
        for cut in cuts(file.len()) {
            for (head, piece) in
                [(16, 1), (64, 3000), (100, 5000), (5000, 9000), (70_000, 100), (70_000, 1 << 20)]
            {
                let (chunked, _) = same_as_whole(&file[..cut], None, head, piece);
                streamed += usize::from(chunked);
            }
        }
        assert!(streamed > 50, "{streamed} read in chunks");
    }

    #[test]
    fn plain_library_entries_that_point_past_the_end_or_hold_nothing() {
        // A record's length past the end of the file (its slot and those of
        // the entries after it lie past the end too), an index larger than
        // the file, an index without a record.
        let mut good = cbr_header();
        good.extend(tree_with_a_variation());
        let mut file = library(8, &[(7, good.clone()), (7, good.clone()), (7, good.clone())]);
        let second = INDEX_AT + ENTRY_LEN;
        file[second + 12..second + 16].copy_from_slice(&u32::MAX.to_le_bytes());
        let (_, records) = same_as_whole(&file, None, 100, 700);
        let records = records.unwrap();
        assert!(records[1].unreadable().unwrap().message.contains("goes past the end of the file"));
        assert!(records[2].unreadable().unwrap().message.contains("goes past the end of the file"));
        let mut huge = library(4, &[(7, good)]);
        huge[60..64].copy_from_slice(&1_000_000u32.to_le_bytes());
        let (_, e) = same_as_whole(&huge, None, 100, 700);
        assert!(e.unwrap_err().reason.to_string().contains("does not fit in the file"));
        let mut empty = library(3, &[]);
        empty.resize(empty.len() + 5000, 0);
        let (chunked, e) = same_as_whole(&empty, None, 100, 700);
        assert!(chunked);
        assert_eq!(e.unwrap_err().reason, UnreadableReason::EmptyLibrary);
    }

    #[test]
    fn a_plain_library_record_too_long_to_hold_is_not_read() {
        let mut good = cbr_header();
        good.extend(tree_with_a_variation());
        let mut long = cbr_header();
        long.extend(node(0x05, 0, 0, None));
        long.extend(((MAX_LINE as u32) + 2).to_le_bytes());
        long.resize(long.len() + MAX_LINE + 2, 0x20);
        let file = library(4, &[(7, long), (7, good)]);
        let (_, streamed) = read_stream_sized(&file, 100, 1 << 20).unwrap();
        let why = streamed[0].unreadable().unwrap();
        assert!(why.message.contains("longer than qipu reads (16 MB): not read"), "{}", why.message);
        assert_eq!(why.at.column as usize, INDEX_AT + 4 * ENTRY_LEN);
        let whole = super::super::super::read(&file, None).unwrap().records;
        assert!(whole[0].unreadable().is_none(), "read whole, it is read");
        assert!(streamed[1] == whole[1]);
    }

    /// Compressed-library games: good ones, one with an illegal ply
    /// number, one whose comments are short of its moves.
    fn compressed_games(n: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| match i % 5 {
                3 => compressed_game(&[(1, 0x77, 0x47), (3, 0x70, 0x62)], b"\r\n\r\n"),
                4 => compressed_game(&[(1, 0x77, 0x47), (2, 0x70, 0x62)], b"x\r\n"),
                _ => compressed_game(
                    &[(1, 0x77, 0x47), (2, 0x70, 0x62), (1, 0x79, 0x67)],
                    b"\xd6\xd0\r\n\r\n\r\n",
                ),
            })
            .collect()
    }

    /// The zlib stream of a compressed library's data.
    fn zlib(data: &[u8]) -> Vec<u8> {
        compress_library(data)[20..].to_vec()
    }

    /// Compressed libraries whole and damaged in every way whole reading
    /// tells apart: broken, truncated, with more or fewer bytes than it
    /// says, more than its stream can hold, a game's length unusable, a
    /// game count too large, trailing bytes.
    fn compressed_cases() -> Vec<(&'static str, Vec<u8>)> {
        let games = compressed_games(60);
        let data = library_data(&games);
        let file = compress_library(&data);
        let mut cases = vec![("whole", file.clone())];
        let mut broken = file.clone();
        let middle = broken.len() / 2;
        broken[middle] ^= 0x55;
        cases.push(("broken", broken));
        let mut checksum = file.clone();
        let last = checksum.len() - 1;
        checksum[last] ^= 1;
        cases.push(("checksum", checksum));
        cases.push(("truncated", file[..file.len() - 9].to_vec()));
        cases.push(("header only", file[..20].to_vec()));
        cases.push(("cut header", file[..17].to_vec()));
        let mut more = file.clone();
        more[16..20].copy_from_slice(&(data.len() as u32 - 1).to_le_bytes());
        cases.push(("declared one less", more));
        let mut fewer = file.clone();
        fewer[16..20].copy_from_slice(&(data.len() as u32 + 1).to_le_bytes());
        cases.push(("declared one more", fewer));
        let mut ratio = file.clone();
        ratio[16..20].copy_from_slice(&(200u32 << 20).to_le_bytes());
        cases.push(("more than the stream holds", ratio));
        let mut too_big = file.clone();
        too_big[16..20].copy_from_slice(&(300u32 << 20).to_le_bytes());
        cases.push(("over the limit", too_big));
        let mut trailing = file.clone();
        trailing.extend([7u8; 3000]);
        cases.push(("trailing bytes", trailing));
        let mut cut = games.clone();
        cut[30][0] = 0xFF;
        cut[30][1] = 0xFF;
        cases.push(("a game's length unusable", compress_library(&library_data(&cut))));
        let mut count = library_data(&games);
        let count_at = data.len() - games.iter().map(Vec::len).sum::<usize>() - 4 - 4;
        count[count_at..count_at + 4].copy_from_slice(&1_000_000u32.to_le_bytes());
        cases.push(("a game count too large", compress_library(&count)));
        let mut mark = COMPRESSED_MAGIC.to_vec();
        mark.extend(COMPRESSED_FORMAT.to_le_bytes());
        mark.extend(3u32.to_le_bytes());
        mark.extend((data.len() as u32).to_le_bytes());
        let mut short_data = mark.clone();
        short_data.extend(zlib(&data[..data.len() - 100]));
        cases.push(("a stream shorter than declared", short_data));
        cases
    }

    #[test]
    fn a_compressed_library_read_in_chunks_equals_it_read_whole() {
        let data_len = library_data(&compressed_games(60)).len();
        for (name, file) in compressed_cases() {
            let mut streamed = 0;
            for (head, piece) in
                [(12, 1 << 20), (16, 100_000), (20, data_len), (64, 4096), (300, 64), (2000, 7)]
            {
                let (chunked, records) = same_as_whole(&file, None, head, piece);
                if !chunked {
                    continue;
                }
                streamed += 1;
                if let Ok(records) = records {
                    assert_eq!(records.len(), 60, "{name}");
                }
                // Records are held until the stream is checked, up to 32
                // pieces: beyond, those before a late failure stay read.
                if 32 * piece >= data_len {
                    let mut got = 0;
                    let _ = read_split(
                        split_sized(&file[..], None, head, piece).unwrap(),
                        &mut RecordBuilder::default(),
                        |_| got += 1,
                    );
                    let whole = super::super::super::read(&file, None).map_or(0, |p| p.records.len());
                    assert_eq!(got, whole, "{name}: head {head}, piece {piece}");
                }
            }
            assert!(streamed >= 5 || file.len() < 64, "{name}: {streamed} read in chunks");
        }
    }

    #[test]
    fn a_compressed_library_failing_late_keeps_the_records_handed_on() {
        // Games that do not compress to nothing (comments of letters from a
        // pseudo-random sequence), so that the stream is long and its
        // checksum, wrong, is found at its end.
        let mut seed = 7u32;
        let games: Vec<Vec<u8>> = (0..2000)
            .map(|_| {
                let mut comment: Vec<u8> = (0..200)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        b'a' + (seed >> 16) as u8 % 26
                    })
                    .collect();
                comment.extend(b"\r\n");
                compressed_game(&[(1, 0x77, 0x47)], &comment)
            })
            .collect();
        let mut file = compress_library(&library_data(&games));
        assert!(file.len() > 200_000);
        let last = file.len() - 1;
        file[last] ^= 1;
        let whole = super::super::super::read(&file, None).unwrap_err();
        assert!(whole.reason.to_string().contains("the zlib stream is broken"), "{}", whole.reason);
        for (piece, held) in [(1 << 20, true), (1000, false)] {
            let mut got = 0;
            let split = split_sized(&file[..], None, 64, piece).unwrap();
            let e = read_split(split, &mut RecordBuilder::default(), |_| got += 1).unwrap_err();
            assert_eq!(e.reason, whole.reason);
            if held {
                assert_eq!(got, 0, "32 pieces hold every record: none is handed on");
            } else {
                assert!(got > 1000 && got < 2000, "{got} games before the failure");
            }
        }
    }
}

/// WXF games in every shape a cut could be misread in: PlayOK's with
/// `FORMAT` lines, XieXie's without (a key after `}END` starts the next
/// game), a block left open up to the next `FORMAT` line, a second block
/// without a header, text after `}END`, a `SETUP{` block over lines with a
/// `FORMAT` line in it, a key the game already has, a position without moves.
fn wxf_text(copies: usize) -> String {
    let mut text = String::new();
    for i in 0..copies {
        text.push_str(&format!(
            "FORMAT  WXF\nRED     甲 {i} ; 1200 ;;\nBLACK   乙 ; 1240 ;;\nRESULT  1-0\nSTART{{\n 1. C2.5 h8+7   2. H2+3 }}END\n\
             FORMAT WXF\nRED x\nSTART{{\n 1. C2.5 h8+7\nFORMAT WXF\nRED y\nSTART{{ 1. C2.5 }}END\ntrailing words\n\
             START{{\n 1. P7+1 }}END\nGAME\nRED\t;;;\nFEN rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r\n\nSTART{{\n}}END\n\
             DATE 2014-07-16\nSETUP{{ Rh0\nFORMAT WXF\n}}\nRED z\nRED again\nSTART{{ 1. C2.5 h8+7 }}END\n\n"
        ));
    }
    text
}

#[test]
fn wxf_read_in_chunks_equals_wxf_read_whole() {
    let text = wxf_text(20);
    let whole = super::super::read(text.as_bytes(), None).unwrap();
    assert_eq!(whole.format, Format::Wxf);
    assert_eq!(whole.records.len(), 20 * 7);
    for encoding in [None, Some((encoding_rs::GBK, Encoding::Gb18030))] {
        let bytes = match encoding {
            None => text.clone().into_bytes(),
            Some((e, _)) => e.encode(&text).0.into_owned(),
        };
        let forced = encoding.map(|(_, ours)| ours);
        for (head, piece) in [(200, 1), (200, 7), (300, 64), (1000, 333), (4000, 2000)] {
            let (chunked, records) = same_as_whole(&bytes, forced, head, piece);
            assert!(chunked, "head {head}: read in chunks");
            assert_eq!(records.unwrap().len(), 20 * 7);
        }
        assert!(chunk_count(&bytes, forced, 200, 7) > 20 * 3, "cut often");
    }
}

/// Plain-text games in every shape a cut could be misread in: tournament
/// headers, XQStudio's header lines and footer, rules, numbered moves
/// starting again after a result (more games in one run of moves), blank
/// lines between move lines, character references, header lines at the
/// end with no moves after them.
fn plain_text(copies: usize) -> String {
    let mut text = String::new();
    for i in 0..copies {
        text.push_str(&format!(
            "第{i}轮\n吉林洪智  红先和  上海林宏敏\n  1. 兵七进一  炮２平３    2. 炮八平五  炮８平５\n\n  3. 马八进七 马８进７\n\
             ----------\n标题: 顺炮局 {i}\n红方: 甲\n结果: 红胜\n----------\n 1. 炮二平五 炮８平５ 1-0\n\n 1. 相三进五 象３进５ *\n\
             棋谱由XQStudio生成\n火车头金波红先负 湖南张申宏\n1. &#28846;二平五  马８进７\n"
        ));
    }
    text.push_str("对局结束\n说明\n");
    text
}

#[test]
fn plain_text_read_in_chunks_equals_plain_text_read_whole() {
    let text = plain_text(20);
    let whole = super::super::read(text.as_bytes(), None).unwrap();
    assert_eq!(whole.format, Format::Text);
    assert_eq!(whole.records.len(), 20 * 4);
    let last = whole.records.last().unwrap();
    assert!(
        last.warnings().iter().any(|w| w.message.contains("after the last moves")),
        "{:?}",
        last.warnings()
    );
    for encoding in
        [None, Some((encoding_rs::GBK, Encoding::Gb18030)), Some((encoding_rs::BIG5, Encoding::Big5))]
    {
        let bytes = match encoding {
            None => text.clone().into_bytes(),
            Some((e, _)) => e.encode(&text).0.into_owned(),
        };
        let forced = encoding.map(|(_, ours)| ours);
        for (head, piece) in [(400, 1), (400, 9), (600, 64), (1000, 333), (4000, 2000)] {
            let (chunked, records) = same_as_whole(&bytes, forced, head, piece);
            assert!(chunked, "head {head}: read in chunks");
            assert_eq!(records.unwrap().len(), 20 * 4);
        }
        assert!(chunk_count(&bytes, forced, 400, 9) > 20 * 2, "cut often");
    }
}

#[test]
fn plain_text_without_a_game_says_so_read_either_way() {
    let prose = "这是一篇文章，没有棋谱。\n".repeat(40);
    let (chunked, read) = same_as_whole(prose.as_bytes(), None, 100, 10);
    assert!(!chunked, "no game in its head: read whole");
    let e = read.unwrap_err();
    assert_eq!((e.format, &e.reason), (Format::Text, &UnreadableReason::NoLineOfMoves));
}

#[test]
fn tagless_pgn_move_text_is_read_whole() {
    // A head that reads better as PGN (comments between moves) is read
    // whole, as it was: it has no place to cut.
    let text = "{开局} 1. 炮二平五 {中炮} 马８进７ 2. 马二进三 *\n\n".repeat(30);
    let (chunked, games) = same_as_whole(text.as_bytes(), None, 100, 10);
    assert!(!chunked);
    assert!(!games.unwrap().is_empty());
}

/// The records of `bytes` read a piece at a time, games being held up to
/// `most` bytes.
fn read_limited(bytes: &[u8], head: usize, piece: usize, most: usize) -> Vec<Record> {
    let split = split_limited(bytes, None, (head, piece), most).unwrap();
    let mut records = Vec::new();
    read_split(split, &mut RecordBuilder::default(), |r| records.push(r)).unwrap();
    records
}

#[test]
fn a_game_too_long_to_hold_is_one_unreadable_game_and_the_rest_read() {
    // A game of many lines (comments, moves) in every format that is cut
    // at games: the game is one unreadable game, every other reads as in
    // the whole text.
    let long_pgn = format!("[Event \"long\"]\n1. h2e2\n{}*\n\n", "{a comment line}\n".repeat(400));
    let pgn_game = |i: usize| format!("[Event \"{i}\"]\n1. h2e2 h9g7 *\n\n");
    let long_wxf =
        format!("FORMAT WXF\nRED long\nSTART{{\n{}}}END\n", " 1. C2.5 h8+7 2. C5.1 h7-8\n".repeat(400));
    let wxf_game = |i: usize| format!("FORMAT WXF\nRED p{i}\nSTART{{ 1. C2.5 }}END\n");
    let long_text = format!("长局\n{}", "1. 炮二平五 马８进７\n".repeat(400));
    let text_game = |i: usize| format!("第{i}局\n1. 炮二平五 马８进７\n");
    let long_dhtmlxq =
        format!("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_comment0]{}", "x\n".repeat(4000));
    let dhtmlxq_game = |i: usize| format!("[DhtmlXQ][DhtmlXQ_title]{i}[/DhtmlXQ_title][/DhtmlXQ]\n");
    let cases: [(&str, &dyn Fn(usize) -> String); 4] = [
        (&long_pgn, &pgn_game),
        (&long_wxf, &wxf_game),
        (&long_text, &text_game),
        (&long_dhtmlxq, &dhtmlxq_game),
    ];
    for (long, game) in cases {
        for at in [0, 7, 30] {
            let mut text: String = (0..at).map(game).collect();
            let first_line = text.matches('\n').count() as u32 + 1;
            text.push_str(long);
            text.extend((at..40).map(game));
            let whole = super::super::read(text.as_bytes(), None).unwrap().records;
            assert_eq!(whole.len(), 41, "{long:.20}");
            for piece in [5, 64, 300] {
                let streamed = read_limited(text.as_bytes(), 200, piece, 2000);
                assert_eq!(streamed.len(), 41, "{long:.20} at {at}, piece {piece}");
                for (k, (w, s)) in whole.iter().zip(&streamed).enumerate() {
                    if k == at {
                        let why = s.unreadable().expect("the long game is not read");
                        assert!(why.message.contains("more than 2000 bytes"), "{}", why.message);
                        assert_eq!(why.at.line, first_line, "{long:.20}: where the game starts");
                    } else {
                        assert!(w == s, "{long:.20} at {at}, piece {piece}: game {k} differs");
                    }
                }
            }
        }
    }
}

/// The records of `bytes` read whole, in the encoding given.
fn read_whole_in(bytes: &[u8], encoding: Option<Encoding>) -> (Read, Vec<Record>) {
    let mut records = Vec::new();
    let read = crate::formats::read_with(bytes, encoding, &mut RecordBuilder::default(), |r| records.push(r))
        .unwrap();
    (read, records)
}

#[test]
fn a_forced_encoding_reads_every_line_in_it_whole_or_in_pieces() {
    // A GBK text holding a line of UTF-8 Chinese: detected, that line is read
    // as UTF-8; forced to GBK, it is read as GBK in both readings.
    let (gbk, _, _) = encoding_rs::GBK.encode("[Event \"国标\"]\n1. 炮二平五 马８进７ *\n\n");
    let mut bytes = gbk.repeat(3000);
    bytes.extend_from_slice("[Event \"统一码\"]\n1. 炮二平五 马８进７ *\n".as_bytes());
    assert!(bytes.len() > 4096);
    for forced in [None, Some(Encoding::Gb18030)] {
        let (whole_read, whole) = read_whole_in(&bytes, forced);
        let (read, streamed) = read_stream_in(&bytes, forced, 4096, 1024).unwrap();
        assert_eq!(read, whole_read, "{forced:?}");
        assert!(streamed == whole, "{forced:?}: streamed and whole readings differ");
        let last = whole.last().unwrap().tag("Event").unwrap().to_string();
        assert_eq!(last == "统一码", forced.is_none(), "{forced:?}: {last}");
    }
}

#[test]
fn a_byte_order_mark_is_skipped_whatever_the_encoding_whole_or_in_pieces() {
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend_from_slice("[Event \"x\"]\n1. h2e2 h9g7 *\n\n".repeat(400).as_bytes());
    for forced in [None, Some(Encoding::Utf8), Some(Encoding::Gb18030), Some(Encoding::Big5)] {
        let (whole_read, whole) = read_whole_in(&bytes, forced);
        let (read, streamed) = read_stream_in(&bytes, forced, 1024, 512).unwrap();
        assert_eq!(read, whole_read, "{forced:?}");
        assert_eq!(whole.len(), 400, "{forced:?}");
        assert!(streamed == whole, "{forced:?}: streamed and whole readings differ");
        assert_eq!(whole[0].tag("Event"), Some("x"), "{forced:?}");
    }
}

#[test]
fn a_mostly_utf8_text_is_utf8_whole_or_in_pieces() {
    // Mostly UTF-8, with one GBK line near the start: the same encoding is
    // told from the head as from the whole text.
    let (gbk, _, _) = encoding_rs::GBK.encode("[Event \"国标\"]\n1. 炮二平五 马８进７ *\n\n");
    let mut bytes = gbk.into_owned();
    bytes.extend_from_slice("[Event \"第一届·杯赛\"]\n1. 炮二平五 马８进７ *\n\n".repeat(500).as_bytes());
    let (whole_read, whole) = read_whole_in(&bytes, None);
    let (read, streamed) = read_stream_in(&bytes, None, 4096, 1024).unwrap();
    assert_eq!((read.encoding, whole_read.encoding), (Some(Encoding::Utf8), Some(Encoding::Utf8)));
    assert!(streamed == whole, "streamed and whole readings differ");
    assert_eq!(whole[0].tag("Event"), Some("国标"));
}

#[test]
fn plain_text_and_pgn_move_text_without_tags_are_told_apart_by_the_moves_read() {
    use crate::formats::sniff::{Reading, sniff};
    // Header lines and lines of moves: plain text, whole or in pieces.
    let plain = "吉林洪智  红先和  上海林宏敏\n1. 兵七进一 炮２平３\n2. 炮二平五 马８进７\n\n".repeat(200);
    let told = sniff(plain.as_bytes(), true, None);
    assert_eq!((told.format, told.reading), (Format::Text, Reading::Whole));
    assert_eq!(sniff(&plain.as_bytes()[..2048], false, None).reading, Reading::Pieces);
    // Comments and variations between moves: PGN move text, which a plain
    // reading loses (it takes such lines for headers); its head cannot cut it.
    let tagless = "{开局} 1. 炮二平五 {中炮} 马８进７ (1... 卒７进１) 2. 马二进三 *\n\n".repeat(200);
    let told = sniff(tagless.as_bytes(), true, None);
    assert_eq!(told.format, Format::Pgn);
    let head = sniff(&tagless.as_bytes()[..2048], false, None);
    assert_eq!((head.format, head.reading), (Format::Pgn, Reading::Undecided));
    let (read, streamed) = read_stream_in(tagless.as_bytes(), None, 2048, 512).unwrap();
    assert_eq!(read.format, Format::Pgn);
    assert!(!streamed.is_empty());
    assert!(streamed == read_whole_in(tagless.as_bytes(), None).1);
    // Words that read as no move end a line's count: a PGN reading of the
    // plain text finds its header words first, and is not taken.
    assert_eq!(sniff("甲队 胜 乙队\n炮二平五 马８进７\n".as_bytes(), true, None).format, Format::Text);
}

#[test]
fn a_web_page_whose_blocks_come_after_its_head_is_told_from_all_of_it() {
    use crate::formats::sniff::{Reading, sniff};
    let mut page = format!("<html><body>{}", "<p>象棋</p>\n".repeat(400));
    page.push_str("[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]\n</body></html>\n");
    assert_eq!(sniff(&page.as_bytes()[..1024], false, None).reading, Reading::Undecided);
    let (read, streamed) = read_stream_in(page.as_bytes(), None, 1024, 512).unwrap();
    assert_eq!((read.format, streamed.len()), (Format::Dhtmlxq, 1));
}

/// JSON lines of any length read as they come, the game held, not the line.
#[cfg(feature = "serde")]
mod json_lines {
    use super::*;
    use crate::formats::json;

    /// A game of one comment of `size` bytes, and one of `variations`
    /// alternatives to its first move, each with a comment: both written
    /// by the JSON writer.
    fn long_lines(size: usize, variations: usize) -> (String, String) {
        let mut record = pgn::read("[Event \"comment\"]\n1. h2e2 {a} h9g7 2. h0g2 *").remove(0);
        let tree = record.tree_mut();
        let first = tree.main_line().next().unwrap();
        tree.node_mut(first).notes_mut().comment = Some("x".repeat(size));
        let comment = json::write(&record);
        let mut pgn = String::from("[Event \"wide\"]\n1. h2e2 ");
        for i in 0..variations {
            pgn.push_str(&format!(
                "(1. {} {{variation {i}: {}}}) ",
                ["b2e2", "h0g2", "c3c4"][i % 3],
                "v".repeat(180)
            ));
        }
        pgn.push_str("h9g7 *\n");
        let wide = pgn::read(&pgn);
        assert_eq!(wide.len(), 1);
        (comment, json::write(&wide[0]))
    }

    fn small(event: &str) -> String {
        json::write(&pgn::read(&format!("[Event \"{event}\"]\n1. h2e2 *"))[0])
    }

    #[test]
    fn json_lines_longer_than_any_line_limit_read_back_equal() {
        let (comment, wide) = long_lines(MAX_LINE + (1 << 20), 75_000);
        assert!(comment.len() > MAX_LINE && wide.len() > MAX_LINE, "{} {}", comment.len(), wide.len());
        let lines = [small("a"), comment, small("b"), wide, small("c")];
        let text = lines.join("\n") + "\n";
        let Split::Chunks(_) = split(text.as_bytes(), None).unwrap() else { panic!("read in chunks") };
        let (read, records) = read_stream(text.as_bytes()).unwrap();
        assert_eq!(read.format, Format::Json);
        assert_eq!(records.len(), 5);
        for (i, (record, line)) in records.iter().zip(&lines).enumerate() {
            assert!(record.unreadable().is_none(), "record {i}: {:?}", record.unreadable());
            // (Node ids are numbered again in the tree's order.)
            assert!(json::write(record) == json::write(&json::read(line)[0]), "record {i} reads back equal");
            assert_eq!(record.at().line as usize, i + 1);
        }
        assert!(json::write(&records[1]) == lines[1], "the long comment reads back as written");
        let tree = records[3].tree();
        assert_eq!(tree.len(), 75_000 + 3);
        let first = tree.children(tree.root()).nth(75_000).unwrap();
        assert_eq!(
            tree.node(first).comment(),
            Some(format!("variation 74999: {}", "v".repeat(180)).as_str())
        );
    }

    #[test]
    fn long_json_lines_read_alike_in_any_pieces_and_encoding() {
        // Over JSON_HELD: read as they come, across pieces of every size.
        let mut record = pgn::read("[Event \"赛\"]\n1. 炮二平五 {a} 马８进７ *").remove(0);
        let tree = record.tree_mut();
        let first = tree.main_line().next().unwrap();
        tree.node_mut(first).notes_mut().comment = Some("中炮".repeat(JSON_HELD / 3));
        let long = json::write(&record);
        assert!(long.len() > JSON_HELD + 1000);
        let text = format!("{}\n{long}\r\n{}\n{long}", small("a"), small("b"));
        let whole = json::read(&text);
        assert_eq!(whole.len(), 4);
        for (head, piece) in [(64, 1000), (4096, 7), (HEAD, PIECE)] {
            let (_, streamed) = read_stream_sized(text.as_bytes(), head, piece).unwrap();
            assert!(streamed == whole, "head {head}, piece {piece}");
        }
        let (gbk, _, _) = encoding_rs::GBK.encode(&text);
        let (_, streamed) = read_stream_in(&gbk, Some(Encoding::Gb18030), 4096, 1000).unwrap();
        assert!(streamed == whole, "GBK");
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let (_, streamed) = read_stream_in(&utf16, None, 4096, 1000).unwrap();
        assert!(streamed == whole, "UTF-16");
    }

    #[test]
    fn json_read_in_tiny_pieces_equals_json_read_whole() {
        // Lines longer than the head are read as they come: every line but
        // the shortest, here.
        let lines = [
            small("a"),
            " ".repeat(40),
            format!("{}\r", small("中")),
            r#"{"tags":[],"fen":null,"result":"2-0","comment":null,"nodes":[]}"#.to_string(),
            r#"{"tags":[],"nodes":[{"id":1,"parent":5,"move":"h2e2","text":null,"comment":null,"comment_before":null,"nags":[]}]}"#.to_string(),
            r#"{"tags":[["Event","x"]],"nodes":[{"id":1,"parent":0,"move":"zz"}"#.to_string(),
            format!("{}  trailing", small("b")),
            "[1, 2, 3]".to_string(),
            r#"{"tags":[],"tags":[]}"#.to_string(),
            "{}".to_string(),
            String::new(),
            r#"{"nodes":[{"id":1,"parent":0,"move":null,"text":"炮二平五","comment":"中炮","comment_before":"开局","nags":[1,3]}],"comment":"说明","result":"1-0","tags":[["Red","许银川"]],"eval":{"cp":3}}"#.to_string(),
            small("c"),
        ];
        let text = lines.join("\n");
        let whole = json::read(&text);
        assert_eq!(whole.len(), 11);
        for (head, piece) in [(16, 1), (20, 3), (33, 7), (64, 13), (HEAD, PIECE)] {
            let (_, streamed) = read_stream_sized(text.as_bytes(), head, piece).unwrap();
            assert_eq!(streamed.len(), whole.len());
            for (i, (s, w)) in streamed.iter().zip(&whole).enumerate() {
                // The same reason; the place of one that is not JSON syntax
                // (a field given twice) is a column further, read as it
                // comes (`serde_json` counts the byte it looked at).
                let why = |r: &Record| r.unreadable().map(|w| (w.at.line, w.at.column, w.message.clone()));
                match (why(s), why(w)) {
                    (Some((line, column, message)), Some((l, c, m))) => {
                        assert_eq!((line, &message), (l, &m), "head {head}, piece {piece}");
                        assert!(column == c || column == c + 1, "{message}: {column} {c}");
                    }
                    (s, w) => assert_eq!(s, w, "head {head}, piece {piece}, record {i}"),
                }
                if s.unreadable().is_none() {
                    assert!(s == w, "head {head}, piece {piece}, record {i}");
                }
            }
        }
    }

    #[test]
    fn a_long_json_line_that_is_no_record_costs_its_line_only() {
        let junk = |prefix: &str| format!("{prefix}{}", "z".repeat(JSON_HELD * 3));
        let lines = [
            small("a"),
            junk(r#"{"tags":[["Event","x"]],"nodes":"#),
            small("b"),
            format!("{}  {}", small("c"), "z".repeat(JSON_HELD * 2)),
            small("d"),
            format!("{{\"tags\":[[\"Event\",\"{}\"]]", "y".repeat(JSON_HELD * 2)),
        ];
        let text = lines.join("\n");
        let (_, records) = read_stream_sized(text.as_bytes(), 4096, 4096).unwrap();
        let why: Vec<_> =
            records.iter().map(|r| r.unreadable().map(|w| (w.at.line, w.message.as_str()))).collect();
        assert_eq!(
            why,
            [
                None,
                Some((2, "JSON record: expected value")),
                None,
                Some((4, "JSON record: trailing characters")),
                None,
                Some((6, "JSON record: EOF while parsing an object")),
            ]
        );
        let tags: Vec<_> = records.iter().map(|r| r.tag("Event")).collect();
        assert_eq!(tags, [Some("a"), None, Some("b"), None, Some("d"), None]);
    }
}

/// An input cut short gives its games before the cut, then the error.
mod cut_short {
    use super::*;

    /// `bytes`, then an error that the data is cut short.
    struct Cut<'a> {
        bytes: &'a [u8],
        whole: bool,
    }

    impl std::io::Read for Cut<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.bytes.is_empty() {
                let message = "the test's data is cut short".to_string();
                return Err(CutShort { whole: self.whole, message }.into_io());
            }
            self.bytes.read(buf)
        }
    }

    fn read_cut(bytes: &[u8], whole: bool, head: usize, piece: usize) -> (Vec<Record>, Unreadable) {
        let mut records = Vec::new();
        let split = split_sized(Cut { bytes, whole }, None, head, piece).unwrap();
        let e = read_split(split, &mut RecordBuilder::default(), |r| records.push(r)).unwrap_err();
        (records, e)
    }

    #[test]
    fn the_games_before_the_cut_read_and_the_one_it_falls_in_does_not() {
        let game = |n: usize| format!("[Event \"{n}\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n");
        let text: String = (1..=300).map(game).collect();
        let whole = pgn::read(&text);
        for (head, piece) in [(HEAD, PIECE), (1024, 100), (64, 7)] {
            // Cut in game 200's moves, or its tags: 199 games read.
            for at in [text.find("[Event \"200\"]").unwrap() + 30, text.find("[Event \"200\"]").unwrap() + 5]
            {
                let (records, e) = read_cut(&text.as_bytes()[..at], false, head, piece);
                assert!(
                    records == whole[..199],
                    "head {head}, piece {piece}, cut at {at}: {} {:?} {e}",
                    records.len(),
                    records.last().map(|r| r.tag("Event"))
                );
                assert_eq!(
                    e.to_string(),
                    "cannot read: the test's data is cut short; the game from line 797 on is cut and not read"
                );
            }
            // Whole before the cut: every game read.
            let (records, e) = read_cut(text.as_bytes(), true, head, piece);
            assert!(records == whole, "head {head}, piece {piece}");
            assert_eq!(e.to_string(), "cannot read: the test's data is cut short");
            // Cut at a game's end: no game is cut.
            let at = text.find("[Event \"200\"]").unwrap();
            let (records, e) = read_cut(&text.as_bytes()[..at], false, head, piece);
            assert_eq!(records.len(), 199);
            assert_eq!(e.to_string(), "cannot read: the test's data is cut short");
        }
    }

    #[test]
    fn any_input_cut_anywhere_ends_with_an_error() {
        let inputs: [&[u8]; 5] = [
            b"[Event \"a\"]\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. h2e2 {x\ny} *\n",
            b"{\"tags\":[],\"nodes\":[]}\n\n{\"tags\":[]\n{}\n",
            b"position startpos moves h2e2\nposition startpos\n",
            b"[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n",
            b"\x00\x01XQ garbage",
        ];
        for input in inputs {
            for at in 0..=input.len() {
                for (head, piece) in [(8, 1), (16, 3), (HEAD, PIECE)] {
                    for whole in [false, true] {
                        let split = split_sized(Cut { bytes: &input[..at], whole }, None, head, piece);
                        let read = split.and_then(|s| read_split(s, &mut RecordBuilder::default(), |_| {}));
                        assert!(read.is_err(), "{:?} cut at {at}", String::from_utf8_lossy(input));
                    }
                }
            }
        }
    }

    #[test]
    fn a_record_a_line_loses_its_last_line_only() {
        let line = |n: usize| format!("position startpos moves h2e2 h9g7 {}\n", ["h0g2", "b0c2"][n % 2]);
        let text: String = (0..5000).map(line).collect();
        let at = text.len() - 10;
        let (records, e) = read_cut(&text.as_bytes()[..at], false, 4096, 512);
        assert_eq!(records.len(), 4999);
        assert!(records.iter().all(|r| r.unreadable().is_none()));
        assert!(e.to_string().ends_with("the game from line 5000 on is cut and not read"), "{e}");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn a_long_json_record_cut_short_is_not_read() {
        let small = r#"{"tags":[],"fen":null,"result":"*","comment":null,"nodes":[]}"#;
        let long = format!(r#"{{"tags":[["Event","{}"]],"nodes":[]}}"#, "x".repeat(JSON_HELD * 2));
        let text = format!("{small}\n{small}\n{long}\n");
        let (records, e) = read_cut(&text.as_bytes()[..text.len() - 10], false, 4096, 4096);
        assert_eq!(records.len(), 2);
        assert!(e.to_string().ends_with("the game from line 3 on is cut and not read"), "{e}");
        // Whole before the cut (no line end after the record): read.
        let (records, _) = read_cut(&text.as_bytes()[..text.len() - 1], true, 4096, 4096);
        assert_eq!(records.len(), 3);
        assert_eq!(records[2].tag("Event").map(str::len), Some(JSON_HELD * 2));
    }
}
