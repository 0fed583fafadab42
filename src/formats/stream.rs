//! Reading a large input a piece at a time, in bounded memory.
//!
//! The first megabyte decides how ([`super::sniff`]): PGN text and JSON
//! records are cut, as they arrive, into [`Chunk`]s of whole games (each a
//! megabyte or so) that are read one after the other, or side by side on
//! several threads, and give the same games as reading the whole text at
//! once; data of no record format is refused on its first megabyte; other
//! formats, and texts whose kind cannot be told from their first megabyte,
//! are read whole, up to [`MAX_WHOLE`].
//!
//! A PGN text is cut only where any reading of it starts a new game: at a
//! line of tags that is surely read as tags (after an empty line, or when
//! no comment can be open) when the game before it surely has moves.
//! UTF-8, GB18030 and Big5 end their lines with a 0x0A byte that is never
//! part of a character, and a line's first bytes other than white space
//! are never the second byte of one; braces (which can be, in GBK and
//! Big5) are looked for in the decoded line. The bytes are cut before they
//! are decoded, and each chunk decodes its own, line by line (see
//! [`encoding::decode_lines`]). UTF-16 is decoded as it
//! comes, to UTF-8.
//!
//! ```
//! use qipu::formats::stream::read_stream_with;
//! use qipu::record::replay::Replayer;
//! let text = "[Event \"a\"]\n1. h2e2 h9g7 *\n\n".repeat(100_000); // 3 MB
//! let mut games = 0;
//! let read = read_stream_with(text.as_bytes(), None, &mut Replayer::default(), |_| games += 1).unwrap();
//! assert_eq!((read.format.name(), games), ("pgn", 100_000));
//! ```

use std::io::Read as _;

use super::detect::{self, Format};
use super::encoding::{self, Encoding};
#[cfg(feature = "serde")]
use super::json;
use super::{Read, Unreadable, UnreadableReason, pgn, sniff};
use crate::record::Visitor;

/// How much of the input is read before deciding how to read the rest.
pub const HEAD: usize = 1 << 20;

/// Lines longer than this are not read: the game they fall in is
/// unreadable, and memory stays bounded whatever the input.
pub const MAX_LINE: usize = 16 << 20;

/// Inputs that are not PGN or JSON text are read whole, up to this size.
pub const MAX_WHOLE: u64 = 256 << 20;

/// How much is read at a time after the head, and about how large a chunk
/// is: what a chunk's games make (a validate report, a FEN trail) is held
/// until it is handed on in order, a few chunks for each thread, so a
/// chunk of short games must stay small (256 KB of ICCS PGN is about 2,700
/// games).
const PIECE: usize = 256 << 10;

/// How an input is read: whole, or in chunks.
#[derive(Debug)]
pub enum Split<R> {
    /// The input, read whole: a format that is not read in pieces.
    Whole(Vec<u8>),
    /// The input, read in chunks of whole games.
    Chunks(Chunks<R>),
}

/// Cuts an input into chunks of whole games as it is read (see the
/// [module docs](self)).
#[derive(Debug)]
pub struct Chunks<R> {
    source: R,
    format: Format,
    encoding: Encoding,
    /// The encoding each line is decoded from (UTF-8 for UTF-16, decoded
    /// as it comes).
    lines_in: Encoding,
    utf16: Option<encoding_rs::Decoder>,
    /// Bytes read and not yet in a chunk.
    raw: Vec<u8>,
    /// Where in `raw` the complete lines looked at end.
    scanned: usize,
    /// The last place in `raw` where a chunk may end, and how many lines of
    /// the input come before it.
    cut: Option<(usize, u32)>,
    /// Lines of the input looked at (or skipped, when too long).
    lines: u32,
    /// The lines of the chunk being made, before `raw`.
    parts: Vec<Part>,
    first_line: u32,
    /// What the line scan knows of the line before.
    last_blank: bool,
    /// The game being scanned has moves (or a separator ended it), as
    /// the PGN reader will find: a line of tags after an empty line then
    /// starts the next game.
    game_has_moves: bool,
    /// Surely no comment is open after the line scanned last.
    comment_closed: bool,
    /// Within a line too long to read: its rest is dropped up to its end.
    skipping: bool,
    piece: Vec<u8>,
    piece_size: usize,
    done: bool,
}

