//! Reading a large input a piece at a time, in bounded memory.
//!
//! The first megabyte decides how (`super::sniff::sniff`, called once
//! per input): an input read whole is not told again ([`Whole`]), but for
//! one whose head cannot tell (`super::sniff::Reading::Undecided`),
//! told from all of it once read. PGN, JSON, EPD, UCI,
//! DhtmlXQ, WXF and plain text is cut, as it arrives, into [`Chunk`]s of
//! whole games (about 256 KB each) that are read one after the other, or
//! side by side on several threads, and give the same games as reading
//! the whole text at once; so is a CBL library, plain or compressed, into
//! chunks of records. Data of no record format is refused on its first
//! megabyte. Records of one game (XQF, CBR, CBF, `.mxq`, `.SG`, `.che`,
//! `.ccm`, `.chn`), and texts
//! whose kind cannot be told from their first megabyte (a web page without
//! a DhtmlXQ block there, PGN move text without tags, a text without a line
//! of moves there), are read whole, up
//! to `MAX_WHOLE`. The kind of a text is told from its first megabyte
//! only: a PGN file whose first megabyte holds more DhtmlXQ blocks than
//! games, or a DhtmlXQ one whose rest holds more PGN games than it has
//! blocks, is read as what its first megabyte says; so is a plain text
//! whose first megabyte reads better as plain text than as PGN move text
//! without tags (see `super::sniff`), whatever its rest.
//!
//! A text is cut only at line ends, and only where any reading of it
//! starts a new game:
//!
//! - PGN: at a line of tags that is surely read as tags (after an empty
//!   line, or when no comment can be open) when the game before it surely
//!   has moves;
//! - JSON, EPD and UCI: at any line end (a record is a line);
//! - DhtmlXQ: before a line when no block is open (the last block opened
//!   before it was closed), or when the line starts with a block's opening
//!   tag (a block not closed runs up to the next block's opening tag). A
//!   chunk's blocks then read alone as in the whole text, counting lines
//!   from the chunk's first line;
//! - WXF: before a `FORMAT` line of a game's header, and after `}END` before
//!   a line of a key real files use or the next `START{` (see
//!   `wxf::GameStarts`);
//! - plain text: before the first header line after move lines, once a
//!   move line follows it (so header lines at the end, which the last game
//!   tells of, stay with it).
//!
//! Lines with no such place between them are held up to `MAX_GAME`
//! (16 MB); beyond that they are one unreadable game, which names its
//! first and last line, and the games after the next place read as in the
//! whole text. A game of a text is never longer (a DhtmlXQ block never
//! closed, a PGN game of 20 MB of comments), and no text is refused for
//! its size.
//!
//! UTF-8, GB18030 and Big5 end their lines with a 0x0A byte that is never
//! part of a character, and a line's first bytes other than white space
//! are never the second byte of one; braces and `[` (which can be, in GBK
//! and Big5) are looked for in the decoded line. The bytes are cut before
//! they are decoded, and each chunk decodes its own, line by line (see
//! `super::encoding::decode_lines`). UTF-16 is decoded as it comes, to UTF-8.
//! A line longer than [`MAX_LINE`] is not read, so that memory stays
//! bounded: its PGN game or EPD or UCI line is unreadable; in
//! a WXF or plain text it is an unreadable game of its own between the
//! lines before and after it, read apart; in a DhtmlXQ text it ends the
//! blocks before it and, when a block is open before it or a block's
//! opening tag is in it, is an unreadable game of its own.
//!
//! A JSON record is read whatever its line's length, so that qipu reads
//! back its own JSON: a line longer than its first megabyte (`JSON_HELD`,
//! the head's size) is not held as text, but read as it comes (a piece at a time, decoded when its text is
//! not UTF-8), its moves added to the game as they are read; what is held
//! is what the game needs. A line that is not a record is read up to
//! where it stops being JSON (or one of qipu's records), and its rest
//! dropped as it comes: it is an unreadable game, as a short one is.
//!
//! A source whose data is cut short, as a truncated gzip file is (its
//! reader gives an I/O error holding a [`CutShort`]), gives the games of
//! its text before the cut, then the error: the game the cut falls in (the
//! text after the last place a game surely starts, a PGN game's whole
//! lines when their last ends with a result, the line cut in a text of a
//! record a line) is not read, and the error names its first line, unless
//! what was read is whole (only a gzip member's trailer is missing). An
//! input cut short in its first megabyte is read so too, when its head
//! tells a text read in pieces; any other (a record of one game, a text
//! read whole) cannot be read.
//!
//! A library is read record by record (see `ccbridge/cbl_stream.rs`): a
//! plain library's index is kept a few bytes an entry, each record read
//! from its own slots; a compressed library is inflated as it comes. Each
//! record is read by the function that reads it in the whole file, with
//! the same offsets, and one that cannot be read is an unreadable game.
//! A compressed library whose stream turns out broken at its end (or of
//! another length than its header says) cannot be read, as in whole
//! reading, when it holds up to 8 MB of records (they are held until the
//! stream ends); past that, the records handed on before its end stay
//! read. A plain library's record longer than 16 MB is not read.
//!
//! ```
//! use qipu::formats::stream::read_stream_with;
//! use qipu::record::replay::Replayer;
//! let text = "[Event \"a\"]\n1. h2e2 h9g7 *\n\n".repeat(100_000); // 3 MB
//! let mut games = 0;
//! let read = read_stream_with(text.as_bytes(), None, &mut Replayer::default(), |_| games += 1).unwrap();
//! assert_eq!((read.format.name(), games), ("pgn", 100_000));
//! ```

