//! PGN records: many games per file, tags, move text in Chinese, WXF or
//! ICCS notation with comments, variations, NAGs and results.
//!
//! The reader works on decoded text (see [`super::encoding`]) and is
//! forgiving in the ways real files need:
//! - tag names in any case; a line holding only tags starts a new game once
//!   the current one has moves; tags inside move text (`[Score "10=0"]`)
//!   are skipped;
//! - move numbers with or without dots (`1.`, `1...`, `1．`, right-aligned
//!   or attached: `1.炮二平五`), continuation lines (`3.          马８进７`),
//!   placeholders (`....`, `…………`);
//! - `{}` comments over several lines, `;` comments, `()` variations to any
//!   depth, NAGs (`$1`);
//! - results `1-0 0-1 1/2-1/2 ½-½ *`, or none; separator lines of `=` and
//!   whatever follows a result up to the next tags (ElephantEye's footer).
//!
//! Moves are kept as text; the notation of each move is worked out when
//! the game is replayed, since real files mislabel `[Format]`.
//!
//! ```
//! use qipu::formats::pgn;
//! let games = pgn::read("[Event \"x\"]\n1. 炮二平五 {center} 马８进７ (1... 象３进５) 2. 马二进三 *\n");
//! assert_eq!(games.len(), 1);
//! let g = &games[0];
//! assert_eq!(g.tag("event"), Some("x"));
//! assert_eq!(g.tree().main_line().count(), 3);
//! assert_eq!(g.tree().variation_count(), 1);
//! ```

mod read;
pub(crate) mod write;

#[cfg(test)]
mod tests;

pub(crate) use read::{LineReader, has_tags, is_tag_line};
pub use read::{read, read_with};
pub(crate) use read::{remark_nag, strip_move_number};
pub use write::{write, write_to};
