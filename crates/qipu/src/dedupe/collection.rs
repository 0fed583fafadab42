//! A whole collection's games, pushed in input order, kept as columns of
//! what the kinds asked for need, and its groups of copies.
//!
//! Memory: 16 bytes a game (line hash, plies, annotation count), 8 more
//! for each of the mirrored line (`line` and `mirror`), the final position
//! (`end`) and the mirrored final position (`end` and `mirror`). Making
//! the groups takes 8 bytes an eligible game more (16 with `end`), and
//! some for the games that match.

use std::collections::HashMap;

use super::by_hash::ByHash;
use super::column::Column;
use super::group::{Entry, Groups, Keep, Kinds, Link, Why, assemble};
use super::key::GameKey;
use super::prefix::{Lines, Prefix};

/// The entries of a collection, pushed in input order; then the groups.
///
/// Only what the [`Kinds`] asked for need is kept of each entry: the line
/// hash, the plies and the annotation count always, the mirrored line with
/// `line` and `mirror`, the final positions with `end`.
///
/// ```
/// use qipu::dedupe::{Collection, Entry, Keep, GameKey, Kinds, Verdict};
/// let key = |line, plies| Entry { key: GameKey { line, plies, ..GameKey::default() }, annotation: 0 };
/// let mut c = Collection::new(Kinds::default());
/// for e in [key(1, 20), key(2, 20), key(1, 20), key(3, 5), key(3, 5)] {
///     c.push(e);
/// }
/// let groups = c.groups(Keep::First);
/// assert_eq!(groups.groups().len(), 1); // the 5-ply games are too short
/// assert_eq!(groups.verdict(2), Verdict::Copy { group: 0, kept: 0 });
/// assert_eq!(groups.verdict(1), Verdict::Keep);
/// ```
#[derive(Clone, Debug)]
pub struct Collection {
    kinds: Kinds,
    lines: Column<u64>,
    plies: Column<u32>,
    annotations: Column<u32>,
    /// With `line` and `mirror` only.
    mirrored_lines: Column<u64>,
    /// With `end` only.
    ends: Column<u64>,
    /// With `end` and `mirror` only.
    mirrored_ends: Column<u64>,
    /// For a whole line that is a prefix of other games': the longest of
    /// them (the first of those), its length, and whether mirrored.
    containers: HashMap<u64, (u32, u32, bool)>,
}

impl Collection {
    /// An empty collection, matched by `kinds`.
    pub fn new(kinds: Kinds) -> Collection {
        let kinds = Kinds { min_plies: kinds.min_plies.max(1), ..kinds };
        Collection {
            kinds,
            lines: Column::default(),
            plies: Column::default(),
            annotations: Column::default(),
            mirrored_lines: Column::default(),
            ends: Column::default(),
            mirrored_ends: Column::default(),
            containers: HashMap::new(),
        }
    }

    /// Adds the next game; past `u32::MAX - 1` games, a game is not added
    /// (it cannot match).
    pub fn push(&mut self, entry: Entry) {
        if self.lines.len() >= (u32::MAX - 1) as usize {
            return;
        }
        let Kinds { line, end, mirror, .. } = self.kinds;
        self.lines.push(entry.key.line);
        self.plies.push(entry.key.plies);
        self.annotations.push(entry.annotation);
        if line && mirror {
            self.mirrored_lines.push(entry.key.mirrored_line);
        }
        if end {
            self.ends.push(entry.key.end);
            if mirror {
                self.mirrored_ends.push(entry.key.mirrored_end);
            }
        }
    }

