//! QQ象棋 `.che` files: a count of moves, then ten numbers a move, in
//! ASCII text (the layout: [`super`]).

use super::{Line, OnlineError, OnlineErrorKind as Kind, add_moves, error, square};
use crate::formats::tree::Game;
use crate::record::{Record, RecordBuilder, Visitor};
use crate::{Move, Square};

/// The numbers of a move.
const PER_MOVE: usize = 10;

/// The numbers of a text with their offsets; an `Err` at a byte that is no
/// digit nor white space, or a number too large, ends them.
fn numbers(bytes: &[u8]) -> impl Iterator<Item = Result<(u32, usize), OnlineError>> + '_ {
    let mut at = 0;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let start = at;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let digits = &bytes[start..at];
        if digits.is_empty() {
            let &byte = bytes.get(at)?;
            failed = true;
            return Some(Err(error(at, Kind::NotANumber { byte })));
        }
        let value = std::str::from_utf8(digits).ok().and_then(|d| d.parse::<u32>().ok());
        match value {
            Some(value) => Some(Ok((value, start))),
            None => {
                failed = true;
                Some(Err(error(start, Kind::TooLarge { digits: digits.len() })))
            }
        }
    })
}

/// Whether `bytes` look like a `.che` file: only digits and white space,
/// at least 12 numbers (a count and one move), a count of at least one
/// move, the first move two different squares on the board; and either
/// exactly the numbers the count calls for, or a first move laid out as
/// vschess writes one (`32` second, `1` third for Red, its number `1`
/// ninth), so that a damaged file is still told, and a table of numbers
/// is not.
pub(crate) fn is_che(bytes: &[u8]) -> bool {
    if !bytes.iter().all(|b| b.is_ascii_digit() || b.is_ascii_whitespace()) {
        return false;
    }
    let mut all = numbers(bytes).map_while(Result::ok).map(|(n, _)| n);
    let head: Vec<u32> = all.by_ref().take(2 + PER_MOVE).collect();
    let [_, moves, _, code, side, from_rank, from_column, to_rank, to_column, _, number, _] = head[..] else {
        return false;
    };
    let on_board = moves >= 1
        && from_rank <= 9
        && to_rank <= 9
        && from_column <= 8
        && to_column <= 8
        && (from_rank, from_column) != (to_rank, to_column);
    let counted = || (all.count() as u64) == (u64::from(moves) - 1) * PER_MOVE as u64;
    on_board && ((code, side, number) == (32, 1, 1) || counted())
}

/// Reads the game of a `.che` file.
///
/// # Errors
///
/// An [`OnlineError`] at a byte that is no digit nor white space, a number
/// too large, a square off the board, or when the numbers do not match
/// the count of moves.
///
/// ```
/// let record = qipu::formats::online::che::read(b"1 2 26 32 1 2 7 2 4 0 1 0 5 32 0 9 7 7 6 0 2 0 ")?;
/// let moves: Vec<String> = record.replayed().moves.iter().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["h2e2", "h9g7"]);
/// # Ok::<(), qipu::formats::online::OnlineError>(())
/// ```
pub fn read(bytes: &[u8]) -> Result<Record, OnlineError> {
    read_with(bytes, &mut RecordBuilder::default())
}

/// Reads a `.che` file with `visitor`; the whole file is read (and
/// checked) before the first event, so a file that cannot be read tells
/// nothing; no [`Record`] is built.
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Result<V::Output, OnlineError> {
    Ok(read_game(bytes)?.tell(visitor))
}

