//! Opening suites for engine matches: the distinct positions that many
//! games reach at a ply (or in a band of plies), each with how many games
//! reached it, their results and ECCO code, chosen so that a suite is
//! balanced and varied.
//!
//! - Positions are merged by hash, so transpositions are one position;
//!   with `mirror`, a position and its left–right mirror are one too.
//! - A position is kept when at least `min_games` games reach it and, when
//!   a band is asked for, Red's score over them lies in the band.
//! - At most one position per game: positions are taken most played first,
//!   and a position one of whose games has already given a position is
//!   left out (with a single ply, no game reaches two positions).
//! - The order is most played first, then first reached; or shuffled with a
//!   seed, the same for the same seed.
//!
//! [`SuiteFollower`] follows each game's main line as it is replayed and
//! notes the positions at the plies asked for; a [`SuiteBuilder`] gathers
//! them and [`SuiteBuilder::finish`] chooses the suite.
//!
//! ```
//! use qipu::analysis::suite::{SuiteBuilder, SuiteFollower, SuiteOptions};
//! use qipu::batch::Checker;
//! use qipu::formats::pgn;
//! let text = "1. h2e2 h9g7 1-0\n\n1. h2e2 h9g7 0-1\n\n1. h2e2 b9c7 1-0\n\n1. b2e2 h9g7 1/2-1/2\n";
//! let options = SuiteOptions { plies: 2..=2, mirror: true, min_games: 2, ..SuiteOptions::default() };
//! let mut suite = SuiteBuilder::new();
//! for game in pgn::read_with(text, &mut Checker::following(SuiteFollower::new(&options))) {
//!     if let Some(line) = &game.followed {
//!         suite.add(line, game.result, None);
//!     }
//! }
//! let positions = suite.finish(&options);
//! // 炮二平五 马８进７ twice; 炮二平五 马２进３ and its mirror 炮八平五 马８进７ once each, merged.
//! assert_eq!(positions.len(), 2);
//! assert_eq!((positions[0].games, positions[0].score()), (2, Some(0.5)));
//! assert_eq!(positions[1].moves.len(), 2);
//! ```

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ops::RangeInclusive;

use super::openings::{count_ecco, count_result, main_ecco, score};
use crate::dedupe::key::mirrored_hash;
use crate::formats::epd::{Operand, push_opcode, push_position};
use crate::record::replay::Follow;
use crate::record::{GameResult, MoveText, Record, RecordedMove, Span};
use crate::{Move, Position};

/// What a suite holds.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteOptions {
    /// The plies whose positions are candidates (0 is the start).
    pub plies: RangeInclusive<usize>,
    /// A position and its left–right mirror are the same.
    pub mirror: bool,
    /// Positions reached by fewer games are left out.
    pub min_games: u32,
    /// Keep only positions where Red's score (a win 1, a draw ½, over the
    /// games with a result) lies in this band; positions with no result
    /// are then left out.
    pub score: Option<RangeInclusive<f64>>,
    /// Shuffle the suite with this seed instead of listing the most played
    /// first.
    pub shuffle: Option<u64>,
    /// At most this many positions (after shuffling, when asked).
    pub max_positions: Option<usize>,
}

impl Default for SuiteOptions {
    /// The positions after 8 plies, mirrors apart, every one kept.
    fn default() -> SuiteOptions {
        SuiteOptions {
            plies: 8..=8,
            mirror: false,
            min_games: 1,
            score: None,
            shuffle: None,
            max_positions: None,
        }
    }
}

/// A position of a game's main line at a ply asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The ply (0 for the start).
    pub ply: usize,
    /// The position's key: its hash, or with mirrors merged the smaller of
    /// its hash and its mirror's.
    pub key: u64,
}

/// What a [`SuiteFollower`] makes of a game: its start, its main line up
/// to the last ply asked for, and the positions reached at the plies asked
/// for.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteLine {
    /// The start position.
    pub start: Position,
    /// The main line's first moves (up to the band's last ply).
    pub moves: Vec<Move>,
    /// The positions at the plies of the band that the game reaches.
    pub reached: Vec<Reached>,
}