/// Whole lines of an input, the games of which read alone as they do in
/// the whole input.
#[derive(Debug)]
pub struct Chunk {
    format: Format,
    encoding: Encoding,
    lines_in: Encoding,
    /// The number of the chunk's first line in its input.
    first_line: u32,
    parts: Vec<Part>,
}

/// Part of a chunk: bytes of whole lines, or a line too long to read.
#[derive(Debug)]
enum Part {
    Lines(Vec<u8>),
    Overlong,
}

/// Decides how to read `source` from its first megabyte (`encoding`
/// overrides text-encoding detection).
///
/// # Errors
///
/// [`Unreadable`] when `source` cannot be read, or when a file that is not
/// read a piece at a time is larger than qipu reads whole.
pub fn split<R: std::io::Read>(source: R, encoding: Option<Encoding>) -> Result<Split<R>, Unreadable> {
    split_sized(source, encoding, HEAD, PIECE)
}

/// [`split`] with the sizes of the head (what is read before deciding how
/// to read the rest) and of the pieces (and chunks) after it given: small
/// sizes put piece and chunk boundaries everywhere, for tests and fuzzing.
///
/// # Errors
///
/// As [`split`].
pub fn split_sized<R: std::io::Read>(
    mut source: R,
    encoding: Option<Encoding>,
    head_size: usize,
    piece_size: usize,
) -> Result<Split<R>, Unreadable> {
    let mut head = Vec::with_capacity(head_size);
    (&mut source).take(head_size as u64).read_to_end(&mut head).map_err(cannot_read)?;
    // Data of no record format is refused on its head: the rest (of a
    // device such as /dev/zero, maybe endless) is not read.
    if detect::detect(&head) == Format::Binary {
        return Ok(Split::Whole(head));
    }
    let whole = |mut bytes: Vec<u8>, mut source: R| {
        let room = (MAX_WHOLE + 1).saturating_sub(bytes.len() as u64);
        (&mut source).take(room).read_to_end(&mut bytes).map_err(cannot_read)?;
        if bytes.len() as u64 > MAX_WHOLE {
            let reason = UnreadableReason::TooLarge { max: MAX_WHOLE };
            return Err(Unreadable::damaged(detect::detect(&bytes), reason));
        }
        Ok(Split::Whole(bytes))
    };
    if head.len() < head_size || detect::detect(&head) != Format::Pgn {
        return whole(head, source);
    }
    let (enc, bom) = encoding::detect_head(&head, encoding);
    let mut decoder = enc.decoder();
    let mut text = String::new();
    decode(&mut decoder, &head[bom..], &mut text, false);
    // Texts read in chunks: JSON records, and PGN (but not a web page,
    // which may hold DhtmlXQ blocks further on).
    let format = match sniff::text_format(&text) {
        Format::Json => Format::Json,
        Format::Pgn if !sniff::starts_with_markup(&text) => Format::Pgn,
        _ => return whole(head, source),
    };
    let utf16 = matches!(enc, Encoding::Utf16Le | Encoding::Utf16Be);
    let raw = if utf16 { text.into_bytes() } else { head.split_off(bom) };
    Ok(Split::Chunks(Chunks {
        source,
        format,
        encoding: enc,
        lines_in: if utf16 { Encoding::Utf8 } else { enc },
        utf16: utf16.then_some(decoder),
        raw,
        scanned: 0,
        cut: None,
        lines: 0,
        parts: Vec::new(),
        first_line: 1,
        last_blank: false,
        game_has_moves: false,
        comment_closed: true,
        skipping: false,
        piece: vec![0u8; piece_size.max(1)],
        piece_size: piece_size.max(1),
        done: false,
    }))
}

