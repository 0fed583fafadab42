//! The board for the terminal, in Unicode box drawing: nine files and ten
//! ranks, the river with 楚河 汉界, the palace diagonals, pieces as their
//! Chinese characters, each side's file numbers along its edge, the side to
//! move, and the last move bracketed: `[炮]` where it went, `(┼)` where it
//! came from. Red's and Black's rook, horse and cannon share their
//! characters (车马炮): coloured, the colour tells them apart; in plain text
//! Black's are drawn 車馬砲.
//!
//! Points are four columns apart; a piece's character is two columns wide
//! (East Asian wide) and starts at its point's column, and so do the file
//! numbers (一…九, and the full-width １…９), so every row lines up in a
//! terminal. Box-drawing characters are taken to be one column wide, as
//! terminals draw them outside East Asian locales.

use std::fmt::Write as _;

use super::{RED_NUMERALS, file_number, piece_char, place, point_at, top_side};
use crate::notation::iccs::{self, Style};
use crate::{Color, Move, Piece, Position, Role};

/// How a terminal board is drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextStyle {
    /// Seen from Black's side: Red at the top.
    pub flip: bool,
    /// Coloured with ANSI escapes: red pieces red, black pieces bold, the
    /// last move highlighted. Without colour the board shows the same
    /// things in plain text.
    pub color: bool,
}

/// Black's file numerals as Chinese diagrams print them (full width).
const BLACK_NUMERALS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The columns between two neighbouring points.
const SPACING: usize = 4;
/// The blank columns left of the board (room for a bracket).
const MARGIN: usize = 1;
/// The columns of a whole row: the margin, the board, a closing bracket.
const COLUMNS: usize = MARGIN + 8 * SPACING + 3;

/// What a character of the board is, for colouring.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ink {
    /// Lines, labels and blanks.
    Plain,
    /// A piece of `Color`.
    Piece(Color),
    /// The piece the last move brought, of `Color`.
    Moved(Color),
    /// A mark of the last move (brackets, the point it left).
    Mark,
}

impl Ink {
    /// The ANSI escape that sets this ink, `None` for the terminal's own.
    fn escape(self) -> Option<&'static str> {
        match self {
            Ink::Plain => None,
            Ink::Piece(Color::Red) => Some("\x1b[1;31m"),
            Ink::Piece(Color::Black) => Some("\x1b[1m"),
            Ink::Moved(Color::Red) => Some("\x1b[1;31;43m"),
            Ink::Moved(Color::Black) => Some("\x1b[1;30;43m"),
            Ink::Mark => Some("\x1b[1;33m"),
        }
    }
}

/// One row of text as terminal columns: a wide character fills its column
/// and the next (held as `None`).
struct Row(Vec<Option<(char, Ink)>>);

impl Row {
    /// A row of blanks.
    fn new() -> Row {
        Row(vec![Some((' ', Ink::Plain)); COLUMNS])
    }

    /// Puts a one-column character at `column`.
    fn put(&mut self, column: usize, c: char, ink: Ink) {
        self.0[column] = Some((c, ink));
    }

    /// Puts a two-column (wide) character at `column` and `column + 1`.
    fn put_wide(&mut self, column: usize, c: char, ink: Ink) {
        self.0[column] = Some((c, ink));
        self.0[column + 1] = None;
    }

    /// Appends the row, its trailing blanks left off, and a line break.
    fn write(&self, out: &mut String, color: bool) {
        let end = self.0.iter().rposition(|cell| cell.is_none_or(|(c, _)| c != ' ')).map_or(0, |i| i + 1);
        let mut ink = Ink::Plain;
        for &(c, now) in self.0[..end].iter().flatten() {
            if color && now != ink {
                if ink != Ink::Plain {
                    out.push_str("\x1b[0m");
                }
                if let Some(escape) = now.escape() {
                    out.push_str(escape);
                }
                ink = now;
            }
            out.push(c);
        }
        if color && ink != Ink::Plain {
            out.push_str("\x1b[0m");
        }
        out.push('\n');
    }
}

/// The terminal column where the point of board column `column` (0…8)
/// starts.
const fn x(column: usize) -> usize {
    MARGIN + SPACING * column
}