    /// How many games were pushed.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.lines.len() == 0
    }

    /// The entry of `game`, as kept: the hashes the kinds asked for do not
    /// need are 0.
    pub fn entry(&self, game: u32) -> Option<Entry> {
        let g = game as usize;
        (g < self.len()).then(|| Entry {
            key: GameKey {
                line: self.lines.get(g),
                mirrored_line: self.mirrored_lines.get(g),
                end: self.ends.get(g),
                mirrored_end: self.mirrored_ends.get(g),
                plies: self.plies.get(g),
            },
            annotation: self.annotations.get(g),
        })
    }

    /// The main line's length of `game` in plies (0 past the end).
    pub fn plies(&self, game: u32) -> u32 {
        self.plies.get(game as usize)
    }

    fn line(&self, game: u32) -> u64 {
        self.lines.get(game as usize)
    }

    /// The games long enough to match, in input order.
    fn eligible(&self) -> impl Iterator<Item = u32> + Clone + '_ {
        (0..self.len() as u32).filter(|&g| self.plies(g) >= self.kinds.min_plies)
    }

    /// The whole lines of the games long enough to match: what the second
    /// pass of truncated copies looks prefixes up in (see
    /// [`Prefixes`](super::Prefixes)).
    pub fn lines(&self) -> Lines {
        let mut lines = Lines::with_capacity(self.eligible().count());
        for g in self.eligible() {
            lines.insert(self.line(g));
        }
        lines
    }

    /// Tells what the second pass found of `game`: the prefixes of its line
    /// that are other games' whole lines.
    pub fn prefixes(&mut self, game: u32, prefixes: &[Prefix]) {
        if game as usize >= self.len() {
            return;
        }
        let plies = self.plies(game);
        for p in prefixes {
            if p.plies >= plies || p.plies < self.kinds.min_plies {
                continue;
            }
            let better = |&(g, n, _): &(u32, u32, bool)| plies > n || (plies == n && game < g);
            match self.containers.get(&p.line) {
                Some(c) if !better(c) => {}
                _ => {
                    self.containers.insert(p.line, (game, plies, p.mirrored));
                }
            }
        }
    }

    /// The groups, each with the member `keep` says kept.
    ///
    /// The matches are found in this order, and each joins two groups only
    /// if they were apart: games of the same line (each with the first of
    /// them), of the mirrored line, of the same final position, of the
    /// mirrored final position, and truncated copies (each with its
    /// longest container).
    pub fn groups(&self, keep: Keep) -> Groups {
        let Kinds { line, end, truncated, mirror, .. } = self.kinds;
        let plies = |g: u32| self.plies(g);
        let line_of = |g: u32| self.line(g);
        let no_tie = |_: u32| 0;
        let link = |with: u32, why: Why, mirrored: bool| Link { with, why, mirrored };
        let by_line = ByHash::new(self.eligible(), line_of, no_tie);
        // (game, the game it matches, how): in the order above.
        let mut matches: Vec<(u32, u32, Link)> = Vec::new();
        if line {
            for run in by_line.runs(line_of, no_tie) {
                let first = run.first();
                for g in run.games().skip(1).filter(|&g| plies(g) == plies(first)) {
                    matches.push((g, first, link(first, Why::Line, false)));
                }
            }
            if mirror {
                for g in by_line.games() {
                    let mirrored = self.mirrored_lines.get(g as usize);
                    if mirrored == line_of(g) {
                        continue;
                    }
                    if let Some(other) = by_line.first(mirrored, 0, line_of, no_tie)
                        && plies(other) == plies(g)
                    {
                        matches.push((g, other, link(other, Why::Line, true)));
                    }
                }
            }
        }
        if end {
            let end_of = |g: u32| self.ends.get(g as usize);
            let by_end = ByHash::new(by_line.games(), end_of, plies);
            for run in by_end.runs(end_of, plies) {
                let first = run.first();
                for g in run.games().skip(1) {
                    matches.push((g, first, link(first, Why::End, false)));
                }
            }
            if mirror {
                for g in by_line.games() {
                    let mirrored = self.mirrored_ends.get(g as usize);
                    if mirrored == end_of(g) {
                        continue;
                    }
                    if let Some(other) = by_end.first(mirrored, plies(g), end_of, plies) {
                        matches.push((g, other, link(other, Why::End, true)));
                    }
                }
            }
        }
        let mut truncated_games = Vec::new();
        if truncated && !self.containers.is_empty() {
            for run in by_line.runs(line_of, no_tie) {
                let Some(&(container, _, mirrored)) = self.containers.get(&line_of(run.first())) else {
                    continue;
                };
                for g in run.games() {
                    truncated_games.push(g);
                    matches.push((g, container, link(container, Why::Truncated, mirrored)));
                }
            }
            truncated_games.sort_unstable();
        }
        drop(by_line);
        let is_truncated = |g: u32| truncated_games.binary_search(&g).is_ok();
        let annotation = |g: u32| self.annotations.get(g as usize);
        let kept = |games: &[u32]| {
            let candidates = || games.iter().copied().filter(|&g| !is_truncated(g));
            match keep {
                Keep::First => candidates().next(),
                Keep::Longest => best(candidates(), plies),
                Keep::MostAnnotated => best(candidates(), annotation),
            }
            .unwrap_or(games[0])
        };
        assemble(matches, kept)
    }
}

/// The first of `games` with the most `of`.
fn best(games: impl Iterator<Item = u32>, of: impl Fn(u32) -> u32) -> Option<u32> {
    games.fold(None, |best: Option<u32>, g| match best {
        Some(b) if of(b) >= of(g) => Some(b),
        _ => Some(g),
    })
}
