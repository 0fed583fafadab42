//! Building a book from games: a replay follower ([`BookLine`]) notes the
//! positions of each game's first plies and the moves played there, and a
//! [`BookBuilder`] counts, for each position and move, the games that
//! played it and their results.
//!
//! ```
//! use qipu::book::build::{BookBuilder, BookLine, Keying, Points};
//! use qipu::formats::pgn;
//! use qipu::batch::Checker;
//! let games = pgn::read_with(
//!     "1. h2e2 h9g7 1-0\n\n1. b2e2 b9c7 0-1\n\n1. h2e2 b9c7 1/2-1/2\n",
//!     &mut Checker::following(BookLine::new(2, Keying::Eleeye)),
//! );
//! let mut book = BookBuilder::new();
//! for game in games {
//!     book.add(game.followed, game.result);
//! }
//! // h2e2 and its mirror b2e2 are one move of the start position's entry.
//! let records = book.eleeye_records(Points::default(), 3);
//! assert_eq!(records.len(), 2, "h2e2 and b2e2, 3 games each");
//! assert!(records.iter().all(|r| r.weight == 2 + 0 + 1));
//! ```

use std::collections::HashMap;

use super::eleeye::{self, Locks, Record};
use crate::record::GameResult;
use crate::record::replay::Follow;
use crate::{Color, Move, Position};

/// How positions are told apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keying {
    /// By ElephantEye's locks, a position and its mirror image as one.
    Eleeye,
    /// By EPD text (placement, side to move, `- -`), as OOBS books do.
    Epd,
}

/// A position of a book.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PositionKey {
    /// ElephantEye's locks (of the position or of its mirror).
    Eleeye(Locks),
    /// The EPD text of the position.
    Epd(String),
}

/// A move played from a position by a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Played {
    /// The position (for ElephantEye, maybe its mirror: see
    /// [`eleeye::entries`]).
    pub position: PositionKey,
    /// The move, as seen in that position.
    pub m: Move,
    /// The side that played it.
    pub turn: Color,
}

/// The follower that notes the first `depth` plies of a game's main line.
/// A position and move a game plays twice are noted once.
#[derive(Clone, Debug)]
pub struct BookLine {
    depth: usize,
    keying: Keying,
    plies: usize,
    played: Vec<Played>,
}

impl BookLine {
    /// Notes the first `depth` plies, telling positions apart by `keying`.
    pub fn new(depth: usize, keying: Keying) -> BookLine {
        BookLine { depth, keying, plies: 0, played: Vec::new() }
    }
}

impl Follow for BookLine {
    /// The positions and moves, each once, in no particular order.
    type Output = Vec<Played>;

    fn start(&mut self, _: &Position) {
        self.plies = 0;
        self.played.clear();
    }

    fn before_move(&mut self, before: &Position, m: Move) {
        if self.plies >= self.depth {
            return;
        }
        self.plies += 1;
        let turn = before.turn();
        match self.keying {
            Keying::Eleeye => {
                for (key, m) in eleeye::entries(before.board(), turn, m) {
                    self.played.push(Played { position: PositionKey::Eleeye(key), m, turn });
                }
            }
            Keying::Epd => {
                let mut epd = String::with_capacity(96);
                crate::formats::epd::push_position(&mut epd, before.board(), turn);
                self.played.push(Played { position: PositionKey::Epd(epd), m, turn });
            }
        }
    }

    fn end(&mut self) -> Vec<Played> {
        let mut played = std::mem::take(&mut self.played);
        played.sort_unstable();
        played.dedup();
        self.plies = 0;
        played
    }
}

/// The games that played a move from a position, by result.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveGames {
    /// The side that played the move.
    pub turn: Option<Color>,
    /// Games won by Red.
    pub red_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games won by Black.
    pub black_wins: u32,
    /// Games without a result (`*` or none).
    pub unknown: u32,
}

impl MoveGames {
    /// Every game counted.
    pub fn games(&self) -> u32 {
        self.red_wins + self.draws + self.black_wins + self.unknown
    }

