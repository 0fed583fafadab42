//! Moves and fixed-capacity move lists.

use std::fmt;
use std::ops::Deref;

use super::Square;

/// A move from one point to another. Whether it captures, and what, depends
/// on the position it is played in.
///
/// Displays as a lower-case ICCS move without hyphen (`h2e2`), the form of
/// UCCI engines and of `qipu moves`.
///
/// ```
/// use qipu::{Move, Square};
/// let m = Move::new(Square::H2, Square::E2);
/// assert_eq!(m.to_string(), "h2e2");
/// assert_eq!("h2e2".parse::<Move>(), Ok(m));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// The point the piece leaves.
    pub from: Square,
    /// The point the piece arrives on.
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The move in lower-case ICCS (`h2e2`) as ASCII bytes, made without a
    /// formatter or an allocation (for writers that give one a ply).
    #[cfg(any(feature = "serde", feature = "arrow"))]
    pub(crate) fn iccs_bytes(self) -> [u8; 4] {
        let point = |sq: Square| [sq.file().char() as u8, sq.rank().char() as u8];
        let ([a, b], [c, d]) = (point(self.from), point(self.to));
        [a, b, c, d]
    }

    /// The same move seen in a mirror: files a…i become i…a.
    pub const fn flip_horizontal(self) -> Move {
        Move { from: self.from.flip_horizontal(), to: self.to.flip_horizontal() }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// The text is not a coordinate move such as `h2e2`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a coordinate move: expected two point names such as h2e2")]
pub struct ParseIccsError;

impl std::str::FromStr for Move {
    type Err = ParseIccsError;

    /// Reads `h2e2`, in either case; the notation module reads the other
    /// coordinate forms.
    fn from_str(s: &str) -> Result<Move, ParseIccsError> {
        let b = s.as_bytes();
        if b.len() != 4 {
            return Err(ParseIccsError);
        }
        let from = Square::from_ascii(&b[..2]).map_err(|_| ParseIccsError)?;
        let to = Square::from_ascii(&b[2..]).map_err(|_| ParseIccsError)?;
        Ok(Move { from, to })
    }
}

/// Room for every move of any valid position (the most a side can have is
/// 119 pseudo-legal moves).
const CAPACITY: usize = 128;

/// A list of moves kept on the stack; no allocation.
///
/// Dereferences to a slice of moves.
///
/// ```
/// use qipu::{Move, Position, Square};
/// let moves = Position::start().legal_moves();
/// assert_eq!(moves.len(), 44);
/// assert!(moves.contains(&Move::new(Square::H2, Square::E2)));
/// assert_eq!(moves.iter().filter(|m| m.from == Square::H0).count(), 2); // h0g2, h0i2
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList { moves: [Move::new(Square::A0, Square::A0); CAPACITY], len: 0 }
    }

    /// Appends a move.
    ///
    /// # Panics
    ///
    /// When the list already holds 128 moves, which no valid position's
    /// move generation reaches.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` returns true, in order.
    #[inline]
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }

    /// Sorts the moves by origin, then destination (the order of their
    /// ICCS text).
    pub fn sort(&mut self) {
        self.moves[..self.len]
            .sort_unstable_by_key(|m| (m.from.file(), m.from.rank(), m.to.file(), m.to.rank()));
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_sort() {
        assert!("h2e".parse::<Move>().is_err());
        assert!("h2e2x".parse::<Move>().is_err());
        assert_eq!("H2E2".parse::<Move>().unwrap().to_string(), "h2e2");
        let mut l = MoveList::new();
        for s in ["h2e2", "a0a1", "b2b9", "a3a4"] {
            l.push(s.parse().unwrap());
        }
        l.sort();
        let text: Vec<String> = l.iter().map(|m| m.to_string()).collect();
        assert_eq!(text, ["a0a1", "a3a4", "b2b9", "h2e2"]);
        l.retain(|m| m.from.file().char() != 'a');
        assert_eq!(l.len(), 2);
    }
}