mod library;
#[cfg(test)]
mod tests;
mod text;

use std::io::Read as _;

use super::ccbridge::{CcbridgeErrorKind, FileKind};
use super::detect::Format;
use super::encoding::{Encoding, TextEncoding};
use super::sniff::{self, Reading, Sniff};
use super::{ByteError, Read, Unreadable, UnreadableReason};
use crate::record::Visitor;
use library::{LibraryChunk, LibraryChunks};
use text::{TextChunk, TextChunks};

/// How much of the input is read before deciding how to read the rest.
pub(crate) const HEAD: usize = 1 << 20;

/// The limits the readers have, kept beside the writers' warnings about
/// them (see [`super::limits`]).
pub use super::limits::MAX_LINE;
pub(crate) use super::limits::{MAX_GAME, MAX_WHOLE};

/// JSON lines longer than this (the head: [`split_sized`]'s head size when
/// given) are not held as text: the record is read as the line comes, what
/// its game needs held, whatever the line's length (see the
/// [module docs](self)).
#[cfg(test)]
pub(crate) const JSON_HELD: usize = HEAD;

/// How much is read at a time after the head, and about how large a chunk
/// is: what a chunk's games make (a validate report, a FEN trail) is held
/// until it is handed on in order, a few chunks for each thread, so a
/// chunk of short games must stay small (256 KB of ICCS PGN is about 2,700
/// games).
const PIECE: usize = 256 << 10;

/// How an input is read: whole, or in chunks.
// One per input, moved once: the room its chunks' reader takes (with the
// typed error of a library it may hold) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Split<R> {
    /// The input, read whole: a format that is not read in pieces.
    Whole(Whole),
    /// The input, read in chunks of whole games.
    Chunks(Chunks<R>),
}

/// An input read whole, and what it is as its head told it (or all of it,
/// when its head could not tell).
#[derive(Debug)]
pub struct Whole {
    bytes: Vec<u8>,
    told: Sniff,
    /// Its text, when telling it decoded all of it into a new string.
    text: Option<String>,
}

impl Whole {
    /// Reads its games with `visitor` like [`super::read_with`], without
    /// telling its format or decoding its text again.
    ///
    /// # Errors
    ///
    /// As [`super::read_with`].
    pub fn read_with<V: Visitor>(
        &self,
        visitor: &mut V,
        each: impl FnMut(V::Output),
    ) -> Result<Read, Unreadable> {
        let text = self.text.as_deref().map(std::borrow::Cow::Borrowed);
        super::read::read_sniffed(&self.bytes, self.told, text, visitor, each)
    }
}

/// Cuts an input into chunks of whole games as it is read (see the
/// [module docs](self)).
#[derive(Debug)]
pub struct Chunks<R> {
    cut: Cut<R>,
}

#[derive(Debug)]
enum Cut<R> {
    Text(TextChunks<R>),
    Library(LibraryChunks<R>),
}

/// Whole games of an input (lines of text, or records of a library) that
/// read alone as they do in the whole input.
#[derive(Debug)]
pub struct Chunk {
    part: Part,
}

#[derive(Debug)]
enum Part {
    Text(TextChunk),
    Library(LibraryChunk),
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
    source: R,
    encoding: Option<Encoding>,
    head_size: usize,
    piece_size: usize,
) -> Result<Split<R>, Unreadable> {
    split_limited(source, encoding, (head_size, piece_size), MAX_GAME)
}

