//! Board diagrams of a position: for the terminal ([`text`], Unicode box
//! drawing) and for pages and print ([`svg`], a standalone SVG drawing).
//!
//! Both draw the board as Xiangqi players read it: Black at the top and Red
//! at the bottom (or the other way round, flipped), pieces as their Chinese
//! characters, the river with 楚河 汉界, and each side's file numbers along
//! its own edge (Red's 一…九 from Red's right to left, Black's 1…9 from
//! Black's right to left). The last move, when given, is marked at the point
//! it left and the point it reached.
//!
//! ```
//! use qipu::Position;
//! use qipu::diagram::{svg, text};
//! let pos = Position::start();
//! let board = text::text(&pos, None, &text::TextStyle::default());
//! assert!(board.lines().any(|row| row == " 車──馬──象──士──将──士──象──馬──車"));
//! let drawing = svg::svg(&pos, None, &svg::SvgStyle::default());
//! assert_eq!(drawing.matches("<use ").count(), 32);
//! ```

pub mod svg;
pub mod text;

use crate::notation::chinese::{self, Style};
use crate::{Color, File, Piece, Rank, Square};

/// The character a diagram draws for `piece`: 帅仕相马车炮兵 for Red,
/// 将士象马车炮卒 for Black.
fn piece_char(piece: Piece) -> char {
    chinese::piece_char(piece, Style::Simplified)
}

/// Red's file numerals as Chinese diagrams print them, 一 (Red's right) to
/// 九.
const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Where a point is drawn: its column from the left (0…8) and its row from
/// the top (0…9), as the board is seen from Red's side or, flipped, from
/// Black's.
fn place(square: Square, flip: bool) -> (usize, usize) {
    let (f, r) = (square.file().index(), square.rank().index());
    if flip { (8 - f, r) } else { (f, 9 - r) }
}

/// The point drawn at `column` (0…8 from the left) and `row` (0…9 from the
/// top): the inverse of [`place`].
fn point_at(column: usize, row: usize, flip: bool) -> Square {
    let (f, r) = if flip { (8 - column, row) } else { (column, 9 - row) };
    Square::new(File::ALL[f], Rank::new(r as u32).expect("a row of the board"))
}

/// The side whose home edge is drawn at the top.
fn top_side(flip: bool) -> Color {
    if flip { Color::Red } else { Color::Black }
}

/// The number (1…9) `color` gives the file drawn at `column`.
fn file_number(column: usize, color: Color, flip: bool) -> u8 {
    point_at(column, 0, flip).file().number_for(color)
}

/// Whether a point is one of the cannons' and soldiers' starting points,
/// marked on the board with small corner marks.
fn is_marked_point(square: Square) -> bool {
    let (f, r) = (square.file().index(), square.rank().index());
    match r {
        2 | 7 => f == 1 || f == 7,
        3 | 6 => f % 2 == 0,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_and_point_at_are_inverse_and_flip_turns_the_board() {
        for flip in [false, true] {
            for sq in Square::all() {
                let (c, r) = place(sq, flip);
                assert_eq!(point_at(c, r, flip), sq);
            }
        }
        // Red's king at the bottom middle, or at the top when flipped.
        assert_eq!(place(Square::E0, false), (4, 9));
        assert_eq!(place(Square::E0, true), (4, 0));
        // Red's left rook: bottom left, or top right flipped.
        assert_eq!(place(Square::A0, false), (0, 9));
        assert_eq!(place(Square::A0, true), (8, 0));
    }

    #[test]
    fn each_side_numbers_the_files_from_its_own_right() {
        // Seen from Red: Black's 1 at the top left, Red's 一 at the bottom right.
        assert_eq!(file_number(0, Color::Black, false), 1);
        assert_eq!(file_number(8, Color::Red, false), 1);
        // Seen from Black: Red's 一 at the top left, Black's 1 at the bottom right.
        assert_eq!(file_number(0, Color::Red, true), 1);
        assert_eq!(file_number(8, Color::Black, true), 1);
    }

    #[test]
    fn the_marked_points_are_the_cannon_and_soldier_starts() {
        let marked: Vec<String> =
            Square::all().filter(|&s| is_marked_point(s)).map(|s| s.to_string()).collect();
        assert_eq!(marked.len(), 14);
        for s in ["b2", "h2", "b7", "h7", "a3", "e3", "i6", "c6"] {
            assert!(marked.contains(&s.to_string()), "{s} in {marked:?}");
        }
    }
}
