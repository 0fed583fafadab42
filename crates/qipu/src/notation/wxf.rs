//! WXF (AXF) letter notation: `C2.5`, `H8+7`, tandem pieces `R+.3`,
//! `C--1`, tandem pawns `P+.4`, `++.4`, `3+.4`, `33.4`.
//!
//! Read, besides the official form: either case, `E`/`B` for elephants and
//! `H`/`N` for horses, `=` for `.`, full-width characters (`Ｃ２＝５`), the
//! qualifier before the letter (`+C-1`), ElephantEye's `C+.5`/`C.+2` and
//! pool letters `Pa.4`…`Pe.4`, Fairy-Stockfish's pawn numbers (`15=6`: the
//! first pawn on file 5), the 东萍 form `+9.8`, and the `fC5-2` form with a
//! front/middle/back letter. Remark marks after the move (`!`, `?`, `+`) are
//! returned apart.
//!
//! Write: the official form, letters K A E H R C P and `.` for sideways.
//!
//! ```
//! use qipu::Position;
//! use qipu::notation::wxf;
//! let pos = Position::start();
//! for text in ["C2.5", "c2=5", "Ｃ２＝５", "C2.5!"] {
//!     let m = wxf::parse(text).unwrap().resolve(&pos).unwrap();
//!     assert_eq!(wxf::write(&pos, m).unwrap(), "C2.5");
//! }
//! ```

use super::{
    Descriptive, Direction, Distinction, Expected, Order, Origin, ParseMoveError, ParseMoveErrorKind,
    WriteMoveError, distinction, is_remark_char, motion, narrow,
};
use crate::{Move, Position, Role};

const NOTATION: &str = "WXF";

/// The kind of piece a WXF (or SAN) letter names, either case; `E`/`B`
/// and `H`/`N` both read.
pub(crate) fn role(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'K' => Role::King,
        'A' => Role::Advisor,
        'E' | 'B' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Rook,
        'C' => Role::Cannon,
        'P' => Role::Pawn,
        _ => return None,
    })
}

fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn direction(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Backward),
        '.' | '=' => Some(Direction::Sideways),
        _ => None,
    }
}

/// Reads a WXF move into a description, without a position.
///
/// # Errors
///
/// A [`ParseMoveError`] for text that is not a WXF move.
///
/// ```
/// use qipu::notation::{wxf, Order, Origin};
/// let d = wxf::parse("R+.3").unwrap();
/// assert_eq!(d.origin, Origin::Ordered { order: Order::Plus, file: None });
/// assert!(wxf::parse("X2.5").is_err());
/// ```
pub fn parse(text: &str) -> Result<Descriptive, ParseMoveError> {
    parse_with_remark(text).map(|(d, _)| d)
}

/// Like [`parse`], also returning the remark marks after the move.
///
/// # Errors
///
/// As [`parse`].
pub(crate) fn parse_with_remark(text: &str) -> Result<(Descriptive, &str), ParseMoveError> {
    let text = text.trim();
    let mut c = ['\0'; 5];
    let mut ends = [0usize; 5];
    let mut n = 0;
    for (i, ch) in text.char_indices() {
        if n == c.len() {
            break;
        }
        c[n] = narrow(ch);
        ends[n] = i + ch.len_utf8();
        n += 1;
    }
    let bad = |kind| ParseMoveError::new(NOTATION, text, kind);
    if n < 4 {
        return Err(bad(ParseMoveErrorKind::TooShort { example: "C2.5" }));
    }
    // `fC5-2`: front/middle/back, letter, file, operator, number.
    let (origin_role, core_end) = if n == 5
        && matches!(c[0], 'f' | 'm' | 'b')
        && let (Some(r), Some(file)) = (role(c[1]), digit(c[2]))
    {
        let order = match c[0] {
            'f' => Order::Front,
            'm' => Order::Middle,
            _ => Order::Rear,
        };
        ((Some(r), Origin::Ordered { order, file: Some(file) }), 2)
    } else {
        (origin(c[0], c[1]).ok_or_else(|| bad(ParseMoveErrorKind::UnknownPiece))?, 1)
    };
    let (dir, number) = (c[core_end + 1], c[core_end + 2]);
    let direction = direction(dir).ok_or_else(|| bad(ParseMoveErrorKind::Expected(Expected::Operator)))?;
    let number = digit(number).ok_or_else(|| bad(ParseMoveErrorKind::Expected(Expected::Digit)))?;
    let rest = &text[ends[core_end + 2]..];
    if !rest.chars().all(is_remark_char) {
        return Err(bad(ParseMoveErrorKind::Trailing));
    }
    let (role, origin) = origin_role;
    Ok((Descriptive { role, origin, direction: Some(direction), number }, rest))
}

