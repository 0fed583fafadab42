//! Files, ranks and the 90 points of the board.
//!
//! Coordinates are absolute, as in ICCS: files `a`…`i` from Red's left to
//! Red's right, ranks `0`…`9` from Red's back rank to Black's back rank.
//! Red sits at the bottom.

use std::fmt;
use std::str::FromStr;

use super::Color;

/// A file (column) of the board, `a`…`i` from Red's left.
///
/// ```
/// use qipu::File;
/// assert_eq!(File::E.char(), 'e');
/// assert_eq!(File::from_char('h'), Some(File::H));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

impl File {
    /// File `a`, Red's leftmost file (Red's 九, Black's 1).
    pub const A: File = File(0);
    /// File `b`.
    pub const B: File = File(1);
    /// File `c`.
    pub const C: File = File(2);
    /// File `d`.
    pub const D: File = File(3);
    /// File `e`, the central file of both palaces.
    pub const E: File = File(4);
    /// File `f`.
    pub const F: File = File(5);
    /// File `g`.
    pub const G: File = File(6);
    /// File `h`.
    pub const H: File = File(7);
    /// File `i`, Red's rightmost file (Red's 一, Black's 9).
    pub const I: File = File(8);

    /// All files from `a` to `i`.
    pub const ALL: [File; 9] =
        [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H, File::I];

    /// The file with index `index` (0 = `a` … 8 = `i`), if there is one.
    pub const fn new(index: u32) -> Option<File> {
        if index < 9 { Some(File(index as u8)) } else { None }
    }

    /// The index of the file: 0 for `a` … 8 for `i`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file named by an ICCS letter, either case.
    #[inline]
    pub fn from_char(c: char) -> Option<File> {
        // Setting bit 5 maps 'A'..='I' onto 'a'..='i' and nothing else there.
        let index = (c as u32 | 0x20).wrapping_sub('a' as u32);
        if index < 9 { Some(File(index as u8)) } else { None }
    }

    /// The lower-case ICCS letter of the file.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file number as `color` counts it in Chinese and WXF notation:
    /// each side numbers the files 1…9 from its own right to its own left.
    pub(crate) const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.0,
            Color::Black => self.0 + 1,
        }
    }

    /// The file that `color` calls number `number` (1…9), if valid.
    pub const fn from_number(color: Color, number: u8) -> Option<File> {
        if number < 1 || number > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File(9 - number),
            Color::Black => File(number - 1),
        })
    }

    /// The file mirrored left to right (`a` ↔ `i`).
    pub const fn flip(self) -> File {
        File(8 - self.0)
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (row) of the board, 0 (Red's back rank) … 9 (Black's back rank).
///
/// ```
/// use qipu::{Color, Rank};
/// let r = Rank::new(4).unwrap();
/// assert!(!r.is_across_river(Color::Red));
/// assert!(r.is_across_river(Color::Black));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// Red's back rank.
    pub const FIRST: Rank = Rank(0);
    /// Black's back rank.
    pub const LAST: Rank = Rank(9);

    /// The rank with index `index` (0…9), if there is one.
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 10 { Some(Rank(index as u8)) } else { None }
    }

    /// The index of the rank, 0…9.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank named by an ICCS digit.
    #[inline]
    pub fn from_char(c: char) -> Option<Rank> {
        let index = (c as u32).wrapping_sub('0' as u32);
        if index < 10 { Some(Rank(index as u8)) } else { None }
    }

    /// The ICCS digit of the rank.
    pub const fn char(self) -> char {
        (b'0' + self.0) as char
    }

    /// The rank mirrored top to bottom (0 ↔ 9).
    pub const fn flip(self) -> Rank {
        Rank(9 - self.0)
    }

    /// Whether this rank lies on the far side of the river as seen by `color`.
    pub const fn is_across_river(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 >= 5,
            Color::Black => self.0 <= 4,
        }
    }

    /// The rank as `color` counts it from its own back rank (0…9).
    pub(crate) const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self.0,
            Color::Black => 9 - self.0,
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the 90 points of the board, numbered `rank * 9 + file`
/// (`a0` = 0, `i0` = 8, `a1` = 9, …, `i9` = 89).
///
/// ```
/// use qipu::{File, Rank, Square};
/// let sq: Square = "h2".parse().unwrap();
/// assert_eq!(sq, Square::H2);
/// assert_eq!(sq.file(), File::H);
/// assert_eq!(sq.rank(), Rank::new(2).unwrap());
/// assert_eq!(sq.to_string(), "h2");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The point `", stringify!($name), "` (ICCS name in lower case).")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

