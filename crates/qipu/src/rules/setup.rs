//! An unvalidated position: what a FEN or a record header says, legal or not.

use super::{Board, Color};

/// A position as written, not yet checked: any placement, a side to move
/// and the two clocks.
///
/// Turn it into a [`crate::Position`] with [`crate::Position::from_setup`],
/// which checks it.
///
/// ```
/// use qipu::{Color, Setup};
/// let setup: Setup = "4k4/9/9/9/9/9/9/9/9/4K4 b".parse().unwrap();
/// assert_eq!(setup.turn, Color::Black);
/// assert_eq!(setup.fullmoves, 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture (FEN field 5).
    pub halfmoves: u32,
    /// Move number, starting at 1 and counting up after each Black move
    /// (FEN field 6).
    pub fullmoves: u32,
}

impl Setup {
    /// The standard starting position, Red to move.
    pub fn start() -> Setup {
        Setup { board: Board::start(), turn: Color::Red, halfmoves: 0, fullmoves: 1 }
    }

    /// An empty board with Red to move.
    pub fn empty() -> Setup {
        Setup { board: Board::empty(), turn: Color::Red, halfmoves: 0, fullmoves: 1 }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}