/// The piece and origin named by the first two characters.
fn origin(a: char, b: char) -> Option<(Option<Role>, Origin)> {
    let ordered = |order, file| Origin::Ordered { order, file };
    Some(match (a, b) {
        (a, b) if role(a).is_some() => {
            let r = role(a);
            match b {
                '+' => (r, ordered(Order::Plus, None)),
                '-' => (r, ordered(Order::Minus, None)),
                '.' => (r, ordered(Order::Middle, None)),
                'a'..='e' => (r, ordered(Order::Nth(b as u8 - b'a' + 1), None)),
                _ => (r, Origin::File(digit(b)?)),
            }
        }
        ('+', '+') => (None, ordered(Order::Foremost, None)),
        ('-', '-') => (None, ordered(Order::Rearmost, None)),
        ('+' | '-', b) => {
            let order = if a == '+' { Order::Plus } else { Order::Minus };
            match role(b) {
                Some(r) => (Some(r), ordered(order, None)),
                None => (None, ordered(order, Some(digit(b)?))),
            }
        }
        (a, b) => {
            let file = digit(a)?;
            match b {
                '+' => (None, ordered(Order::Plus, Some(file))),
                '-' => (None, ordered(Order::Minus, Some(file))),
                _ => (None, Origin::Digits { first: file, second: digit(b)? }),
            }
        }
    })
}

const LETTERS: [char; 7] = ['K', 'A', 'E', 'H', 'R', 'C', 'P'];

/// Writes the legal move `m` of `pos` in official WXF notation.
///
/// # Errors
///
/// [`WriteMoveError::NoPiece`] when no piece stands on the move's origin.
pub fn write(pos: &Position, m: Move) -> Result<String, WriteMoveError> {
    let mut out = String::with_capacity(5);
    write_to(pos, m, &mut out)?;
    Ok(out)
}

/// Appends the official WXF text of the legal move `m` of `pos`.
///
/// # Errors
///
/// [`WriteMoveError::NoPiece`] when no piece stands on the move's origin;
/// nothing is appended then.
pub fn write_to(pos: &Position, m: Move, out: &mut String) -> Result<(), WriteMoveError> {
    let color = pos.turn();
    let (role, direction, number) = motion(pos, m)?;
    let letter = LETTERS[role.index()];
    let file = m.from.file().number_for(color);
    let digit = |n: u8| char::from(b'0' + n);
    match distinction(pos, m.from) {
        Distinction::File => {
            out.push(letter);
            out.push(digit(file));
        }
        Distinction::OnFile { index, count } => {
            let (a, b) = match (count, index) {
                (2 | 3, 0) => (letter, '+'),
                (3, 1) => (letter, digit(file)),
                (2 | 3, _) => (letter, '-'),
                (_, 0) => ('+', '+'),
                (_, 1) => (letter, '+'),
                (5, 2) => (letter, digit(file)),
                (_, i) if i + 1 == count => ('-', '-'),
                _ => (letter, '-'),
            };
            out.push(a);
            out.push(b);
        }
        Distinction::Pool { index, file_index, file_count, .. } => {
            // The file digit replaces the letter (`3+.4`, `33.4`). `11`/`33`
            // would also read as Fairy-Stockfish's 1st/3rd pawn of the file,
            // so there the xqbase pool letter (`Pb.4`) is written instead.
            let mark = match (file_count, file_index) {
                (_, 0) => Some('+'),
                (3, 1) if file != 1 && file != 3 => Some(digit(file)),
                (3, 1) => None,
                _ => Some('-'),
            };
            match mark {
                Some(mark) => {
                    out.push(digit(file));
                    out.push(mark);
                }
                None => {
                    out.push(letter);
                    out.push(char::from(b'a' + index as u8));
                }
            }
        }
    }
    out.push(match direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    });
    out.push(digit(number));
    Ok(())
}
