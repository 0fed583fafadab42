//! ICCS coordinate notation: `H2-E2`, and its lower-case hyphen-less form
//! `h2e2` (UCCI, UCI-style).
//!
//! ```
//! use qipu::Position;
//! use qipu::notation::iccs::{self, Style};
//! let pos = Position::start();
//! let m = iccs::parse("h2-e2").unwrap().resolve(&pos).unwrap();
//! assert_eq!(iccs::write(m, Style::Iccs), "H2-E2");
//! assert_eq!(iccs::write(m, Style::Uci), "h2e2");
//! ```

use super::{
    Expected, IllegalReason, ParseMoveError, ParseMoveErrorKind, ResolveError, is_remark_char, narrow,
};
use crate::{File, Illegality, Move, Position, Rank, Square};

const NOTATION: &str = "ICCS";

/// How the writer spells a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// `H2-E2`: upper case with a hyphen, the ICCS standard (the default).
    #[default]
    Iccs,
    /// `h2e2`: lower case, no hyphen, as UCCI engines write.
    Uci,
}

/// A coordinate move, read but not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IccsMove(pub Move);

/// Reads `H2-E2`, `h2-e2`, `h2e2` or `H2E2`, also `H6xH9` and `H6:H9` for
/// captures, full-width characters and trailing remark marks (`+`, `!`).
///
/// # Errors
///
/// A [`ParseMoveError`] for text that is not two points.
///
/// ```
/// use qipu::notation::iccs;
/// assert!(iccs::parse("H2-E2").is_ok());
/// assert!(iccs::parse("h2e2").is_ok());
/// assert!(iccs::parse("j2e2").is_err());
/// ```
pub fn parse(text: &str) -> Result<IccsMove, ParseMoveError> {
    if let Some(m) = parse_plain(text.as_bytes()) {
        return Ok(m);
    }
    let text = text.trim();
    let bad = || ParseMoveError::new(NOTATION, text, ParseMoveErrorKind::Expected(Expected::TwoPoints));
    let mut buf = ['\0'; 5];
    let mut n = 0;
    for c in text.trim_end_matches(is_remark_char).chars().map(narrow) {
        if n == buf.len() {
            return Err(bad());
        }
        buf[n] = c;
        n += 1;
    }
    let chars: &[char] = match &buf[..n] {
        [a, b, '-' | 'x' | 'X' | ':', c, d] => &[*a, *b, *c, *d],
        [a, b, c, d] => &[*a, *b, *c, *d],
        _ => return Err(bad()),
    };
    let square = |f: char, r: char| Some(Square::new(File::from_char(f)?, Rank::from_char(r)?));
    match (square(chars[0], chars[1]), square(chars[2], chars[3])) {
        (Some(from), Some(to)) => Ok(IccsMove(Move::new(from, to))),
        _ => Err(bad()),
    }
}

/// Reads the common plain forms, `h2e2` and `H2-E2` (either case), byte by
/// byte; `None` for anything else, which [`parse`] may still read.
#[inline]
pub(crate) fn parse_plain(text: &[u8]) -> Option<IccsMove> {
    let square = |f: u8, r: u8| Some(Square::new(File::from_char(f as char)?, Rank::from_char(r as char)?));
    match *text {
        [a, b, c, d] | [a, b, b'-', c, d] => Some(IccsMove(Move::new(square(a, b)?, square(c, d)?))),
        _ => None,
    }
}

impl IccsMove {
    /// The move, if it is legal in `pos`.
    ///
    /// # Errors
    ///
    /// A [`ResolveError`] when the move is not legal in `pos`.
    #[inline]
    pub fn resolve(&self, pos: &Position) -> Result<Move, ResolveError> {
        let m = self.0;
        if pos.is_legal(m) {
            return Ok(m);
        }
        self.why_not(pos)
    }

    /// The rest of [`IccsMove::resolve`], for a move `is_legal` refused.
    #[cold]
    #[inline(never)]
    fn why_not(&self, pos: &Position) -> Result<Move, ResolveError> {
        let m = self.0;
        match pos.illegality(m) {
            None => Ok(m),
            Some(Illegality::NoPiece(_) | Illegality::NotYourTurn(_)) => {
                Err(ResolveError::EmptyOrigin { color: pos.turn(), square: m.from })
            }
            // The move is written as its points: no need to name them again.
            Some(rule) => Err(ResolveError::Illegal { reason: IllegalReason::Rule(rule) }),
        }
    }
}

/// Writes a move in ICCS (`H2-E2`) or UCI style (`h2e2`).
pub fn write(m: Move, style: Style) -> String {
    let mut out = String::with_capacity(5);
    write_to(m, style, &mut out);
    out
}

/// Appends a move in ICCS (`H2-E2`) or UCI style (`h2e2`) to `out`.
pub fn write_to(m: Move, style: Style, out: &mut String) {
    let point = |s: Square| {
        let file = s.file().char();
        [if style == Style::Iccs { file.to_ascii_uppercase() } else { file }, s.rank().char()]
    };
    let ([a, b], [c, d]) = (point(m.from), point(m.to));
    out.reserve(5);
    out.push(a);
    out.push(b);
    if style == Style::Iccs {
        out.push('-');
    }
    out.push(c);
    out.push(d);
}

#[cfg(test)]
mod examples {
    #[test]
    fn parse_plain_as_its_docs_showed() {
        use crate::notation::iccs;
        assert!(iccs::parse_plain(b"H2-E2").is_some());
        assert!(iccs::parse_plain(b"h2e2").is_some());
        assert!(iccs::parse_plain(b"h2e2+").is_none());
    }
}
