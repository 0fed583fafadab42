//! What a worker thread gathers of a game for the index, as it is
//! replayed: the main line's moves and the key of every position, and,
//! when asked, each variation's own moves and keys ([`IndexFollower`], a
//! [`Follow`]er).

use super::key::Keys;
use crate::record::Skip;
use crate::record::replay::{Follow, LineId};
use crate::{Move, Position};

/// The most variations of one game the index keeps: a variation's number
/// is two bytes of its record.
pub const MAX_VARIATIONS: usize = u16::MAX as usize;

/// The most plies the variations of one game may hold in all, each
/// counted from the start of the game (the index stores a variation's
/// moves from the start, so that it replays alone): about 2 MB of moves.
/// Variations past it are left out.
pub const MAX_VARIATION_PLIES: u64 = 1 << 20;

/// A game as the index holds it: the main line's moves that replayed, the
/// key of the start and of the position after each move, the start's FEN
/// when it is not the standard one, and (from
/// [`IndexFollower::all_lines`]) its variations.
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
    /// The variations that replayed, in the order the record gives them
    /// (a variation within a variation after the one it lies in): the
    /// variation numbered `n` is `variations[n - 1]`.
    pub variations: Vec<Variation>,
    /// Variations left out: past [`MAX_VARIATIONS`] or
    /// [`MAX_VARIATION_PLIES`].
    pub left_out: u32,
}

/// A variation as the index holds it: where it leaves the line it lies
/// in, and its own moves, each with the key of the position it leads to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The ply of the position it branches from: its first move is played
    /// there in place of the move of the line it lies in.
    pub branch: u32,
    /// The line that plays the move just before `branch` on its way: 0 the
    /// main line, `n` the variation numbered `n` (the nearest of the lines
    /// it lies within that has a move of its own before `branch`).
    pub from: u32,
    /// Its own moves, from `branch` on.
    pub moves: Vec<Move>,
    /// The key of the position after each of its moves.
    pub keys: Vec<u64>,
}

impl Line {
    /// The moves of variation `number` (from 1) from the start of the
    /// game: those of the lines it lies in up to where it branches, then
    /// its own; `None` when there is no such variation (or the lines do
    /// not hold the moves it branches after).
    ///
    /// ```
    /// use qipu::batch::Checker;
    /// use qipu::index::IndexFollower;
    /// let text = "1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2 h9g7)) 2. h0g2 *";
    /// let games = qipu::formats::pgn::read_with(text, &mut Checker::following(IndexFollower::all_lines(false)));
    /// let line = &games[0].followed;
    /// let path = |n| line.path(n).unwrap().iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ");
    /// assert_eq!(path(1), "h2e2 b9c7 h0g2");
    /// assert_eq!(path(2), "h2e2 b9c7 b0c2 h9g7");
    /// assert_eq!(line.variations[1].branch, 2);
    /// assert!(line.path(3).is_none());
    /// ```
    pub fn path(&self, number: usize) -> Option<Vec<Move>> {
        let variation = self.variations.get(number.checked_sub(1)?)?;
        let branch = variation.branch as usize;
        let mut path = Vec::with_capacity(branch + variation.moves.len());
        // The moves before the branch, last first: each from the nearest
        // line above that plays it.
        let mut from = variation.from as usize;
        for ply in (0..branch).rev() {
            while from != 0 && (self.variations.get(from - 1)?.branch as usize) > ply {
                from = self.variations[from - 1].from as usize;
            }
            path.push(if from == 0 {
                *self.moves.get(ply)?
            } else {
                let line = &self.variations[from - 1];
                *line.moves.get(ply - line.branch as usize)?
            });
        }
        path.reverse();
        path.extend_from_slice(&variation.moves);
        Some(path)
    }

    /// The positions the index refers to for the game: each line's, from
    /// the start (a variation's counted from the start of the game).
    pub fn references(&self) -> u64 {
        let own = |v: &Variation| u64::from(v.branch) + v.moves.len() as u64 + 1;
        self.keys.len() as u64 + self.variations.iter().map(own).sum::<u64>()
    }