fn cannot_read(e: std::io::Error) -> Unreadable {
    Unreadable::damaged(Format::Binary, UnreadableReason::cannot_read(&e))
}

impl<R: std::io::Read> Chunks<R> {
    /// The format of the text.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding of the text.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Looks at the complete lines of `raw` not looked at yet, noting the
    /// last place a chunk may end.
    fn scan(&mut self) {
        while let Some(k) = memchr::memchr(b'\n', &self.raw[self.scanned..]) {
            let start = self.scanned;
            if k > MAX_LINE {
                // A line too long to read, whole in `raw`: it is dropped.
                self.overlong(start);
                self.raw.drain(..=k);
                continue;
            }
            let line = &self.raw[start..start + k];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let blank = line.iter().all(u8::is_ascii_whitespace);
            if self.format == Format::Json {
                self.cut = Some((start, self.lines));
            } else if !blank {
                let (cut, has_moves, comment_closed) = self.scan_pgn_line(line);
                if cut {
                    self.cut = Some((start, self.lines));
                }
                self.game_has_moves = has_moves;
                self.comment_closed = comment_closed;
            }
            self.last_blank = blank;
            self.lines += 1;
            self.scanned = start + k + 1;
        }
    }

    /// Looks at a non-empty line of PGN: whether a chunk may start at it,
    /// and after it whether the game surely has moves and no comment is
    /// surely open. A chunk may start at a line of tags that the reader
    /// reads as tags (outside a comment, or after an empty line, which ends
    /// one) when the game before it has moves: the reader then surely
    /// starts a new game there.
    fn scan_pgn_line(&self, line: &[u8]) -> (bool, bool, bool) {
        let bracket = line.trim_ascii_start().first() == Some(&b'[');
        // A line opening with `[` tells the same whether it is tags or not
        // when the game has no moves yet and no brace can open a comment:
        // no cut, no moves, no comment open. The test (which decodes a
        // line in GBK or Big5) is spared for all but a game's first line.
        if bracket
            && !self.game_has_moves
            && self.comment_closed
            && memchr::memchr2(b'{', b'}', line).is_none()
        {
            return (false, false, true);
        }
        let tags = bracket && (self.last_blank || self.comment_closed) && self.is_tag_line(line);
        if tags {
            return (self.game_has_moves, false, true);
        }
        let moves = has_moves(line).unwrap_or(self.game_has_moves);
        // The reader opens a comment at a `{` and closes it at the next
        // `}`: when a line's last brace is `}`, no comment is open after
        // it; when it is `{`, one may be.
        let closed = self.last_brace(line).map_or(self.comment_closed, |brace| brace == b'}');
        (false, moves, closed)
    }

    /// Whether a line is a line of tags.
    fn is_tag_line(&self, line: &[u8]) -> bool {
        match std::str::from_utf8(line) {
            Ok(text) if self.lines_in == Encoding::Utf8 || text.is_ascii() => pgn::is_tag_line(text),
            _ => pgn::is_tag_line(&self.decoded(line)),
        }
    }

    /// A line decoded.
    fn decoded(&self, line: &[u8]) -> String {
        let mut text = String::new();
        encoding::decode_lines(line, self.lines_in, &mut text);
        text
    }

    /// The last `{` or `}` of a line, as characters (in GBK and Big5 their
    /// bytes can be the second byte of another character).
    fn last_brace(&self, line: &[u8]) -> Option<u8> {
        let k = memchr::memrchr2(b'{', b'}', line)?;
        if self.lines_in == Encoding::Utf8 || line.is_ascii() {
            return Some(line[k]);
        }
        let text = self.decoded(line);
        text.rfind(['{', '}']).map(|k| text.as_bytes()[k])
    }

    /// Reads the next piece of the input onto `raw`; false at its end.
    fn read_piece(&mut self) -> Result<bool, Unreadable> {
        let n = self.source.read(&mut self.piece).map_err(cannot_read)?;
        match &mut self.utf16 {
            Some(decoder) => {
                let mut text = String::new();
                decode(decoder, &self.piece[..n], &mut text, n == 0);
                self.raw.extend_from_slice(text.as_bytes());
            }
            None => self.raw.extend_from_slice(&self.piece[..n]),
        }
        Ok(n > 0)
    }

