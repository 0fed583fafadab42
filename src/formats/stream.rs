//! Reading a large input a piece at a time, in bounded memory: PGN text and
//! JSON records are decoded and read as they arrive, and their games are
//! handed on in batches while the rest is still being read. Data of no
//! record format is refused on its first megabyte. Other formats, and texts
//! whose kind cannot be told from their first megabyte, are read whole, up
//! to [`MAX_WHOLE`].

use std::io::Read;

use super::encoding::{self, Encoding};
#[cfg(feature = "serde")]
use super::json;
use super::{Format, Unreadable, detect, dhtmlxq, pgn, wxf_record};
use crate::record::Record;

/// How much of the input is read before deciding how to read the rest.
pub const HEAD: usize = 1 << 20;

/// Lines longer than this are not read: the game they fall in is
/// unreadable, and memory stays bounded whatever the input.
pub const MAX_LINE: usize = 16 << 20;

/// Inputs that are not PGN text are read whole, up to this size.
pub const MAX_WHOLE: u64 = 256 << 20;

/// How much is read at a time after the head.
const PIECE: usize = 1 << 20;

/// Reads the records of `source` like [`super::read_in_batches`], holding
/// only a piece of the input and a few batches of records at a time when
/// it is PGN. The encoding of a streamed text is decided on its first
/// megabyte.
pub fn read_stream(
    source: impl Read,
    encoding: Option<Encoding>,
    batch: usize,
    f: impl FnMut(Format, Option<Encoding>, Vec<Record>),
) -> Result<(Format, Option<Encoding>), Unreadable> {
    read_stream_sized(source, encoding, batch, HEAD, PIECE, f)
}

/// [`read_stream`] with the sizes of the head (what is read before
/// deciding how to read the rest) and of the pieces after it given: small
/// sizes put piece boundaries everywhere, for tests and fuzzing.
pub fn read_stream_sized(
    mut source: impl Read,
    encoding: Option<Encoding>,
    batch: usize,
    head_size: usize,
    piece_size: usize,
    mut f: impl FnMut(Format, Option<Encoding>, Vec<Record>),
) -> Result<(Format, Option<Encoding>), Unreadable> {
    let cannot_read = |e: std::io::Error| Unreadable::damaged(Format::Binary, format!("cannot read: {e}"));
    let mut head = Vec::with_capacity(head_size);
    (&mut source).take(head_size as u64).read_to_end(&mut head).map_err(cannot_read)?;
    let whole = |mut bytes: Vec<u8>,
                 source: &mut dyn Read,
                 f: &mut dyn FnMut(Format, Option<Encoding>, Vec<Record>)| {
        let room = (MAX_WHOLE + 1).saturating_sub(bytes.len() as u64);
        source.take(room).read_to_end(&mut bytes).map_err(cannot_read)?;
        if bytes.len() as u64 > MAX_WHOLE {
            return Err(Unreadable::damaged(
                detect::detect(&bytes),
                format!(
                    "larger than {} MB: only PGN and JSON text is read a piece at a time; split the file",
                    MAX_WHOLE >> 20
                ),
            ));
        }
        super::read_in_batches(&bytes, encoding, batch, &mut *f)
    };
    // Data of no record format is refused on its head: the rest (of a
    // device such as /dev/zero, maybe endless) is not read.
    if detect::detect(&head) == Format::Binary {
        return super::read_in_batches(&head, encoding, batch, &mut f);
    }
    if head.len() < head_size || detect::detect(&head) != Format::Pgn {
        return whole(head, &mut source, &mut f);
    }
    let (enc, bom) = encoding::detect_head(&head, encoding);
    let mut decoder = enc.decoder();
    let mut text = String::new();
    decode(&mut decoder, &head[bom..], &mut text, false);
    // Texts read a line at a time: JSON records, and PGN.
    let mut reader = if let Some(json) = Lines::json(&text) {
        json
    } else if (!dhtmlxq::contains_block(&text) || super::pgn_games(&text) > dhtmlxq::read(&text).len())
        && !text.trim_start().starts_with('<')
        && !wxf_record::is_wxf(&text)
        && pgn::has_tags(&text)
    {
        Lines::Pgn(pgn::LineReader::default())
    } else {
        return whole(head, &mut source, &mut f);
    };
    let format = reader.format();
    // UTF-8, GB18030 and Big5 end their lines with a 0x0A byte that is never
    // part of a character: their lines are cut from the bytes and decoded
    // one piece of whole lines at a time, each line in its own encoding when
    // the text mixes them (see `encoding::decode_lines`). UTF-16 is decoded
    // as it comes, to UTF-8.
    let utf16 = matches!(enc, Encoding::Utf16Le | Encoding::Utf16Be);
    let lines_in = if utf16 { Encoding::Utf8 } else { enc };
    let mut raw = if utf16 { std::mem::take(&mut text).into_bytes() } else { head.split_off(bom) };
    drop(head);
    text.clear();
    let mut first = true;
    let mut emit = |games: Vec<Record>, first: &mut bool| -> Result<(), Unreadable> {
        if *first && format == Format::Pgn && games.iter().all(|r| !super::looks_like_a_game(r)) {
            return Err(Unreadable::no_record(
                Format::Pgn,
                "text without a game record: no tags, and the first word is not a move",
            ));
        }
        *first = false;
        f(format, Some(enc), games);
        Ok(())
    };
    // Appends bytes read to `raw`; UTF-16 decoded to UTF-8 on the way
    // (through `text`, empty between pieces).
    let mut take_in = |bytes: &[u8], last: bool, raw: &mut Vec<u8>, text: &mut String| {
        if utf16 {
            decode(&mut decoder, bytes, text, last);
            raw.extend_from_slice(text.as_bytes());
            text.clear();
        } else {
            raw.extend_from_slice(bytes);
        }
    };
    let mut piece = vec![0u8; piece_size.max(1)];
    // Within a line too long to read: its rest is dropped up to its end.
    let mut skipping = false;
    loop {
        if skipping {
            match memchr::memchr(b'\n', &raw) {
                Some(k) => {
                    raw.drain(..=k);
                    skipping = false;
                }
                None => raw.clear(),
            }
        }
        // Read the complete lines; keep the last, unfinished one.
        if !skipping && let Some(k) = memchr::memrchr(b'\n', &raw) {
            encoding::decode_lines(&raw[..=k], lines_in, &mut text);
            raw.drain(..=k);
        }
        for line in text.lines() {
            if line.len() > MAX_LINE {
                reader.skip_overlong_line(MAX_LINE);
            } else {
                reader.push_line(line);
            }
            if reader.ready() >= batch {
                emit(reader.take_games(), &mut first)?;
            }
        }
        text.clear();
        if !skipping && raw.len() > MAX_LINE {
            reader.skip_overlong_line(MAX_LINE);
            raw.clear();
            skipping = true;
        }
        let n = source.read(&mut piece).map_err(cannot_read)?;
        take_in(&piece[..n], n == 0, &mut raw, &mut text);
        if n == 0 {
            if !skipping {
                encoding::decode_lines(&raw, lines_in, &mut text);
                for line in text.lines() {
                    reader.push_line(line);
                }
            }
            break;
        }
    }
    let rest = reader.finish();
    if !rest.is_empty() || first {
        if rest.is_empty() {
            return Err(Unreadable::no_record(format, "no game found"));
        }
        emit(rest, &mut first)?;
    }
    Ok((format, Some(enc)))
}