    /// The positions that get keys: the main line's, and each variation's
    /// own (after it branches).
    pub fn positions(&self) -> u64 {
        self.keys.len() as u64 + self.variation_positions()
    }

    /// The positions of the variations' own moves.
    pub fn variation_positions(&self) -> u64 {
        self.variations.iter().map(|v| v.keys.len() as u64).sum()
    }
}

/// Follows a game for the index (see [`Line`]): one is made for each job
/// of a batch.
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
    /// Whether variations are kept.
    all_lines: bool,
    keys: Keys,
    line: Line,
    /// The variations being replayed, innermost last: the number of each
    /// and the keys of its position, `None` for one left out.
    open: Vec<Option<(u32, Keys)>>,
    /// The plies the variations kept hold, from the start of the game.
    stored: u64,
    /// [`MAX_VARIATION_PLIES`] was reached: no more variation moves are kept.
    full: bool,
}

impl IndexFollower {
    /// A follower of the main line, making the keys of positions, a
    /// position and its left–right mirror one key when `mirror` (see
    /// [`key_of`](super::key_of)).
    pub fn new(mirror: bool) -> IndexFollower {
        IndexFollower {
            mirror,
            all_lines: false,
            keys: Keys::default(),
            line: Line::default(),
            open: Vec::new(),
            stored: 0,
            full: false,
        }
    }

    /// A follower of the main line and of every variation (bounded by
    /// [`MAX_VARIATIONS`] and [`MAX_VARIATION_PLIES`] a game).
    pub fn all_lines(mirror: bool) -> IndexFollower {
        IndexFollower { all_lines: true, ..IndexFollower::new(mirror) }
    }

    /// The line a variation beginning at `branch` takes its last moves
    /// before `branch` from: the nearest line it lies within that has a
    /// move of its own there.
    fn line_before(&self, branch: u32) -> u32 {
        let mut from = match self.open.last() {
            Some(Some((number, _))) => *number,
            _ => 0,
        };
        while from != 0 {
            let line = &self.line.variations[from as usize - 1];
            if line.branch < branch {
                break;
            }
            from = line.from;
        }
        from
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

    fn begin_variation(&mut self, from: &Position, ply: usize, _: LineId<'_>) -> Skip {
        if !self.all_lines {
            return Skip(false);
        }
        let branch = u32::try_from(ply).unwrap_or(u32::MAX);
        let inside_left_out = matches!(self.open.last(), Some(None));
        let fits = !self.full
            && self.line.variations.len() < MAX_VARIATIONS
            && self.stored + u64::from(branch) < MAX_VARIATION_PLIES;
        if inside_left_out || !fits {
            self.line.left_out += 1;
            self.open.push(None);
            return Skip(false);
        }
        let variation = Variation { branch, from: self.line_before(branch), ..Variation::default() };
        self.line.variations.push(variation);
        self.stored += u64::from(branch);
        self.open.push(Some((self.line.variations.len() as u32, Keys::of(from))));
        Skip(false)
    }

    fn before_variation_move(&mut self, before: &Position, m: Move) {
        if let Some(Some((_, keys))) = self.open.last_mut() {
            keys.play(before, m);
        }
    }

    fn variation_move(&mut self, after: &Position, m: Move) {
        let Some(Some((number, keys))) = self.open.last() else { return };
        debug_assert_eq!(keys.hash, after.hash());
        if self.full || self.stored >= MAX_VARIATION_PLIES {
            // The variation stops here; no later one is kept.
            self.full = true;
            return;
        }
        let key = keys.key(self.mirror);
        let variation = &mut self.line.variations[*number as usize - 1];
        variation.moves.push(m);
        variation.keys.push(key);
        self.stored += 1;
    }

    fn end_variation(&mut self, _: &Position, _: usize, _: LineId<'_>) {
        self.open.pop();
    }

    fn end(&mut self) -> Line {
        let mut line = std::mem::take(&mut self.line);
        line.moves.shrink_to_fit();
        line.keys.shrink_to_fit();
        self.open.clear();
        (self.stored, self.full) = (0, false);
        line
    }
}
