//! The second pass of truncated copies: each game's line is replayed
//! again, and every prefix of it (from the shortest length considered) is
//! looked up among the whole lines of all games ([`Lines`]). A prefix
//! found is a game that is a truncated copy of this one.

use std::sync::Arc;

use super::key::{line_start, mirrored_hash, step};
use crate::record::replay::Follow;
use crate::{Move, Position};

/// The whole-line hashes of a collection's games, sorted, to look prefixes
/// up in (8 bytes a line).
#[derive(Clone, Debug, Default)]
pub struct Lines(Vec<u64>);

impl Lines {
    /// The set of `lines`.
    pub fn new(mut lines: Vec<u64>) -> Lines {
        lines.sort_unstable();
        lines.dedup();
        Lines(lines)
    }

    /// Whether `line` is the whole line of some game.
    pub fn contains(&self, line: u64) -> bool {
        self.0.binary_search(&line).is_ok()
    }

    /// How many lines.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A prefix of a game's main line that is the whole line of some game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Prefix {
    /// Its length in plies.
    pub plies: u32,
    /// Its line hash (that of the games it is the whole line of).
    pub line: u64,
    /// Whether it is a prefix of the mirrored game.
    pub mirrored: bool,
}

/// Follows a main line and gives the prefixes of it, at least `min_plies`
/// long and shorter than the line, that are whole lines of [`Lines`] (of
/// its mirror too, when asked).
///
/// ```
/// use std::sync::Arc;
/// use qipu::batch::Checker;
/// use qipu::dedupe::{Keyer, Lines, Prefixes};
/// use qipu::formats::pgn;
/// let text = "1. h2e2 h9g7 2. h0g2 i9h9 *\n\n1. h2e2 h9g7 *\n";
/// let keys: Vec<_> = pgn::read_with(text, &mut Checker::following(Keyer::default())).iter().map(|c| c.followed.unwrap()).collect();
/// let lines = Arc::new(Lines::new(keys.iter().map(|k| k.line).collect()));
/// let found = pgn::read_with(text, &mut Checker::following(Prefixes::new(lines, 2, false)));
/// assert_eq!(found[0].followed.len(), 1); // the second game is its first two plies
/// assert_eq!(found[0].followed[0].line, keys[1].line);
/// assert!(found[1].followed.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct Prefixes {
    lines: Arc<Lines>,
    min_plies: u32,
    mirror: bool,
    line: Option<(u64, u64)>,
    plies: u32,
    found: Vec<Prefix>,
}

impl Prefixes {
    /// Looks prefixes of `min_plies` or more up in `lines`, of the mirrored
    /// game too when `mirror`.
    pub fn new(lines: Arc<Lines>, min_plies: u32, mirror: bool) -> Prefixes {
        Prefixes { lines, min_plies, mirror, line: None, plies: 0, found: Vec::new() }
    }

    fn look_up(&mut self, line: u64, mirrored: bool) {
        if self.lines.contains(line) {
            self.found.push(Prefix { plies: self.plies, line, mirrored });
        }
    }
}

impl Follow for Prefixes {
    type Output = Vec<Prefix>;

    fn start(&mut self, start: &Position) {
        let mirrored = if self.mirror { line_start(mirrored_hash(start)) } else { 0 };
        self.line = Some((line_start(start.hash()), mirrored));
        self.plies = 0;
        self.found.clear();
    }

    fn before_move(&mut self, _: &Position, m: Move) {
        // The line so far is a prefix: this move follows it.
        let Some((line, mirrored)) = self.line else { return };
        if self.plies >= self.min_plies {
            self.look_up(line, false);
            if self.mirror && mirrored != line {
                self.look_up(mirrored, true);
            }
        }
        let mirrored = if self.mirror { step(mirrored, m.flip_horizontal()) } else { 0 };
        self.line = Some((step(line, m), mirrored));
        self.plies = self.plies.saturating_add(1);
    }

    fn end(&mut self) -> Vec<Prefix> {
        self.line = None;
        std::mem::take(&mut self.found)
    }
}