/// A main-line [`Follow`]er noting the positions at the plies of a suite's
/// band; `None` for a game whose start is no legal position.
#[derive(Clone, Debug)]
pub struct SuiteFollower {
    plies: RangeInclusive<usize>,
    mirror: bool,
    ply: usize,
    line: Option<SuiteLine>,
}

impl SuiteFollower {
    /// Follows games for a suite with these options.
    pub fn new(options: &SuiteOptions) -> SuiteFollower {
        SuiteFollower { plies: options.plies.clone(), mirror: options.mirror, ply: 0, line: None }
    }

    fn key(&self, pos: &Position) -> u64 {
        if self.mirror { pos.hash().min(mirrored_hash(pos)) } else { pos.hash() }
    }

    fn note(&mut self, pos: &Position) {
        if self.plies.contains(&self.ply) {
            let key = self.key(pos);
            if let Some(line) = &mut self.line {
                line.reached.push(Reached { ply: self.ply, key });
            }
        }
    }
}

impl Follow for SuiteFollower {
    type Output = Option<SuiteLine>;

    fn start(&mut self, start: &Position) {
        self.ply = 0;
        self.line = Some(SuiteLine { start: start.clone(), moves: Vec::new(), reached: Vec::new() });
        self.note(start);
    }

    fn before_move(&mut self, _: &Position, m: Move) {
        let last = *self.plies.end();
        if let Some(line) = &mut self.line
            && line.moves.len() < last
        {
            line.moves.push(m);
        }
    }

    fn after_move(&mut self, after: &Position, _: Move) {
        self.ply += 1;
        self.note(after);
    }

    fn end(&mut self) -> Option<SuiteLine> {
        self.line.take()
    }
}

/// A position of a suite.
#[derive(Clone, Debug, PartialEq)]
pub struct SuitePosition {
    /// The position (as the first game to reach it reached it).
    pub position: Position,
    /// The start of that game.
    pub start: Position,
    /// Its moves from `start` to `position`.
    pub moves: Vec<Move>,
    /// Games that reached the position (or, with mirrors merged, it or its
    /// mirror).
    pub games: u32,
    /// Of those, won by Red.
    pub red_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by Black.
    pub black_wins: u32,
    /// The ECCO code most of its games have (the first such on a tie).
    pub ecco: Option<&'static str>,
}

impl SuitePosition {
    /// Red's score over the games with a result: a win 1, a draw ½.
    pub fn score(&self) -> Option<f64> {
        score(self.red_wins, self.draws, self.black_wins)
    }

    /// Appends the position as an EPD line (without its line break): the
    /// position, then the opcodes `games`, `red_wins`, `draws`,
    /// `black_wins`, `score` (Red's, three decimals, when a game has a
    /// result), `ecco` (when known) and `ply`.
    ///
    /// ```
    /// use qipu::analysis::suite::SuitePosition;
    /// use qipu::Position;
    /// let p = SuitePosition {
    ///     position: Position::start(),
    ///     start: Position::start(),
    ///     moves: Vec::new(),
    ///     games: 3,
    ///     red_wins: 1,
    ///     draws: 1,
    ///     black_wins: 0,
    ///     ecco: Some("A00"),
    /// };
    /// let mut line = String::new();
    /// p.push_epd(&mut line);
    /// assert_eq!(
    ///     line,
    ///     "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - games 3; red_wins 1; draws 1; black_wins 0; score 0.750; ecco A00; ply 0;"
    /// );
    /// ```
    pub fn push_epd(&self, line: &mut String) {
        push_position(line, self.position.board(), self.position.turn());
        let count = |n: u32| [Operand::Number(u64::from(n))];
        push_opcode(line, "games", &count(self.games));
        push_opcode(line, "red_wins", &count(self.red_wins));
        push_opcode(line, "draws", &count(self.draws));
        push_opcode(line, "black_wins", &count(self.black_wins));
        if let Some(score) = self.score() {
            push_opcode(line, "score", &[Operand::Word(&score_text(score))]);
        }
        if let Some(code) = self.ecco {
            push_opcode(line, "ecco", &[Operand::Word(code)]);
        }
        push_opcode(line, "ply", &[Operand::Number(self.moves.len() as u64)]);
    }

