//! Records saved by three online game rooms: QQ象棋 `.che`, 中游 `.ccm`
//! and 联众 `.chn`. Each holds one game from the standard start, its moves
//! only (no names, result, date nor comments that anyone has decoded).
//!
//! # Sources
//!
//! No sample of any of them is at hand. The layouts are those that two
//! readers follow: ElephantEye's converters `che2pgn.cpp`, `ccm2pgn.cpp`
//! and `chn2pgn.cpp` (folder `XQFTOOLS/` of xqbase/eleeye, commit
//! `7009f694`), and vschess's `binaryToNode_CCM` and `dataToNode_QQNew`,
//! with its `.che` writer `moveListToData_QQ`
//! (FastLight126/vschess, `vschess/develop/module/`). Below, a *column*
//! counts files from the left of the board as Red sees it (0 is file a,
//! 8 file i), a *row* ranks from the top (0 is rank 9), unless said
//! otherwise.
//!
//! ## QQ象棋 `.che`: numbers in text
//!
//! ASCII decimal numbers, each followed by one separator (a space in what
//! vschess writes):
//!
//! | # | field | vschess writes |
//! |---|---|---|
//! | 0 | not understood | `1` |
//! | 1 | `N`, the number of moves | |
//! | 2 + 10k … 11 + 10k | move `k`: ten numbers | |
//!
//! The ten numbers of a move:
//!
//! | # | field | vschess writes |
//! |---|---|---|
//! | 0 | the piece (not read) | its number, 0–15 Black's, 16–31 Red's, by start square |
//! | 1 | not understood | `32` |
//! | 2 | the side (not read) | `1` on Red's moves, `0` on Black's |
//! | 3 | the from square's rank, 0 (Red's back rank) to 9 | |
//! | 4 | the from square's column | |
//! | 5, 6 | the to square's rank and column | |
//! | 7, 9 | not understood | `0` |
//! | 8 | not read | the move's number, from 1 |
//!
//! **Where the sources disagree.** ElephantEye reads the column as counted
//! from file a (`x = column + 3` on its 16-wide board, whose file a is
//! `x = 3`); vschess reads and writes it counted from file i (`'i' −
//! column`), and writes ElephantEye's way only when asked for a mirrored
//! record. Every game is as legal mirrored, so the rules cannot tell; the
//! piece numbers can, as vschess writes them: Black's general 0 (e9), its
//! advisors 1 (f9) and 2 (d9), elephants 3 (g9) and 4 (c9), horses 5 (h9)
//! and 6 (b9), chariots 7 (i9) and 8 (a9), cannons 9 (h7) and 10 (b7),
//! soldiers 11 to 15 (i6 to a6); Red's general 16 (e0), advisors 17 (d0)
//! and 18 (f0), elephants 19 (c0) and 20 (g0), horses 21 (b0) and 22 (h0),
//! chariots 23 (a0) and 24 (i0), cannons 25 (b2) and 26 (h2), soldiers 27
//! to 31 (a3 to i3). qipu reads ElephantEye's way, unless the first move's
//! piece number is that of the piece on the mirror of its from square (read
//! from file a) and not that of the piece on it: such a file, as vschess
//! writes it, is read with its columns from file i. ElephantEye reads a
//! number up to the first
//! byte that is no digit and skips that one byte, so two spaces in a row
//! read as a 0 between them; qipu takes any run of white space as one
//! separator and refuses any other byte. ElephantEye reads `N` moves
//! whatever the file holds (numbers missing read as 0); qipu reports a
//! file whose count of numbers is not `2 + 10 N`. vschess does not read
//! the count: it takes as a move every run of ten numbers laid out as it
//! writes them (`32` second, `0` eighth and tenth), wherever it stands.
//!
//! ## 中游 `.ccm`: 7-byte move records
//!
//! The file is a run of 7-byte records, one a move, from byte 0:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 1 | not understood (vschess tells the format by the file's first byte being `01`) |
//! | 1 | 2 | not understood |
//! | 3 | 1 | the from square's column |
//! | 4 | 1 | the to square's column |
//! | 5 | 1 | the from square's row |
//! | 6 | 1 | the to square's row |
//!
//! **Orientation.** ElephantEye turns the board round (column `c` read as
//! `8 − c`, row `r` as `9 − r`) when the first move's from row is under 5,
//! that is when the first mover, Red, would stand at the top; vschess
//! always turns it round. The two agree on every file whose first move
//! starts in rows 0–4 — the files vschess expects; qipu follows
//! ElephantEye. ElephantEye drops a last record of fewer than 7 bytes;
//! qipu reports it. vschess starts its records at byte 1 and reads their
//! bytes 2–5: the same bytes.
//!
//! ## 联众 `.chn`: a 188-byte header, then 32-byte move records
//!
//! | offset | size | field |
//! |---|---|---|
//! | `0x00` | 188 | the header: not understood, not read |
//! | `0xBC` + 32k | 32 | move `k`: sixteen 16-bit little-endian words |
//!
//! The words of a move record:
//!
//! | # | offset | field |
//! |---|---|---|
//! | 0, 1 | 0 | not understood |
//! | 2 | 4 | the from square's column |
//! | 3 | 6 | the from square's row |
//! | 4 | 8 | the to square's column |
//! | 5 | 10 | the to square's row |
//! | 6–15 | 12 | not understood |
//!
//! ElephantEye reads a record as a structure of two words, the four above
//! and ten words: 32 bytes (records of 28 bytes, as the format is sometimes
//! described, would leave out its last two words). qipu follows the
//! source. The board is turned round as a `.ccm` file's is (when the first
//! move's from row is under 5). Only ElephantEye reads the format.
//!
//! ## What all three share
//!
//! The games start from the standard position, Red to move. ElephantEye's
//! comments say the three rooms may let a general be taken: it drops every
//! move its rules refuse and goes on. qipu keeps every move as stored, so
//! that such a game is reported illegal at its first wrong move.
//!
//! # Telling them
//!
//! By content, never by name (see each `is_*`):
//!
//! - a `.che` file is digits and white space only, at least 12 numbers, a
//!   count of at least one move, the first move two different squares on
//!   the board, and either the numbers its count calls for or a first move
//!   as vschess writes one (`32` second, `1` third, `1` ninth);
//! - a `.ccm` file starts with byte `01`, and its whole records in the
//!   first megabyte (at least one) name two different squares on the
//!   board: the first, and at least three in four;
//! - a `.chn` file has after its 188-byte header at least one whole record,
//!   and its whole records in the first megabyte name two squares as a
//!   `.ccm` file's do.
//!
//! A file damaged in a few records is so still told, and its first damaged
//! record reported. The three are tried after every other binary format's
//! signature; a `.che` file is told before any text format.

