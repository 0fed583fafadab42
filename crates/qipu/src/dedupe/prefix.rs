//! The second pass of truncated copies: each game's line is replayed
//! again, and every prefix of it (from the shortest length considered) is
//! looked up among the whole lines of all games ([`Lines`]). A prefix
//! found is a game that is a truncated copy of this one.

use std::sync::Arc;

use super::key::{line_start, mirrored_hash, mix, step};
use std::ops::ControlFlow;

use crate::record::replay::{Follow, Replayer};
use crate::record::{GameResult, RecordedMove, Skip, Span, Visitor, Warning};
use crate::{Move, Position};

/// The whole-line hashes of a collection's games, a set to look prefixes
/// up in: an open-addressed table at most half full (16 to 32 bytes a
/// line), placed by a seed drawn for each table so that no input can pile
/// lines into one place.
#[derive(Clone, Debug)]
pub struct Lines {
    /// The lines, 0 where there is none.
    slots: Vec<u64>,
    /// Whether the line 0 is in (it cannot be told from an empty slot).
    zero: bool,
    len: usize,
    seed: u64,
}

impl Default for Lines {
    fn default() -> Lines {
        Lines::with_capacity(0)
    }
}

impl Lines {
    /// The set of `lines`.
    pub fn new(lines: Vec<u64>) -> Lines {
        let mut set = Lines::with_capacity(lines.len());
        for line in lines {
            set.insert(line);
        }
        set
    }

    /// An empty set with room for `n` lines.
    pub(super) fn with_capacity(n: usize) -> Lines {
        use std::hash::BuildHasher;
        let slots = n.saturating_mul(2).max(8).next_power_of_two();
        let seed = std::collections::hash_map::RandomState::new().hash_one(0x6c69_6e65_7365_7473u64);
        Lines { slots: vec![0; slots], zero: false, len: 0, seed }
    }

    /// Where `line` is looked for first.
    fn home(&self, line: u64) -> usize {
        (mix(line ^ self.seed) as usize) & (self.slots.len() - 1)
    }

    /// Adds `line`, growing the table when it is half full.
    pub(super) fn insert(&mut self, line: u64) {
        if line == 0 {
            self.len += usize::from(!self.zero);
            self.zero = true;
            return;
        }
        if (self.len + 1) * 2 > self.slots.len() {
            let grown = vec![0; self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, grown);
            for line in old.into_iter().filter(|&l| l != 0) {
                self.place(line);
            }
        }
        self.len += usize::from(self.place(line));
    }