    /// The position as game `number` of a suite: its moves from its start
    /// (a `FEN` tag when that is not the standard one), its counts in the
    /// tags `Games`, `RedWins`, `Draws`, `BlackWins`, `Score` and `ECCO`
    /// (the last two when known), result `*`.
    ///
    /// ```
    /// use qipu::analysis::suite::SuitePosition;
    /// use qipu::Position;
    /// let moves = vec!["h2e2".parse().unwrap()];
    /// let mut position = Position::start();
    /// let _ = position.play_unchecked(moves[0]);
    /// let p = SuitePosition { position, start: Position::start(), moves, games: 2, red_wins: 0, draws: 0, black_wins: 0, ecco: None };
    /// let record = p.to_record(7);
    /// assert_eq!(record.tag("Round"), Some("7"));
    /// assert_eq!(record.tag("Score"), None);
    /// assert!(qipu::formats::pgn::write(&record, qipu::notation::Notation::Uci).contains("1. h2e2 *"));
    /// ```
    pub fn to_record(&self, number: usize) -> Record {
        let mut record = Record::default();
        let mut tag = |name: &str, value: String| record.push_tag(name.to_string(), value);
        tag("Event", "Opening suite".into());
        tag("Round", number.to_string());
        if self.start != Position::start() {
            tag("FEN", self.start.fen());
        }
        tag("Games", self.games.to_string());
        tag("RedWins", self.red_wins.to_string());
        tag("Draws", self.draws.to_string());
        tag("BlackWins", self.black_wins.to_string());
        if let Some(score) = self.score() {
            tag("Score", score_text(score));
        }
        if let Some(code) = self.ecco {
            tag("ECCO", code.to_string());
        }
        let mut at = record.tree().root();
        for &m in &self.moves {
            at = record
                .tree_mut()
                .add_child(at, RecordedMove { text: MoveText::Coords(m), at: Span::default() });
        }
        record.set_written_result(Some(GameResult::Unknown));
        record
    }
}

/// A score with three decimals.
fn score_text(score: f64) -> String {
    format!("{score:.3}")
}

/// A position met so far.
#[derive(Clone, Debug)]
struct Candidate {
    /// The first game to reach it: its start, and its moves to it.
    start: Position,
    moves: Vec<Move>,
    games: u32,
    red_wins: u32,
    draws: u32,
    black_wins: u32,
    ecco: Vec<(&'static str, u32)>,
    /// The games that reached it, by number (kept only when a game may
    /// reach more than one position of the band).
    members: Vec<u32>,
    /// The last game counted (a game reaching it twice counts once).
    last_game: u32,
}

/// Gathers the positions of many games' [`SuiteLine`]s.
#[derive(Clone, Debug, Default)]
pub struct SuiteBuilder {
    by_key: HashMap<u64, usize>,
    candidates: Vec<Candidate>,
    games: u32,
}

impl SuiteBuilder {
    /// An empty builder.
    pub fn new() -> SuiteBuilder {
        SuiteBuilder::default()
    }

    /// Games added.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Distinct positions met so far.
    pub fn positions(&self) -> usize {
        self.candidates.len()
    }

