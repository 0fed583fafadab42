//! Why a move is not legal, in terms a player understands.

use std::fmt;

use super::tables::{ADVISOR, ELEPHANT, HORSE, KING, PAWN, Steps};
use super::{Color, Move, Piece, Position, Role, Square};

/// The reason a move is illegal in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Illegality {
    /// No piece stands on the origin point.
    NoPiece(Square),
    /// The piece on the origin belongs to the side not to move.
    NotYourTurn(Piece),
    /// The destination holds a piece of the mover's own side.
    OwnPiece(Piece, Square),
    /// The piece never moves that way (wrong shape, out of the palace,
    /// across the river, a pawn backwards...).
    CannotMoveSo(Piece),
    /// A piece stands on the horse's leg (马腿) or the elephant's eye (象眼).
    Blocked(Piece, Square),
    /// Pieces stand between origin and destination of a rook or cannon move
    /// (or, for a cannon capture, not exactly one).
    PathBlocked(Piece),
    /// A cannon captures only by jumping exactly one piece.
    CannonNeedsScreen(Piece),
    /// After the move the two kings would face each other on an open file.
    KingsFace,
    /// After the move the mover's king would be attacked.
    LeavesKingInCheck(Color),
}

impl fmt::Display for Illegality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegality::NoPiece(sq) => write!(f, "no piece on {sq}"),
            Illegality::NotYourTurn(p) => {
                write!(f, "the {p} moves, but it is {}'s turn: two {} moves in a row", !p.color, p.color)
            }
            Illegality::OwnPiece(p, sq) => write!(f, "{sq} holds a {p} of the moving side"),
            Illegality::CannotMoveSo(p) => write!(f, "a {} cannot move so", p.role),
            Illegality::Blocked(p, sq) => match p.role {
                Role::Horse => write!(f, "the horse is blocked at {sq} (horse leg)"),
                _ => write!(f, "the elephant is blocked at {sq} (elephant eye)"),
            },
            Illegality::PathBlocked(p) => write!(f, "the {}'s path is blocked", p.role),
            Illegality::CannonNeedsScreen(_) => {
                f.write_str("a cannon captures only by jumping exactly one piece")
            }
            Illegality::KingsFace => f.write_str("the kings would face each other"),
            Illegality::LeavesKingInCheck(c) => {
                write!(f, "leaves the {} king in check", c.name().to_lowercase())
            }
        }
    }
}

impl std::error::Error for Illegality {}

impl Position {
    /// Why `m` is not legal here, or `None` when it is.
    ///
    /// ```
    /// use qipu::{Illegality, Move, Position, Square};
    /// let pos = Position::start();
    /// assert_eq!(pos.illegality(Move::new(Square::H2, Square::E2)), None);
    /// let horse = Move::new(Square::H0, Square::F1); // leg g0 holds the elephant
    /// assert!(matches!(pos.illegality(horse), Some(Illegality::Blocked(_, Square::G0))));
    /// ```
    pub fn illegality(&self, m: Move) -> Option<Illegality> {
        if self.is_legal(m) {
            return None;
        }
        let us = self.turn;
        let Some(piece) = self.board.piece_at(m.from) else { return Some(Illegality::NoPiece(m.from)) };
        if piece.color != us {
            return Some(Illegality::NotYourTurn(piece));
        }
        if let Some(target) = self.board.piece_at(m.to)
            && target.color == us
        {
            return Some(Illegality::OwnPiece(target, m.to));
        }
        let (f, t) = (m.from.index(), m.to.index() as u8);
        let in_steps = |to: &[u8]| to.contains(&t);
        let geometry = match piece.role {
            Role::King => in_steps(&KING[f].to[..KING[f].len as usize]).then_some(None),
            Role::Advisor => in_steps(&ADVISOR[f].to[..ADVISOR[f].len as usize]).then_some(None),
            Role::Pawn => {
                let s = &PAWN[us.index()][f];
                in_steps(&s.to[..s.len as usize]).then_some(None)
            }
            Role::Horse | Role::Elephant => {
                let via = if piece.role == Role::Horse { leg(&HORSE[f], t) } else { leg(&ELEPHANT[f], t) };
                via.map(|via| self.board.piece_at(via).map(|_| Illegality::Blocked(piece, via)))
            }
            Role::Rook | Role::Cannon => self.pieces_between(m.from, m.to).map(|between| {
                match (piece.role, self.board.piece_at(m.to).is_some(), between) {
                    (Role::Rook, _, 0) | (Role::Cannon, false, 0) | (Role::Cannon, true, 1) => None,
                    (Role::Cannon, true, _) => Some(Illegality::CannonNeedsScreen(piece)),
                    _ => Some(Illegality::PathBlocked(piece)),
                }
            }),
        };
        match geometry {
            None => Some(Illegality::CannotMoveSo(piece)),
            Some(Some(reason)) => Some(reason),
            Some(None) => {
                // Reachable, so the king is left attacked: by the other king, or otherwise.
                let mut after = self.clone();
                let _ = after.play_unchecked(m);
                Some(if after.facing_kings_file().is_some() {
                    Illegality::KingsFace
                } else {
                    Illegality::LeavesKingInCheck(us)
                })
            }
        }
    }
}

