//! ElephantEye's opening book, `BOOK.DAT` (also read by XQWizard).
//!
//! The file is a sequence of 8-byte records, little-endian: a 32-bit
//! position lock, a 16-bit move and a 16-bit weight, sorted by lock. The
//! lock is the second of the two 32-bit Zobrist locks ElephantEye keeps
//! for a position ([`Locks::lock1`]); its keys come from the RC4 stream
//! cipher keyed with four zero bytes (the first three words for the side
//! to move, then three words for each of 14 piece kinds on each of the
//! engine's 256 board cells). A move is the engine's cell of the origin
//! plus 256 times that of the destination, a cell being `x + 16 y` with
//! files `a`…`i` at `x` = 3…11 and ranks 9…0 at `y` = 3…12.
//!
//! A position and its mirror image (files `a`…`i` read `i`…`a`) share
//! their entries: a book holds the one of the two whose locks are smaller,
//! and a probe looks for the position, then for its mirror (whose moves it
//! mirrors back). This module writes and probes books that way.
//!
//! ```
//! use qipu::Position;
//! use qipu::book::eleeye::{self, Record};
//! let start = Position::start();
//! let key = eleeye::key(start.board(), start.turn());
//! let m = "h2e2".parse().unwrap();
//! let book = eleeye::write(&[Record { lock: key.lock1, mv: eleeye::encode_move(m), weight: 7 }]);
//! let moves = eleeye::probe(&mut std::io::Cursor::new(book), &start).unwrap();
//! assert_eq!((moves[0].m, moves[0].weight), (m, 7));
//! ```

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::OnceLock;

use crate::{Board, Color, Move, Position, Role, Square};

/// The size of one record of the file.
pub(crate) const RECORD_SIZE: u64 = 8;

/// ElephantEye's two Zobrist locks of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Locks {
    /// The lock the book's records hold (ElephantEye's `dwLock1`).
    pub lock1: u32,
    /// The other lock (`dwLock0`), which orders positions of equal
    /// `lock1` when a book is made.
    pub lock0: u32,
}

/// One record of the file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Record {
    /// The position's [`Locks::lock1`].
    pub lock: u32,
    /// The move, as [`encode_move`] writes it.
    pub mv: u16,
    /// The move's weight: the engine picks a move at random with
    /// probability proportional to it.
    pub weight: u16,
}

/// A move a book holds for a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in the position probed.
    pub m: Move,
    /// Its weight.
    pub weight: u16,
}

/// A book that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum EleeyeError {
    /// The file's length is no whole number of records.
    #[error("not an ElephantEye book: {len} bytes is no whole number of 8-byte records")]
    Length {
        /// The file's length.
        len: u64,
    },
    /// Reading failed.
    #[error("cannot read the book: {0}")]
    Io(#[from] io::Error),
}

/// The keys of the side to move and of each piece kind on each of qipu's
/// points, from ElephantEye's generator.
struct Tables {
    turn: Locks,
    /// By [`piece_kind`], then by qipu's point index.
    pieces: [[Locks; 90]; 14],
}

/// The RC4 stream cipher, the generator of ElephantEye's keys.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    /// The cipher keyed with `key` (not empty).
    fn new(key: &[u8]) -> Rc4 {
        let mut s = [0u8; 256];
        for (k, v) in s.iter_mut().enumerate() {
            *v = k as u8;
        }
        let mut j = 0u8;
        for k in 0..256 {
            j = j.wrapping_add(s[k]).wrapping_add(key[k % key.len()]);
            s.swap(k, usize::from(j));
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[usize::from(self.i)]);
        self.s.swap(usize::from(self.i), usize::from(self.j));
        self.s[usize::from(self.s[usize::from(self.i)].wrapping_add(self.s[usize::from(self.j)]))]
    }

    /// Four bytes, the first the lowest.
    fn word(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// The three words of a key: the hash-table index word (unused
    /// here), then the two locks.
    fn key(&mut self) -> Locks {
        let _index = self.word();
        let lock0 = self.word();
        let lock1 = self.word();
        Locks { lock1, lock0 }
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut rc4 = Rc4::new(&[0; 4]);
        let turn = rc4.key();
        let mut pieces = [[Locks { lock1: 0, lock0: 0 }; 90]; 14];
        for kind in &mut pieces {
            let mut by_cell = [Locks { lock1: 0, lock0: 0 }; 256];
            for key in &mut by_cell {
                *key = rc4.key();
            }
            for sq in Square::all() {
                kind[sq.index()] = by_cell[usize::from(cell(sq))];
            }
        }
        Tables { turn, pieces }
    })
}