/// Reads a `.che` file into a game.
pub(crate) fn read_game(bytes: &[u8]) -> Result<Game, OnlineError> {
    let mut all = numbers(bytes);
    let (Some(_), Some(count)) = (all.next().transpose()?, all.next().transpose()?) else {
        return Err(error(bytes.len(), Kind::NoCount));
    };
    let declared = count.0;
    let mut moves = Vec::new();
    let mut first_piece = None;
    let mut numbers = 2usize;
    let mut extra = None;
    let mut group = [(0u32, 0usize); PER_MOVE];
    let mut filled = 0;
    for n in all {
        let n = n?;
        if moves.len() as u64 >= u64::from(declared) {
            extra.get_or_insert(n.1);
        } else {
            group[filled] = n;
            filled += 1;
            if filled == PER_MOVE {
                filled = 0;
                let from = square(group[4].0, Line::Rank(group[3].0), (group[4].1, group[3].1))?;
                let to = square(group[6].0, Line::Rank(group[5].0), (group[6].1, group[5].1))?;
                if moves.is_empty() {
                    first_piece = Some(group[0].0);
                }
                moves.push((Move::new(from, to), group[0].1));
            }
        }
        numbers += 1;
    }
    if moves.len() as u64 != u64::from(declared) || extra.is_some() {
        let at = extra.unwrap_or(bytes.len());
        return Err(error(at, Kind::Count { moves: declared, numbers }));
    }
    let mirrored = counted_from_file_i(first_piece, &moves);
    if mirrored {
        for (mv, _) in &mut moves {
            *mv = Move::new(mv.from.flip_horizontal(), mv.to.flip_horizontal());
        }
    }
    let mut game = Game::at_byte(0);
    add_moves(&mut game, &moves, false);
    Ok(game)
}

/// vschess's numbers of the pieces, by their start squares (file a as 0,
/// rank): Black's 0 to 15, Red's 16 to 31.
const VSCHESS_NUMBERS: [(u32, u32); 32] = [
    (4, 9),
    (5, 9),
    (3, 9),
    (6, 9),
    (2, 9),
    (7, 9),
    (1, 9),
    (8, 9),
    (0, 9),
    (7, 7),
    (1, 7),
    (8, 6),
    (6, 6),
    (4, 6),
    (2, 6),
    (0, 6),
    (4, 0),
    (3, 0),
    (5, 0),
    (2, 0),
    (6, 0),
    (1, 0),
    (7, 0),
    (0, 0),
    (8, 0),
    (1, 2),
    (7, 2),
    (0, 3),
    (2, 3),
    (4, 3),
    (6, 3),
    (8, 3),
];