    /// Adds a game: its line, its result and its ECCO code.
    pub fn add(&mut self, line: &SuiteLine, result: Option<GameResult>, ecco: Option<&'static str>) {
        self.games += 1;
        let game = self.games;
        let many = line.reached.len() > 1;
        for reached in &line.reached {
            let id = match self.by_key.entry(reached.key) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    let id = self.candidates.len();
                    e.insert(id);
                    self.candidates.push(Candidate {
                        start: line.start.clone(),
                        moves: line.moves[..reached.ply.min(line.moves.len())].to_vec(),
                        games: 0,
                        red_wins: 0,
                        draws: 0,
                        black_wins: 0,
                        ecco: Vec::new(),
                        members: Vec::new(),
                        last_game: 0,
                    });
                    id
                }
            };
            let c = &mut self.candidates[id];
            if c.last_game == game {
                continue;
            }
            c.last_game = game;
            c.games += 1;
            count_result(result, &mut c.red_wins, &mut c.draws, &mut c.black_wins);
            if let Some(code) = ecco {
                count_ecco(&mut c.ecco, code);
            }
            // Only a game that reaches several positions of the band can
            // give two; only such games are kept.
            if many {
                c.members.push(game);
            }
        }
    }

    /// The suite: the positions the options keep, in the options' order.
    pub fn finish(self, options: &SuiteOptions) -> Vec<SuitePosition> {
        let kept = |c: &Candidate| {
            c.games >= options.min_games
                && options.score.as_ref().is_none_or(|band| {
                    score(c.red_wins, c.draws, c.black_wins).is_some_and(|s| band.contains(&s))
                })
        };
        let mut order: Vec<usize> =
            (0..self.candidates.len()).filter(|&i| kept(&self.candidates[i])).collect();
        // Most played first, then first met (the sort is stable).
        order.sort_by_key(|&i| std::cmp::Reverse(self.candidates[i].games));
        let mut used = vec![false; self.games as usize + 1];
        let mut chosen = Vec::with_capacity(order.len());
        for i in order {
            let members = &self.candidates[i].members;
            if members.iter().any(|&g| used[g as usize]) {
                continue;
            }
            for &g in members {
                used[g as usize] = true;
            }
            chosen.push(i);
        }
        if let Some(seed) = options.shuffle {
            shuffle(&mut chosen, seed);
        }
        if let Some(max) = options.max_positions {
            chosen.truncate(max);
        }
        let mut candidates: Vec<Option<Candidate>> = self.candidates.into_iter().map(Some).collect();
        chosen
            .into_iter()
            .filter_map(|i| candidates[i].take())
            .map(|c| {
                let mut position = c.start.clone();
                for &m in &c.moves {
                    let _ = position.play_unchecked(m);
                }
                let ecco = main_ecco(&c.ecco);
                SuitePosition {
                    position,
                    start: c.start,
                    moves: c.moves,
                    games: c.games,
                    red_wins: c.red_wins,
                    draws: c.draws,
                    black_wins: c.black_wins,
                    ecco,
                }
            })
            .collect()
    }
}

