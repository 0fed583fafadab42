//! The start position of a game whose file stores a board: its side to
//! move and its `FEN` tag, settled the same way for every binary format.

use super::tree::Game;
use crate::record::{MoveText, Span};
use crate::{Board, Color};

/// Settles the side to move of a game whose moves are points, and adds
/// its `FEN` tag when the start is not the standard one with Red to move
/// (`board_at`: where the file stores the placement). The side is the
/// colour of the first move's piece; without a move, what the file stores
/// (`stored`: the side, where, and what says it, such as "header"), else
/// Red. A stored side that the first move contradicts is reported as a
/// warning. From the standard start, a first move of Black's is read so
/// only when the file says Black moves first (and, when the file says
/// nothing, with a warning); when it says Red, Red moves first, and the
/// replay finds the first move out of turn. `counters`: the half-move
/// clock and the full-move number the file stores (`(0, 1)` where it
/// stores none); a clock not 0 is kept in the `FEN` tag too.
pub(crate) fn settle_start(
    game: &mut Game,
    board: &Board,
    board_at: Span,
    stored: Option<(Color, Span, &str)>,
    (halfmoves, fullmoves): (u32, u32),
) {
    let first_mover = game.moves.first_move().and_then(|mv| match &mv.text {
        MoveText::Coords(m) => board.piece_at(m.from).map(|p| p.color),
        MoveText::Text(_) => None,
    });
    let standard = *board == Board::start();
    let turn = match (first_mover, stored) {
        // From the standard start, Red moves first unless the file says
        // Black does: the first move is then an error of the replay, which
        // says so.
        (Some(Color::Black), Some((Color::Red, ..))) if standard => Color::Red,
        (Some(Color::Black), None) if standard => {
            let message = "the file does not say who moves first, and the first move is Black's: read from the \
                           standard start with Black to move";
            game.warn(board_at, message);
            Color::Black
        }
        (Some(mover), _) => mover,
        (None, stored) => stored.map_or(Color::Red, |(side, ..)| side),
    };
    if let (Some((said, at, who)), Some(mover)) = (stored, first_mover)
        && said != mover
        && !(standard && mover == Color::Black)
    {
        game.warn(at, format!("the {who} says {said} moves first, but the first move is {mover}'s"));
    }
    // A start that differs from the standard one in anything its FEN says, the move number
    // included, is kept as a FEN tag.
    if *board != Board::start() || turn != Color::Red || halfmoves != 0 || fullmoves > 1 {
        let mut fen = String::new();
        crate::rules::fen::write_fen(board, turn, halfmoves, fullmoves.max(1), &mut fen);
        game.tag("FEN", fen);
        game.start_at = Some(board_at);
    }
}
