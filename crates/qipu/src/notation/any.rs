//! A move in any notation qipu reads: ICCS (and UCI coordinates), WXF,
//! Chinese or WinBoard SAN, told apart by the text.

use super::{ParseMoveError, ResolveError, chinese, iccs, san, wxf};
use crate::{Color, Illegality, Move, Position};

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
    /// The first move, from the standard start with Red to move, is a
    /// legal move of this side (Black): the record does not say that it
    /// moves first.
    #[error("{0} moves first from the standard start; {other} moves first", other = !*.0)]
    FirstMoveOutOfTurn(Color),
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
    resolve_any_in_game(pos, text, &mut Dialect::default())
}

/// What the moves of one game have shown of how they are written, kept from
/// move to move by `resolve_any_in_game`: a game keeps one dialect.
///
/// - SAN ranks counted 0…9 (WinBoard, XBoard) or 1…10 (pychess,
///   Fairy-Stockfish), settled by the first move that is legal under one
///   count only.
/// - Whether the game writes SAN: once a move has read as SAN only
///   (`Hg8`, `Che3`), a move that reads both as coordinates and as SAN
///   with a rank disambiguator (`E5e3`, `H8xe7`: a piece letter that is
///   also a file letter, then a lower-case destination) is read as SAN
///   first. Before that, such a move is read both ways: the legal reading
///   wins, two different legal readings are an ambiguity, never a guess.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dialect {
    san_base: Option<u8>,
    san: bool,
}

impl Dialect {
    /// The number of SAN's first rank, once a move settled it: `Some(0)`
    /// (ranks 0…9) or `Some(1)` (ranks 1…10).
    pub(crate) fn san_base(&self) -> Option<u8> {
        self.san_base
    }

    /// A game known to write SAN with ranks counted from `base` (0 or 1).
    pub(crate) fn with_san_base(base: u8) -> Dialect {
        Dialect { san_base: Some(base.min(1)), san: true }
    }

    /// Whether a move of the game has read as SAN.
    #[cfg(test)]
    pub(crate) fn is_san(&self) -> bool {
        self.san
    }

    /// Resolves a SAN move under this dialect, and keeps what it settles.
    fn resolve_san(&mut self, pos: &Position, m: &san::SanMove) -> Result<Move, ResolveError> {
        let (m, base) = m.resolve_ranked(pos, self.san_base)?;
        self.san_base = base;
        self.san = true;
        Ok(m)
    }
}

/// Like [`resolve_any`], keeping what the game's moves have shown of their
/// notation in `dialect` (see [`Dialect`]), from one move of a game to the
/// next.
///
/// # Errors
///
/// As [`resolve_any`].
pub(crate) fn resolve_any_in_game(
    pos: &Position,
    text: &str,
    dialect: &mut Dialect,
) -> Result<Move, MoveError> {
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
        return match san_shaped(text).then(|| san::parse(text).ok()).flatten() {
            Some(s) => coordinates_or_san(pos, m, &s, dialect),
            None => Ok(m.resolve(pos)?),
        };
    }
    if let Ok(d) = wxf::parse(text) {
        return Ok(d.resolve(pos)?);
    }
    match chinese::parse(text) {
        Ok(d) => Ok(d.resolve(pos)?),
        Err(_) if let Ok(m) = san::parse(text) => Ok(dialect.resolve_san(pos, &m)?),
        Err(e) if text.is_ascii() => Err(MoveError::NotAMove(e)),
        Err(e) => Err(MoveError::NotChinese(e)),
    }
}

/// Whether text that reads as coordinates may be SAN with a rank
/// disambiguator too: an upper-case piece letter that is also a file letter
/// (`A`, `B`, `C`, `E`, `H`), then a lower-case destination file (`E5e3`,
/// `H8xe7+`). Coordinates are written in one case (`H2-E2`, `h2e2`).
#[inline]
pub(crate) fn san_shaped(text: &str) -> bool {
    let b = text.as_bytes();
    // Most moves begin with a printable ASCII character: nothing to trim,
    // and most of them with one that is no such piece letter.
    let b = match b.first() {
        Some(b'A' | b'B' | b'C' | b'E' | b'H') => b,
        Some(c) if c.is_ascii_graphic() => return false,
        _ => text.trim_start().as_bytes(),
    };
    matches!(b.first(), Some(b'A' | b'B' | b'C' | b'E' | b'H'))
        && b.iter()
            .skip(2)
            .find(|c| c.is_ascii_alphabetic() && **c != b'x' && **c != b'X')
            .is_some_and(|c| (b'a'..=b'i').contains(c))
}

/// A move that reads both as coordinates `m` and as the SAN move `s`: SAN
/// first in a game that writes SAN; else whichever reading is legal, and an
/// ambiguity when both are, as different moves.
fn coordinates_or_san(
    pos: &Position,
    m: iccs::IccsMove,
    s: &san::SanMove,
    dialect: &mut Dialect,
) -> Result<Move, MoveError> {
    if dialect.san {
        let mut tried = *dialect;
        return match tried.resolve_san(pos, s) {
            Ok(mv) => {
                *dialect = tried;
                Ok(mv)
            }
            Err(e) => m.resolve(pos).map_err(|_| e.into()),
        };
    }
    let mut tried = *dialect;
    match (m.resolve(pos), tried.resolve_san(pos, s)) {
        (Ok(a), Ok(b)) if a != b => {
            let mut moves = vec![a, b];
            moves.sort();
            Err(ResolveError::Ambiguous { moves }.into())
        }
        (Ok(a), _) => Ok(a),
        (Err(_), Ok(b)) => {
            *dialect = tried;
            Ok(b)
        }
        (Err(e), Err(_)) => Err(e.into()),
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
    fn a_san_move_settles_the_dialect() {
        let mut dialect = Dialect::default();
        let pos = Position::start();
        assert_eq!(resolve_any_in_game(&pos, "Che3", &mut dialect).unwrap().to_string(), "h2e2");
        assert_eq!((dialect.san_base(), dialect.is_san()), (Some(1), true));
    }

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
