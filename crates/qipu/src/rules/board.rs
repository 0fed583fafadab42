//! Piece placement: which piece stands on which point, and nothing else.

use std::fmt;

use super::tables::BIT;
use super::{Color, Piece, Role, Square};

/// The standard starting placement, built at compile time.
pub(crate) const START: Board = {
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
    let mut c = 0;
    while c < 2 {
        let color = Color::ALL[c];
        // Ranks 0, 2 and 3 as the side counts them.
        let (back, cannons, pawns) = if c == 0 { (0, 2, 3) } else { (9, 7, 6) };
        let mut file = 0;
        while file < 9 {
            board.put_const(back * 9 + file, Piece::new(color, BACK[file]));
            if file % 2 == 0 {
                board.put_const(pawns * 9 + file, Piece::new(color, Role::Pawn));
            }
            file += 1;
        }
        board.put_const(cannons * 9 + 1, Piece::new(color, Role::Cannon));
        board.put_const(cannons * 9 + 7, Piece::new(color, Role::Cannon));
        c += 1;
    }
    board
};

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
#[derive(Clone, Eq)]
pub struct Board {
    squares: [Option<Piece>; 90],
    occupied: [u128; 2],
    by_role: [u128; 7],
}

impl PartialEq for Board {
    /// The same pieces on the same squares: the squares of each side and
    /// of each kind of piece say it all (they are kept with the squares).
    fn eq(&self, other: &Board) -> bool {
        let same = self.occupied == other.occupied && self.by_role == other.by_role;
        debug_assert_eq!(same, self.squares == other.squares);
        same
    }
}

impl std::hash::Hash for Board {
    /// Hashes what equality compares.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.occupied.hash(state);
        self.by_role.hash(state);
    }
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
        START
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
        let bit = BIT[square.index()];
        self.squares[square.index()] = Some(piece);
        self.occupied[piece.color.index()] |= bit;
        self.by_role[piece.role.index()] |= bit;
        old
    }

    /// Puts `piece` on the empty point index `sq`, at compile time.
    const fn put_const(&mut self, sq: usize, piece: Piece) {
        self.squares[sq] = Some(piece);
        self.occupied[piece.color.index()] |= 1u128 << sq;
        self.by_role[piece.role.index()] |= 1u128 << sq;
    }

    /// Removes and returns the piece on `square`, if any.
    #[inline]
    pub fn remove(&mut self, square: Square) -> Option<Piece> {
        let old = self.squares[square.index()].take();
        if let Some(p) = old {
            let bit = BIT[square.index()];
            self.occupied[p.color.index()] &= !bit;
            self.by_role[p.role.index()] &= !bit;
        }
        old
    }

    /// Moves `piece`, which stands on point index `from`, to point index
    /// `to`; returns what stood on `to`. The sets stay in step whatever
    /// stood there, even a piece of the mover's side or `piece` itself
    /// (`from == to`).
    #[inline]
    pub(crate) fn shift(&mut self, from: usize, to: usize, piece: Piece) -> Option<Piece> {
        let captured = self.squares[to];
        let (f, t) = (BIT[from], BIT[to]);
        if let Some(c) = captured {
            self.occupied[c.color.index()] ^= t;
            self.by_role[c.role.index()] ^= t;
        }
        self.squares[from] = None;
        self.squares[to] = Some(piece);
        self.occupied[piece.color.index()] ^= f | t;
        self.by_role[piece.role.index()] ^= f | t;
        captured
    }

    /// Takes back [`Board::shift`]: `piece`, now on `to`, goes back to
    /// `from` and `captured` returns to `to`.
    #[inline]
    pub(crate) fn unshift(&mut self, from: usize, to: usize, piece: Piece, captured: Option<Piece>) {
        let (f, t) = (BIT[from], BIT[to]);
        self.occupied[piece.color.index()] ^= f | t;
        self.by_role[piece.role.index()] ^= f | t;
        self.squares[to] = captured;
        self.squares[from] = Some(piece);
        if let Some(c) = captured {
            self.occupied[c.color.index()] ^= t;
            self.by_role[c.role.index()] ^= t;
        }
    }

    /// Whether the two boards hold the same placement, told from the sets
    /// alone (the points follow from them).
    #[inline]
    pub(crate) fn same_placement(&self, other: &Board) -> bool {
        self.occupied == other.occupied && self.by_role == other.by_role
    }

    /// The set of occupied points, either side.
    #[inline]
    pub(crate) fn occupied(&self) -> u128 {
        self.occupied[0] | self.occupied[1]
    }

    /// The 90 points, for the move generator's inner loops.
    #[inline]
    pub(crate) const fn raw(&self) -> &[Option<Piece>; 90] {
        &self.squares
    }

    /// The set of points occupied by `color`, bit `n` for point index `n`.
    #[inline]
    pub(crate) fn occupied_by(&self, color: Color) -> u128 {
        self.occupied[color.index()]
    }

    /// The set of points holding a piece of kind `role`, either side.
    #[inline]
    pub(crate) fn occupied_by_role(&self, role: Role) -> u128 {
        self.by_role[role.index()]
    }

    /// The points occupied by `color`, in index order.
    pub fn squares_of(&self, color: Color) -> SquareSet {
        SquareSet(self.occupied[color.index()])
    }

    /// The points where `piece` stands, one bit each (bit `k` for the
    /// point of index `k`).
    pub fn bits_of(&self, piece: Piece) -> u128 {
        self.occupied[piece.color.index()] & self.by_role[piece.role.index()]
    }

    /// The same placement seen in a mirror: files a…i become i…a.
    pub fn mirrored(&self) -> Board {
        let mut mirrored = Board::empty();
        for (square, piece) in self.pieces() {
            mirrored.put(square.flip_horizontal(), piece);
        }
        mirrored
    }

    /// How many pieces `color` has.
    pub fn count(&self, color: Color) -> usize {
        self.occupied[color.index()].count_ones() as usize
    }

    /// How many pieces equal to `piece` stand on the board.
    #[cfg(test)]
    pub(crate) fn count_piece(&self, piece: Piece) -> usize {
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
