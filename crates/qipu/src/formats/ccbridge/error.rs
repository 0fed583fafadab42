//! What goes wrong when a 象棋桥 binary file cannot be read: the kinds of a
//! [`CcbridgeError`](super::CcbridgeError), each with the values found.

use std::fmt;

use crate::Square;
use crate::formats::SharedPoint;

/// Why a CBR record, a CBL library or a game of one cannot be read; the
/// [`CcbridgeError`](super::CcbridgeError) that holds it gives the byte
/// offset.
///
/// ```
/// use qipu::formats::ccbridge::{self, CcbridgeErrorKind, FileKind};
/// let e = ccbridge::read_cbr(b"CCBridgeLibrary\0").unwrap_err();
/// assert_eq!(e.kind, CcbridgeErrorKind::WrongFile { wanted: FileKind::Record });
/// assert_eq!(e.to_string(), "byte 0: a CCBridge library (CBL), not a single record (CBR)");
/// let e = ccbridge::read_cbl(b"PK").unwrap_err();
/// assert_eq!(e.kind, CcbridgeErrorKind::NotCcbridge { wanted: FileKind::Library, found: b"PK".to_vec() });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CcbridgeErrorKind {
    /// The file starts with no signature of the family; `found` is what
    /// it starts with (up to 16 bytes).
    #[error(
        "not a CCBridge {wanted}: it starts with '{}', not 'CCBridge Record', 'CCBridgeLibrary' or 'CCBridge' and format 21",
        Shown(found)
    )]
    NotCcbridge {
        /// What was to be read.
        wanted: FileKind,
        /// The first bytes of the file.
        found: Vec<u8>,
    },
    /// A file of the family, but the other kind: a library where a record
    /// was to be read, or the other way round.
    #[error("{}", match wanted {
        FileKind::Record => "a CCBridge library (CBL), not a single record (CBR)",
        FileKind::Library => "a single CCBridge record (CBR), not a library (CBL)",
    })]
    WrongFile {
        /// What was to be read.
        wanted: FileKind,
    },
    /// A CBR layout version other than 1 and 2.
    #[error("CBR version {}{}", .0, version_words(*.0))]
    Version(u8),
    /// The data ends before a part of it.
    #[error("truncated: {0}")]
    Truncated(Truncated),
    /// A length or a count that the bytes left cannot hold.
    #[error(transparent)]
    Overrun(Overrun),
    /// The zlib stream of a compressed library, or the length it inflates
    /// to, is not what its header says.
    #[error(transparent)]
    Inflate(Inflate),
    /// A byte that is none of the values it may take.
    #[error(transparent)]
    BadByte(BadByte),
    /// Two piece slots of a compressed library's start position on one
    /// point.
    #[error(transparent)]
    SharedPoint(SharedPoint),
    /// A move that is no move: a point off the board, a move from a point
    /// to itself, a ply out of its line.
    #[error(transparent)]
    BadMove(BadMove),
    /// A CBL index entry whose slot does not start with a CBR record.
    #[error("index entry {entry} (byte {at}): no 'CCBridge Record' where its slot starts")]
    NoRecordInSlot {
        /// The entry, counted from 0.
        entry: usize,
        /// The entry's byte offset.
        at: usize,
    },
    /// A record of a CBL index entry longer than qipu reads a piece at a
    /// time (a bound on memory): not read.
    #[error("index entry {entry}: a record of {len} bytes, longer than qipu reads ({} MB): not read", .max >> 20)]
    TooLong {
        /// The entry, counted from 0.
        entry: usize,
        /// The record's length.
        len: usize,
        /// The longest record read, in bytes.
        max: usize,
    },
    /// A game of a compressed library after one whose length is unusable:
    /// where it starts cannot be known.
    #[error("game {game}: not reached, the length of game {unusable} is unusable")]
    NotReached {
        /// The game, counted from 0.
        game: usize,
        /// The game whose length is unusable.
        unusable: usize,
    },
}

/// What follows the number of an unknown CBR version.
fn version_words(version: u8) -> &'static str {
    match version {
        3 => ", a newer CCBridge record format: not supported",
        _ => ": only versions 1 and 2 are known",
    }
}