pub mod ccm;
pub mod che;
pub mod chn;
pub mod ubb;

use super::ByteError;
use super::tree::Game;
use crate::record::{MoveText, RecordedMove, Span};
use crate::{File, Move, Rank, Square};

/// Why a QQ象棋, 中游 or 联众 file cannot be read: the offset counts in
/// the file.
pub type OnlineError = ByteError<OnlineErrorKind>;

/// What is wrong in a QQ象棋, 中游 or 联众 file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OnlineErrorKind {
    /// A byte of a `.che` file or a move list that is neither a digit nor
    /// white space.
    #[error("byte {byte:02x} is no digit nor white space (the file holds numbers)")]
    NotANumber {
        /// The byte.
        byte: u8,
    },
    /// A number of a `.che` file too large to be one.
    #[error("a number of {digits} digits: too large")]
    TooLarge {
        /// How many digits it has.
        digits: usize,
    },
    /// A `.che` file whose numbers do not match its count of moves.
    #[error("{moves} moves declared, so {} numbers, but the file holds {numbers}", 2 + 10 * u64::from(*.moves))]
    Count {
        /// The count of moves the file declares.
        moves: u32,
        /// How many numbers it holds.
        numbers: usize,
    },
    /// A `.che` file of fewer than two numbers.
    #[error("no count of moves: a .che file starts with two numbers")]
    NoCount,
    /// A square's column or row (or rank) off the board.
    #[error("{what} {value} is off the board (0 to {max})")]
    OffBoard {
        /// What the number is: `"column"`, `"row"` or `"rank"`.
        what: &'static str,
        /// The number.
        value: u32,
        /// The largest on the board.
        max: u32,
    },
    /// The file ends inside a move record.
    #[error("a move record of {len} bytes at the end of the file: a record has {size}")]
    Truncated {
        /// The bytes the last record has.
        len: usize,
        /// The size of a record.
        size: usize,
    },
    /// A `.chn` file shorter than its header.
    #[error("{len} bytes, but a .chn header has 188")]
    ShortHeader {
        /// The file's size.
        len: usize,
    },
}

/// A number of a record giving a square's place up the board.
#[derive(Copy, Clone, Debug)]
enum Line {
    /// A row, counted from the top (0 is rank 9).
    Row(u32),
    /// A rank, counted from Red's back rank.
    Rank(u32),
}

/// A square of a record, from its column and its row or rank, each
/// checked; `Err` says which is off the board (`at`: the offsets of the
/// column and of the row or rank).
fn square(column: u32, line: Line, at: (usize, usize)) -> Result<Square, OnlineError> {
    let off = |what, value, max, offset| error(offset, OnlineErrorKind::OffBoard { what, value, max });
    let file = File::new(column).ok_or_else(|| off("column", column, 8, at.0))?;
    let rank = match line {
        Line::Row(row) => {
            9u32.checked_sub(row).and_then(Rank::new).ok_or_else(|| off("row", row, 9, at.1))?
        }
        Line::Rank(rank) => Rank::new(rank).ok_or_else(|| off("rank", rank, 9, at.1))?,
    };
    Ok(Square::new(file, rank))
}

