//! Reading and writing FEN.
//!
//! The reader is relaxed in what occurs in the wild: `E`/`H` for elephant
//! and horse, `r` for Red to move, and missing trailing fields (side to
//! move defaults to Red, the clocks to `0 1`). The writer is canonical:
//! letters `K A B N R C P`, `w`/`b`, and `- -` for the unused castling and
//! en-passant fields.
//!
//! ```
//! use qipu::{Position, Setup};
//! let setup: Setup = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r".parse().unwrap();
//! assert_eq!(setup.to_fen(), qipu::fen::START);
//! ```

use std::fmt;
use std::str::FromStr;

use super::{Board, Color, Piece, Setup, Square};
use crate::text::decimal;

/// The FEN of the standard starting position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What is wrong with a FEN, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The text is empty.
    #[error("FEN is empty")]
    Empty,
    /// The placement does not have ten ranks.
    #[error("FEN placement field: expected 10 ranks separated by '/', found {found}")]
    RankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A rank does not cover exactly nine points.
    #[error("FEN placement field, rank {rank} ({nth} group): covers {width} points, expected 9")]
    RankWidth {
        /// The board rank (9 = Black's back rank, the first group).
        rank: usize,
        /// The group's position in the FEN, as an ordinal (`1st` …).
        nth: Ordinal,
        /// How many points the group covers.
        width: usize,
    },
    /// A character in the placement is neither a piece letter nor 1–9.
    #[error(
        "FEN placement field, rank {rank} ({nth} group): {found:?} is not a piece letter (KABNRCP, EH) or a digit 1-9"
    )]
    BadPlacementChar {
        /// The board rank.
        rank: usize,
        /// The group's position in the FEN.
        nth: Ordinal,
        /// The character found.
        found: char,
    },
    /// The side to move is not `w`, `r` or `b`.
    #[error("FEN side-to-move field: {0:?} is not w, r (Red) or b (Black)")]
    Turn(String),
    /// The castling field is not `-`.
    #[error("FEN castling field: {0:?} should be '-' (xiangqi has no castling)")]
    Castling(String),
    /// The en-passant field is not `-`.
    #[error("FEN en-passant field: {0:?} should be '-' (xiangqi has no en passant)")]
    EnPassant(String),
    /// The half-move clock is not a number.
    #[error("FEN half-move clock field: {0:?} is not a number of plies")]
    Halfmoves(String),
    /// The move number is not a number.
    #[error("FEN move-number field: {0:?} is not a move number")]
    Fullmoves(String),
    /// More than six fields.
    #[error("FEN has more than 6 fields: unexpected {0:?}")]
    ExtraField(String),
}

/// An ordinal number for messages (`1st`, `2nd`, …).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ordinal(pub usize);

impl fmt::Display for Ordinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = match (self.0 % 10, self.0 % 100) {
            (1, n) if n != 11 => "st",
            (2, n) if n != 12 => "nd",
            (3, n) if n != 13 => "rd",
            _ => "th",
        };
        write!(f, "{}{}", self.0, suffix)
    }
}

fn parse_placement(text: &str) -> Result<Board, ParseFenError> {
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() != 10 {
        return Err(ParseFenError::RankCount { found: groups.len() });
    }
    let mut board = Board::empty();
    for (i, group) in groups.iter().enumerate() {
        let rank = 9 - i;
        let nth = Ordinal(i + 1);
        let mut file = 0usize;
        for c in group.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| *d >= 1) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 9 {
                    board.put(Square::from_index_unchecked(rank * 9 + file), piece);
                }
                file += 1;
            } else {
                return Err(ParseFenError::BadPlacementChar { rank, nth, found: c });
            }
        }
        if file != 9 {
            return Err(ParseFenError::RankWidth { rank, nth, width: file });
        }
    }
    Ok(board)
}

