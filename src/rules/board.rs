//! Piece placement: which piece stands on which point, and nothing else.

use std::fmt;

use super::{Color, Piece, Role, Square};

/// The placement of pieces on the 90 points, with a set of occupied points
/// per side kept in step for fast iteration.
///
/// A `Board` may hold any placement, legal or not; [`crate::Position`]
/// checks it.
///
/// ```
/// use qipu::{Board, Color, Piece, Role, Square};
/// let board = Board::start();
/// assert_eq!(board.piece_at(Square::E0), Some(Piece::new(Color::Red, Role::King)));
/// assert_eq!(board.piece_at(Square::E4), None);
/// assert_eq!(board.count(Color::Black), 16);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 90],
    occupied: [u128; 2],
    by_role: [u128; 7],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board { squares: [None; 90], occupied: [0; 2], by_role: [0; 7] }
    }

    /// The standard starting placement.
    pub fn start() -> Board {
        const BACK: [Role; 9] = [
            Role::Rook,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::King,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Rook,
        ];
        let mut board = Board::empty();
        for color in Color::ALL {
            let rel = |rank: u8| match color {
                Color::Red => rank,
                Color::Black => 9 - rank,
            };
            for (file, role) in BACK.iter().enumerate() {
                board.put(sq(file, rel(0)), Piece::new(color, *role));
            }
            board.put(sq(1, rel(2)), Piece::new(color, Role::Cannon));
            board.put(sq(7, rel(2)), Piece::new(color, Role::Cannon));
            for file in [0, 2, 4, 6, 8] {
                board.put(sq(file, rel(3)), Piece::new(color, Role::Pawn));
            }
        }
        board
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.squares[square.index()]
    }

    /// Puts `piece` on `square`, replacing what stood there; returns the
    /// piece replaced.
    #[inline]
    pub fn put(&mut self, square: Square, piece: Piece) -> Option<Piece> {
        let old = self.remove(square);
        self.squares[square.index()] = Some(piece);
        self.occupied[piece.color.index()] |= 1u128 << square.index();
        self.by_role[piece.role.index()] |= 1u128 << square.index();
        old
    }

    /// Removes and returns the piece on `square`, if any.
    #[inline]
    pub fn remove(&mut self, square: Square) -> Option<Piece> {
        let old = self.squares[square.index()].take();
        if let Some(p) = old {
            self.occupied[p.color.index()] &= !(1u128 << square.index());
            self.by_role[p.role.index()] &= !(1u128 << square.index());
        }
        old
    }

    /// The 90 points, for the move generator's inner loops.
    #[inline]
    pub(crate) fn raw(&self) -> &[Option<Piece>; 90] {
        &self.squares
    }

    /// The set of points occupied by `color`, bit `n` for point index `n`.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> u128 {
        self.occupied[color.index()]
    }

    /// The set of points holding a piece of kind `role`, either side.
    #[inline]
    pub fn occupied_by_role(&self, role: Role) -> u128 {
        self.by_role[role.index()]
    }

    /// The points occupied by `color`, in index order.
    pub fn squares_of(&self, color: Color) -> SquareSet {
        SquareSet(self.occupied[color.index()])
    }

    /// How many pieces `color` has.
    pub fn count(&self, color: Color) -> usize {
        self.occupied[color.index()].count_ones() as usize
    }

    /// How many pieces equal to `piece` stand on the board.
    pub fn count_piece(&self, piece: Piece) -> usize {
        self.squares_of(piece.color).filter(|&s| self.piece_at(s) == Some(piece)).count()
    }

    /// Every occupied point with its piece, in index order (`a0` first).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }

    /// The points where `piece` stands, in index order.
    pub fn find(&self, piece: Piece) -> impl Iterator<Item = Square> + '_ {
        self.squares_of(piece.color).filter(move |&s| self.piece_at(s) == Some(piece))
    }
}

fn sq(file: usize, rank: u8) -> Square {
    Square::from_index_unchecked(rank as usize * 9 + file)
}

impl fmt::Debug for Board {
    /// Draws the board as text, Black's back rank at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10).rev() {
            for file in 0..9 {
                let c = self.squares[rank * 9 + file].map_or('.', Piece::char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A set of points iterated in index order; produced by
/// [`Board::squares_of`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquareSet(pub u128);

impl Iterator for SquareSet {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_placement() {
        let b = Board::start();
        assert_eq!(b.count(Color::Red), 16);
        assert_eq!(b.piece_at(Square::H2), Some(Piece::new(Color::Red, Role::Cannon)));
        assert_eq!(b.piece_at(Square::B9), Some(Piece::new(Color::Black, Role::Horse)));
        assert_eq!(b.piece_at(Square::I6), Some(Piece::new(Color::Black, Role::Pawn)));
        assert_eq!(b.count_piece(Piece::new(Color::Black, Role::Pawn)), 5);
    }

    #[test]
    fn put_and_remove_keep_sets() {
        let mut b = Board::empty();
        let rook = Piece::new(Color::Red, Role::Rook);
        assert_eq!(b.put(Square::A0, rook), None);
        assert_eq!(b.put(Square::A0, Piece::new(Color::Black, Role::Pawn)), Some(rook));
        assert_eq!(b.count(Color::Red), 0);
        assert_eq!(b.count(Color::Black), 1);
        assert_eq!(b.remove(Square::A0).map(|p| p.role), Some(Role::Pawn));
        assert_eq!(b.count(Color::Black), 0);
    }
}