/// ElephantEye's index of a piece kind: king, advisor, elephant, horse,
/// rook, cannon, pawn (0…6) for Red, the same plus 7 for Black.
fn piece_kind(color: Color, role: Role) -> usize {
    let role = match role {
        Role::King => 0,
        Role::Advisor => 1,
        Role::Elephant => 2,
        Role::Horse => 3,
        Role::Rook => 4,
        Role::Cannon => 5,
        Role::Pawn => 6,
    };
    role + 7 * color.index()
}

/// The engine's cell of a point: `x + 16 y`, `x` = 3 + file, `y` = 12 − rank.
pub(crate) fn cell(sq: Square) -> u8 {
    let x = sq.file().index() as u8 + 3;
    let y = 12 - sq.rank().index() as u8;
    x + 16 * y
}

/// The point of an engine cell, if it is on the board.
pub fn point(cell: u8) -> Option<Square> {
    let (x, y) = (cell & 15, cell >> 4);
    if !(3..=11).contains(&x) || !(3..=12).contains(&y) {
        return None;
    }
    Square::from_index(usize::from(12 - y) * 9 + usize::from(x - 3))
}

/// A move as the book writes it: origin cell + 256 × destination cell.
pub fn encode_move(m: Move) -> u16 {
    u16::from(cell(m.from)) | (u16::from(cell(m.to)) << 8)
}

/// The move of a book's 16-bit move, if both its cells are on the board.
pub(crate) fn decode_move(mv: u16) -> Option<Move> {
    let [from, to] = mv.to_le_bytes();
    Some(Move::new(point(from)?, point(to)?))
}

/// ElephantEye's locks of the placement `board` with `turn` to move.
pub fn key(board: &Board, turn: Color) -> Locks {
    keyed(board, turn, |sq| sq)
}

/// The locks of the mirror image of `board` (files `a`…`i` read `i`…`a`).
pub(crate) fn mirror_key(board: &Board, turn: Color) -> Locks {
    keyed(board, turn, Square::flip_horizontal)
}

fn keyed(board: &Board, turn: Color, at: impl Fn(Square) -> Square) -> Locks {
    let tables = tables();
    let mut key = if turn == Color::Black { tables.turn } else { Locks { lock1: 0, lock0: 0 } };
    for (sq, piece) in board.pieces() {
        let k = tables.pieces[piece_kind(piece.color, piece.role)][at(sq).index()];
        key.lock1 ^= k.lock1;
        key.lock0 ^= k.lock0;
    }
    key
}

/// The entries a game's move `m` from `pos` gives a book: the position or
/// its mirror, whichever has the smaller locks (`lock1`, then `lock0`),
/// with the move as seen there; both when the position is its own mirror
/// image (the move and its mirror, once when they are the same move).
pub fn entries(board: &Board, turn: Color, m: Move) -> impl Iterator<Item = (Locks, Move)> {
    let (key, mirror) = (key(board, turn), mirror_key(board, turn));
    let mut out = [None, None];
    if key <= mirror {
        out[0] = Some((key, m));
    }
    if mirror <= key && !(key == mirror && m.flip_horizontal() == m) {
        out[1] = Some((mirror, m.flip_horizontal()));
    }
    out.into_iter().flatten()
}

/// The file of `records`, which must be sorted by lock (see
/// [`Record`]'s order: lock, move, weight) for the engine to find them.
pub fn write(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(records.len() * RECORD_SIZE as usize);
    for r in records {
        out.extend_from_slice(&r.lock.to_le_bytes());
        out.extend_from_slice(&r.mv.to_le_bytes());
        out.extend_from_slice(&r.weight.to_le_bytes());
    }
    out
}

/// Every record of a book, in file order.
///
/// # Errors
///
/// When the book cannot be read or is no whole number of records.
pub fn read_all(book: &mut impl Read) -> Result<Vec<Record>, EleeyeError> {
    let mut bytes = Vec::new();
    book.read_to_end(&mut bytes)?;
    if !(bytes.len() as u64).is_multiple_of(RECORD_SIZE) {
        return Err(EleeyeError::Length { len: bytes.len() as u64 });
    }
    Ok(bytes.chunks_exact(RECORD_SIZE as usize).map(parse).collect())
}