    /// Puts `line` (not 0) in its slot; whether it was not there.
    fn place(&mut self, line: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(line);
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = line;
                    return true;
                }
                l if l == line => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Whether `line` is the whole line of some game.
    pub fn contains(&self, line: u64) -> bool {
        if line == 0 {
            return self.zero;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(line);
        loop {
            match self.slots[i] {
                0 => return false,
                l if l == line => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// How many lines.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
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
    leads: Option<Arc<Leads>>,
    done: bool,
}

impl Prefixes {
    /// Looks prefixes of `min_plies` or more up in `lines`, of the mirrored
    /// game too when `mirror`.
    pub fn new(lines: Arc<Lines>, min_plies: u32, mirror: bool) -> Prefixes {
        Prefixes {
            lines,
            min_plies,
            mirror,
            line: None,
            plies: 0,
            found: Vec::new(),
            leads: None,
            done: false,
        }
    }

    /// Stops looking at a game's prefixes once they can hold no other
    /// game's line by `leads` (those of the games of [`Lines`]).
    pub(crate) fn with_leads(self, leads: Arc<Leads>) -> Prefixes {
        Prefixes { leads: Some(leads), ..self }
    }

    /// Whether no more of this game's prefixes can be found: its lead is
    /// no other game's (told [`Leads`]), or the game is over.
    pub fn done(&self) -> bool {
        self.done
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
        self.done = false;
    }

    fn before_move(&mut self, _: &Position, m: Move) {
        // The line so far is a prefix: this move follows it.
        let Some((line, mirrored)) = self.line.filter(|_| !self.done) else { return };
        if self.plies == self.min_plies
            && let Some(leads) = &self.leads
            && !leads.may_hold(lead_of(line), self.mirror.then_some(lead_of(mirrored)))
        {
            self.done = true;
            return;
        }
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
        self.done = false;
        std::mem::take(&mut self.found)
    }
}

/// The leads of a collection's lines: the hash of each line's first
/// `min_plies` plies, cut to its high 32 bits, sorted (4 bytes a game).
/// A game whose line holds another's whole line (of `min_plies` or more)
/// shares its lead; a game that shares its lead with no other game, and
/// whose mirrored lead is no game's, holds none: [`Prefixes`] told of them
/// stops looking.
#[derive(Clone, Debug, Default)]
pub struct Leads(Vec<u32>);

impl Leads {
    /// The leads of the games (one a game, repeats kept).
    pub fn new(mut leads: Vec<u32>) -> Leads {
        leads.sort_unstable();
        Leads(leads)
    }

    /// How many games have `lead`.
    pub fn count(&self, lead: u32) -> usize {
        let from = self.0.partition_point(|&l| l < lead);
        self.0[from..].partition_point(|&l| l == lead)
    }

    /// Whether a game of `lead` (and of the mirrored lead `mirrored`, when
    /// mirrors are looked for) may hold another game's whole line: another
    /// game shares its lead, or one has its mirrored lead.
    pub(crate) fn may_hold(&self, lead: u32, mirrored: Option<u32>) -> bool {
        self.count(lead) >= 2 || mirrored.is_some_and(|m| m != lead && self.count(m) >= 1)
    }
}

/// The lead of a line as [`Leads`] keeps it: the high 32 bits of its hash.
pub fn lead_of(line: u64) -> u32 {
    (line >> 32) as u32
}

/// Follows a main line for its lead and its mirrored lead ([`Leads`]):
/// `None` for a line shorter than the lead's length.
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::dedupe::{Keyer, Lead};
/// use qipu::formats::pgn;
/// let text = "1. h2e2 h9g7 2. h0g2 i9h9 *\n\n1. h2e2 h9g7 2. h0g2 *\n\n1. h2e2 *\n";
/// let games = pgn::read_with(text, &mut Checker::following(Lead::new(2)));
/// assert_eq!(games[0].followed, games[1].followed);
/// assert_eq!(games[2].followed, None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Lead {
    plies: u32,
    line: Option<(u64, u64)>,
    at: u32,
}

impl Lead {
    /// Leads of `plies` plies (at least 1).
    pub fn new(plies: u32) -> Lead {
        Lead { plies: plies.max(1), line: None, at: 0 }
    }
}

impl Follow for Lead {
    type Output = Option<(u32, u32)>;

    fn start(&mut self, start: &Position) {
        self.line = Some((line_start(start.hash()), line_start(mirrored_hash(start))));
        self.at = 0;
    }

    fn before_move(&mut self, _: &Position, m: Move) {
        if self.at >= self.plies {
            return;
        }
        if let Some((line, mirrored)) = &mut self.line {
            *line = step(*line, m);
            *mirrored = step(*mirrored, m.flip_horizontal());
            self.at += 1;
        }
    }

    fn end(&mut self) -> Option<(u32, u32)> {
        let line = self.line.take().filter(|_| self.at >= self.plies);
        line.map(|(line, mirrored)| (lead_of(line), lead_of(mirrored)))
    }
}

/// Reads games for what [`Prefixes`] finds of their main lines: the main
/// line replayed (variations skipped), and a game's moves no further once
/// its prefixes can hold no other game's line (see [`Prefixes::done`]).
///
/// ```
/// use std::sync::Arc;
/// use qipu::batch::Checker;
/// use qipu::dedupe::{Keyer, Lines, PrefixScan, Prefixes};
/// use qipu::formats::pgn;
/// let text = "1. h2e2 h9g7 2. h0g2 (2. b0c2) i9h9 *\n\n1. h2e2 h9g7 *\n";
/// let keys: Vec<_> = pgn::read_with(text, &mut Checker::following(Keyer::default())).iter().map(|c| c.followed.unwrap()).collect();
/// let lines = Arc::new(Lines::new(keys.iter().map(|k| k.line).collect()));
/// let found = pgn::read_with(text, &mut PrefixScan::new(Prefixes::new(lines, 2, false)));
/// assert_eq!(found[0].len(), 1);
/// assert!(found[1].is_empty());
/// ```
#[derive(Debug)]
pub struct PrefixScan {
    replayer: Replayer<Prefixes>,
}

impl PrefixScan {
    /// Tells `prefixes` of each game's main line.
    pub fn new(prefixes: Prefixes) -> PrefixScan {
        PrefixScan { replayer: Replayer::following(prefixes).keep_moves(false) }
    }
}

impl Visitor for PrefixScan {
    type Output = Vec<Prefix>;

    fn begin_game(&mut self, at: Span) {
        self.replayer.begin_game(at);
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.replayer.tag(name, value, at);
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        if self.replayer.follower().done() {
            return ControlFlow::Break(());
        }
        self.replayer.mv(mv)
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn result(&mut self, result: GameResult) {
        self.replayer.result(result);
    }

    fn warning(&mut self, warning: Warning) {
        self.replayer.warning(warning);
    }

    fn unreadable(&mut self, why: Warning) {
        self.replayer.unreadable(why);
    }

    fn end_game(&mut self) -> Vec<Prefix> {
        let _ = self.replayer.end_game();
        self.replayer.follower_mut().end()
    }
}
