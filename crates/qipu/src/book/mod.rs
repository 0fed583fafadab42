//! Opening books engines read, built from games and probed for a
//! position's moves: ElephantEye's `BOOK.DAT` ([`eleeye`]) and OOBS
//! SQLite books (`obs`, with the `obs` feature).
//!
//! [`build`] gathers the moves of games' first plies through a replay
//! follower; each format then writes what it holds of them.

pub mod build;
pub mod eleeye;
#[cfg(feature = "obs")]
pub mod obs;
