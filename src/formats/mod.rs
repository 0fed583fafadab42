//! File formats: one module per format, each a reader (bytes -> records)
//! and, where qipu writes the format, a writer.
//!
//! A format of more than one file is a folder: `pgn/` and `dhtmlxq/`
//! (`read.rs`, `write.rs`), `xqf/` (`write.rs` beside the reader), `wxf/`,
//! and `ccbridge/`, the 象棋桥 family (CBR, CBL, compressed CBL and CBF).
//! XQF, DhtmlXQ and the compressed CBL list a start position's pieces in
//! one order, kept in `slots.rs`.

pub mod ccbridge;
pub mod clean;
pub mod detect;
pub mod dhtmlxq;
pub mod encoding;
pub mod epd;
#[cfg(feature = "serde")]
pub mod json;
pub mod lines;
pub mod mxq;
pub mod pgn;
mod read;
pub mod sg;
pub(crate) mod slots;
pub mod sniff;
pub mod stream;
pub mod text;
pub mod uci;
pub mod write;
pub mod wxf;
pub mod xqf;

use crate::record::{Record, RecordBuilder};
pub use ccbridge::cbf;
use detect::Format;
use encoding::Encoding;
pub use read::{Read, read_with};
pub use slots::SharedPoint;
pub use write::{WriteError, WriteOptions, write};

/// The records of one file and how they were read.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The format detected.
    pub format: Format,
    /// The text encoding, for text formats.
    pub encoding: Option<Encoding>,
    /// The records, in file order.
    pub records: Vec<Record>,
}

/// Why a binary file (or a record in one) cannot be read, and at which
/// byte: an [`XqfError`](xqf::XqfError) or a
/// [`CcbridgeError`](ccbridge::CcbridgeError), whose `kind` says what is
/// wrong in the terms of its format. The message is `byte OFFSET: ` and
/// the [`reason`](ByteError::reason).
///
/// ```
/// use qipu::formats::xqf::{self, XqfErrorKind};
/// let mut file = b"XQ\x13".to_vec();
/// file.resize(1024, 0);
/// let e = xqf::read(&file).unwrap_err();
/// assert_eq!((e.offset, e.in_inflated_data, &e.kind), (2, false, &XqfErrorKind::Version(19)));
/// assert_eq!(e.to_string(), "byte 2: version 19: XQStudio writes versions up to 18");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteError<K> {
    /// Byte offset of the problem: in the file, or in the inflated data
    /// when [`in_inflated_data`](ByteError::in_inflated_data) says so.
    pub offset: usize,
    /// Whether `offset` counts in the inflated data of a compressed 象棋桥
    /// library rather than in the file.
    pub in_inflated_data: bool,
    /// What is wrong.
    pub kind: K,
}

impl<K: std::fmt::Display> ByteError<K> {
    /// What is wrong, in words: the kind's message, and, for an offset in
    /// inflated data, ` (offset in the inflated library data)`.
    pub fn reason(&self) -> String {
        let mut reason = self.kind.to_string();
        if self.in_inflated_data {
            reason.push_str(" (offset in the inflated library data)");
        }
        reason
    }
}

impl<K: std::fmt::Display> std::fmt::Display for ByteError<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.kind)?;
        if self.in_inflated_data {
            f.write_str(" (offset in the inflated library data)")?;
        }
        Ok(())
    }
}

impl<K: std::fmt::Debug + std::fmt::Display> std::error::Error for ByteError<K> {}

/// A [`ByteError`] at `offset` in the file, as the `Err` of a reader.
fn byte_error<T, K>(offset: usize, kind: K) -> Result<T, ByteError<K>> {
    Err(ByteError { offset, in_inflated_data: false, kind })
}

