//! A sub-position to look for: pieces on points, each point given or
//! left open by file or rank ([`Pieces`]).

use std::fmt;
use std::str::FromStr;

use crate::{Board, File, Piece, Rank, Square};

/// One requirement of a [`Pieces`] pattern: a piece on one of some
/// points, or on none of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Need {
    piece: Piece,
    /// The points, one bit each (bit `k` for the point of index `k`).
    points: u128,
    /// The piece must stand on none of them.
    absent: bool,
}

/// A sub-position: pieces on points, written `R@e4 c@e7 k@e9` — a piece
/// in FEN letters (upper case Red, lower case Black: `K` king, `A`
/// advisor, `B`/`E` elephant, `N`/`H` horse, `R` rook, `C` cannon, `P`
/// pawn), `@`, then a point in ICCS (`e4`), where `?` leaves the file or
/// the rank open (`e?`: anywhere on file e, `?4`: anywhere on rank 4,
/// `??` anywhere), or several points apart by commas (`P@c3,c4`); a `!`
/// first asks that the piece stand on none of them. The other points
/// may hold anything.
///
/// ```
/// use qipu::index::Pieces;
/// use qipu::Position;
/// let central_cannon: Pieces = "C@e2 c@?7".parse().unwrap();
/// let after = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
/// assert!(central_cannon.matches(after.board()));
/// assert!(!central_cannon.matches(Position::start().board()));
/// let no_red_cannon_on_e: Pieces = "!C@e?".parse().unwrap();
/// assert!(no_red_cannon_on_e.matches(Position::start().board()));
/// assert_eq!(central_cannon.to_string(), "C@e2 c@?7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pieces {
    needs: Vec<Need>,
    text: String,
}

impl Pieces {
    /// Whether `board` holds the pieces the pattern asks for.
    pub fn matches(&self, board: &Board) -> bool {
        self.needs.iter().all(|n| (board.bits_of(n.piece) & n.points == 0) == n.absent)
    }

    /// The same pattern seen in a mirror (files a…i become i…a).
    pub fn mirrored(&self) -> Pieces {
        let needs = self
            .needs
            .iter()
            .map(|n| {
                let points = Square::all()
                    .filter(|s| n.points & (1u128 << s.index()) != 0)
                    .fold(0u128, |bits, s| bits | 1u128 << s.flip_horizontal().index());
                Need { points, ..*n }
            })
            .collect();
        Pieces { needs, text: format!("mirror of {}", self.text) }
    }
}

impl fmt::Display for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Why a [`Pieces`] pattern does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecesError {
    /// The word that does not read.
    pub word: String,
    /// Why.
    pub why: &'static str,
}

impl fmt::Display for PiecesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}: {} (write pieces as `R@e4 c@e7 k@e9`: a FEN letter, @, a point; ? for any file or rank)",
            self.word, self.why
        )
    }
}

impl std::error::Error for PiecesError {}

/// The points `text` names: `e4`, `e?`, `?4`, `??`.
fn points(text: &str) -> Option<u128> {
    let mut chars = text.chars();
    let (file, rank) = (chars.next()?, chars.next()?);
    if chars.next().is_some() {
        return None;
    }
    let file = if file == '?' { None } else { Some(File::from_char(file.to_ascii_lowercase())?) };
    let rank = if rank == '?' { None } else { Some(Rank::from_char(rank)?) };
    Some(
        Square::all()
            .filter(|s| file.is_none_or(|f| s.file() == f) && rank.is_none_or(|r| s.rank() == r))
            .fold(0u128, |bits, s| bits | 1u128 << s.index()),
    )
}

impl FromStr for Pieces {
    type Err = PiecesError;

    fn from_str(text: &str) -> Result<Pieces, PiecesError> {
        let mut needs = Vec::new();
        let words: Vec<&str> = text.split_whitespace().collect();
        for word in &words {
            let error = |why| PiecesError { word: word.to_string(), why };
            let (absent, rest) = match word.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, *word),
            };
            let (letter, at) =
                rest.split_once('@').ok_or_else(|| error("no @ between the piece and its point"))?;
            let mut letters = letter.chars();
            let piece = match (letters.next(), letters.next()) {
                (Some(c), None) => Piece::from_char(c).ok_or_else(|| error("not a piece letter"))?,
                _ => return Err(error("one piece letter before @")),
            };
            let mut bits = 0u128;
            for point in at.split(',') {
                bits |=
                    points(point).ok_or_else(|| error("not a point (a file a-i or ?, a rank 0-9 or ?)"))?;
            }
            needs.push(Need { piece, points: bits, absent });
        }
        if needs.is_empty() {
            return Err(PiecesError { word: text.to_string(), why: "no piece" });
        }
        Ok(Pieces { needs, text: words.join(" ") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn patterns_read_and_match() {
        let start = Position::start();
        let board = start.board();
        for (text, expected) in [
            ("K@e0 k@e9", true),
            ("R@a0,i0 r@a9", true),
            ("C@?2", true),
            ("C@e?", false),
            ("!C@e?", true),
            ("P@?3 p@?6 H@b0 e@c9", true),
            ("N@b0 N@h0 n@b9 n@h9", true),
            ("R@a1", false),
            ("A@d0 a@f9 !A@e1", true),
        ] {
            let pattern: Pieces = text.parse().unwrap();
            assert_eq!(pattern.matches(board), expected, "{text}");
        }
        for bad in ["", "R", "R@", "R@j4", "RR@e4", "X@e4", "R@e44", "R@e4;"] {
            assert!(bad.parse::<Pieces>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_mirror_moves_files() {
        let pattern: Pieces = "C@b2 !p@a?".parse().unwrap();
        let mirror = pattern.mirrored();
        let after =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b").unwrap();
        assert!(!pattern.matches(after.board()));
        let flipped =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p2/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b").unwrap();
        assert!(mirror.matches(flipped.board()));
    }
}