/// The board of `position` for the terminal, with the last move (the move
/// that led to `position`) bracketed, and a last line that says who is to
/// move and what the last move was.
///
/// ```
/// use qipu::{Move, Position, Square};
/// use qipu::diagram::text::{TextStyle, text};
/// let mut pos = Position::start();
/// let cannon = Move::new(Square::H2, Square::E2);
/// pos.play(cannon)?;
/// let board = text(&pos, Some(cannon), &TextStyle::default());
/// let rows: Vec<&str> = board.lines().collect();
/// assert_eq!(rows[1], " 車──馬──象──士──将──士──象──馬──車");
/// assert_eq!(rows[15], " ├───炮──┼───┼──[炮]─┼───┼──(┼)──┤");
/// assert_eq!(rows[20], " 九  八  七  六  五  四  三  二  一");
/// assert_eq!(rows[21], "Black to move; last move H2-E2");
/// # Ok::<(), qipu::rules::IllegalMoveError>(())
/// ```
pub fn text(position: &Position, last_move: Option<Move>, style: &TextStyle) -> String {
    let flip = style.flip;
    let mut rows = Vec::with_capacity(21);
    rows.push(labels(top_side(flip), flip));
    for row in 0..10 {
        rows.push(points(position, row, last_move, flip, style.color));
        if row < 9 {
            rows.push(between(row));
        }
    }
    rows.push(labels(top_side(flip).other(), flip));
    let mut out = String::with_capacity(COLUMNS * 4 * rows.len());
    for row in &rows {
        row.write(&mut out, style.color);
    }
    let _ = write!(out, "{} to move", position.turn());
    if let Some(m) = last_move {
        let _ = write!(out, "; last move {}", iccs::write(m, Style::Iccs));
    }
    out.push('\n');
    out
}

/// The file numbers `color` reads, along an edge.
fn labels(color: Color, flip: bool) -> Row {
    let mut row = Row::new();
    for column in 0..9 {
        let number = usize::from(file_number(column, color, flip));
        let numerals = match color {
            Color::Red => RED_NUMERALS,
            Color::Black => BLACK_NUMERALS,
        };
        row.put_wide(x(column), numerals[number - 1], Ink::Plain);
    }
    row
}

/// The row of points `row` (0…9 from the top): pieces, and the lines
/// meeting at the empty points.
fn points(position: &Position, row: usize, last_move: Option<Move>, flip: bool, color: bool) -> Row {
    let mut line = Row::new();
    for column in 0..9 {
        let at = x(column);
        if column < 8 {
            line.put(at + 2, '─', Ink::Plain);
            line.put(at + 3, '─', Ink::Plain);
        }
        let square = point_at(column, row, flip);
        let moved = last_move.is_some_and(|m| m.to == square);
        match position.board().piece_at(square) {
            Some(piece) => {
                let ink = if moved { Ink::Moved(piece.color) } else { Ink::Piece(piece.color) };
                line.put_wide(at, glyph(piece, color), ink);
            }
            None => {
                line.put(at, junction(column, row), Ink::Plain);
                if column < 8 {
                    line.put(at + 1, '─', Ink::Plain);
                }
            }
        }
        if moved {
            line.put(at - 1, '[', Ink::Mark);
            line.put(at + 2, ']', Ink::Mark);
        }
        if last_move.is_some_and(|m| m.from == square) {
            debug_assert_eq!(place(square, flip), (column, row));
            // The point left is empty unless the position is not the one
            // the move led to; either way it keeps its two columns.
            line.put(at - 1, '(', Ink::Mark);
            if position.board().piece_at(square).is_none() {
                line.put(at, junction(column, row), Ink::Mark);
                line.put(at + 1, ')', Ink::Mark);
            } else {
                line.put(at + 2, ')', Ink::Mark);
            }
        }
    }
    line
}

/// The character drawn for `piece`: its Chinese character, but without
/// colour Black's rook, horse and cannon in their traditional forms 車馬砲
/// (Red's stay 车马炮), so that the sides' pieces differ in plain text too.
fn glyph(piece: Piece, color: bool) -> char {
    match (color, piece.color, piece.role) {
        (false, Color::Black, Role::Rook) => '車',
        (false, Color::Black, Role::Horse) => '馬',
        (false, Color::Black, Role::Cannon) => '砲',
        _ => piece_char(piece),
    }
}