/// A file of the 象棋桥 binary family: what a reader was asked to read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A CBR record.
    Record,
    /// A CBL library, plain or compressed.
    Library,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Record => "record",
            FileKind::Library => "library",
        })
    }
}

/// Which part of a 象棋桥 file is cut short.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Truncated {
    /// A part needs more bytes than are left.
    #[error("{what} needs {needs} bytes, {left} are left")]
    Needs {
        /// The part, in words (`"a move record"`, `"the piece slots"`).
        what: &'static str,
        /// The bytes it needs.
        needs: usize,
        /// The bytes left.
        left: usize,
    },
    /// A CBL ends before its index size (byte 60).
    #[error("the library header ends before its index size (byte 60)")]
    LibraryHeader,
    /// A compressed library is shorter than its 20-byte header.
    #[error("the compressed library header has 20 bytes")]
    CompressedHeader,
    /// A CBL's index does not fit in the file.
    #[error("an index of {entries} entries from byte {} does not fit in the file", super::layout::INDEX_AT)]
    Index {
        /// The index size its header gives.
        entries: u32,
    },
    /// A CBR record shorter than its header (`header`: the length the
    /// header needs, when the version is known).
    #[error("{holder} gives the record {len} bytes, {}", Needs(*header))]
    Record {
        /// What bounds the record: `"the file"`, `"its index entry"`.
        holder: &'static str,
        /// The record's length.
        len: usize,
        /// The length of its header, when its version is read.
        header: Option<usize>,
    },
    /// The inflated data of a compressed library ends before a game's
    /// length.
    #[error("the data ends before the game's length")]
    GameLength,
}

/// `not even a header`, or `its header needs N`.
struct Needs(Option<usize>);

impl fmt::Display for Needs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("not even a header"),
            Some(n) => write!(f, "its header needs {n}"),
        }
    }
}

/// A length or a count that the bytes left cannot hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Overrun {
    /// A CBR comment.
    #[error("comment of {len} bytes, but only {left} bytes are left")]
    Comment {
        /// Its length.
        len: usize,
        /// The bytes left after its length.
        left: usize,
    },
    /// A text of a compressed library.
    #[error("{what}: {len} bytes, but only {left} are left")]
    Text {
        /// The text, in words (`"the library name"`, `"Event"`).
        what: &'static str,
        /// Its length.
        len: usize,
        /// The bytes left after its length.
        left: usize,
    },
    /// A record of a CBL index entry.
    #[error(
        "index entry {entry}: a record of {len} bytes at byte {start} goes past the end of the file ({file_len} bytes)"
    )]
    Record {
        /// The entry, counted from 0.
        entry: usize,
        /// The record's length.
        len: usize,
        /// Where its slot starts.
        start: usize,
        /// The length of the file.
        file_len: usize,
    },
    /// A game of a compressed library.
    #[error("game {game}: a length of {len} bytes does not fit in the {left} bytes left")]
    Game {
        /// The game, counted from 0.
        game: usize,
        /// Its length.
        len: usize,
        /// The bytes left from its start.
        left: usize,
    },
    /// The game count of a compressed library.
    #[error("{count} games, but the {left} bytes left hold {most} at most")]
    Games {
        /// The count.
        count: usize,
        /// The bytes left after it.
        left: usize,
        /// The most games they can hold.
        most: usize,
    },
    /// The move count of a compressed library's game.
    #[error("{count} moves of 6 bytes, but only {left} bytes are left")]
    Moves {
        /// The count.
        count: usize,
        /// The bytes left after it.
        left: usize,
    },
}

