//! The start position of a record whose file stores a board: its side to
//! move and its `FEN` tag, settled the same way for every binary format.

use crate::record::Record;

/// Settles the side to move of a record whose moves are points, and writes
/// its `FEN` tag when the start is not the standard one with Red to move
/// (`board_at`: where the file stores the placement). The side is the
/// colour of the first move's piece; without a move, what the file stores
/// (`stored`: the side, where, and what says it, such as "header"), else
/// Red. A stored side that the first move contradicts is reported as a
/// warning.
pub(crate) fn settle_start(
    record: &mut Record,
    board: &crate::Board,
    board_at: crate::record::Span,
    stored: Option<(crate::Color, crate::record::Span, &str)>,
    fullmoves: u32,
) {
    use crate::record::{MoveText, Warning};
    let tree = &record.tree;
    let first_mover = tree.main_child(tree.root()).and_then(|id| match &tree.node(id).mv.as_ref()?.text {
        MoveText::Coords(m) => board.piece_at(m.from).map(|p| p.color),
        MoveText::Text(_) => None,
    });
    let turn = first_mover.or(stored.map(|(side, ..)| side)).unwrap_or(crate::Color::Red);
    if let (Some((said, at, who)), Some(mover)) = (stored, first_mover)
        && said != mover
    {
        let message = format!("the {who} says {said} moves first, but the first move is {mover}'s");
        record.warnings.push(Warning { at, message });
    }
    if *board != crate::Board::start() || turn != crate::Color::Red {
        let mut fen = String::new();
        crate::rules::fen::write_fen(board, turn, 0, fullmoves.max(1), &mut fen);
        record.tags.push(("FEN".into(), fen));
        record.start_at = Some(board_at);
    }
}
