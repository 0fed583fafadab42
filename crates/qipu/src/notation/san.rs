//! WinBoard/XBoard-style SAN for xiangqi (`Che2`, `Cxe6`, `Hc7`, `g5`,
//! `ixi5`, `Rxi9+`), as written in `[Variant "xiangqi"]` PGN.
//!
//! Programs disagree on ranks: XBoard counts them 0…9 (`Che2` is 炮二平五),
//! others 1…10 (`Che3`). Both readings are tried and only legal moves kept;
//! two different legal moves left is an ambiguity, never a guess.
//!
//! ```
//! use qipu::Position;
//! use qipu::notation::san;
//! let pos = Position::start();
//! assert_eq!(san::parse("Che2").unwrap().resolve(&pos).unwrap().to_string(), "h2e2");
//! assert_eq!(san::parse("Hg3").unwrap().resolve(&pos).unwrap().to_string(), "h0g2");
//! ```

use super::{
    Expected, IllegalReason, ParseMoveError, ParseMoveErrorKind as Kind, ResolveError, is_remark_char,
};
use crate::{File, Move, Position, Rank, Role, Square};

const NOTATION: &str = "SAN";

/// A SAN move, read but not yet resolved.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanMove {
    /// The kind of piece (pawn when no letter is written).
    pub role: Role,
    /// The origin file, when written.
    pub(crate) from_file: Option<File>,
    /// The origin rank number as written, when written.
    pub(crate) from_rank: Option<u8>,
    /// The destination file.
    pub(crate) to_file: File,
    /// The destination rank number as written (0…10).
    pub(crate) to_rank: u8,
}

/// Reads a SAN move.
///
/// # Errors
///
/// A [`ParseMoveError`] for text that is not a SAN move.
pub fn parse(text: &str) -> Result<SanMove, ParseMoveError> {
    let bad = |kind| ParseMoveError::new(NOTATION, text, kind);
    let core = text.trim().trim_end_matches(is_remark_char);
    // `x` and `:` mark captures; `-` parts a whole origin from the
    // destination (`Ch3-e3`, Fairy-Stockfish's long form).
    let all: Vec<char> = core.chars().collect();
    let parts = |i: usize| {
        all[i] == '-'
            && i > 0
            && all[i - 1].is_ascii_digit()
            && all.get(i + 1).is_some_and(|&c| File::from_char(c).is_some())
    };
    let mut chars: Vec<char> = all
        .iter()
        .enumerate()
        .filter(|&(i, &c)| c != 'x' && c != ':' && !parts(i))
        .map(|(_, &c)| c)
        .collect();
    let role = match chars.first() {
        Some(&c) if c.is_ascii_uppercase() => {
            chars.remove(0);
            super::wxf::role(c).ok_or_else(|| bad(Kind::UnknownPieceLetter(c)))?
        }
        _ => Role::Pawn,
    };
    // Destination: a file letter and one or two digits at the end.
    let digits = chars.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || chars.len() < digits + 1 {
        return Err(bad(Kind::Expected(Expected::Destination)));
    }
    let split = chars.len() - digits - 1;
    let to_file =
        File::from_char(chars[split]).ok_or_else(|| bad(Kind::Expected(Expected::DestinationFile)))?;
    let to_rank: u8 =
        chars[split + 1..].iter().collect::<String>().parse().map_err(|_| bad(Kind::BadRank))?;
    if to_rank > 10 {
        return Err(bad(Kind::RankOutOfRange { origin: false, value: to_rank }));
    }
    let (mut from_file, mut from_rank) = (None, None);
    for &c in &chars[..split] {
        if let Some(f) = File::from_char(c).filter(|_| from_file.is_none() && from_rank.is_none()) {
            from_file = Some(f);
        } else if c.is_ascii_digit() {
            let rank = from_rank.unwrap_or(0) * 10 + (c as u8 - b'0');
            if rank > 10 {
                return Err(bad(Kind::RankOutOfRange { origin: true, value: rank }));
            }
            from_rank = Some(rank);
        } else {
            return Err(bad(Kind::BeforeDestination(c)));
        }
    }
    Ok(SanMove { role, from_file, from_rank, to_file, to_rank })
}

impl SanMove {
    /// The legal move this SAN stands for in `pos`, ranks read 0…9 or 1…10,
    /// whichever gives a legal move.
    ///
    /// # Errors
    ///
    /// A [`ResolveError`] when no such piece can make the move, or when
    /// several can.
    pub fn resolve(&self, pos: &Position) -> Result<Move, ResolveError> {
        self.resolve_ranked(pos, None).map(|(m, _)| m)
    }

    /// Like [`SanMove::resolve`], with the first rank number known (`Some(0)`
    /// or `Some(1)`) or still open (`None`). Also returns the first rank
    /// number once this move settles it: a game keeps one convention.
    ///
    /// # Errors
    ///
    /// As [`SanMove::resolve`].
    pub(crate) fn resolve_ranked(
        &self,
        pos: &Position,
        base: Option<u8>,
    ) -> Result<(Move, Option<u8>), ResolveError> {
        let bases: &[u8] = match base {
            Some(0) => &[0],
            Some(_) => &[1],
            None => &[0, 1],
        };
        let mut found: Vec<(Move, u8)> = Vec::new();
        let legal = pos.legal_moves();
        for &base in bases {
            let Some(to_rank) = self.to_rank.checked_sub(base).and_then(|r| Rank::new(r as u32)) else {
                continue;
            };
            let to = Square::new(self.to_file, to_rank);
            for &m in legal.iter() {
                let Some(piece) = pos.board().piece_at(m.from) else { continue }; // never: m is legal
                let rank_ok =
                    self.from_rank.is_none_or(|r| r.checked_sub(base) == Some(m.from.rank().index() as u8));
                if m.to == to
                    && piece.role == self.role
                    && self.from_file.is_none_or(|f| f == m.from.file())
                    && rank_ok
                {
                    found.push((m, base));
                }
            }
        }
        let mut moves: Vec<Move> = found.iter().map(|&(m, _)| m).collect();
        moves.sort();
        moves.dedup();
        match moves.len() {
            0 => Err(ResolveError::Illegal {
                reason: IllegalReason::Unreachable {
                    color: pos.turn(),
                    role: self.role,
                    to_file: self.to_file,
                    to_rank: self.to_rank,
                },
            }),
            1 => {
                let settled = if found.len() == 1 { Some(found[0].1) } else { base };
                Ok((moves[0], settled))
            }
            _ => Err(ResolveError::Ambiguous { moves }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winboard_game_start() {
        let mut pos = Position::start();
        for (san, uci) in
            [("Che2", "h2e2"), ("Chg7", "h7g7"), ("Cxe6", "e2e6"), ("Hc7", "b9c7"), ("Ce4", "e6e4")]
        {
            let m = parse(san).unwrap().resolve(&pos).unwrap();
            assert_eq!(m.to_string(), uci, "{san}");
            let _ = pos.play_unchecked(m);
        }
        assert!(parse("Xe2").is_err());
        assert!(parse("C").is_err());
        assert!(parse("Ce11").is_err());
        // Found by fuzzing: a long run of origin digits overflowed.
        assert!(parse("R99999999999a1").is_err());
        assert!(parse("R10a1").is_ok());
    }
}