    /// The next chunk: at least a piece's worth of whole games, or the rest
    /// of the input.
    fn next_chunk(&mut self) -> Result<Option<Chunk>, Unreadable> {
        loop {
            if self.skipping {
                match memchr::memchr(b'\n', &self.raw) {
                    Some(k) => {
                        self.raw.drain(..=k);
                        self.skipping = false;
                    }
                    None => self.raw.clear(),
                }
                self.scanned = 0;
                self.cut = None;
            }
            if !self.skipping {
                self.scan();
            }
            if let Some((cut, lines)) = self.cut
                && (cut > 0 || !self.parts.is_empty())
                && self.chunk_len() + cut >= self.piece_size
            {
                return Ok(Some(self.take(cut, lines)));
            }
            if !self.skipping && self.raw.len() - self.scanned > MAX_LINE {
                // A line too long to read, not ended yet: it is dropped up
                // to its end.
                let start = self.scanned;
                self.overlong(start);
                self.raw.clear();
                self.skipping = true;
            }
            if self.done {
                if self.raw.is_empty() && self.parts.is_empty() {
                    return Ok(None);
                }
                let (all, lines) = (self.raw.len(), self.lines);
                return Ok(Some(self.take(all, lines)));
            }
            if !self.read_piece()? {
                self.done = true;
            }
        }
    }

    /// Ends the lines of the chunk being made before the line too long to
    /// read that starts at `raw[start]`, which is told as such; the caller
    /// drops it from `raw`.
    fn overlong(&mut self, start: usize) {
        let before: Vec<u8> = self.raw.drain(..start).collect();
        if !before.is_empty() {
            self.parts.push(Part::Lines(before));
        }
        self.parts.push(Part::Overlong);
        self.lines += 1;
        self.scanned = 0;
        self.cut = None;
        self.last_blank = false;
        self.game_has_moves = false;
        self.comment_closed = false;
    }

    /// The bytes in the chunk being made.
    fn chunk_len(&self) -> usize {
        self.parts.iter().map(|p| if let Part::Lines(b) = p { b.len() } else { 0 }).sum()
    }

    /// The chunk of the parts made and `raw[..end]`, where `lines` lines
    /// of the input end.
    fn take(&mut self, end: usize, lines: u32) -> Chunk {
        let rest = self.raw.split_off(end);
        let bytes = std::mem::replace(&mut self.raw, rest);
        if !bytes.is_empty() {
            self.parts.push(Part::Lines(bytes));
        }
        let chunk = Chunk {
            format: self.format,
            encoding: self.encoding,
            lines_in: self.lines_in,
            first_line: self.first_line,
            parts: std::mem::take(&mut self.parts),
        };
        self.first_line = lines + 1;
        self.scanned -= end.min(self.scanned);
        self.cut = None;
        chunk
    }
}

impl<R: std::io::Read> Iterator for Chunks<R> {
    type Item = Result<Chunk, Unreadable>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_chunk().transpose()
    }
}

/// What a non-empty line of PGN tells of whether its game has moves, as
/// the PGN reader finds (any word of move text, a result, or a `{`
/// comment, outside a comment; a `===` separator ends the game too): `Some(true)`
/// when it surely has them from this line on, `Some(false)` when a new
/// game may begin at it (a line that opens with `[`: tags, most likely),
/// `None` when it says nothing sure (a `;` comment, a variation, a character
/// other than ASCII first). Inside a comment the game has moves already,
/// since the `{` that opened it counts.
fn has_moves(line: &[u8]) -> Option<bool> {
    let line = line.trim_ascii();
    match line.first()? {
        b'[' => Some(false),
        b'=' if line.len() >= 3 && line.iter().all(|&b| b == b'=') => Some(true),
        b if b.is_ascii_alphanumeric() || matches!(b, b'{' | b'*' | b'$') => Some(true),
        _ => None,
    }
}