/// What is wrong with a compressed library's zlib stream.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Inflate {
    /// The header asks for more than qipu reads (a bound on memory).
    #[error("the header says {declared} inflated bytes; qipu reads libraries up to {max}")]
    TooLarge {
        /// The inflated length the header gives.
        declared: usize,
        /// The most qipu reads.
        max: usize,
    },
    /// The header asks for more than the stream can inflate to.
    #[error("the header says {declared} inflated bytes, more than {stream} zlib bytes can hold")]
    PastRatio {
        /// The inflated length the header gives.
        declared: usize,
        /// The length of the stream.
        stream: usize,
    },
    /// The stream does not inflate.
    #[error("compressed CCBridge library: the zlib stream is broken ({message})")]
    Broken {
        /// The kind of the inflater's error.
        kind: std::io::ErrorKind,
        /// The inflater's words.
        message: String,
    },
    /// The stream stopped while a library read a piece at a time was
    /// inflated (its own error is told apart).
    #[error("the zlib stream failed")]
    Failed,
    /// The input of a library read a piece at a time failed while it was
    /// inflated (its own error is told apart).
    #[error("the input cannot be read")]
    InputFailed,
    /// The stream inflates to another length than the header gives.
    #[error("the header says {declared} inflated bytes, the zlib stream holds {inflated}")]
    Length {
        /// The inflated length the header gives.
        declared: usize,
        /// The length inflated (one past `declared` at most: no more is
        /// read).
        inflated: usize,
    },
}

/// A byte that is none of the values it may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadByte {
    /// A CBR board byte that is no piece.
    #[error("board: byte {byte:#04x} (row {row}, column {column}) is not a piece")]
    Board {
        /// The byte.
        byte: u8,
        /// Its row, 0 at the top.
        row: usize,
        /// Its column, 0 on the left.
        column: usize,
    },
    /// CBR move record flags with unknown bits.
    #[error("move record flags {0:#04x}: only bits 0x01, 0x02, 0x04 are known")]
    Flags(u8),
    /// A compressed library's piece slot that is no point.
    #[error("piece slot {slot}: byte {byte:#04x} is not a point of the board")]
    Slot {
        /// The slot, 0 to 31 in XQF's order.
        slot: usize,
        /// The byte.
        byte: u8,
    },
}

/// A move that is no move. `number` is the move's number in a compressed
/// library's game (from 1), `None` in a CBR record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// A from or to byte that is no point of the board.
    OffBoard {
        /// The move's number in its game, in a compressed library.
        number: Option<usize>,
        /// The from byte.
        from: u8,
        /// The to byte.
        to: u8,
    },
    /// A move from a point to itself.
    SameSquare {
        /// The move's number in its game, in a compressed library.
        number: Option<usize>,
        /// The point.
        square: Square,
    },
    /// A compressed library's move whose ply is not one past a move of
    /// the line so far.
    Ply {
        /// The move's number in its game.
        number: usize,
        /// Its ply.
        ply: usize,
        /// The moves of the line so far.
        line: usize,
    },
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BadMove::OffBoard { number: None, from, to } => {
                write!(f, "move from {from} to {to}: a square is off the board")
            }
            BadMove::OffBoard { number: Some(n), from, to } => {
                write!(f, "move {n}: from {from:#04x} to {to:#04x}, a square is off the board")
            }
            BadMove::SameSquare { number: None, square } => {
                write!(f, "move from {square} to {square}: the same square")
            }
            BadMove::SameSquare { number: Some(n), square } => {
                write!(f, "move {n}: from {square} to {square}, the same square")
            }
            BadMove::Ply { number, ply, line } => {
                write!(f, "move {number}: ply {ply}, but the line so far has {line} moves")
            }
        }
    }
}

impl std::error::Error for BadMove {}

/// The first bytes of a file as text: ASCII kept, other bytes as `.`.
struct Shown<'a>(&'a [u8]);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in self.0 {
            let c = if b.is_ascii_graphic() || b == b' ' { b as char } else { '.' };
            fmt::Write::write_char(f, c)?;
        }
        Ok(())
    }
}

macro_rules! kind_from {
    ($($part:ident),*) => {$(
        impl From<$part> for CcbridgeErrorKind {
            fn from(part: $part) -> CcbridgeErrorKind {
                CcbridgeErrorKind::$part(part)
            }
        }
    )*};
}

kind_from!(Truncated, Overrun, Inflate, BadByte, SharedPoint, BadMove);