/// [`split_sized`] with the most a game may hold given too.
pub(crate) fn split_limited<R: std::io::Read>(
    mut source: R,
    encoding: Option<Encoding>,
    (head_size, piece_size): (usize, usize),
    max_game: usize,
) -> Result<Split<R>, Unreadable> {
    let mut head = Vec::with_capacity(head_size);
    // Cut short within its head: its text is read up to the cut, in
    // chunks; anything else cannot be read.
    let mut cut = None;
    match (&mut source).take(head_size as u64).read_to_end(&mut head) {
        Ok(_) => {}
        Err(e) if CutShort::of(&e).is_some() => cut = Some(e),
        Err(e) => return Err(cannot_read(e)),
    }
    let all = head.len() < head_size && cut.is_none();
    // What the input is, told once, from its head.
    let (told, text) = sniff::sniff_decoded(&head, all, encoding);
    let text = if all { owned(text) } else { None };
    if let Some(e) = &cut
        && (told.reading != Reading::Pieces || told.format == Format::Cbl || told.text.is_none())
    {
        return Err(cannot_read_cut(e));
    }
    // Data of no record format is refused on its head: the rest (of a
    // device such as /dev/zero, maybe endless) is not read.
    if told.format == Format::Binary || all {
        return Ok(Split::Whole(Whole { bytes: head, told, text }));
    }
    match told.reading {
        Reading::Whole => return whole(head, source, told),
        Reading::Undecided => {
            // Told again from all of it.
            let mut input = whole(head, source, told)?;
            if let Split::Whole(w) = &mut input {
                let (told, text) = sniff::sniff_decoded(&w.bytes, true, encoding);
                (w.told, w.text) = (told, owned(text));
            }
            return Ok(input);
        }
        Reading::Pieces => {}
    }
    if told.format == Format::Cbl {
        let chunks = |cut| Ok(Split::Chunks(Chunks { cut: Cut::Library(cut) }));
        let found = head[..head.len().min(16)].to_vec();
        return match LibraryChunks::new(head, source, piece_size) {
            Some(cut) => chunks(cut),
            // Cannot be: the head was told to be a library.
            None => {
                let kind = CcbridgeErrorKind::NotCcbridge { wanted: FileKind::Library, found };
                let e = ByteError { offset: 0, in_inflated_data: false, kind };
                Err(Unreadable::damaged(Format::Cbl, UnreadableReason::Ccbridge(e)))
            }
        };
    }
    let Some(lines_in) = told.text else { return whole(head, source, told) };
    let enc = lines_in.encoding;
    let utf16 = matches!(enc, Encoding::Utf16Le | Encoding::Utf16Be);
    let (raw, decoder, lines_in) = if utf16 {
        // Decoded as it comes, to UTF-8: the chunks' lines are UTF-8.
        let mut decoder = enc.decoder();
        let mut text = String::new();
        decode(&mut decoder, &head[lines_in.bom..], &mut text, false);
        let utf8 = TextEncoding { encoding: Encoding::Utf8, bom: 0, line_by_line: false };
        (text.into_bytes(), Some(decoder), utf8)
    } else {
        (head.split_off(lines_in.bom), None, lines_in)
    };
    let sizes = (piece_size, max_game, head_size);
    let mut chunks = TextChunks::new(source, (told.format, enc, lines_in), decoder, raw, sizes);
    if let Some(e) = &cut {
        chunks.cut_short(e);
    }
    Ok(Split::Chunks(Chunks { cut: Cut::Text(chunks) }))
}

/// A text decoded into a new string, kept (one borrowed from the bytes is
/// had again for nothing).
fn owned(text: Option<std::borrow::Cow<'_, str>>) -> Option<String> {
    text.and_then(|t| match t {
        std::borrow::Cow::Owned(t) => Some(t),
        std::borrow::Cow::Borrowed(_) => None,
    })
}

/// The input whose head is `head`, read whole (up to [`MAX_WHOLE`]), told
/// as `told`.
fn whole<R: std::io::Read>(mut bytes: Vec<u8>, mut source: R, told: Sniff) -> Result<Split<R>, Unreadable> {
    let room = (MAX_WHOLE + 1).saturating_sub(bytes.len() as u64);
    (&mut source).take(room).read_to_end(&mut bytes).map_err(cannot_read)?;
    if bytes.len() as u64 > MAX_WHOLE {
        let reason = UnreadableReason::TooLarge { max: MAX_WHOLE };
        return Err(Unreadable::damaged(told.format, reason));
    }
    Ok(Split::Whole(Whole { bytes, told, text: None }))
}

fn cannot_read(e: std::io::Error) -> Unreadable {
    Unreadable::damaged(Format::Binary, UnreadableReason::cannot_read(&e))
}

/// [`cannot_read`] for an input cut short: the error's message is
/// [`CutShort`]'s.
fn cannot_read_cut(e: &std::io::Error) -> Unreadable {
    Unreadable::damaged(Format::Binary, UnreadableReason::cannot_read(e))
}