/// Settles the side to move of a record whose moves are points, and writes
/// its `FEN` tag when the start is not the standard one with Red to move
/// (`board_at`: where the file stores the placement). The side is the
/// colour of the first move's piece; without a move, what the file stores
/// (`stored`: the side, where, and what says it, such as "header"), else
/// Red. A stored side that the first move contradicts is reported as a
/// warning.
pub(crate) fn settle_start(
    record: &mut Record,
    board: &crate::Board,
    board_at: crate::record::Span,
    stored: Option<(crate::Color, crate::record::Span, &str)>,
    fullmoves: u32,
) {
    use crate::record::{MoveText, Warning};
    let tree = &record.tree;
    let first_mover = tree.main_child(tree.root()).and_then(|id| match &tree.node(id).mv.as_ref()?.text {
        MoveText::Coords(m) => board.piece_at(m.from).map(|p| p.color),
        MoveText::Text(_) => None,
    });
    let turn = first_mover.or(stored.map(|(side, ..)| side)).unwrap_or(crate::Color::Red);
    if let (Some((said, at, who)), Some(mover)) = (stored, first_mover)
        && said != mover
    {
        let message = format!("the {who} says {said} moves first, but the first move is {mover}'s");
        record.warnings.push(Warning { at, message });
    }
    if *board != crate::Board::start() || turn != crate::Color::Red {
        let mut fen = String::new();
        crate::rules::fen::write_fen(board, turn, 0, fullmoves.max(1), &mut fen);
        record.tags.push(("FEN".into(), fen));
        record.start_at = Some(board_at);
    }
}

/// A file from which no record can be read. Its message is the
/// [`reason`](Unreadable::reason)'s.
///
/// ```
/// use qipu::formats::{self, UnreadableReason, xqf::XqfErrorKind};
/// let e = formats::read(b"", None).unwrap_err();
/// assert_eq!((e.reason.clone(), e.holds_no_record), (UnreadableReason::Empty, true));
/// let e = formats::read(b"XQ\x0a", None).unwrap_err();
/// let UnreadableReason::Xqf(xqf) = &e.reason else { panic!("{e}") };
/// assert!(matches!(xqf.kind, XqfErrorKind::Truncated(_)));
/// assert_eq!(e.to_string(), "byte 3: truncated: 3 bytes, but an XQF header has 1024");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Unreadable {
    /// The format detected.
    pub format: Format,
    /// Why nothing can be read.
    pub reason: UnreadableReason,
    /// Whether the file holds no record at all (prose, an empty file,
    /// binary data of no record format) rather than a record that cannot
    /// be read (a damaged XQF, a broken JSON line).
    pub holds_no_record: bool,
}

impl Unreadable {
    /// A file that is a record, or meant to be one, and cannot be read.
    pub fn damaged(format: Format, reason: UnreadableReason) -> Unreadable {
        Unreadable { format, reason, holds_no_record: false }
    }

    /// A file that holds no record at all.
    pub fn no_record(format: Format, reason: UnreadableReason) -> Unreadable {
        Unreadable { format, reason, holds_no_record: true }
    }
}

