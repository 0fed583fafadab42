//! Zobrist hashing of positions: placement and side to move.
//!
//! The keys are fixed (generated at compile time from a constant seed), so
//! hashes are stable between runs and builds. [`crate::Position`] keeps its
//! hash up to date in `play`; [`hash_of`] computes it from scratch.

use super::{Board, Color, Piece};

/// One step of SplitMix64: the next state and its output.
pub(crate) const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn piece_keys() -> [[u64; 90]; 14] {
    let mut keys = [[0; 90]; 14];
    let mut state = 0x7169_7075_5853_4151; // "qipuXSAQ"
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (s, k) = splitmix64(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
}

const KEYS: [[u64; 90]; 14] = piece_keys();

/// One key per piece (index [`Piece::index`]) and point.
pub(crate) static PIECE_KEYS: [[u64; 90]; 14] = KEYS;

/// The hash of the start placement with Red to move.
pub(crate) const START_HASH: u64 = {
    let squares = super::board::START.raw();
    let mut h = 0;
    let mut sq = 0;
    while sq < 90 {
        if let Some(p) = squares[sq] {
            h ^= KEYS[p.index()][sq];
        }
        sq += 1;
    }
    h
};

/// The key mixed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = splitmix64(0x626c_6163_6b21).1;

/// The key of `piece` standing on point index `sq`.
#[inline]
pub(crate) fn key(piece: Piece, sq: usize) -> u64 {
    PIECE_KEYS[piece.index()][sq]
}

/// The hash of a placement with `turn` to move, computed from scratch.
pub fn hash_of(board: &Board, turn: Color) -> u64 {
    let mut h = board.pieces().fold(0, |h, (sq, p)| h ^ key(p, sq.index()));
    if turn == Color::Black {
        h ^= BLACK_TO_MOVE;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(BLACK_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
