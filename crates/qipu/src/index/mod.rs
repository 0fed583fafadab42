//! A position index of a collection: which games reach a position, and
//! what was played from it.
//!
//! An index is a folder (`NAME.qidx`) of segments, each the games of one
//! build ([`Builder`]), and a manifest naming them and the inputs read
//! (with their size, modification time and a hash of their bytes, so
//! that a later build reads only inputs added or changed). Every position
//! of every game's main line is kept under its key: the Zobrist hash of
//! its placement and side to move ([`key_of`]; with mirrors merged, the
//! smaller of its hash and its mirror's), in files of fixed-width entries
//! sorted by key, 8 bytes a position, and each game's moves at 2 bytes a
//! move: about 11 bytes a position in all. An index of all lines
//! ([`IndexOptions::all_lines`]) holds the positions of every variation
//! too: each variation is one more line of its game, stored with the
//! moves that lead to it from the start, its own positions keyed. Nothing is loaded but the
//! games' records (32 bytes a game) when an index opens; a lookup reads
//! one bucket of entries from each segment, then checks each answer by
//! replaying its game ([`Index::find`]). Sub-positions, material and runs
//! of moves are found by replaying every game from its moves
//! ([`Index::scan`]).
//!
//! ```
//! use qipu::batch::Checker;
//! use qipu::index::{Builder, Index, IndexFollower, Scan};
//! let dir = std::env::temp_dir().join(format!("qipu-doc-mod-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&dir);
//! let text = "1. h2e2 h9g7 2. b0c2 *\n\n1. b0c2 h9g7 2. h2e2 b9c7 *\n";
//! let games = qipu::formats::pgn::read_with(text, &mut Checker::following(IndexFollower::new(false)));
//! let mut builder = Builder::open(&dir, false)?;
//! builder.start_source("two.pgn", None)?;
//! for (k, game) in games.iter().enumerate() {
//!     builder.add(k, game)?;
//! }
//! builder.finish()?;
//!
//! let index = Index::open(&dir)?;
//! // Both games reach the position after h2e2 h9g7 b0c2, in two orders.
//! let target = qipu::Position::from_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR b")?;
//! let hits = index.find(target.board(), Some(target.turn()), false)?;
//! assert_eq!(hits.len(), 2);
//! assert_eq!(index.game(&hits[1]).index, 1);
//! assert_eq!(index.moves(&hits[1])?.get(hits[1].ply as usize).map(|m| m.to_string()), Some("b9c7".into()));
//! // A central cannon on e2 with Black's horse on g7.
//! let scan = Scan { pieces: Some("C@e2 n@g7".parse()?), ..Scan::default() };
//! assert_eq!(index.scan(&scan, 2)?.iter().map(|h| h.ply).collect::<Vec<_>>(), [2, 3]);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod explore;
mod follow;
mod key;
mod manifest;
mod pattern;
mod search;
mod segment;
mod tags;

pub use build::{BuildSummary, Builder, IndexOptions, Plan};
pub use explore::{Continuation, Explored, Tally};
pub use follow::{IndexFollower, Line, MAX_VARIATION_PLIES, MAX_VARIATIONS, Variation};
pub use key::key_of;
pub use manifest::{Stamp, content_hash, stamp, unchanged};
pub use pattern::{Pieces, PiecesError};
pub use search::{GameInfo, Hit, Index, Scan};

#[cfg(test)]
mod tests;