/// Why no record can be read from a file (or an input of a batch): what an
/// [`Unreadable`] holds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnreadableReason {
    /// An empty file.
    #[error("empty file")]
    Empty,
    /// A file of white space only.
    #[error("only white space")]
    WhiteSpace,
    /// Binary data of no record format; `start` is its first bytes (up to
    /// four).
    #[error(
        "binary data that is not a known record format (it starts with {}; an XQF file starts with 'XQ')",
        Hex(start)
    )]
    Binary {
        /// The first bytes.
        start: Vec<u8>,
    },
    /// A text in which no game is found.
    #[error("no game found")]
    NoGame,
    /// A text with no line of moves.
    #[error("text without a game record: no line of moves")]
    NoLineOfMoves,
    /// A text whose games do not look like games: no tags, and the first
    /// word is not a move.
    #[error("text without a game record: no tags, and the first word is not a move")]
    NotAGame,
    /// A damaged XQF file.
    #[error(transparent)]
    Xqf(xqf::XqfError),
    /// A damaged 象棋桥 CBR record or CBL library.
    #[error(transparent)]
    Ccbridge(ccbridge::CcbridgeError),
    /// A damaged CBF document.
    #[error(transparent)]
    Cbf(cbf::CbfError),
    /// A damaged 象棋世家 `.mxq` file.
    #[error(transparent)]
    Mxq(mxq::MxqError),
    /// An archive or a compressed file (zip, 7z, RAR, bzip2, xz,
    /// Zstandard, tar; gzip when met unread, as inflated data that is gzip
    /// again), which qipu does not open: it likely holds records,
    /// so it is unreadable rather than a file of no record.
    #[error("{kind}: qipu does not open archives or compressed files; unpack it and read the files")]
    Archive {
        /// What it is: `"a zip archive"`, `"a gzip file"`, …
        kind: &'static str,
    },
    /// A CBL library that holds no record.
    #[error("a library without a record")]
    EmptyLibrary,
    /// A file too large to read whole, of a format that is not read a
    /// piece at a time.
    #[error(
        "larger than {} MB: only PGN, JSON, DhtmlXQ, EPD and UCI text and CBL libraries are read a piece at a time; split the file",
        .max >> 20
    )]
    TooLarge {
        /// The largest size read whole, in bytes.
        max: u64,
    },
    /// The file, or the folder, cannot be read.
    #[error("cannot read: {message}")]
    CannotRead {
        /// The kind of the error.
        kind: std::io::ErrorKind,
        /// The system's words.
        message: String,
    },
    /// A path of a batch that does not exist.
    #[error("no such file or directory")]
    NotFound,
    /// A link, met while walking a folder, to nothing.
    #[error("cannot read: a link to nothing ({message})")]
    BrokenLink {
        /// The system's words.
        message: String,
    },
    /// A file met while walking a folder that is not opened: a named pipe,
    /// a socket, a device (a pipe would wait forever for a writer).
    #[error("{kind}, not opened while walking a folder")]
    NotOpened {
        /// What it is: `"a named pipe (FIFO)"`, `"a socket"`, `"a device"`,
        /// `"not a regular file"`.
        kind: &'static str,
    },
}

impl UnreadableReason {
    /// The reason of an error of reading a file.
    pub fn cannot_read(e: &std::io::Error) -> UnreadableReason {
        UnreadableReason::CannotRead { kind: e.kind(), message: e.to_string() }
    }
}

/// Bytes as `50 4b 03 04`.
struct Hex<'a>(&'a [u8]);

impl std::fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Reads the records of a file of any supported format; `encoding`
/// overrides text-encoding detection.
///
/// # Errors
///
/// [`Unreadable`] for a file from which no record can be read: of no record
/// format, or a record that cannot be read at all.
///
/// ```
/// let parsed = qipu::formats::read(b"[Event \"x\"]\n1. h2e2 *\n", None).unwrap();
/// assert_eq!((parsed.format.name(), parsed.records.len()), ("pgn", 1));
/// ```
pub fn read(bytes: &[u8], encoding: Option<Encoding>) -> Result<Parsed, Unreadable> {
    let mut records = Vec::new();
    let read = read_with(bytes, encoding, &mut RecordBuilder::default(), |r| records.push(r))?;
    Ok(Parsed { format: read.format, encoding: read.encoding, records })
}

/// How many games a PGN reading of `text` finds (counted, not kept).
pub(crate) fn pgn_games(text: &str) -> usize {
    let mut games = read::Sighted::new(CountGames);
    pgn::read_with(text, &mut games).into_iter().filter(|&(_, looks)| looks).count()
}

/// A visitor that keeps nothing of a game.
#[derive(Debug)]
struct CountGames;

impl crate::record::Visitor for CountGames {
    type Output = ();
    fn begin_variation(&mut self) -> crate::record::Skip {
        crate::record::Skip(true)
    }
    fn end_game(&mut self) {}
}

pub(crate) use read::{Held, not_a_game};
