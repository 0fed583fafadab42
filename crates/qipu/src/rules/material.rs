//! Material that can never win: the dead draw of the rule books (4.2.1,
//! "双方均无取胜可能的简单局势").
//!
//! qipu's table is the one no position can contradict: a side can win
//! while it has a rook, a horse, a cannon or a pawn (any pawn: one on the
//! last rank cannot mate alone, but can with the help of the defender's
//! own pieces blocking its king). Advisors and elephants never leave their
//! own half of the board and the king never gives check, so a side left
//! with king, advisors and elephants can neither mate nor stalemate. When
//! both sides are left so, the game is a dead draw. Positions that are
//! drawn only with correct play (a lone cannon against two advisors, say)
//! are not called dead: that needs judgement, not a table.

use super::{Board, Color, Position, Role};

impl Board {
    /// Whether `color` has material that can ever win: a rook, a horse, a
    /// cannon or a pawn.
    pub(crate) fn can_win(&self, color: Color) -> bool {
        let attackers = self.occupied_by(color)
            & (self.occupied_by_role(Role::Rook)
                | self.occupied_by_role(Role::Horse)
                | self.occupied_by_role(Role::Cannon)
                | self.occupied_by_role(Role::Pawn));
        attackers != 0
    }
}

impl Position {
    /// Whether neither side has material that can ever win (only kings,
    /// advisors and elephants are left): a dead draw.
    pub(crate) fn is_dead_draw(&self) -> bool {
        !self.board.can_win(Color::Red) && !self.board.can_win(Color::Black)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Color, Position};

    #[test]
    fn can_win_as_its_docs_showed() {
        use crate::{Board, Color};
        assert!(Board::start().can_win(Color::Red));
    }

    #[test]
    fn is_dead_draw_as_its_docs_showed() {
        use crate::Position;
        assert!(Position::from_fen("2bak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w").unwrap().is_dead_draw());
        assert!(!Position::from_fen("3ak4/9/9/9/9/4P4/9/9/9/4K4 w").unwrap().is_dead_draw());
    }

    #[test]
    fn each_attacking_piece_can_win() {
        for piece in ["R", "N", "C", "P"] {
            let fen = format!("3k5/9/9/9/9/4{piece}4/9/9/9/4K4 w");
            let pos = Position::from_fen(&fen).unwrap();
            assert!(pos.board().can_win(Color::Red), "{fen}");
            assert!(!pos.board().can_win(Color::Black), "{fen}");
            assert!(!pos.is_dead_draw(), "{fen}");
        }
    }

    #[test]
    fn defenders_alone_cannot_win() {
        let pos = Position::from_fen("3k5/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 b").unwrap();
        assert!(pos.is_dead_draw());
    }
}
