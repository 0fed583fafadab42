//! The move key: a move reduced to what the ECCO definitions write of it.
//!
//! Moves are compared by [`MoveKey`]: piece, file, direction and number, as the
//! Chinese text writes them (`炮二平五`, `马８进７`), its characters read as
//! the Chinese notation reads them ([`crate::notation::chinese`]). A piece
//! that shares its file with another of its kind is written by its place
//! (前车, WXF `R+`): its move matches none of a definition's.

use crate::notation::chinese::{BLACK_NUMERALS, RED_NUMERALS, direction_of, piece_of};
use crate::notation::{Direction, Distinction, distinction, motion};
use crate::{Color, Move, Position, Role};

/// A move as the definitions write it, reduced to what tells it apart in
/// an opening: the piece kind, the file it leaves (numbered for its side),
/// the direction, and the number after it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveKey {
    role: Role,
    file: u8,
    direction: Direction,
    to: u8,
}

impl MoveKey {
    /// The key of the legal move `m` of `pos`. A piece that shares its file
    /// with another of its kind is written by its place on the file (前车,
    /// `R+`), not by the file: its key has file 0, and matches no move of a
    /// definition.
    pub fn of(pos: &Position, m: Move) -> Option<MoveKey> {
        let color = pos.board().piece_at(m.from)?.color;
        let file = match distinction(pos, m.from) {
            Distinction::File => m.from.file().number_for(color),
            _ => 0,
        };
        let (role, direction, to) = motion(pos, m).ok()?;
        Some(MoveKey { role, file, direction, to })
    }

    /// How many values [`MoveKey::index`] takes.
    pub(super) const INDICES: usize = 7 * 10 * 3 * 10;

    /// A number below [`MoveKey::INDICES`] for each key, different for
    /// different keys: the piece kind, the file (0 to 9), the direction and
    /// the number after it (1 to 9).
    pub(super) fn index(self) -> usize {
        let direction = match self.direction {
            Direction::Forward => 0,
            Direction::Backward => 1,
            Direction::Sideways => 2,
        };
        ((self.role as usize * 10 + usize::from(self.file)) * 3 + direction) * 10 + usize::from(self.to)
    }

    /// The key of the left–right mirror of the move, in the mirrored
    /// position: files counted from the other wing; a piece told by its
    /// place (file 0) stays so, and a distance stays a distance.
    pub(super) fn mirrored(self) -> MoveKey {
        let flip = |n: u8| if n == 0 { 0 } else { 10 - n };
        let line = matches!(self.role, Role::King | Role::Rook | Role::Cannon | Role::Pawn);
        let to = if self.direction == Direction::Sideways || !line { flip(self.to) } else { self.to };
        MoveKey { file: flip(self.file), to, ..self }
    }

    /// Reads four characters such as `马８进７` or `炮二平五`, pieces and
    /// directions as the Chinese notation reads them; the side is told by
    /// the digits (Chinese numerals for Red, Arabic for Black).
    const fn parse([piece, file, direction, to]: [char; 4]) -> Option<(MoveKey, Color)> {
        match (piece_of(piece), direction_of(direction), digit(file), digit(to)) {
            (Some(role), Some(direction), Some((file, color)), Some((to, _))) => {
                Some((MoveKey { role, file, direction, to }, color))
            }
            _ => None,
        }
    }
}

/// The key of a move written as four characters (`炮二平五`, `马８进７`),
/// for texts fixed in the code: computed in a constant, a text that is not
/// such a move fails the build.
pub(crate) const fn key(text: &str) -> MoveKey {
    let b = text.as_bytes();
    let mut chars = ['\0'; 4];
    let (mut i, mut n) = (0, 0);
    while i < b.len() && n < 4 {
        // `text` is UTF-8: decode one character of 1 to 3 bytes.
        let (c, len) = match b[i] {
            0x00..=0x7F => (b[i] as u32, 1),
            0xC0..=0xDF => (((b[i] & 0x1F) as u32) << 6 | (b[i + 1] & 0x3F) as u32, 2),
            _ => {
                (((b[i] & 0x0F) as u32) << 12 | ((b[i + 1] & 0x3F) as u32) << 6 | (b[i + 2] & 0x3F) as u32, 3)
            }
        };
        chars[n] = match char::from_u32(c) {
            Some(c) => c,
            None => panic!("not a move"),
        };
        i += len;
        n += 1;
    }
    match MoveKey::parse(chars) {
        Some((key, _)) if i == b.len() && n == 4 => key,
        _ => panic!("not a move"),
    }
}

/// A digit and the side that writes it so: the writer's numerals of
/// either side, and ASCII digits for Black.
const fn digit(c: char) -> Option<(u8, Color)> {
    let mut i = 0;
    while i < 9 {
        let number = i as u8 + 1;
        if c == RED_NUMERALS[i] {
            return Some((number, Color::Red));
        }
        if c == BLACK_NUMERALS[i] || c as u32 == '1' as u32 + i as u32 {
            return Some((number, Color::Black));
        }
        i += 1;
    }
    None
}

/// Every move written in `text`, with its side.
pub(super) fn moves_in(text: &str) -> Vec<(MoveKey, Color)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 4 <= chars.len() {
        match MoveKey::parse([chars[i], chars[i + 1], chars[i + 2], chars[i + 3]]) {
            Some(found) => {
                out.push(found);
                i += 4;
            }
            None => i += 1,
        }
    }
    out
}

/// Every move written in `text`, without its side.
pub(super) fn keys_in(text: &str) -> Vec<MoveKey> {
    moves_in(text).into_iter().map(|(key, _)| key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_with_their_side() {
        let found = moves_in("1. 炮二平五，马８进７ (此前可走车９平８、卒７进１和卒３进１)");
        assert_eq!(found.len(), 5);
        assert_eq!(found[0].1, Color::Red);
        assert!(found[1..].iter().all(|(_, c)| *c == Color::Black));
    }
}
