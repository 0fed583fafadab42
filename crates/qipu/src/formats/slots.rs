//! The 32 piece slots: the order in which XQF (its header), DhtmlXQ (its
//! `binit` tag) and the compressed 象棋桥 (CCBridge) library list the pieces
//! of a start position, one point per slot.
//!
//! Slots 0 to 15 are Red's rook, horse, elephant, advisor, king, advisor,
//! elephant, horse, rook, two cannons and five pawns; slots 16 to 31 are
//! Black's, in the same order.

use crate::{Board, Color, Piece, Role, Square};

/// The role of each side's 16 slots, in slot order.
const SLOT_ROLES: [Role; 16] = [
    Role::Rook,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::King,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

/// The piece that slot `i` (0..32) holds.
pub(crate) fn slot_piece(i: usize) -> Piece {
    let color = if i < 16 { Color::Red } else { Color::Black };
    Piece::new(color, SLOT_ROLES[i % 16])
}

/// Two slots on one point, when a start position is read from its slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "piece slots: a {} {} and a {} {} both stand on {square}",
    standing.color.name(),
    standing.role.name(),
    placed.color.name(),
    placed.role.name()
)]
pub struct SharedPoint {
    /// The point.
    pub square: Square,
    /// The piece of an earlier slot, on the point first.
    pub(crate) standing: Piece,
    /// The piece of the slot put there after it.
    pub(crate) placed: Piece,
}

/// Puts the piece of slot `i` on `square`; when another piece stands
/// there already, says so (the slot's piece then stands there instead).
pub(crate) fn put_slot(board: &mut Board, i: usize, square: Square) -> Result<(), SharedPoint> {
    put_piece(board, square, slot_piece(i))
}

/// Puts `placed` on `square`; when another piece stands there already,
/// says so (`placed` then stands there instead).
pub(crate) fn put_piece(board: &mut Board, square: Square, placed: Piece) -> Result<(), SharedPoint> {
    match board.put(square, placed) {
        None => Ok(()),
        Some(standing) => Err(SharedPoint { square, standing, placed }),
    }
}

/// Where each of the 32 slots stands on `board` (`None`: the piece is not
/// on the board), each side's pieces of a kind from its own right to left
/// as XQStudio lists them (Red's right is file i, Black's is file a). The
/// `Err` is a piece with no slot left: more of a kind than the slots hold.
pub(crate) fn slots_of(board: &Board) -> Result<[Option<Square>; 32], Piece> {
    let mut slots = [None; 32];
    let mut pieces: Vec<(Square, Piece)> = board.pieces().collect();
    pieces.sort_by_key(|&(s, p)| {
        let file = s.file().index();
        (p.color == Color::Black, if p.color == Color::Red { 8 - file } else { file }, s.rank().index())
    });
    for (square, piece) in pieces {
        let i = (0..32).find(|&i| slots[i].is_none() && slot_piece(i) == piece).ok_or(piece)?;
        slots[i] = Some(square);
    }
    Ok(slots)
}