/// The leg or eye of the step that reaches point index `t`, if any does.
fn leg<const N: usize>(steps: &Steps<N>, t: u8) -> Option<Square> {
    (0..steps.len as usize)
        .find(|&i| steps.to[i] == t)
        .map(|i| Square::from_index_unchecked(steps.via[i] as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(fen: &str, m: &str) -> Option<Illegality> {
        Position::from_fen(fen).unwrap().illegality(m.parse().unwrap())
    }

    #[test]
    fn reasons() {
        let start = crate::fen::START;
        let red = |role| Piece::new(Color::Red, role);
        assert_eq!(why(start, "e4e5"), Some(Illegality::NoPiece(Square::E4)));
        assert_eq!(why(start, "h7e7"), Some(Illegality::NotYourTurn(Piece::new(Color::Black, Role::Cannon))));
        assert_eq!(why(start, "a0a3"), Some(Illegality::OwnPiece(red(Role::Pawn), Square::A3)));
        assert_eq!(why(start, "b0b1"), Some(Illegality::CannotMoveSo(red(Role::Horse))));
        assert_eq!(why(start, "c3c2"), Some(Illegality::CannotMoveSo(red(Role::Pawn))));
        assert_eq!(why(start, "c0a2"), None);
        assert_eq!(why(start, "h0f1"), Some(Illegality::Blocked(red(Role::Horse), Square::G0)));
        assert_eq!(why(start, "a0a5"), Some(Illegality::PathBlocked(red(Role::Rook))));
        assert_eq!(why(start, "h2h8"), Some(Illegality::PathBlocked(red(Role::Cannon))));
        assert_eq!(why(start, "b2b7"), Some(Illegality::CannonNeedsScreen(red(Role::Cannon))));
        assert_eq!(why("5k3/9/9/9/9/9/9/4B4/9/4K4 w", "e2c4"), None);
        assert_eq!(
            why("5k3/9/9/9/9/9/3N5/4B4/9/4K4 w", "e2c4"),
            Some(Illegality::Blocked(red(Role::Elephant), Square::D3))
        );
        assert_eq!(why("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0e0"), Some(Illegality::KingsFace));
        assert_eq!(
            why("3r1k3/9/9/9/9/9/9/9/9/4K4 w", "e0d0"),
            Some(Illegality::LeavesKingInCheck(Color::Red))
        );
        assert_eq!(
            why("4r4/9/3k5/9/9/9/9/9/4N4/4K4 w", "e1g2"),
            Some(Illegality::LeavesKingInCheck(Color::Red))
        );
        let msg = why(start, "h0f1").unwrap().to_string();
        assert_eq!(msg, "the horse is blocked at g0 (horse leg)");
    }
}