impl Setup {
    /// Reads a FEN (see the [module docs](self) for what is accepted).
    ///
    /// # Errors
    ///
    /// A [`ParseFenError`] naming the field that is not FEN.
    pub fn from_fen(fen: &str) -> Result<Setup, ParseFenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = parse_placement(fields.next().ok_or(ParseFenError::Empty)?)?;
        let turn = match fields.next() {
            None | Some("w" | "W" | "r" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(ParseFenError::Turn(other.into())),
        };
        if let Some(f) = fields.next().filter(|f| *f != "-") {
            return Err(ParseFenError::Castling(f.into()));
        }
        if let Some(f) = fields.next().filter(|f| *f != "-") {
            return Err(ParseFenError::EnPassant(f.into()));
        }
        let halfmoves = match fields.next() {
            None => 0,
            Some(f) => f.parse().map_err(|_| ParseFenError::Halfmoves(f.into()))?,
        };
        let fullmoves = match fields.next() {
            None => 1,
            // Some writers put 0 here; read it as the first move.
            Some(f) => f.parse::<u32>().map_err(|_| ParseFenError::Fullmoves(f.into()))?.max(1),
        };
        if let Some(extra) = fields.next() {
            return Err(ParseFenError::ExtraField(extra.into()));
        }
        Ok(Setup { board, turn, halfmoves, fullmoves })
    }

    /// Writes the canonical FEN of this setup.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(80);
        write_fen(&self.board, self.turn, self.halfmoves, self.fullmoves, &mut out);
        out
    }
}

/// Appends the canonical FEN of a placement, side and clocks to `out`.
pub fn write_fen(board: &Board, turn: Color, halfmoves: u32, fullmoves: u32, out: &mut String) {
    let mut ranks = RankTexts::default();
    for rank in 0..10 {
        ranks.encode(board, rank);
    }
    ranks.write(turn, halfmoves, fullmoves, out);
}

/// The FEN text of each rank of a board, kept from one position to the
/// next so that writing the FEN after a move re-encodes only the (at
/// most two) ranks the move touched: for FEN trails.
///
/// ```
/// use qipu::{Position, fen::RankTexts};
/// let mut pos = Position::start();
/// let mut ranks = RankTexts::new(pos.board());
/// let m = "h2e2".parse().unwrap();
/// let _ = pos.play_unchecked(m);
/// ranks.update(pos.board(), m);
/// let mut fen = String::new();
/// ranks.write(pos.turn(), pos.halfmoves(), pos.fullmoves(), &mut fen);
/// assert_eq!(fen, pos.fen());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankTexts {
    text: [[u8; 9]; 10],
    len: [u8; 10],
}

impl RankTexts {
    /// The rank texts of `board`.
    pub fn new(board: &Board) -> RankTexts {
        let mut ranks = RankTexts::default();
        for rank in 0..10 {
            ranks.encode(board, rank);
        }
        ranks
    }

    /// Brings the texts up to date with `board`, which differs from the
    /// last board seen by the move `m` only.
    pub fn update(&mut self, board: &Board, m: super::Move) {
        self.encode(board, m.from.rank().index());
        if m.to.rank() != m.from.rank() {
            self.encode(board, m.to.rank().index());
        }
    }

    fn encode(&mut self, board: &Board, rank: usize) {
        // The letter of each piece, by `Piece::index`.
        const LETTERS: [u8; 14] = *b"KABNRCPkabnrcp";
        let row: &[Option<crate::Piece>; 9] =
            board.raw()[rank * 9..rank * 9 + 9].try_into().expect("a rank is nine points");
        let mut text = [0u8; 9];
        let (mut n, mut empty) = (0, 0u8);
        for point in row {
            match point {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        text[n] = b'0' + empty;
                        n += 1;
                        empty = 0;
                    }
                    text[n] = LETTERS[piece.index()];
                    n += 1;
                }
            }
        }
        if empty > 0 {
            text[n] = b'0' + empty;
            n += 1;
        }
        self.text[rank] = text;
        self.len[rank] = n as u8;
    }

    /// Appends the FEN: the ranks, then side to move and clocks.
    pub fn write(&self, turn: Color, halfmoves: u32, fullmoves: u32, out: &mut String) {
        let mut buf = [0u8; FEN_ROOM];
        let n = self.assemble(turn, halfmoves, fullmoves, &mut buf);
        out.push_str(std::str::from_utf8(&buf[..n]).expect("FEN characters are ASCII"));
    }

    /// Appends the FEN as bytes (ASCII), for output built as bytes.
    pub fn write_bytes(&self, turn: Color, halfmoves: u32, fullmoves: u32, out: &mut Vec<u8>) {
        // Built in place at the end of `out`, then cut to its length.
        let at = out.len();
        out.resize(at + FEN_ROOM, 0);
        let buf: &mut [u8; FEN_ROOM] = (&mut out[at..]).try_into().expect("room made");
        let n = self.assemble(turn, halfmoves, fullmoves, buf);
        out.truncate(at + n);
    }

    /// Writes the FEN at the start of `buf`; returns its length.
    fn assemble(&self, turn: Color, halfmoves: u32, fullmoves: u32, buf: &mut [u8; FEN_ROOM]) -> usize {
        let mut n = 0;
        for rank in (0..10).rev() {
            // All nine bytes are copied (a fixed-size copy is cheaper than a
            // measured one); the next rank starts after the rank's length.
            buf[n..n + 9].copy_from_slice(&self.text[rank]);
            n += self.len[rank] as usize;
            if rank > 0 {
                buf[n] = b'/';
                n += 1;
            }
        }
        let mut put = |b: u8| {
            buf[n] = b;
            n += 1;
        };
        put(b' ');
        put(turn.fen_char() as u8);
        for &b in b" - - " {
            put(b);
        }
        for &b in decimal(halfmoves.into(), &mut [0; 20]) {
            put(b);
        }
        put(b' ');
        for &b in decimal(fullmoves.into(), &mut [0; 20]) {
            put(b);
        }
        n
    }
}