square_consts! {
    A0 = 0, B0 = 1, C0 = 2, D0 = 3, E0 = 4, F0 = 5, G0 = 6, H0 = 7, I0 = 8,
    A1 = 9, B1 = 10, C1 = 11, D1 = 12, E1 = 13, F1 = 14, G1 = 15, H1 = 16, I1 = 17,
    A2 = 18, B2 = 19, C2 = 20, D2 = 21, E2 = 22, F2 = 23, G2 = 24, H2 = 25, I2 = 26,
    A3 = 27, B3 = 28, C3 = 29, D3 = 30, E3 = 31, F3 = 32, G3 = 33, H3 = 34, I3 = 35,
    A4 = 36, B4 = 37, C4 = 38, D4 = 39, E4 = 40, F4 = 41, G4 = 42, H4 = 43, I4 = 44,
    A5 = 45, B5 = 46, C5 = 47, D5 = 48, E5 = 49, F5 = 50, G5 = 51, H5 = 52, I5 = 53,
    A6 = 54, B6 = 55, C6 = 56, D6 = 57, E6 = 58, F6 = 59, G6 = 60, H6 = 61, I6 = 62,
    A7 = 63, B7 = 64, C7 = 65, D7 = 66, E7 = 67, F7 = 68, G7 = 69, H7 = 70, I7 = 71,
    A8 = 72, B8 = 73, C8 = 74, D8 = 75, E8 = 76, F8 = 77, G8 = 78, H8 = 79, I8 = 80,
    A9 = 81, B9 = 82, C9 = 83, D9 = 84, E9 = 85, F9 = 86, G9 = 87, H9 = 88, I9 = 89,
}

impl Square {
    /// Number of points on the board.
    pub(crate) const COUNT: usize = 90;

    /// The point at `file` and `rank`.
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// The point with index `index` (0…89), if there is one.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 90 { Some(Square(index as u8)) } else { None }
    }

    /// The point with index `index`, which the caller guarantees is below 90.
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < 90);
        Square(index as u8)
    }

    /// All 90 points, `a0` first, `i9` last.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..90u8).map(Square)
    }

    /// The index of the point, 0…89.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of the point.
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// The rank of the point.
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// The point mirrored top to bottom (`e0` ↔ `e9`).
    pub const fn flip_vertical(self) -> Square {
        Square::new(self.file(), self.rank().flip())
    }

    /// The point mirrored left to right (`a0` ↔ `i0`).
    pub const fn flip_horizontal(self) -> Square {
        Square::new(self.file().flip(), self.rank())
    }

    /// The point `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = self.file().0 as i32 + df;
        let r = self.rank().0 as i32 + dr;
        if f < 0 || f > 8 || r < 0 || r > 9 { None } else { Some(Square((r * 9 + f) as u8)) }
    }

    /// Whether the point lies inside the palace of `color`.
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file().0;
        let r = self.rank().relative_to(color);
        f >= 3 && f <= 5 && r <= 2
    }

    /// Whether the point lies on `color`'s own side of the river.
    #[cfg(test)]
    pub(crate) const fn on_own_side(self, color: Color) -> bool {
        !self.rank().is_across_river(color)
    }

    /// Parses an ICCS point name such as `h2` or `H2` from bytes.
    ///
    /// # Errors
    ///
    /// A [`ParseSquareError`] for anything but a file letter `a`-`i` (in
    /// either case) followed by a rank digit `0`-`9`.
    pub(crate) fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        match s {
            [f, r] => match (File::from_char(*f as char), Rank::from_char(*r as char)) {
                (Some(file), Some(rank)) => Ok(Square::new(file, rank)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// The text is not an ICCS point name (`a0`…`i9`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a point name: expected a file a-i and a rank 0-9, such as h2")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_for_as_its_docs_showed() {
        use crate::{Color, File};
        assert_eq!(File::H.number_for(Color::Red), 2); // 炮二平五 starts on h
        assert_eq!(File::H.number_for(Color::Black), 8); // 马８进７ starts on h
    }

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::E9.to_string(), "e9");
        assert_eq!(Square::I0.index(), 8);
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn letters_and_digits() {
        for c in (0..0x11_0000).filter_map(char::from_u32) {
            let file = match c {
                'a'..='i' => Some(File(c as u8 - b'a')),
                'A'..='I' => Some(File(c as u8 - b'A')),
                _ => None,
            };
            assert_eq!(File::from_char(c), file, "{c:?}");
            let rank = c.to_digit(10).map(|d| Rank(d as u8));
            assert_eq!(Rank::from_char(c), rank.filter(|_| c.is_ascii_digit()), "{c:?}");
        }
    }

    #[test]
    fn file_numbers() {
        for file in File::ALL {
            for color in [Color::Red, Color::Black] {
                assert_eq!(File::from_number(color, file.number_for(color)), Some(file));
            }
        }
        assert_eq!(File::A.number_for(Color::Red), 9);
        assert_eq!(File::A.number_for(Color::Black), 1);
        assert_eq!(File::from_number(Color::Red, 0), None);
        assert_eq!(File::from_number(Color::Red, 10), None);
    }

    #[test]
    fn palaces_and_river() {
        let red: Vec<_> = Square::all().filter(|s| s.in_palace(Color::Red)).collect();
        assert_eq!(red.len(), 9);
        assert!(Square::D0.in_palace(Color::Red) && Square::F2.in_palace(Color::Red));
        assert!(Square::E9.in_palace(Color::Black) && Square::D7.in_palace(Color::Black));
        assert!(!Square::E3.in_palace(Color::Red) && !Square::C0.in_palace(Color::Red));
        assert!(Square::A4.on_own_side(Color::Red) && !Square::A5.on_own_side(Color::Red));
        assert!(Square::A5.on_own_side(Color::Black));
    }

    #[test]
    fn offsets_stay_on_board() {
        assert_eq!(Square::A0.offset(-1, 0), None);
        assert_eq!(Square::I9.offset(0, 1), None);
        assert_eq!(Square::E4.offset(1, 2), Some(Square::F6));
    }
}