/// The reader of a text read a line at a time (one per input: the size of
/// its variants does not matter).
#[allow(clippy::large_enum_variant)]
enum Lines {
    Pgn(pgn::LineReader),
    #[cfg(feature = "serde")]
    Json(json::LineReader),
}

impl Lines {
    /// A reader of JSON records, when `head` begins them (read only with
    /// the `serde` feature).
    fn json(head: &str) -> Option<Lines> {
        #[cfg(feature = "serde")]
        {
            json::looks_like_json(head).then(|| Lines::Json(json::LineReader::default()))
        }
        #[cfg(not(feature = "serde"))]
        {
            let _ = head;
            None
        }
    }

    fn format(&self) -> Format {
        match self {
            Lines::Pgn(_) => Format::Pgn,
            #[cfg(feature = "serde")]
            Lines::Json(_) => Format::Json,
        }
    }

    fn push_line(&mut self, line: &str) {
        match self {
            Lines::Pgn(r) => r.push_line(line),
            #[cfg(feature = "serde")]
            Lines::Json(r) => r.push_line(line),
        }
    }

    fn skip_overlong_line(&mut self, limit: usize) {
        match self {
            Lines::Pgn(r) => r.skip_overlong_line(limit),
            #[cfg(feature = "serde")]
            Lines::Json(r) => r.skip_overlong_line(limit),
        }
    }

    fn ready(&self) -> usize {
        match self {
            Lines::Pgn(r) => r.ready(),
            #[cfg(feature = "serde")]
            Lines::Json(r) => r.ready(),
        }
    }