/// The box-drawing character where the lines meet at an empty point.
fn junction(column: usize, row: usize) -> char {
    // The inner files stop at the river (between rows 4 and 5).
    let inner = column > 0 && column < 8;
    let up = row > 0 && !(row == 5 && inner);
    let down = row < 9 && !(row == 4 && inner);
    let (left, right) = (column > 0, column < 8);
    match (up, down, left, right) {
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
        (true, true, false, true) => '├',
        (true, true, true, false) => '┤',
        (false, true, true, true) => '┬',
        (true, false, true, true) => '┴',
        _ => '┼',
    }
}

/// The row between point rows `row` and `row + 1`: the files' lines, the
/// palace diagonals, or the river.
fn between(row: usize) -> Row {
    let mut line = Row::new();
    if row == 4 {
        line.put(x(0), '│', Ink::Plain);
        line.put(x(8), '│', Ink::Plain);
        // 楚河 on the left, 汉界 mirrored on the right.
        let middle = x(0) + x(8);
        for (at, c) in [(x(1) + 1, '楚'), (x(2) + 1, '河')] {
            line.put_wide(at, c, Ink::Plain);
        }
        for (at, c) in [(middle - x(2) - 2, '汉'), (middle - x(1) - 2, '界')] {
            line.put_wide(at, c, Ink::Plain);
        }
        return line;
    }
    for column in 0..9 {
        line.put(x(column), '│', Ink::Plain);
    }
    // The palace diagonals cross at its middle point (rows 1 and 8).
    let (left, right) = match row {
        0 | 7 => ('╲', '╱'),
        1 | 8 => ('╱', '╲'),
        _ => return line,
    };
    line.put(x(3) + 2, left, Ink::Plain);
    line.put(x(4) + 2, right, Ink::Plain);
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    /// The characters of a row, each with the terminal column it starts at:
    /// CJK characters take two columns, the rest (box drawing included) one.
    fn columns(row: &str) -> Vec<(usize, char)> {
        let mut at = 0;
        row.chars()
            .map(|c| {
                let start = at;
                let wide = ('\u{3000}'..='\u{9fff}').contains(&c) || ('\u{ff01}'..='\u{ff60}').contains(&c);
                at += if wide { 2 } else { 1 };
                (start, c)
            })
            .collect()
    }

    fn board(fen: &str, last: Option<Move>, flip: bool) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        text(&pos, last, &TextStyle { flip, color: false }).lines().map(String::from).collect()
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn the_start_has_every_piece_in_place() {
        let rows = board(START, None, false);
        assert_eq!(rows.len(), 22);
        assert_eq!(rows[0], " １  ２  ３  ４  ５  ６  ７  ８  ９");
        assert_eq!(rows[1], " 車──馬──象──士──将──士──象──馬──車");
        assert_eq!(rows[2], " │   │   │   │ ╲ │ ╱ │   │   │   │");
        assert_eq!(rows[3], " ├───┼───┼───┼───┼───┼───┼───┼───┤");
        assert_eq!(rows[5], " ├───砲──┼───┼───┼───┼───┼───砲──┤");
        assert_eq!(rows[7], " 卒──┼───卒──┼───卒──┼───卒──┼───卒");
        assert_eq!(rows[9], " ├───┴───┴───┴───┴───┴───┴───┴───┤");
        assert_eq!(rows[10], " │    楚  河           汉  界    │");
        assert_eq!(rows[11], " ├───┬───┬───┬───┬───┬───┬───┬───┤");
        assert_eq!(rows[13], " 兵──┼───兵──┼───兵──┼───兵──┼───兵");
        assert_eq!(rows[19], " 车──马──相──仕──帅──仕──相──马──车");
        assert_eq!(rows[20], " 九  八  七  六  五  四  三  二  一");
        assert_eq!(rows[21], "Red to move");
    }

    #[test]
    fn every_row_of_the_board_lines_up() {
        let mut pos = Position::start();
        let m = Move::new(Square::H2, Square::H9);
        pos.play(m).unwrap();
        for flip in [false, true] {
            let board = text(&pos, Some(m), &TextStyle { flip, color: false });
            let rows: Vec<&str> = board.lines().collect();
            // Every point, file number and file line at its own column.
            for (i, row) in rows[..21].iter().enumerate() {
                let found = columns(row);
                for column in 0..9 {
                    if i == 10 && column % 8 != 0 {
                        continue; // the river
                    }
                    let c = found.iter().find(|&&(at, _)| at == x(column)).map(|&(_, c)| c);
                    let expected_line = i % 2 == 0 && i > 0 && i < 20 && (i != 10 || column % 8 == 0);
                    match c {
                        Some('│') => assert!(expected_line, "{i} {column}: {row:?}"),
                        Some(c) => assert!(i % 2 == 1 || i == 0 || i == 20, "{i} {column} {c}: {row:?}"),
                        None => panic!("nothing starts at the column of point {column} in row {i}: {row:?}"),
                    }
                    if i % 2 == 1 || i == 0 || i == 20 {
                        assert!(!matches!(c, Some('─' | ' ')), "{i} {column}: {row:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn flipping_shows_the_board_from_blacks_side() {
        let rows = board(START, None, true);
        assert_eq!(rows[0], " 一  二  三  四  五  六  七  八  九");
        assert_eq!(rows[1], " 车──马──相──仕──帅──仕──相──马──车");
        assert_eq!(rows[19], " 車──馬──象──士──将──士──象──馬──車");
        assert_eq!(rows[20], " ９  ８  ７  ６  ５  ４  ３  ２  １");
        // A lone piece off the middle: Red's horse on b0 stands on Red's
        // 八 file, second from the left seen from Red, second from the right
        // seen from Black.
        let one = board("3k5/9/9/9/9/9/9/9/9/1N2K4 w", None, true);
        assert_eq!(one[1], " ┌───┬───┬───┬───帅──┬───┬───马──┐");
        let unflipped = board("3k5/9/9/9/9/9/9/9/9/1N2K4 w", None, false);
        assert_eq!(unflipped[19], " └───马──┴───┴───帅──┴───┴───┴───┘");
    }

    #[test]
    fn a_few_pieces_stand_where_the_fen_puts_them() {
        let rows = board("3k5/4P4/9/9/2b6/6R2/9/9/4A4/3AK4 b", None, false);
        assert_eq!(rows[1], " ┌───┬───┬───将──┬───┬───┬───┬───┐");
        assert_eq!(rows[3], " ├───┼───┼───┼───兵──┼───┼───┼───┤");
        assert_eq!(rows[9], " ├───┴───象──┴───┴───┴───┴───┴───┤");
        assert_eq!(rows[11], " ├───┬───┬───┬───┬───┬───车──┬───┤");
        assert_eq!(rows[17], " ├───┼───┼───┼───仕──┼───┼───┼───┤");
        assert_eq!(rows[19], " └───┴───┴───仕──帅──┴───┴───┴───┘");
        assert_eq!(rows[21], "Black to move");
    }

    #[test]
    fn the_last_move_is_bracketed_and_named() {
        let rows = board("4k4/9/9/9/9/9/9/9/4R4/3K5 b", Some(Move::new(Square::A1, Square::E1)), false);
        assert_eq!(rows[17], "(├)──┼───┼───┼──[车]─┼───┼───┼───┤");
        assert_eq!(rows[21], "Black to move; last move A1-E1");
    }

    #[test]
    fn colour_paints_pieces_and_marks_and_says_the_same() {
        let mut pos = Position::start();
        let m = Move::new(Square::B2, Square::E2);
        pos.play(m).unwrap();
        let coloured = text(&pos, Some(m), &TextStyle { flip: false, color: true });
        assert!(coloured.contains("\x1b[1;31m兵\x1b[0m"), "{coloured}");
        assert!(coloured.contains("\x1b[1m卒\x1b[0m"));
        assert!(coloured.contains("\x1b[1;33m[\x1b[0m\x1b[1;31;43m炮\x1b[0m\x1b[1;33m]"));
        // Without the escapes, the coloured board is the plain one, but for
        // the characters that tell Black's pieces in plain text.
        let plain = text(&pos, Some(m), &TextStyle { flip: false, color: false });
        assert!(plain.contains('砲') && !coloured.contains('砲'));
        let shared: String = plain.replace('車', "车").replace('馬', "马").replace('砲', "炮");
        let mut stripped = String::new();
        let mut rest = coloured.as_str();
        while let Some(at) = rest.find('\x1b') {
            stripped.push_str(&rest[..at]);
            rest = &rest[at + rest[at..].find('m').unwrap() + 1..];
        }
        stripped.push_str(rest);
        assert_eq!(stripped, shared);
        assert!(!plain.contains('\x1b'));
    }
}