impl Chunk {
    /// The format of the chunk's text.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding of the chunk's text.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// How many bytes the chunk holds.
    pub fn len(&self) -> usize {
        self.parts.iter().map(|p| if let Part::Lines(b) = p { b.len() } else { 0 }).sum()
    }

    /// Whether the chunk holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0 && self.parts.is_empty()
    }

    /// Reads the chunk's games with `visitor`, handing what it makes of each
    /// to `each` with whether the game looks like a game (see
    /// [`super::read`]'s rule for a file of text without one).
    pub fn read_with<V: Visitor>(&self, visitor: &mut V, mut each: impl FnMut(V::Output, bool)) {
        let mut text = String::new();
        match self.format {
            #[cfg(feature = "serde")]
            Format::Json => {
                let mut reader = json::LineReader::default().starting_at_line(self.first_line);
                for part in &self.parts {
                    match part {
                        Part::Lines(bytes) => {
                            text.clear();
                            encoding::decode_lines(bytes, self.lines_in, &mut text);
                            for line in text.lines() {
                                reader.push_line(line);
                                for record in reader.take_games() {
                                    each(visitor.record(record), true);
                                }
                            }
                        }
                        Part::Overlong => reader.skip_overlong_line(MAX_LINE),
                    }
                }
                for record in reader.finish() {
                    each(visitor.record(record), true);
                }
            }
            _ => {
                let mut reader = pgn::LineReader::with(super::read::Sighted::new(visitor))
                    .starting_at_line(self.first_line);
                for part in &self.parts {
                    match part {
                        Part::Lines(bytes) => {
                            text.clear();
                            encoding::decode_lines(bytes, self.lines_in, &mut text);
                            for line in text.lines() {
                                reader.push_line(line);
                            }
                            for (game, looks) in reader.take_games() {
                                each(game, looks);
                            }
                        }
                        Part::Overlong => reader.skip_overlong_line(MAX_LINE),
                    }
                }
                for (game, looks) in reader.finish() {
                    each(game, looks);
                }
            }
        }
    }
}

/// Reads the games of `source` with `visitor` like [`super::read_with`],
/// a piece at a time when it is PGN or JSON text (see the [module
/// docs](self)), in bounded memory.
///
/// # Errors
///
/// As [`split`] and [`read_split`].
pub fn read_stream_with<V: Visitor>(
    source: impl std::io::Read,
    encoding: Option<Encoding>,
    visitor: &mut V,
    each: impl FnMut(V::Output),
) -> Result<Read, Unreadable> {
    read_split(split(source, encoding)?, encoding, visitor, each)
}

/// Reads the games of an input [`split`] (or [`split_sized`]) with
/// `visitor`: the whole of it, or its chunks one after the other.
///
/// # Errors
///
/// As [`super::read_with`] for an input read whole; for one read in chunks,
/// [`Unreadable`] when it cannot be read or holds no game.
pub fn read_split<R: std::io::Read, V: Visitor>(
    split: Split<R>,
    encoding: Option<Encoding>,
    visitor: &mut V,
    mut each: impl FnMut(V::Output),
) -> Result<Read, Unreadable> {
    let mut chunks = match split {
        Split::Whole(bytes) => return super::read_with(&bytes, encoding, visitor, each),
        Split::Chunks(chunks) => chunks,
    };
    let read = Read { format: chunks.format(), encoding: Some(chunks.encoding()) };
    let mut held = super::read::Held::default();
    for chunk in &mut chunks {
        chunk?.read_with(visitor, |game, looks| held.take((game, looks), &mut each));
    }
    match held.end() {
        None => Err(Unreadable::no_record(read.format, UnreadableReason::NoGame)),
        Some(false) => Err(super::not_a_game(read.format)),
        Some(true) => Ok(read),
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
        let read = read_split(split, encoding, &mut RecordBuilder::default(), |r| records.push(r))?;
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
}
