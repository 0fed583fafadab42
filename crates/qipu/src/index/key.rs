//! The key a position is indexed by: its Zobrist hash (placement and side
//! to move, [`Position::hash`]), or, in an index that merges mirrors, the
//! smaller of its hash and its left–right mirror's, so that a position and
//! its mirror are found together.

use crate::rules::zobrist;
use crate::{Board, Color, Move, Position};

/// The hash of a position and of its mirror, kept up to date move by move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Keys {
    /// The position's hash.
    pub(crate) hash: u64,
    /// Its left–right mirror's.
    pub(crate) mirrored: u64,
}

impl Keys {
    /// The hashes of `pos`.
    pub(crate) fn of(pos: &Position) -> Keys {
        Keys { hash: pos.hash(), mirrored: mirror_hash(pos.board(), pos.turn()) }
    }

    /// Plays `m` in `before` (a legal move there) on the hashes.
    pub(crate) fn play(&mut self, before: &Position, m: Move) {
        let Some(piece) = before.board().piece_at(m.from) else { return };
        let (from, to) = (m.from.index(), m.to.index());
        let (mfrom, mto) = (m.from.flip_horizontal().index(), m.to.flip_horizontal().index());
        self.hash ^= zobrist::key(piece, from) ^ zobrist::key(piece, to) ^ zobrist::BLACK_TO_MOVE;
        self.mirrored ^= zobrist::key(piece, mfrom) ^ zobrist::key(piece, mto) ^ zobrist::BLACK_TO_MOVE;
        if let Some(taken) = before.board().piece_at(m.to) {
            self.hash ^= zobrist::key(taken, to);
            self.mirrored ^= zobrist::key(taken, mto);
        }
    }

    /// The key: the hash, or with `mirror` the smaller of the two.
    pub(crate) fn key(&self, mirror: bool) -> u64 {
        if mirror { self.hash.min(self.mirrored) } else { self.hash }
    }
}

/// The hash of the left–right mirror of `board` with `turn` to move.
pub(crate) fn mirror_hash(board: &Board, turn: Color) -> u64 {
    let mut h = board.pieces().fold(0, |h, (sq, p)| h ^ zobrist::key(p, sq.flip_horizontal().index()));
    if turn == Color::Black {
        h ^= zobrist::BLACK_TO_MOVE;
    }
    h
}

/// The key of `board` with `turn` to move: its Zobrist hash, or with
/// `mirror` the smaller of its hash and its left–right mirror's (an index
/// that merges mirrors finds a position and its mirror together).
///
/// ```
/// use qipu::index::key_of;
/// use qipu::{Color, Position};
/// let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
/// assert_eq!(key_of(pos.board(), Color::Black, false), pos.hash());
/// // Its mirror (the cannon on g2 in place of c2) has the same key when mirrors merge.
/// let mirror = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b").unwrap();
/// assert_eq!(key_of(pos.board(), Color::Black, true), key_of(mirror.board(), Color::Black, true));
/// assert_ne!(key_of(pos.board(), Color::Black, false), key_of(mirror.board(), Color::Black, false));
/// ```
pub fn key_of(board: &Board, turn: Color, mirror: bool) -> u64 {
    let hash = zobrist::hash_of(board, turn);
    if mirror { hash.min(mirror_hash(board, turn)) } else { hash }
}
