//! Sides, kinds of piece, and pieces.

use std::fmt;
use std::ops::Not;

/// A side: Red moves first and sits at the bottom of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// Red (红), also called White in some programs and in FEN (`w`).
    Red = 0,
    /// Black (黑).
    Black = 1,
}

impl Color {
    /// Both sides, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` for Red, `b` for Black.
    pub(crate) const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// The English name, `"Red"` or `"Black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// King (帅 for Red, 将 for Black), FEN `K`.
    King = 0,
    /// Advisor (仕/士), FEN `A`.
    Advisor = 1,
    /// Elephant (相/象), FEN `B` (also read as `E`).
    Elephant = 2,
    /// Horse (马), FEN `N` (also read as `H`).
    Horse = 3,
    /// Rook or chariot (车), FEN `R`.
    Rook = 4,
    /// Cannon (炮), FEN `C`.
    Cannon = 5,
    /// Pawn (兵/卒), FEN `P`.
    Pawn = 6,
}

impl Role {
    /// All seven kinds, king first.
    pub const ALL: [Role; 7] =
        [Role::King, Role::Advisor, Role::Elephant, Role::Horse, Role::Rook, Role::Cannon, Role::Pawn];

    /// 0…6 in the order of [`Role::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case FEN letter: `k a b n r c p`.
    pub const fn char(self) -> char {
        match self {
            Role::King => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Rook => 'r',
            Role::Cannon => 'c',
            Role::Pawn => 'p',
        }
    }

    /// The kind named by a FEN letter, either case; `E` and `H` are read as
    /// elephant and horse.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'k' => Role::King,
            'a' => Role::Advisor,
            'b' | 'e' => Role::Elephant,
            'n' | 'h' => Role::Horse,
            'r' => Role::Rook,
            'c' => Role::Cannon,
            'p' => Role::Pawn,
            _ => return None,
        })
    }

    /// How many pieces of this kind each side has at the start.
    pub(crate) const fn max_count(self) -> usize {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }

    /// The English name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a side and a kind.
///
/// ```
/// use qipu::{Color, Piece, Role};
/// let p = Piece::from_char('C').unwrap();
/// assert_eq!(p, Piece::new(Color::Red, Role::Cannon));
/// assert_eq!(Piece::from_char('h').unwrap().char(), 'n');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// The side the piece belongs to.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::Red => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece named by a FEN letter (`E`/`H` accepted for elephant and horse).
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// A dense index 0…13: Red's seven kinds, then Black's.
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.role.index()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color.name(), self.role.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters() {
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece::new(color, role);
                assert_eq!(Piece::from_char(p.char()), Some(p));
            }
        }
        assert_eq!(Piece::from_char('E'), Some(Piece::new(Color::Red, Role::Elephant)));
        assert_eq!(Piece::from_char('h'), Some(Piece::new(Color::Black, Role::Horse)));
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Piece::from_char('1'), None);
    }
}
