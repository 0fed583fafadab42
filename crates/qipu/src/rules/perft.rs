//! Perft: counting the leaf nodes of the legal move tree, to check move
//! generation against published numbers.

use super::{Move, Position};

/// The number of legal move sequences of `depth` plies from `pos`.
///
/// Leaves are counted in bulk: at the last ply the legal moves are counted,
/// not played.
///
/// ```
/// use qipu::{Position, perft};
/// let pos = Position::start();
/// assert_eq!(perft(&pos, 1), 44);
/// assert_eq!(perft(&pos, 2), 1920);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    count(&mut pos, depth)
}

/// Perft split by first move: each legal move with the number of leaves
/// below it, in sorted move order.
///
/// ```
/// use qipu::{Position, divide};
/// let split = divide(&Position::start(), 2);
/// assert_eq!(split.len(), 44);
/// assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1920);
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let mut moves = pos.legal_moves();
    moves.sort();
    moves
        .iter()
        .map(|&m| {
            let undo = pos.play_unchecked(m);
            let n = count(&mut pos, depth.saturating_sub(1));
            pos.undo(undo);
            (m, n)
        })
        .collect()
}

fn count(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &m in moves.iter() {
                let undo = pos.play_unchecked(m);
                nodes += count(pos, depth - 1);
                pos.undo(undo);
            }
            nodes
        }
    }
}