/// Why a source stops early, its data cut short (a truncated download of
/// a gzip file): the error inside the [`std::io::Error`] its reader gives.
/// A text read in chunks then gives its games before the cut, and this
/// error last ([`read_split`] returns it); the game the cut falls in is
/// not read, unless all that was read is whole (only a gzip stream's
/// trailer is missing, say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutShort {
    /// Whether the data read before the cut is all there is (only what
    /// checks it is missing).
    pub whole: bool,
    /// What is cut short, and how: `the gzip stream ends early (unexpected end of file)`.
    pub message: String,
}

impl CutShort {
    /// An I/O error of kind `UnexpectedEof` that is this.
    pub fn into_io(self) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::UnexpectedEof, self)
    }

    /// The cut an I/O error stands for, if it stands for one.
    pub fn of(e: &std::io::Error) -> Option<&CutShort> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<CutShort>())
    }
}

impl std::fmt::Display for CutShort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CutShort {}

/// What reading a whole input says of one from which no game was read
/// (its chunks held none, or none that looks like a game: see
/// [`super::read_with`]).
pub(crate) fn no_game(format: Format) -> Unreadable {
    match format {
        Format::Cbl => Unreadable::damaged(Format::Cbl, UnreadableReason::EmptyLibrary),
        Format::Text => Unreadable::no_record(Format::Text, UnreadableReason::NoLineOfMoves),
        _ => Unreadable::no_record(format, UnreadableReason::NoGame),
    }
}

impl<R: std::io::Read> Chunks<R> {
    /// The format of the input.
    pub fn format(&self) -> Format {
        match &self.cut {
            Cut::Text(text) => text.format,
            Cut::Library(_) => Format::Cbl,
        }
    }

    /// The encoding of a text (`None` for a library).
    pub fn encoding(&self) -> Option<Encoding> {
        match &self.cut {
            Cut::Text(text) => Some(text.encoding),
            Cut::Library(_) => None,
        }
    }
}

impl<R: std::io::Read> Iterator for Chunks<R> {
    type Item = Result<Chunk, Unreadable>;

    fn next(&mut self) -> Option<Self::Item> {
        let chunk = match &mut self.cut {
            Cut::Text(text) => text.next_chunk().map(|c| c.map(Part::Text)),
            Cut::Library(library) => library.next_chunk().map(|c| c.map(Part::Library)),
        };
        chunk.map(|c| c.map(|part| Chunk { part })).transpose()
    }
}

impl Chunk {
    /// The format of the chunk's games.
    pub fn format(&self) -> Format {
        match &self.part {
            Part::Text(text) => text.format,
            Part::Library(_) => Format::Cbl,
        }
    }

    /// The encoding of the chunk's text (`None` for records of a library).
    pub fn encoding(&self) -> Option<Encoding> {
        match &self.part {
            Part::Text(text) => Some(text.encoding),
            Part::Library(_) => None,
        }
    }

    /// How many bytes the chunk holds.
    pub fn len(&self) -> usize {
        match &self.part {
            Part::Text(text) => text.len(),
            Part::Library(library) => library.len(),
        }
    }

    /// Whether the chunk holds nothing.
    pub fn is_empty(&self) -> bool {
        match &self.part {
            Part::Text(text) => text.is_empty(),
            Part::Library(library) => library.is_empty(),
        }
    }

    /// Reads the chunk's games with `visitor`, handing what it makes of each
    /// to `each` with whether the game looks like a game (see
    /// [`super::read`]'s rule for a file of text without one).
    pub fn read_with<V: Visitor>(&self, visitor: &mut V, each: impl FnMut(V::Output, bool)) {
        match &self.part {
            Part::Text(text) => text.read_with(visitor, each),
            Part::Library(library) => library.read_with(visitor, each),
        }
    }
}

/// Reads the games of `source` with `visitor` like [`super::read_with`],
/// a piece at a time when it is text of a record format or a CBL
/// library (see the [module docs](self)), in bounded memory.
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
    read_split(split(source, encoding)?, visitor, each)
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
    visitor: &mut V,
    mut each: impl FnMut(V::Output),
) -> Result<Read, Unreadable> {
    let mut chunks = match split {
        Split::Whole(whole) => return whole.read_with(visitor, each),
        Split::Chunks(chunks) => chunks,
    };
    let read = Read { format: chunks.format(), encoding: chunks.encoding() };
    let mut held = super::read::Held::default();
    for chunk in &mut chunks {
        chunk?.read_with(visitor, |game, looks| held.take((game, looks), &mut each));
    }
    match held.end() {
        None => Err(no_game(read.format)),
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
