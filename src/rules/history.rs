//! The positions of a game so far: repetition and perpetual check.
//!
//! Under both Chinese and Asian (WXF) rules a repeated position is judged
//! by what each side did in the cycle: a side that gave check with every
//! one of its moves is checking perpetually (长将) and loses if the other
//! side did not do the same. [`History`] finds the third occurrence of a
//! position and says which side, if any, checked on every move of the
//! repeated cycle. Perpetual chases (长捉) need more than the positions and
//! are not judged here.

use super::{Color, Position};

/// One ply of a game as the repetition rules see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Entry {
    hash: u64,
    /// Plies since the last capture when this position arose; positions
    /// before a capture cannot recur.
    halfmoves: u32,
    /// Whether the side to move here is in check, i.e. whether the move
    /// that led here gave check.
    check: bool,
    /// The side to move here; the other side made the move that led here.
    turn: Color,
}

/// A position that has occurred for the third time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The plies (0 = the starting position) at which the position stood,
    /// oldest first; the last is the current ply.
    pub plies: Vec<usize>,
    /// For Red and Black (index by [`Color::index`]): whether each of that
    /// side's moves from the first to the last occurrence gave check.
    pub checked_throughout: [bool; 2],
}

impl Repetition {
    /// The side checking perpetually (every move of the cycle a check)
    /// while the other side was not; under both rule sets it loses.
    pub fn perpetual_check(&self) -> Option<Color> {
        match self.checked_throughout {
            [true, false] => Some(Color::Red),
            [false, true] => Some(Color::Black),
            _ => None,
        }
    }
}

/// The positions of a game, ply by ply, for repetition detection.
///
/// ```
/// use qipu::{History, Move, Position, Square};
/// let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
/// let mut history = History::new(&pos);
/// let shuffle = [(Square::E0, Square::E1), (Square::D9, Square::D8), (Square::E1, Square::E0), (Square::D8, Square::D9)];
/// for _ in 0..2 {
///     for (from, to) in shuffle {
///         let _ = pos.play(Move::new(from, to)).unwrap();
///         history.push(&pos);
///     }
/// }
/// let rep = history.repetition().unwrap();
/// assert_eq!(rep.plies, [0, 4, 8]);
/// assert_eq!(rep.perpetual_check(), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<Entry>,
}

impl History {
    /// A history starting at `start`.
    pub fn new(start: &Position) -> History {
        History::with_capacity(start, 0)
    }

    /// A history starting at `start`, with room for `plies` moves before
    /// it grows.
    pub fn with_capacity(start: &Position, plies: usize) -> History {
        let mut history = History { entries: Vec::with_capacity(plies + 1) };
        history.entries.push(Entry {
            hash: start.hash(),
            halfmoves: 0,
            check: start.is_check(),
            turn: start.turn(),
        });
        history
    }

    /// Starts again at `start`, keeping the room made so far (no
    /// allocation for the next game of about the same length).
    pub fn reset(&mut self, start: &Position) {
        self.entries.clear();
        self.entries.push(Entry {
            hash: start.hash(),
            halfmoves: 0,
            check: start.is_check(),
            turn: start.turn(),
        });
    }

    /// Records the position after a move.
    #[inline]
    pub fn push(&mut self, pos: &Position) {
        self.entries.push(Entry {
            hash: pos.hash(),
            halfmoves: pos.halfmoves(),
            check: pos.is_check(),
            turn: pos.turn(),
        });
    }

    /// Plies recorded after the start.
    pub fn plies(&self) -> usize {
        self.entries.len().saturating_sub(1)
    }

    /// Whether the current position stands for the third time (or more)
    /// since the last capture; if so, where, and who checked throughout.
    pub fn repetition(&self) -> Option<Repetition> {
        self.repetition_of(3)
    }

    /// Like [`History::repetition`], for `times` occurrences (at least 2).
    pub fn repetition_of(&self, times: usize) -> Option<Repetition> {
        let last = self.entries.len().checked_sub(1)?;
        let current = self.entries[last];
        let reach = (current.halfmoves as usize).min(last);
        let mut plies = vec![last];
        let mut ply = last;
        while ply >= 2 && last - (ply - 2) <= reach && plies.len() < times {
            ply -= 2;
            if self.entries[ply].hash == current.hash {
                plies.push(ply);
            }
        }
        if plies.len() < times.max(2) {
            return None;
        }
        plies.reverse();
        let first = plies[0];
        let mut checked_throughout = [true; 2];
        for entry in &self.entries[first + 1..] {
            if !entry.check {
                checked_throughout[(!entry.turn).index()] = false;
            }
        }
        Some(Repetition { plies, checked_throughout })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, Square};

    fn play_cycle(fen: &str, cycle: &[(Square, Square)], times: usize) -> (History, Position) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut history = History::new(&pos);
        for _ in 0..times {
            for &(from, to) in cycle {
                let _ = pos.play(Move::new(from, to)).unwrap();
                history.push(&pos);
            }
        }
        (history, pos)
    }

    const ROOK_CHECKS: [(Square, Square); 4] = [
        (Square::H8, Square::H9),
        (Square::E9, Square::E8),
        (Square::H9, Square::H8),
        (Square::E8, Square::E9),
    ];
    const ROOK_FEN: &str = "4k4/7R1/9/9/9/9/9/9/9/3K5 w";

    #[test]
    fn perpetual_check_by_red() {
        // The red rook checks on rank 9, then on rank 8, as the black king
        // steps between e9 and e8: every red move of the cycle is a check.
        let (history, pos) = play_cycle(ROOK_FEN, &ROOK_CHECKS, 2);
        let rep = history.repetition().expect("third occurrence");
        assert_eq!(rep.plies, [0, 4, 8]);
        assert_eq!(pos.turn(), Color::Red);
        assert_eq!(rep.checked_throughout, [true, false]);
        assert_eq!(rep.perpetual_check(), Some(Color::Red));
    }

    #[test]
    fn two_occurrences_are_not_a_threefold_repetition() {
        let (history, _) = play_cycle(ROOK_FEN, &ROOK_CHECKS, 1);
        assert_eq!(history.plies(), 4);
        assert_eq!(history.repetition(), None);
        assert_eq!(history.repetition_of(2).map(|r| r.plies), Some(vec![0, 4]));
    }

    #[test]
    fn a_quiet_move_breaks_perpetual_check() {
        // Red alternates checks with quiet king steps (d0-d1) while the
        // black king and horse shuffle.
        let cycle = [
            ("h8", "h9"),
            ("e9", "e8"),
            ("d0", "d1"),
            ("a5", "b7"),
            ("h9", "h8"),
            ("e8", "e9"),
            ("d1", "d0"),
            ("b7", "a5"),
        ]
        .map(|(a, b)| (a.parse::<Square>().unwrap(), b.parse::<Square>().unwrap()));
        let fen = "4k4/7R1/9/9/n8/9/9/9/9/3K5 w";
        let (history, _) = play_cycle(fen, &cycle, 2);
        let rep = history.repetition().expect("third occurrence");
        assert_eq!(rep.plies, [0, 8, 16]);
        assert_eq!(rep.checked_throughout, [false, false]);
        assert_eq!(rep.perpetual_check(), None);
    }

    #[test]
    fn starting_position_alone_repeats_nothing() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        let history = History::new(&pos);
        assert_eq!(history.repetition_of(2), None);
    }
}
