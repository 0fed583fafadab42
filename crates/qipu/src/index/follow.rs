//! What a worker thread gathers of a game's main line for the index, as
//! it is replayed: its moves and the key of every position
//! ([`IndexFollower`], a [`Follow`]er).

use super::key::Keys;
use crate::record::replay::Follow;
use crate::{Move, Position};

/// A game's main line as the index holds it: the moves that replayed, the
/// key of the start and of the position after each move, and the start's
/// FEN when it is not the standard one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The main line's moves that replayed, in order.
    pub moves: Vec<Move>,
    /// The key of each position: the start's, then one a move
    /// (`moves.len() + 1` of them; none when the start is no legal
    /// position).
    pub keys: Vec<u64>,
    /// The start's FEN when it is not the standard start.
    pub start: Option<String>,
}

/// Follows a game's main line for the index (see [`Line`]): one is made for
/// each job of a batch.
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::index::IndexFollower;
/// let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 *", &mut Checker::following(IndexFollower::new(false)));
/// let line = &games[0].followed;
/// assert_eq!(line.moves.len(), 2);
/// assert_eq!(line.keys.len(), 3);
/// assert_eq!(line.keys[0], qipu::Position::start().hash());
/// assert_eq!(line.start, None);
/// ```
#[derive(Clone, Debug)]
pub struct IndexFollower {
    mirror: bool,
    keys: Keys,
    line: Line,
}

impl IndexFollower {
    /// A follower making the keys of positions, a position and its
    /// left–right mirror one key when `mirror` (see [`key_of`](super::key_of)).
    pub fn new(mirror: bool) -> IndexFollower {
        IndexFollower { mirror, keys: Keys::default(), line: Line::default() }
    }
}

impl Follow for IndexFollower {
    type Output = Line;

    fn start(&mut self, start: &Position) {
        self.keys = Keys::of(start);
        self.line.keys.push(self.keys.key(self.mirror));
        if start.board() != &crate::Board::start() || start.turn() != crate::Color::Red {
            self.line.start = Some(start.fen());
        }
    }

    fn before_move(&mut self, before: &Position, m: Move) {
        self.keys.play(before, m);
    }

    fn after_move(&mut self, after: &Position, m: Move) {
        debug_assert_eq!(self.keys.hash, after.hash());
        self.line.moves.push(m);
        self.line.keys.push(self.keys.key(self.mirror));
    }

    fn end(&mut self) -> Line {
        let mut line = std::mem::take(&mut self.line);
        line.moves.shrink_to_fit();
        line.keys.shrink_to_fit();
        line
    }
}