    fn take_games(&mut self) -> Vec<Record> {
        match self {
            Lines::Pgn(r) => r.take_games(),
            #[cfg(feature = "serde")]
            Lines::Json(r) => r.take_games(),
        }
    }

    fn finish(self) -> Vec<Record> {
        match self {
            Lines::Pgn(r) => r.finish(),
            #[cfg(feature = "serde")]
            Lines::Json(r) => r.finish(),
        }
    }
}

/// Decodes `bytes` onto the end of `text`.
fn decode(decoder: &mut encoding_rs::Decoder, bytes: &[u8], text: &mut String, last: bool) {
    let room = decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(bytes.len() * 3 + 16);
    text.reserve(room);
    let (_, read, _) = decoder.decode_to_string(bytes, text, last);
    debug_assert_eq!(read, bytes.len(), "the room reserved holds the whole piece");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_text_streams_in_pieces_with_the_same_games() {
        // Over HEAD bytes of GBK PGN: read in pieces, with line numbers that go on.
        let game = "[Event \"全国赛\"]\r\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\r\n\r\n";
        let text = game.repeat(HEAD / game.len() * 2 + 3);
        let (gbk, _, _) = encoding_rs::GBK.encode(&text);
        let mut streamed = Vec::new();
        let mut batches = 0;
        let (format, enc) = read_stream(&gbk[..], None, 100, |_, _, games| {
            batches += 1;
            streamed.extend(games)
        })
        .unwrap();
        assert_eq!((format, enc), (Format::Pgn, Some(Encoding::Gb18030)));
        let whole = pgn::read(&text);
        assert_eq!(streamed.len(), whole.len());
        assert_eq!(streamed, whole);
        assert!(batches > 10);
    }

    /// Reads `bytes` a piece at a time and whole; both must give the same
    /// games, and they are returned.
    fn streamed_and_whole(bytes: &[u8]) -> Vec<Record> {
        let mut streamed = Vec::new();
        read_stream(bytes, None, 100, |_, _, games| streamed.extend(games)).unwrap();
        let whole = super::super::read(bytes, None).unwrap().records;
        assert_eq!(streamed.len(), whole.len());
        assert!(streamed == whole, "streamed and whole readings differ");
        streamed
    }

    #[test]
    fn a_large_text_of_mixed_encodings_reads_each_line_in_its_own() {
        let game =
            |event: &str| format!("[Event \"{event}\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n\n");
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
                assert_eq!(g.tree.main_line().count(), 4);
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
        let text = "[Event \"赛\"]\n{开局\n说明}\n1. 炮二平五 马８进７\r\n2. 马二进三 *\n\n[Event \"b\"]\n1. h2e2 *\n";
        let whole = pgn::read(text);
        for (head, piece) in [(16, 1), (20, 3), (33, 7), (64, 2)] {
            let mut streamed = Vec::new();
            read_stream_sized(text.as_bytes(), None, 1, head, piece, |_, _, g| streamed.extend(g)).unwrap();
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
        let mut games = Vec::new();
        read_stream(text.as_bytes(), None, 100, |_, _, g| games.extend(g)).unwrap();
        assert_eq!(games.len(), before + 2);
        let long = &games[before];
        let why = long.unreadable.as_ref().expect("the long line's game fails");
        assert!(why.message.contains("line longer than 16 MB"), "{}", why.message);
        assert_eq!(why.at.line as usize, 3 * before + 2, "three lines a game before it");
        assert!(games[before + 1].unreadable.is_none(), "the next game reads");
        assert_eq!(games[before + 1].tag("Event"), Some("3"));
    }

    #[test]
    fn a_large_wxf_file_is_not_taken_for_pgn() {
        // A line of its header that reads as a PGN tag does not make it PGN.
        let game = "FORMAT  WXF\nRED     a ; 1200 ;;\n[Note \"x\"]\nSTART{\n 1. C2.5 h8+7 }END\n";
        let text = game.repeat(HEAD / game.len() + 10);
        let mut games = 0;
        let (format, _) = read_stream(text.as_bytes(), None, 100, |format, _, g| {
            assert_eq!(format, Format::Wxf);
            games += g.len();
        })
        .unwrap();
        assert_eq!((format, games), (Format::Wxf, HEAD / game.len() + 10));
    }

    #[test]
    fn small_and_other_inputs_are_read_whole() {
        let mut n = 0;
        read_stream(&b"[Event \"a\"]\n1. h2e2 *\n"[..], None, 10, |_, _, g| n += g.len()).unwrap();
        assert_eq!(n, 1);
        assert!(read_stream(&b"\x00\x01binary"[..], None, 10, |_, _, _| {}).is_err());
    }
}