/// Whether a file's columns count from file i, as vschess writes them: the
/// first move's piece number is vschess's number of the piece on the
/// mirror of its from square (read from file a), and not of the piece on
/// that square.
fn counted_from_file_i(piece: Option<u32>, moves: &[(Move, usize)]) -> bool {
    let (Some(piece), Some((first, _))) = (piece, moves.first()) else {
        return false;
    };
    let number = |square: Square| {
        let at = (square.file().index() as u32, square.rank().index() as u32);
        VSCHESS_NUMBERS.iter().position(|&p| p == at).map(|n| n as u32)
    };
    number(first.from.flip_horizontal()) == Some(piece) && number(first.from) != Some(piece)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.che` file of `moves`, as vschess lays it out but with columns
    /// counted from file a, as ElephantEye reads them.
    pub(crate) fn file(moves: &[Move]) -> Vec<u8> {
        let mut text = format!("1 {} ", moves.len());
        for (k, m) in moves.iter().enumerate() {
            let (f, t) = (m.from, m.to);
            text += &format!(
                "{} 32 {} {} {} {} {} 0 {} 0 ",
                k % 32,
                1 - k % 2,
                f.rank().index(),
                f.file().index(),
                t.rank().index(),
                t.file().index(),
                k + 1
            );
        }
        text.into_bytes()
    }

    #[test]
    fn is_che_as_its_docs_showed() {
        use crate::formats::online::che::is_che;
        assert!(is_che(b"1 1 26 32 1 2 7 2 4 0 1 0 "));
        assert!(is_che(b"1 2 26 32 1 2 7 2 4 0 1 0 ")); // a move missing, told (and reported)
        assert!(!is_che(b"1 2 26 30 1 2 7 2 4 0 1 0 ")); // nor the count nor vschess's layout
        assert!(!is_che(b"1 1 26 32 1 2 7 2 9 0 1 0 ")); // column 9
        assert!(!is_che(b"[Event \"1 2 3\"]"));
    }

    #[test]
    fn random_legal_games_read_back_move_for_move() {
        for played in super::super::tests::random_games(3, 100, 300) {
            let bytes = file(&played);
            assert_eq!(is_che(&bytes), !played.is_empty());
            let record = read(&bytes).unwrap();
            let replayed = record.replayed();
            assert!(replayed.is_valid(), "{:?}", replayed.error);
            assert_eq!(replayed.moves, played);
            assert_eq!(record.tag("FEN"), None);
        }
    }

    #[test]
    fn a_file_counting_columns_from_file_i_is_told_by_its_piece_numbers() {
        let played = super::super::tests::random_games(21, 30, 60);
        for played in played.iter().filter(|p| !p.is_empty()) {
            // Written as vschess writes: its piece numbers, columns from i.
            let mut board: std::collections::HashMap<Square, u32> = VSCHESS_NUMBERS
                .iter()
                .enumerate()
                .map(|(n, &(f, r))| {
                    let square = Square::new(crate::File::new(f).unwrap(), crate::Rank::new(r).unwrap());
                    (square, n as u32)
                })
                .collect();
            let mut text = format!("1 {} ", played.len());
            for (k, m) in played.iter().enumerate() {
                let piece = board.remove(&m.from).unwrap();
                board.insert(m.to, piece);
                let (f, t) = (m.from, m.to);
                let (c1, c2) = (8 - f.file().index(), 8 - t.file().index());
                let (r1, r2) = (f.rank().index(), t.rank().index());
                text += &format!("{piece} 32 {} {r1} {c1} {r2} {c2} 0 {} 0 ", 1 - k % 2, k + 1);
            }
            let moves = read(text.as_bytes()).unwrap().replayed().moves.clone();
            // A first move on file e reads the same either way: the rest
            // of such a game is read from file a.
            if played[0].from.file().index() != 4 {
                assert_eq!(&moves, played);
            }
        }
        // Without piece numbers that tell, columns count from file a.
        let plain = read(b"1 1 0 32 1 2 7 2 4 0 1 0 ").unwrap();
        assert_eq!(plain.replayed().moves[0].to_string(), "h2e2");
        let vschess = read(b"1 1 26 32 1 2 1 2 4 0 1 0 ").unwrap();
        assert_eq!(vschess.replayed().moves[0].to_string(), "h2e2");
    }

    #[test]
    fn damaged_files_say_where_and_why() {
        let good = file(&[Move::new(crate::Square::H2, crate::Square::E2)]);
        assert!(read(&good).is_ok());
        let e = |bytes: &[u8]| read(bytes).unwrap_err();
        let cut = e(&good[..good.len() - 3]);
        assert_eq!((cut.offset, cut.kind), (good.len() - 3, Kind::Count { moves: 1, numbers: 11 }));
        let mut longer = good.clone();
        longer.extend(b"7 ");
        assert_eq!(e(&longer).offset, good.len());
        let mut letter = good.clone();
        letter[4] = b'x';
        assert_eq!((e(&letter).offset, e(&letter).kind), (4, Kind::NotANumber { byte: b'x' }));
        assert_eq!(e(b"1 99999999999 ").kind, Kind::TooLarge { digits: 11 });
        assert_eq!(e(b"1").kind, Kind::NoCount);
        let off = e(b"1 1 0 32 1 12 7 2 4 0 1 0");
        assert_eq!((off.offset, off.kind), (11, Kind::OffBoard { what: "rank", value: 12, max: 9 }));
        let off = e(b"1 1 0 32 1 2 7 2 9 0 1 0");
        assert_eq!((off.offset, off.kind), (17, Kind::OffBoard { what: "column", value: 9, max: 8 }));
    }
}
