//! The sizes qipu reads up to, in one place for its readers (the streaming
//! path, [`super::stream`]) and its writers ([`super::write()`]), so that a
//! record written past one of them is told, as it is written, that it will
//! not read back (`write::read_back`).
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
//! - `MAX_GAME`: a game of a text with no place inside it where the next
//!   game surely starts (a PGN game, a DhtmlXQ block) is read up to it.
//! - `MAX_WHOLE`: a file read whole (XQF, CBR, PFC, a web page) is read
//!   up to it.

/// Lines longer than this are not read: the game they fall in is
/// unreadable, and memory stays bounded whatever the input. JSON lines
/// are read whatever their length (see `super::stream::JSON_HELD`).
pub const MAX_LINE: usize = 16 << 20;

/// A text's lines with no place between them where a game surely starts
/// are read up to this size; beyond it they are one unreadable game, up
/// to the next such place, and memory stays bounded whatever the input.
pub(crate) const MAX_GAME: usize = 16 << 20;

/// Inputs that are read whole (records of one game, and web pages: see
/// [`super::stream`]) are read up to this size.
pub(crate) const MAX_WHOLE: u64 = 256 << 20;