    /// Games won and lost by the side that played the move.
    pub(crate) fn won_lost(&self) -> (u32, u32) {
        match self.turn {
            Some(Color::Black) => (self.black_wins, self.red_wins),
            _ => (self.red_wins, self.black_wins),
        }
    }
}

/// What a game gives a move's ElephantEye weight, by its result for the
/// side that played the move. A game without a result counts as a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Points {
    /// For a game the mover won.
    pub win: i64,
    /// For a draw (and a game without a result).
    pub draw: i64,
    /// For a game the mover lost.
    pub loss: i64,
}

impl Default for Points {
    /// 2 for a win, 1 for a draw, 0 for a loss.
    fn default() -> Points {
        Points { win: 2, draw: 1, loss: 0 }
    }
}

impl Points {
    /// The weight of a move: its points, at most 65535; 0 for none (or
    /// fewer).
    pub fn weight(&self, games: &MoveGames) -> u16 {
        let (won, lost) = games.won_lost();
        let drawn = i64::from(games.draws) + i64::from(games.unknown);
        let sum = self.win * i64::from(won) + self.draw * drawn + self.loss * i64::from(lost);
        sum.clamp(0, i64::from(u16::MAX)) as u16
    }
}

/// The positions and moves of many games, and the games of each.
#[derive(Clone, Debug, Default)]
pub struct BookBuilder {
    moves: HashMap<(PositionKey, Move), MoveGames>,
    games: u64,
}

impl BookBuilder {
    /// An empty book.
    pub fn new() -> BookBuilder {
        BookBuilder::default()
    }

    /// Adds a game: what [`BookLine`] noted of it and its result.
    pub fn add(&mut self, played: Vec<Played>, result: Option<GameResult>) {
        self.games += 1;
        for p in played {
            let entry = self.moves.entry((p.position, p.m)).or_default();
            entry.turn = Some(p.turn);
            match result {
                Some(GameResult::RedWins) => entry.red_wins += 1,
                Some(GameResult::Draw) => entry.draws += 1,
                Some(GameResult::BlackWins) => entry.black_wins += 1,
                Some(GameResult::Unknown) | None => entry.unknown += 1,
            }
        }
    }

    /// How many games were added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// How many position and move pairs the games played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no game played a move.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves played in at least `min_games` games, sorted by position
    /// then move.
    pub fn moves(&self, min_games: u32) -> Vec<(&PositionKey, Move, &MoveGames)> {
        let mut out: Vec<_> =
            self.moves.iter().filter(|(_, g)| g.games() >= min_games).map(|((p, m), g)| (p, *m, g)).collect();
        out.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        out
    }

    /// The records of an ElephantEye book (positions keyed by
    /// [`Keying::Eleeye`]): the moves played in at least `min_games` games
    /// whose weight by `points` is at least 1, sorted as the engine
    /// searches them (by `lock1`, then `lock0`, then move).
    pub fn eleeye_records(&self, points: Points, min_games: u32) -> Vec<Record> {
        let mut keyed: Vec<(Locks, u16, u16)> = self
            .moves(min_games)
            .into_iter()
            .filter_map(|(p, m, g)| match p {
                PositionKey::Eleeye(key) => Some((*key, eleeye::encode_move(m), points.weight(g))),
                PositionKey::Epd(_) => None,
            })
            .filter(|&(_, _, weight)| weight > 0)
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(key, mv, weight)| Record { lock: key.lock1, mv, weight }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_the_mover() {
        let red = MoveGames { turn: Some(Color::Red), red_wins: 3, draws: 1, black_wins: 2, unknown: 1 };
        let black = MoveGames { turn: Some(Color::Black), ..red };
        let points = Points { win: 3, draw: 1, loss: -1 };
        assert_eq!(points.weight(&red), 9 + 2 - 2);
        assert_eq!(points.weight(&black), 6 + 2 - 3);
        let lost = MoveGames { turn: Some(Color::Red), black_wins: 4, ..MoveGames::default() };
        assert_eq!(points.weight(&lost), 0, "never below 0");
        let many = MoveGames { turn: Some(Color::Red), red_wins: u32::MAX, ..MoveGames::default() };
        assert_eq!(points.weight(&many), u16::MAX, "at most 65535");
    }
}
