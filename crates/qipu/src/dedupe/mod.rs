//! Copies of games in a collection: the same main line from the same start
//! (whatever the tags, format or encoding), the same final position after
//! as many plies, one game's line a prefix of another's (a truncated copy),
//! and the left–right mirror of each.
//!
//! - [`Keyer`] follows a game's main line as it is replayed (with
//!   [`Checker::following`](crate::batch::Checker::following)) and gives
//!   its [`GameKey`]: a few 64-bit hashes and the length, fixed in size
//!   whatever the game. A game whose start is no legal position has none;
//!   one whose main line stops at a wrong move is keyed on the moves
//!   before it.
//! - [`Collection`] takes each game's [`Entry`] in input order (game `n` is
//!   the `n`-th pushed) and makes the [`Groups`], keeping one member of
//!   each by a [`Keep`] policy; [`Groups::verdict`] then says of each game
//!   whether it is a copy to leave out: a plan for a second pass over the
//!   inputs. Truncated copies need a pass between the two: each game's
//!   line replayed again by [`Prefixes`], its prefixes looked up in
//!   [`Collection::lines`], and what it finds told to
//!   [`Collection::prefixes`].
//! - [`Dedupe`] decides in one pass, as games come, for `--keep first`.
//! - [`Annotations`] counts a game's comments, variations and tags around
//!   any visitor, for [`Keep::MostAnnotated`].
//!
//! Memory: a [`Collection`] keeps 16 bytes a game (the line hash, the
//! plies, the annotation count) and 8 more for each other hash the kinds
//! asked for need (at most 40 with `end` and `mirror`); making the groups
//! takes 8 bytes a game long enough to match more (16 with `end`) and some
//! for the games that match. [`Lines`] takes 16 to 32 bytes a line while
//! truncated copies are looked for.
//!
//! ```
//! use qipu::batch::Checker;
//! use qipu::dedupe::{Annotations, Collection, Entry, Keep, Keyer, Kinds, Verdict};
//! use qipu::formats::pgn;
//! let game = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9 *";
//! let text = format!("[Red \"甲\"]\n{game}\n\n[Red \"乙\"]\n{{copied}} {game}\n\n1. h2e2 h9g7 *\n");
//! let games = pgn::read_with(&text, &mut Annotations::new(Checker::following(Keyer::default())));
//! let mut collection = Collection::new(Kinds::default());
//! for (checked, annotation) in &games {
//!     collection.push(Entry { key: checked.followed.unwrap_or_default(), annotation: *annotation });
//! }
//! let groups = collection.groups(Keep::MostAnnotated);
//! assert_eq!(groups.groups().len(), 1);
//! assert_eq!(groups.verdict(0), Verdict::Copy { group: 0, kept: 1 }); // the second has a comment
//! assert_eq!(groups.verdict(1), Verdict::Keep);
//! assert_eq!(groups.verdict(2), Verdict::Keep); // too short to be a copy
//! ```

mod annotation;
mod by_hash;
mod collection;
mod column;
mod group;
pub mod key;
mod prefix;
mod stream;
mod truncation;

pub use annotation::Annotations;
pub use collection::Collection;
pub use group::{Entry, Group, Groups, Keep, Kinds, Link, Member, Verdict, Why};
pub use key::{GameKey, Keyer};
pub use prefix::{Lead, Leads, Lines, Prefix, PrefixScan, Prefixes, lead_of};
pub use stream::Dedupe;
pub use truncation::Truncation;

#[cfg(test)]
mod tests;
