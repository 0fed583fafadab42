//! File formats: one module per format, each a reader (bytes -> records)
//! and, where qipu writes the format, a writer.
//!
//! A format of more than one file is a folder: `pgn/` and `dhtmlxq/`
//! (`read.rs`, `write.rs`), `xqf/` and `pfc/` (`write.rs` beside the reader), `wxf/`,
//! and `ccbridge/`, the 象棋桥 family (CBR, CBL, compressed CBL and CBF).
//! XQF, DhtmlXQ and the compressed CBL list a start position's pieces in
//! one order, kept in `slots.rs`.

pub mod archive;
pub(crate) mod byte_error;
pub mod ccbridge;
pub mod clean;
pub mod detect;
pub mod dhtmlxq;
pub mod encoding;
pub mod epd;
pub mod html;
#[cfg(feature = "serde")]
pub mod json;
pub mod limits;
pub mod lines;
pub mod markup;
pub mod mxq;
pub mod online;
pub mod pfc;
pub mod pgn;
mod quoted;
mod read;
pub mod sg;
pub(crate) mod sighted;
pub(crate) mod slots;
pub(crate) mod sniff;
pub(crate) mod start;
pub mod stream;
pub(crate) mod tag_lines;
pub mod text;
#[cfg(test)]
pub(crate) mod told;
pub(crate) mod tree;
pub mod uci;
pub(crate) mod words;
pub mod write;
pub mod written;
pub mod wxf;
pub mod xqf;

use crate::record::{Record, RecordBuilder};
pub use byte_error::ByteError;
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
    /// A damaged 鹏飞 PFC document.
    #[error(transparent)]
    Pfc(pfc::PfcError),
    /// A damaged 象棋世家 `.mxq` file.
    #[error(transparent)]
    Mxq(mxq::MxqError),
    /// A damaged QQ象棋 `.che`, 中游 `.ccm` or 联众 `.chn` file.
    #[error(transparent)]
    Online(online::OnlineError),
    /// An archive or a compressed file that qipu does not open (7z, RAR,
    /// bzip2, xz, Zstandard, tar; gzip when met unread, as inflated data
    /// that is gzip again; a zip archive met where qipu does not open one:
    /// on standard input, inside a gzip stream, found in a folder under a
    /// name other than `*.zip`, or given to [`read`] rather than to a
    /// batch, which opens it: [`crate::batch::Input::of_bytes`]): it likely
    /// holds records, so it is unreadable rather than a file of no record.
    #[error("{kind}: {}", archive_advice(kind))]
    Archive {
        /// What it is: `"a zip archive"`, `"a gzip file"`, …
        kind: &'static str,
    },
    /// A zip archive, or a member of one, that cannot be read.
    #[error(transparent)]
    Zip(archive::ArchiveProblem),
    /// A CBL library that holds no record.
    #[error("a library without a record")]
    EmptyLibrary,
    /// A file too large to read whole, of a format that is not read a
    /// piece at a time.
    #[error(
        "larger than {} MB, of a kind read whole (a record of one game, a web page without a DhtmlXQ block in its first megabyte, PGN move text without tags)",
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
    pub(crate) fn cannot_read(e: &std::io::Error) -> UnreadableReason {
        UnreadableReason::CannotRead { kind: e.kind(), message: e.to_string() }
    }
}

/// What to do with an archive qipu does not open.
fn archive_advice(kind: &str) -> &'static str {
    if kind == "a zip archive" {
        "qipu opens a zip archive given as an input of its own (a path named, bytes) or found as a file named *.zip; name it so, or unpack it"
    } else if kind == "a gzip file" {
        "qipu inflates gzip data once, given as an input (a path, bytes, standard input); unpack it"
    } else {
        "qipu does not open archives or compressed files; unpack it and read the files"
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
    let mut games = sighted::Sighted::new(CountGames);
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
