//! The key of a game: a few fixed-size hashes of its main line, computed
//! as the game is replayed ([`Keyer`], a [`Follow`]er of the main line).
//!
//! A line is hashed from its start position's Zobrist hash
//! ([`Position::hash`]: placement and side to move) and then one step a
//! move ([`step`]), so that the hash of a line's first `p` moves is the
//! hash of any game whose whole line they are: what finding truncated
//! copies needs ([`super::Prefixes`]). The left–right mirror of the game is
//! hashed the same way, from the mirrored start and the mirrored moves,
//! and the mirrored final position's Zobrist hash is kept up to date a move
//! at a time: no board is built a ply.
//!
//! 64 bits are enough: among a million games, the chance that two of them
//! share a hash by accident is about 3 in 100 million, and that one of the
//! hundred million prefixes of a million games of 100 plies meets a line
//! it is not is about 5 in a million. Equal hashes of lines are also held
//! to equal lengths.

use crate::record::replay::Follow;
use crate::rules::zobrist;
use crate::{Color, Move, Position};

/// What a game is matched by: its main line, its final position and its
/// length, and the same of its left–right mirror.
///
/// A game whose start position is not a legal one has no key. A game whose
/// main line stops at a wrong move is keyed on the moves before it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameKey {
    /// The hash of the start position and every main-line move.
    pub line: u64,
    /// The same of the mirrored game.
    pub mirrored_line: u64,
    /// The Zobrist hash of the final position ([`Position::hash`]).
    pub end: u64,
    /// The Zobrist hash of the mirrored final position.
    pub mirrored_end: u64,
    /// The main line's length in plies (saturating).
    pub plies: u32,
}

/// The hash of a line of no move from a start whose Zobrist hash is
/// `start`.
///
/// ```
/// use qipu::Position;
/// use qipu::dedupe::key::{line_start, step};
/// let e2 = step(line_start(Position::start().hash()), "h2e2".parse().unwrap());
/// assert_ne!(e2, line_start(Position::start().hash()));
/// ```
pub fn line_start(start: u64) -> u64 {
    mix(start ^ 0x6c69_6e65_2d71_6970) // "line-qip"
}

/// The hash of a line `line` followed by the move `m`.
pub fn step(line: u64, m: Move) -> u64 {
    let code = (m.from.index() * 90 + m.to.index() + 1) as u64;
    mix(line.rotate_left(23) ^ code.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A bijective mix of 64 bits (the finalizer of SplitMix64).
pub(super) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The Zobrist hash of `pos` mirrored left to right, computed from scratch.
///
/// ```
/// use qipu::Position;
/// use qipu::dedupe::key::mirrored_hash;
/// // The start position is its own mirror.
/// assert_eq!(mirrored_hash(&Position::start()), Position::start().hash());
/// ```
pub fn mirrored_hash(pos: &Position) -> u64 {
    let h = pos.board().pieces().fold(0, |h, (sq, p)| h ^ zobrist::key(p, sq.flip_horizontal().index()));
    if pos.turn() == Color::Black { h ^ zobrist::BLACK_TO_MOVE } else { h }
}

/// Follows a main line for its [`GameKey`]: `None` when the start is no legal
/// position (it is never told).
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::dedupe::Keyer;
/// use qipu::formats::pgn;
/// let text = "1. 炮二平五 马８进７ 2. 马二进三 *\n\n1. 炮八平五 马２进３ 2. 马八进七 *\n";
/// let games = pgn::read_with(text, &mut Checker::following(Keyer::default()));
/// let (a, b) = (games[0].followed.unwrap(), games[1].followed.unwrap());
/// assert_eq!(a.plies, 3);
/// assert_ne!(a.line, b.line);
/// assert_eq!(a.line, b.mirrored_line); // each is the other's mirror
/// assert_eq!(a.end, b.mirrored_end);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Keyer {
    key: Option<GameKey>,
}

impl Follow for Keyer {
    type Output = Option<GameKey>;

    fn start(&mut self, start: &Position) {
        let mirrored = mirrored_hash(start);
        self.key = Some(GameKey {
            line: line_start(start.hash()),
            mirrored_line: line_start(mirrored),
            end: start.hash(),
            mirrored_end: mirrored,
            plies: 0,
        });
    }

    fn before_move(&mut self, before: &Position, m: Move) {
        let Some(key) = &mut self.key else { return };
        let flipped = m.flip_horizontal();
        key.line = step(key.line, m);
        key.mirrored_line = step(key.mirrored_line, flipped);
        let (from, to) = (flipped.from.index(), flipped.to.index());
        let mut h = key.mirrored_end ^ zobrist::BLACK_TO_MOVE;
        if let Some(piece) = before.board().piece_at(m.from) {
            h ^= zobrist::key(piece, from) ^ zobrist::key(piece, to);
        }
        if let Some(captured) = before.board().piece_at(m.to) {
            h ^= zobrist::key(captured, to);
        }
        key.mirrored_end = h;
    }

    fn after_move(&mut self, after: &Position, _: Move) {
        if let Some(key) = &mut self.key {
            key.end = after.hash();
            key.plies = key.plies.saturating_add(1);
        }
    }

    fn end(&mut self) -> Option<GameKey> {
        self.key.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Checker;
    use crate::formats::pgn;

    fn key(text: &str) -> Option<GameKey> {
        pgn::read_with(text, &mut Checker::following(Keyer::default())).remove(0).followed
    }

    #[test]
    fn the_mirrored_end_kept_a_move_at_a_time_is_the_mirror_of_the_final_position() {
        let text = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9 6. g6g7 b7b0 *";
        let k = key(text).unwrap();
        let record = &pgn::read(text)[0];
        let replayed = record.replayed();
        let mut pos = replayed.resolution.start.clone().unwrap();
        for &m in &replayed.moves {
            pos.play(m).unwrap();
        }
        assert_eq!(k.end, pos.hash());
        assert_eq!(k.mirrored_end, mirrored_hash(&pos));
        assert_ne!(k.end, k.mirrored_end);
        assert_eq!(k.plies, 12);
    }

    #[test]
    fn the_line_hash_is_the_hash_of_start_and_moves() {
        let a = key("1. h2e2 h9g7 2. b0c2 *").unwrap();
        let mut h = line_start(Position::start().hash());
        for m in ["h2e2", "h9g7", "b0c2"] {
            h = step(h, m.parse().unwrap());
        }
        assert_eq!(a.line, h);
        // Another order of the same moves: the same final position, another line.
        let b = key("1. b0c2 h9g7 2. h2e2 *").unwrap();
        assert_eq!((a.end, a.plies), (b.end, b.plies));
        assert_ne!(a.line, b.line);
    }

    #[test]
    fn another_start_is_another_line_and_a_bad_start_has_no_key() {
        let moves = "1. h2e2 h9g7 *";
        let other = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w\"]\n";
        assert_ne!(key(moves).unwrap().line, key(&format!("{other}{moves}")).unwrap().line);
        assert_eq!(key("[FEN \"9/9/9/9/9/9/9/9/9/9 w\"]\n1. h2e2 *"), None);
    }

    #[test]
    fn an_illegal_game_is_keyed_on_what_replayed() {
        assert_eq!(key("1. h2e2 h9g7 2. h0f1 *").unwrap(), key("1. h2e2 h9g7 *").unwrap());
    }
}
