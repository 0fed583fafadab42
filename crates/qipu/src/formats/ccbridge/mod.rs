//! 象棋桥 (CCBridge) records: the formats of one program, four ways of
//! storing a game.
//!
//! - **CBR** (`CCBridge Record\0`), one game in binary: fixed-size UTF-16LE
//!   text fields, the result, the side to move, the board, then the move
//!   tree in pre-order. Read by [`read_cbr`].
//! - **CBL** (`CCBridgeLibrary\0`), a library in binary: an index, then
//!   CBR records on 4096-byte slots. Read by [`read_cbl`].
//! - **Compressed CBL** (`CCBridge`, format 21), an older library: a zlib
//!   stream of GBK strings and games whose start positions are 32 piece
//!   slots in XQF's order. Read by [`read_cbl`] too.
//! - **CBF** (`<ChineseChessRecord>`), one game in XML: see [`cbf`].
//!
//! They share the tags they hold (written in one order), result codes and
//! the way comments are tidied: those are here. Moves
//! are kept as coordinates, unchecked: replay the record to check them.
//! In the binary formats every length, offset and square is checked; a
//! bad file is an error that names its byte offset, never a panic.
//!
//! ```
//! use qipu::formats::ccbridge;
//! // A CBR record: kings on e0 and e9, a Red rook on a0; Red plays a0-a1.
//! let mut cbr = vec![0u8; 2214];
//! cbr[..16].copy_from_slice(b"CCBridge Record\0");
//! cbr[19] = 2; // layout version
//! cbr[2112] = 1; // Red moves first
//! cbr[2120 + 4] = 0x25; // Black king: row 0, column 4
//! cbr[2120 + 85] = 0x15; // Red king: row 9, column 4
//! cbr[2120 + 81] = 0x11; // Red rook: row 9, column 0
//! cbr.extend([0x00, 0, 0, 0]); // root: a move follows
//! cbr.extend([0x01, 0, 81, 72]); // a0-a1, the line ends
//! let record = ccbridge::read_cbr(&cbr).unwrap();
//! assert_eq!(record.tree().main_line().count(), 1);
//! assert_eq!(record.fen(), Some("4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"));
//! ```

pub mod cbf;
mod cbl;
mod cbl_compressed;
pub(crate) mod cbl_stream;
pub(crate) mod cbr;
mod cursor;
mod error;
mod layout;
#[cfg(test)]
pub(crate) mod testing;
mod write;

pub(crate) use cbl::each_game;
pub use cbl::read_cbl;
pub use cbr::read_cbr;
pub(crate) use cbr::read_cbr_with;
pub use error::{BadByte, BadMove, FileKind, Inflate, Overrun};
pub use error::{CcbridgeErrorKind, Truncated};
pub use layout::{COMPRESSED_FORMAT, COMPRESSED_MAGIC, LIBRARY_MAGIC, RECORD_MAGIC, is_cbl, is_cbr};
pub use write::{WriteError, Written, write_cbl, write_cbr, write_library};

use super::tree::Game;
use crate::record::{GameResult, Record, Span, Warning};
use crate::{File, Rank, Square};

/// Why a CCBridge file or record cannot be read, and at which byte: in the
/// file, or in the inflated data for a compressed library
/// ([`in_inflated_data`](super::ByteError::in_inflated_data) then says so,
/// and so does the message).
pub type CcbridgeError = super::ByteError<CcbridgeErrorKind>;

/// The games of a library.
#[derive(Clone, Debug)]
pub struct Library {
    /// How many games the library says it holds: for a CBL, the index
    /// entries that hold a record (deleted entries, state 5, are not
    /// counted and not read); for a compressed library, the count in its
    /// header.
    pub declared: usize,
    /// One entry per game, in index order: the record, or why it cannot be
    /// read. Positions (error offsets, [`Record::at`], the moves' byte
    /// offsets in `Span::column`) are offsets in the file, or in the
    /// inflated data for a compressed library.
    pub records: Vec<Result<Record, CcbridgeError>>,
}