/// Shuffles `items` (Fisher–Yates) with a SplitMix64 sequence from `seed`:
/// the same order for the same seed, on every machine.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    let mut next = move || {
        let (next_state, value) = crate::rules::zobrist::splitmix64(state);
        state = next_state;
        value
    };
    for i in (1..items.len()).rev() {
        // The bias of a modulo over 2^64 is far below anything a suite shows.
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Checker;
    use crate::formats::pgn;

    /// `count` random legal games of up to `plies` plies, as ICCS PGN, and
    /// each game's moves.
    fn random_games(count: usize, plies: usize, seed: u64) -> (String, Vec<Vec<Move>>) {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut text, mut games) = (String::new(), Vec::new());
        for _ in 0..count {
            let mut pos = Position::start();
            let mut moves = Vec::new();
            let length = (next() % plies as u64) as usize;
            for _ in 0..length {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // Few choices, so that games meet in the same positions.
                let m = legal[(next() % legal.len().min(3) as u64) as usize];
                let _ = pos.play_unchecked(m);
                moves.push(m);
            }
            let result = ["1-0", "0-1", "1/2-1/2", "*"][(next() % 4) as usize];
            text.push_str(&format!("[Result \"{result}\"]\n"));
            for m in &moves {
                text.push_str(&format!("{m} "));
            }
            text.push_str(result);
            text.push_str("\n\n");
            games.push(moves);
        }
        (text, games)
    }

    fn build(text: &str, options: &SuiteOptions) -> Vec<SuitePosition> {
        let mut suite = SuiteBuilder::new();
        for game in pgn::read_with(text, &mut Checker::following(SuiteFollower::new(options))) {
            suite.add(game.followed.as_ref().unwrap(), game.result, None);
        }
        suite.finish(options)
    }

    #[test]
    fn every_game_long_enough_counts_once_at_a_single_ply() {
        for seed in 1..6 {
            let (text, games) = random_games(300, 12, seed);
            for mirror in [false, true] {
                let options = SuiteOptions { plies: 6..=6, mirror, ..SuiteOptions::default() };
                let suite = build(&text, &options);
                let long = games.iter().filter(|g| g.len() >= 6).count() as u32;
                assert_eq!(suite.iter().map(|p| p.games).sum::<u32>(), long, "seed {seed}");
                let mut keys = std::collections::HashSet::new();
                for p in &suite {
                    // The position is the one its moves reach.
                    let mut pos = p.start.clone();
                    for &m in &p.moves {
                        assert!(pos.is_legal(m));
                        let _ = pos.play_unchecked(m);
                    }
                    assert_eq!(pos, p.position);
                    assert_eq!(p.moves.len(), 6);
                    let key = if mirror { pos.hash().min(mirrored_hash(&pos)) } else { pos.hash() };
                    assert!(keys.insert(key), "each position once");
                    assert!(p.games >= p.red_wins + p.draws + p.black_wins);
                }
                // Most played first.
                assert!(suite.windows(2).all(|w| w[0].games >= w[1].games));
            }
        }
    }

    #[test]
    fn a_band_never_takes_two_positions_of_one_game() {
        let (text, games) = random_games(200, 14, 9);
        let options = SuiteOptions { plies: 3..=8, ..SuiteOptions::default() };
        let suite = build(&text, &options);
        for moves in &games {
            let mut pos = Position::start();
            let mut hashes = vec![pos.hash()];
            for &m in moves {
                let _ = pos.play_unchecked(m);
                hashes.push(pos.hash());
            }
            let band: std::collections::HashSet<u64> =
                hashes.iter().enumerate().filter(|(ply, _)| (3..=8).contains(ply)).map(|(_, &h)| h).collect();
            let taken = suite.iter().filter(|p| band.contains(&p.position.hash())).count();
            assert!(taken <= 1, "a game gave {taken} positions");
        }
        assert!(!suite.is_empty());
    }

    #[test]
    fn records_replay_to_the_position_and_epd_lines_read_back_as_it() {
        let (text, _) = random_games(200, 12, 3);
        let options = SuiteOptions { plies: 4..=7, ..SuiteOptions::default() };
        let suite = build(&text, &options);
        assert!(!suite.is_empty());
        for (i, p) in suite.iter().enumerate() {
            let record = p.to_record(i + 1);
            assert_eq!(record.tag("Round"), Some((i + 1).to_string().as_str()));
            assert_eq!(record.tag("Games"), Some(p.games.to_string().as_str()));
            let written = crate::formats::pgn::write(&record, crate::notation::Notation::Iccs);
            let back = pgn::read(&written).remove(0);
            let replayed = crate::record::replay::opening(&back, 20).unwrap();
            let mut pos = replayed.0;
            for &m in &replayed.1 {
                let _ = pos.play_unchecked(m);
            }
            assert_eq!(pos, p.position, "game {}", i + 1);
            let mut line = String::new();
            p.push_epd(&mut line);
            let placement = line.split(' ').next().unwrap();
            assert!(p.position.fen().starts_with(placement));
            assert!(line.ends_with(&format!("ply {};", p.moves.len())));
            assert_eq!(line.contains("score "), p.score().is_some());
        }
    }

    #[test]
    fn shuffles_are_permutations_repeatable_by_seed() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 5);
        shuffle(&mut b, 5);
        assert_eq!(a, b);
        let mut c: Vec<u32> = (0..50).collect();
        shuffle(&mut c, 6);
        assert_ne!(a, c);
        a.sort();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }
}