fn parse(b: &[u8]) -> Record {
    Record {
        lock: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        mv: u16::from_le_bytes([b[4], b[5]]),
        weight: u16::from_le_bytes([b[6], b[7]]),
    }
}

/// The moves a book holds for `pos`, as ElephantEye finds them: the
/// records of the position's lock, else those of its mirror's lock
/// (mirrored back); moves that are not legal in `pos` are left out; the
/// heaviest first (moves of equal weight in file order). The book is
/// searched by halves, a few records read: it is never loaded whole.
///
/// # Errors
///
/// When the book cannot be read or is no whole number of records.
pub fn probe<R: Read + Seek>(book: &mut R, pos: &Position) -> Result<Vec<BookMove>, EleeyeError> {
    let len = book.seek(SeekFrom::End(0))?;
    if !len.is_multiple_of(RECORD_SIZE) {
        return Err(EleeyeError::Length { len });
    }
    let count = len / RECORD_SIZE;
    let (board, turn) = (pos.board(), pos.turn());
    let mut moves = Vec::new();
    for mirrored in [false, true] {
        let lock = if mirrored { mirror_key(board, turn) } else { key(board, turn) }.lock1;
        let mut at = lower_bound(book, count, lock)?;
        let mut found = false;
        book.seek(SeekFrom::Start(at * RECORD_SIZE))?;
        let mut buf = [0u8; RECORD_SIZE as usize];
        while at < count {
            book.read_exact(&mut buf)?;
            let record = parse(&buf);
            if record.lock != lock {
                break;
            }
            found = true;
            at += 1;
            let m = match decode_move(record.mv) {
                Some(m) if mirrored => m.flip_horizontal(),
                Some(m) => m,
                None => continue,
            };
            if pos.is_legal(m) && !moves.iter().any(|b: &BookMove| b.m == m) {
                moves.push(BookMove { m, weight: record.weight });
            }
        }
        if found {
            break;
        }
    }
    moves.sort_by_key(|b| std::cmp::Reverse(b.weight));
    Ok(moves)
}

/// The first record whose lock is not below `lock`.
fn lower_bound<R: Read + Seek>(book: &mut R, count: u64, lock: u32) -> io::Result<u64> {
    let (mut low, mut high) = (0u64, count);
    let mut buf = [0u8; 4];
    while low < high {
        let mid = low + (high - low) / 2;
        book.seek(SeekFrom::Start(mid * RECORD_SIZE))?;
        book.read_exact(&mut buf)?;
        if u32::from_le_bytes(buf) < lock {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    Ok(low)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_moves_round_trip() {
        for sq in Square::all() {
            assert_eq!(point(cell(sq)), Some(sq));
        }
        // a9 is the engine's top left cell 0x33, i0 its bottom right 0xcb.
        assert_eq!(cell(Square::A9), 0x33);
        assert_eq!(cell(Square::I0), 0xcb);
        assert_eq!(point(0), None);
        assert_eq!(point(0x3c), None);
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(decode_move(encode_move(m)), Some(m));
    }

    #[test]
    fn mirror_key_is_the_key_of_the_mirrored_board() {
        let pos =
            Position::from_fen("rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w").unwrap();
        let mirrored = pos.board().mirrored();
        assert_eq!(mirror_key(pos.board(), pos.turn()), key(&mirrored, pos.turn()));
        assert_ne!(key(pos.board(), pos.turn()), key(&mirrored, pos.turn()));
        assert_ne!(key(pos.board(), Color::Red), key(pos.board(), Color::Black));
    }

    #[test]
    fn symmetric_positions_give_both_moves() {
        let start = Position::start();
        let m: Move = "h2e2".parse().unwrap();
        let got: Vec<Move> = entries(start.board(), start.turn(), m).map(|(_, m)| m).collect();
        assert_eq!(got, vec![m, m.flip_horizontal()]);
        let centre: Move = "e3e4".parse().unwrap();
        assert_eq!(entries(start.board(), start.turn(), centre).count(), 1);
    }

    #[test]
    fn probing_a_bad_length_fails() {
        let err = probe(&mut io::Cursor::new(vec![0u8; 9]), &Position::start()).unwrap_err();
        assert!(err.to_string().contains("9 bytes"), "{err}");
        assert!(probe(&mut io::Cursor::new(Vec::new()), &Position::start()).unwrap().is_empty());
    }
}