/// Adds the moves `moves` (each with its offset) to `game` as its main
/// line, turned round when `turn` says so.
fn add_moves(game: &mut Game, moves: &[(Move, usize)], turn: bool) {
    let mut node = game.moves.root();
    for &(mv, at) in moves {
        let turned = |s: Square| s.flip_vertical().flip_horizontal();
        let mv = if turn { Move::new(turned(mv.from), turned(mv.to)) } else { mv };
        let at = Span { line: 0, column: u32::try_from(at).unwrap_or(u32::MAX) };
        node = game.moves.add_child(node, RecordedMove { text: MoveText::Coords(mv), at });
    }
}

/// The layout of a file of fixed-size move records (中游 and 联众).
struct Records {
    /// Where the first record starts.
    start: usize,
    /// The size of a record.
    size: usize,
    /// Where, in a record, the from column, from row, to column and to row
    /// start.
    fields: [usize; 4],
    /// Whether each of them is a 16-bit little-endian word rather than a
    /// byte.
    words: bool,
}

impl Records {
    /// The four numbers of a record (whole) and where each starts.
    fn numbers(&self, record: &[u8], base: usize) -> [(u32, usize); 4] {
        self.fields.map(|at| {
            let value = if self.words {
                u32::from(u16::from_le_bytes([record[at], record[at + 1]]))
            } else {
                u32::from(record[at])
            };
            (value, base + at)
        })
    }

    /// Whether the whole records of `bytes` look like moves: at least one,
    /// the first and at least three in four of them naming two different
    /// squares on the board (a damaged record is then reported, with its
    /// place, rather than the file taken for other data).
    fn mostly_on_board(&self, bytes: &[u8]) -> bool {
        let body = bytes.get(self.start..).unwrap_or_default();
        let on_board = |r: &[u8]| {
            let [c1, r1, c2, r2] = self.numbers(r, 0).map(|(v, _)| v);
            c1 <= 8 && c2 <= 8 && r1 <= 9 && r2 <= 9 && (c1, r1) != (c2, r2)
        };
        let (mut all, mut good) = (0usize, 0usize);
        for record in body.chunks_exact(self.size) {
            if all == 0 && !on_board(record) {
                return false;
            }
            all += 1;
            good += usize::from(on_board(record));
        }
        all > 0 && good * 4 >= all * 3
    }

    /// Reads the moves of a file, turned round as its first move says.
    fn read(&self, bytes: &[u8]) -> Result<Game, OnlineError> {
        let body = bytes.get(self.start..).unwrap_or_default();
        let mut moves = Vec::with_capacity(body.len() / self.size);
        for (k, record) in body.chunks(self.size).enumerate() {
            let base = self.start + k * self.size;
            if record.len() < self.size {
                return Err(error(base, OnlineErrorKind::Truncated { len: record.len(), size: self.size }));
            }
            let [c1, r1, c2, r2] = self.numbers(record, base);
            let from = square(c1.0, Line::Row(r1.0), (c1.1, r1.1))?;
            let to = square(c2.0, Line::Row(r2.0), (c2.1, r2.1))?;
            moves.push((Move::new(from, to), base));
        }
        let mut game = Game::at_byte(0);
        add_moves(&mut game, &moves, turn_round(&moves));
        Ok(game)
    }
}

/// An error at `offset` in the file.
fn error(offset: usize, kind: OnlineErrorKind) -> OnlineError {
    OnlineError { offset, in_inflated_data: false, kind }
}

/// How a 中游 or 联众 file is read: turned round when its first move
/// starts in the top half (see the [module docs](self)).
fn turn_round(moves: &[(Move, usize)]) -> bool {
    moves.first().is_some_and(|(mv, _)| mv.from.rank().index() >= 5)
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::{Move, Position};

    /// Random legal games from the standard start, `count` of them, up to
    /// `longest` plies each.
    pub(crate) fn random_games(seed: u64, count: usize, longest: u64) -> Vec<Vec<Move>> {
        let mut state = seed;
        let mut next = || {
            let (s, out) = crate::rules::zobrist::splitmix64(state);
            state = s;
            out
        };
        (0..count)
            .map(|_| {
                let length = next() % (longest + 1);
                let mut pos = Position::start();
                let mut played = Vec::new();
                for _ in 0..length {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(next() % moves.len() as u64) as usize];
                    played.push(m);
                    pos.play_unchecked(m);
                }
                played
            })
            .collect()
    }
}