/// A [`CcbridgeError`] at `offset` in the file, as the `Err` of a reader.
fn error<T>(offset: usize, kind: impl Into<CcbridgeErrorKind>) -> Result<T, CcbridgeError> {
    super::byte_error::byte_error(offset, kind.into())
}

/// The error of a file that is not of the family: it starts with `bytes`.
fn not_ccbridge(wanted: FileKind, bytes: &[u8]) -> CcbridgeErrorKind {
    CcbridgeErrorKind::NotCcbridge { wanted, found: bytes[..bytes.len().min(16)].to_vec() }
}

/// The little-endian u32 at byte `at`, if the bytes hold one.
fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let four = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(four.try_into().ok()?))
}

/// A binary source position: byte offset in `column`, line 0.
fn span(offset: usize) -> Span {
    Span { line: 0, column: u32::try_from(offset).unwrap_or(u32::MAX) }
}

/// Adds a warning at byte `offset`.
fn warn(warnings: &mut Vec<Warning>, offset: usize, message: impl Into<String>) {
    warnings.push(Warning { at: span(offset), message: message.into() });
}

/// A comment as the record keeps it: line breaks as `\n`, no trailing
/// blanks, no leading empty lines; `None` when nothing is left.
fn tidy_comment(text: &str) -> Option<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.trim_end_matches(|c: char| c.is_whitespace() || c == '\0').trim_start_matches('\n');
    (!text.is_empty()).then(|| text.to_string())
}

// ---------------------------------------------------------------------------
// Tags and result (shared by every format of the family)

/// The order of the tags the CCBridge readers write (`FEN` comes last).
const TAG_ORDER: [&str; 16] = [
    "Game",
    "Title",
    "Event",
    "Round",
    "Date",
    "Site",
    "Red",
    "Black",
    "RedTeam",
    "BlackTeam",
    "Result",
    "TimeControl",
    "Annotator",
    "Author",
    "Opening",
    "ECCO",
];

/// Puts `Game` and the non-empty values of `found` (trimmed) into the
/// record's tags, in [`TAG_ORDER`].
fn put_tags(game: &mut Game, mut found: Vec<(&'static str, String)>) {
    found.retain(|(_, value)| !value.trim().is_empty());
    found.sort_by_key(|(name, _)| TAG_ORDER.iter().position(|t| t == name).unwrap_or(TAG_ORDER.len()));
    game.tag("Game", "Chinese Chess");
    for (name, value) in found {
        let value = match value.trim() {
            trimmed if trimmed.len() == value.len() => value,
            trimmed => trimmed.to_string(),
        };
        game.tag(name, value);
    }
}

/// The result of a CCBridge result code: 0 unknown, 1 Red wins, 2 Black
/// wins, 3 draw, 4 several results (read as unknown); `None` for others.
fn result_of_code(code: u32) -> Option<GameResult> {
    match code {
        0 | 4 => Some(GameResult::Unknown),
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 => Some(GameResult::Draw),
        _ => None,
    }
}

/// Sets the game's result and its `Result` tag value from a code.
fn result_tag(code: u32, offset: usize, game: &mut Game) -> (&'static str, String) {
    let result = result_of_code(code).unwrap_or_else(|| {
        warn(&mut game.warnings, offset, format!("result code {code} is not 0-4; read as unknown"));
        GameResult::Unknown
    });
    game.result = Some(result);
    ("Result", result.as_str().to_string())
}

// ---------------------------------------------------------------------------
// Squares

/// The square of a byte `column << 4 | row`, row 0 at the top (CBR
/// version 1 and compressed-library moves).
fn nibble_square(b: u8) -> Option<Square> {
    let (column, row) = ((b >> 4) as u32, (b & 0x0F) as u32);
    Some(Square::new(File::new(column)?, Rank::new(9u32.checked_sub(row)?)?))
}