/// Room for any FEN: at most 90 pieces, 9 slashes, ` w - - ` and two
/// 10-digit numbers.
const FEN_ROOM: usize = 128;

impl FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        Setup::from_fen(s)
    }
}

impl fmt::Display for Setup {
    /// The canonical FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_texts_follow_a_game() {
        // Random legal games (fixed seed): after every move, the rank texts
        // updated for that move give the FEN written from scratch.
        let mut seed = 12345u64;
        for _ in 0..20 {
            let mut pos = crate::Position::start();
            let mut ranks = RankTexts::new(pos.board());
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                let _ = pos.play_unchecked(m);
                ranks.update(pos.board(), m);
                let mut fen = String::new();
                ranks.write(pos.turn(), pos.halfmoves(), pos.fullmoves(), &mut fen);
                assert_eq!(fen, pos.fen());
            }
        }
    }
    use crate::{Piece, Role};

    #[test]
    fn start_round_trip() {
        let s: Setup = START.parse().unwrap();
        assert_eq!(s, Setup::start());
        assert_eq!(s.to_fen(), START);
    }

    #[test]
    fn defaults_and_synonyms() {
        let s: Setup = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR".parse().unwrap();
        assert_eq!(s, Setup::start());
        let s: Setup = "4k4/9/9/9/9/9/9/9/9/4K4 b - - 7 12".parse().unwrap();
        assert_eq!((s.turn, s.halfmoves, s.fullmoves), (Color::Black, 7, 12));
        assert_eq!(s.to_fen(), "4k4/9/9/9/9/9/9/9/9/4K4 b - - 7 12");
        let s: Setup = "4k4/9/9/9/9/9/9/9/9/4K4 r - - 0 0".parse().unwrap();
        assert_eq!((s.turn, s.fullmoves), (Color::Red, 1));
        assert_eq!(s.board.piece_at(Square::E9), Some(Piece::new(Color::Black, Role::King)));
    }

    #[test]
    fn errors_name_the_field() {
        let err = |f: &str| Setup::from_fen(f).unwrap_err();
        assert_eq!(err(""), ParseFenError::Empty);
        assert_eq!(err("4k4/9/9"), ParseFenError::RankCount { found: 3 });
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K5"),
            ParseFenError::RankWidth { rank: 0, nth: Ordinal(10), width: 10 }
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K3"),
            ParseFenError::RankWidth { rank: 0, nth: Ordinal(10), width: 8 }
        );
        assert_eq!(
            err("4x4/9/9/9/9/9/9/9/9/4K4"),
            ParseFenError::BadPlacementChar { rank: 9, nth: Ordinal(1), found: 'x' }
        );
        assert!(matches!(err("4k4/9/9/9/0/9/9/9/9/4K4"), ParseFenError::BadPlacementChar { found: '0', .. }));
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 x"), ParseFenError::Turn("x".into()));
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w KQ"), ParseFenError::Castling("KQ".into()));
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w - e3"), ParseFenError::EnPassant("e3".into()));
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w - - x"), ParseFenError::Halfmoves("x".into()));
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 -1"), ParseFenError::Fullmoves("-1".into()));
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 x"), ParseFenError::ExtraField("x".into()));
        let msg = err("4k4/9/9/9/9/9/9/9/9/4K3").to_string();
        assert_eq!(msg, "FEN placement field, rank 0 (10th group): covers 8 points, expected 9");
    }

    #[test]
    fn ordinals() {
        let s: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22].map(|n| Ordinal(n).to_string()).into();
        assert_eq!(s, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
    }
}
