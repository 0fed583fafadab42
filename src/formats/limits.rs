//! The sizes qipu reads up to, in one place for its readers (the streaming
//! path, [`super::stream`]) and its writers ([`super::write()`]), so that a
//! record written past one of them is told, as it is written, that it will
//! not read back ([`read_back`]).
//!
//! The limits bound the memory a hostile input can take, a few games for
//! each thread, whatever its size; they are not raised to the largest
//! record a writer can make (a game of 174 MB of PGN has been met), which
//! would let any input hold that much per thread. The writers write such a
//! record all the same (nothing of it is lost in the file) and warn.
//!
//! - [`MAX_LINE`]: a line of text (PGN, DhtmlXQ, UCI lines) longer than it
//!   is not read. qipu's JSON lines are read whatever their length, as they
//!   come, so JSON has no limit.
//! - [`MAX_GAME`]: a game of a text with no place inside it where the next
//!   game surely starts (a PGN game, a DhtmlXQ block) is read up to it.
//! - [`MAX_WHOLE`]: a file read whole (XQF, CBR, PFC, a web page) is read
//!   up to it.

use super::write::{WriteFormat, WriteWarning};

/// Lines longer than this are not read: the game they fall in is
/// unreadable, and memory stays bounded whatever the input. JSON lines
/// are read whatever their length (see [`super::stream::JSON_HELD`]).
pub const MAX_LINE: usize = 16 << 20;

/// A text's lines with no place between them where a game surely starts
/// are read up to this size; beyond it they are one unreadable game, up
/// to the next such place, and memory stays bounded whatever the input.
pub const MAX_GAME: usize = 16 << 20;

/// Inputs that are read whole (records of one game, and web pages: see
/// [`super::stream`]) are read up to this size.
pub const MAX_WHOLE: u64 = 256 << 20;

/// The warning for a record written as `bytes` in `format` that qipu will
/// not read back, past one of the limits above; `None` when it reads back
/// (always for JSON, and for HTML, which qipu does not read).
///
/// ```
/// use qipu::formats::limits::read_back;
/// use qipu::formats::write::WriteFormat;
/// assert_eq!(read_back(WriteFormat::Pgn, b"[Event \"x\"]\n1. h2e2 *\n"), None);
/// let long = vec![b'x'; (17 << 20) + 10];
/// assert_eq!(
///     read_back(WriteFormat::Pgn, &long).unwrap().to_string(),
///     "written as a PGN line of 17 MB; qipu reads lines up to 16 MB, so it will not read back"
/// );
/// let just = vec![b'x'; (16 << 20) + 1];
/// assert!(read_back(WriteFormat::Pgn, &just).unwrap().to_string().starts_with("written as a PGN line of 16.1 MB;"));
/// ```
pub fn read_back(format: WriteFormat, bytes: &[u8]) -> Option<WriteWarning> {
    let name = match format {
        WriteFormat::Pgn => "PGN",
        WriteFormat::Dhtmlxq => "DhtmlXQ",
        WriteFormat::Uci => "UCI",
        WriteFormat::Pfc => "PFC",
        WriteFormat::Xqf => "XQF",
        WriteFormat::Cbr => "CBR",
        #[cfg(feature = "serde")]
        WriteFormat::Json => return None,
        WriteFormat::Html => return None,
    };
    let whole = matches!(format, WriteFormat::Pfc | WriteFormat::Xqf | WriteFormat::Cbr);
    let too_long = |size: usize, limit: usize, what: &'static str, reads: &'static str| {
        Some(WriteWarning::WontReadBack { format: name, what, size, limit, reads })
    };
    if whole {
        let limit = usize::try_from(MAX_WHOLE).unwrap_or(usize::MAX);
        return if bytes.len() > limit { too_long(bytes.len(), limit, "file", "files") } else { None };
    }
    if bytes.len() <= MAX_LINE.min(MAX_GAME) {
        return None;
    }
    let longest = bytes.split(|&b| b == b'\n').map(<[u8]>::len).max().unwrap_or(0);
    if longest > MAX_LINE {
        return too_long(longest, MAX_LINE, "line", "lines");
    }
    if bytes.len() > MAX_GAME {
        return too_long(bytes.len(), MAX_GAME, "game", "games");
    }
    None
}
