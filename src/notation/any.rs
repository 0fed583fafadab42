//! A move in any notation qipu reads: ICCS (and UCI coordinates), WXF,
//! Chinese or WinBoard SAN, told apart by the text.

use super::{ParseMoveError, ResolveError, chinese, iccs, san, wxf};
use crate::{Illegality, Move, Position};

/// Why a written move is no legal move of its position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The move reads in some notation, but answers no legal move (or
    /// several).
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// Coordinates, as a binary format stores them, of no legal move.
    #[error(transparent)]
    Illegal(#[from] Illegality),
    /// ASCII text that is a move in no notation.
    #[error("not a Chinese, WXF, ICCS or SAN move ({})", .0.kind)]
    NotAMove(ParseMoveError),
    /// Chinese text that does not read as a move.
    #[error("{}", .0.kind)]
    NotChinese(ParseMoveError),
}

/// Resolves one written move in `pos`, whatever its notation: ICCS (or
/// UCI coordinates), then WXF, then Chinese, then WinBoard SAN, whichever
/// reads it.
///
/// # Errors
///
/// A [`MoveError`] when `text` is no move in any notation qipu reads, or
/// names no legal move of `pos` (with the reason).
///
/// ```
/// use qipu::Position;
/// use qipu::notation::resolve_any;
/// let pos = Position::start();
/// assert_eq!(resolve_any(&pos, "炮二平五"), resolve_any(&pos, "h2e2"));
/// assert_eq!(resolve_any(&pos, "C2.5"), resolve_any(&pos, "H2-E2"));
/// assert!(resolve_any(&pos, "车一进九").unwrap_err().to_string().contains("illegal"));
/// ```
pub fn resolve_any(pos: &Position, text: &str) -> Result<Move, MoveError> {
    resolve_any_in_game(pos, text, &mut None)
}

/// Like [`resolve_any`], keeping the rank convention of SAN moves (0…9 or
/// 1…10) from one move of a game to the next in `san_base`.
///
/// # Errors
///
/// As [`resolve_any`].
pub fn resolve_any_in_game(pos: &Position, text: &str, san_base: &mut Option<u8>) -> Result<Move, MoveError> {
    // Text that opens with a Chinese character can only be Chinese notation:
    // try it first, sparing the other readers' failures.
    if opens_chinese(text) {
        // The common shape (炮二平五) first, as `chinese::parse` reads it.
        if let Some(d) = chinese::parse_plain(text) {
            return Ok(d.resolve(pos)?);
        }
        if let Ok(d) = chinese::parse(text) {
            return Ok(d.resolve(pos)?);
        }
    }
    if let Ok(m) = iccs::parse(text) {
        return Ok(m.resolve(pos)?);
    }
    if let Ok(d) = wxf::parse(text) {
        return Ok(d.resolve(pos)?);
    }
    match chinese::parse(text) {
        Ok(d) => Ok(d.resolve(pos)?),
        Err(_) if let Ok(m) = san::parse(text) => {
            let (m, base) = m.resolve_ranked(pos, *san_base)?;
            *san_base = base;
            Ok(m)
        }
        Err(e) if text.is_ascii() => Err(MoveError::NotAMove(e)),
        Err(e) => Err(MoveError::NotChinese(e)),
    }
}

/// Whether `text` opens with a Chinese character, so that it can only be
/// Chinese notation (or no move).
pub(crate) fn opens_chinese(text: &str) -> bool {
    // A first byte E4…E9 opens a character of U+4000…U+9FFF: CJK.
    matches!(text.as_bytes().first(), Some(0xE4..=0xE9)) || text.chars().next().is_some_and(is_cjk)
}

/// A CJK ideograph (not a full-width Latin letter or digit, which ICCS and
/// WXF moves may be written in).
fn is_cjk(c: char) -> bool {
    ('\u{2E80}'..'\u{FF00}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_reads_the_same_move_and_bad_text_is_told_apart() {
        let pos = Position::start();
        let m: Move = "h2e2".parse().unwrap();
        for text in ["h2e2", "H2-E2", "h2-e2", "C2.5", "C2=5", "炮二平五", "砲二平五"] {
            assert_eq!(resolve_any(&pos, text), Ok(m), "{text}");
        }
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
        let horse: Move = "h9g7".parse().unwrap();
        for text in ["h9g7", "H9-G7", "H8+7", "马８进７"] {
            assert_eq!(resolve_any(&black, text), Ok(horse), "{text}");
        }
        // A move that reads but is not legal here; text that is no move.
        assert!(matches!(resolve_any(&pos, "a0a5"), Err(MoveError::Resolve(_))));
        assert!(matches!(resolve_any(&pos, "车一进九"), Err(MoveError::Resolve(_))));
        assert!(matches!(resolve_any(&pos, "xyz"), Err(MoveError::NotAMove(_))));
        assert!(matches!(resolve_any(&pos, "炮二"), Err(MoveError::NotChinese(_))));
        assert!(resolve_any(&pos, "").is_err());
    }
}
