//! Copies left out in one pass, as games come in input order: each game
//! is kept unless it matches a game seen before (`--keep first`).

use std::collections::HashMap;

use super::group::{Kinds, Link, Why};
use super::key::GameKey;

/// Decides each game as it comes: a copy of an earlier game, or kept.
///
/// It keeps one entry per distinct line and final position seen (two hash
/// maps), so it needs no second pass; but it decides at once: a later game
/// that matches two earlier games that were both kept does not join them
/// (a [`Collection`](super::Collection) would), and truncated copies, which
/// need a second pass, are not looked for (`kinds.truncated` is ignored).
///
/// ```
/// use qipu::dedupe::{Dedupe, GameKey, Kinds};
/// let mut dedupe = Dedupe::new(Kinds::default());
/// let key = |line| GameKey { line, plies: 20, ..GameKey::default() };
/// assert_eq!(dedupe.next(Some(&key(7))), None);
/// assert_eq!(dedupe.next(None), None);
/// assert_eq!(dedupe.next(Some(&key(7))).map(|l| l.with), Some(0)); // a copy of game 0
/// ```
#[derive(Clone, Debug)]
pub struct Dedupe {
    kinds: Kinds,
    lines: HashMap<u64, (u32, u32)>,
    ends: HashMap<(u64, u32), u32>,
    games: u32,
}

impl Dedupe {
    /// Looks for copies by `kinds` (but truncated ones).
    pub fn new(kinds: Kinds) -> Dedupe {
        let kinds = Kinds { min_plies: kinds.min_plies.max(1), ..kinds };
        Dedupe { kinds, lines: HashMap::new(), ends: HashMap::new(), games: 0 }
    }

    /// The next game (numbered from 0 in the order they come), by its key
    /// (`None` for a game without one): `None` to keep it, or the kept
    /// game it is a copy of, and how it matches.
    pub fn next(&mut self, key: Option<&GameKey>) -> Option<Link> {
        let game = self.games;
        self.games = self.games.saturating_add(1);
        let found = self.find(key);
        if found.is_none()
            && let Some(key) = key
        {
            self.insert(game, key);
        }
        found
    }

    /// The game kept before that a game with `key` is a copy of (`None`
    /// for none, or for a game without a key or too short), without taking
    /// the game in: a lookup in the games taken so far.
    ///
    /// ```
    /// use qipu::dedupe::{Dedupe, GameKey, Kinds};
    /// let mut known = Dedupe::new(Kinds::default());
    /// let key = |line| GameKey { line, plies: 20, ..GameKey::default() };
    /// assert_eq!(known.next(Some(&key(7))), None);
    /// assert_eq!(known.find(Some(&key(7))).map(|l| l.with), Some(0));
    /// assert_eq!(known.find(Some(&key(8))), None);
    /// assert_eq!(known.find(Some(&key(8))), None); // not taken in
    /// ```
    pub fn find(&self, key: Option<&GameKey>) -> Option<Link> {
        let key = key.filter(|k| k.plies >= self.kinds.min_plies)?;
        let Kinds { line, end, mirror, .. } = self.kinds;
        let in_lines = |h: u64| self.lines.get(&h).filter(|&&(_, p)| p == key.plies).map(|&(g, _)| g);
        let in_ends = |h: u64| self.ends.get(&(h, key.plies)).copied();
        let found = None
            .or_else(|| in_lines(key.line).filter(|_| line).map(|g| (g, Why::Line, false)))
            .or_else(|| in_lines(key.mirrored_line).filter(|_| line && mirror).map(|g| (g, Why::Line, true)))
            .or_else(|| in_ends(key.end).filter(|_| end).map(|g| (g, Why::End, false)))
            .or_else(|| in_ends(key.mirrored_end).filter(|_| end && mirror).map(|g| (g, Why::End, true)));
        found.map(|(with, why, mirrored)| Link { with, why, mirrored })
    }

    /// Takes in game `game` with `key` (long enough), found to be no copy.
    fn insert(&mut self, game: u32, key: &GameKey) {
        if key.plies < self.kinds.min_plies {
            return;
        }
        if self.kinds.line {
            self.lines.insert(key.line, (game, key.plies));
        }
        if self.kinds.end {
            self.ends.insert((key.end, key.plies), game);
        }
    }
}
