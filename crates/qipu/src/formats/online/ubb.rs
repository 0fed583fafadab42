//! A bare 东萍 (UBB) move list: a file of digits only, four a move, as the
//! value of a DhtmlXQ `[DhtmlXQ_movelist]` tag holds them (`77477062…`).
//!
//! Each move is `x1 y1 x2 y2`: the from square's column (0 is file a, 8
//! file i) and row (0 is the top rank, rank 9, 9 Red's back rank), then the
//! to square's: `7747` is h2e2, `7062` is h9g7 (see [`super::super::dhtmlxq`]).
//! The game starts from the standard position; the side that moves first is
//! that of the first move's piece, as in a DhtmlXQ record without a start
//! position (Black, from the standard start, with a warning).
//!
//! Told by content: digits and white space only, every word of digits a
//! multiple of four long (a QQ象棋 `.che` file's numbers are one or two
//! digits), at least one move, the first naming two different squares on
//! the board and at least three in four doing so. A `.che` file is told
//! first.
//!
//! ```
//! use qipu::formats::online::ubb;
//! let record = ubb::read(b"7747 7062\r\n")?;
//! let moves: Vec<String> = record.replayed().moves.iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["h2e2", "h9g7"]);
//! # Ok::<(), qipu::formats::online::OnlineError>(())
//! ```

use super::{Line, OnlineError, OnlineErrorKind, error, square};
use crate::formats::tree::Game;
use crate::record::{MoveText, Record, RecordBuilder, RecordedMove, Span, Visitor};
use crate::{Board, Move};

/// The digits of the file, each with its offset.
fn digits(bytes: &[u8]) -> impl Iterator<Item = (u32, usize)> + '_ {
    bytes.iter().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, &b)| (u32::from(b - b'0'), i))
}

/// Whether `bytes` is a bare move list (see the [module docs](self)).
pub(crate) fn is_ubb(bytes: &[u8]) -> bool {
    if bytes.is_empty() || !bytes.iter().all(|b| b.is_ascii_digit() || b.is_ascii_whitespace()) {
        return false;
    }
    if !bytes.split(u8::is_ascii_whitespace).all(|word| word.len() % 4 == 0) {
        return false;
    }
    let all: Vec<u32> = digits(bytes).map(|(d, _)| d).collect();
    let on_board = |m: &[u32]| m[0] <= 8 && m[2] <= 8 && (m[0], m[1]) != (m[2], m[3]);
    let moves = all.chunks_exact(4);
    let count = moves.len();
    let good = moves.clone().filter(|m| on_board(m)).count();
    count > 0 && all.chunks_exact(4).next().is_some_and(on_board) && good * 4 >= count * 3
}

/// Reads a bare move list.
///
/// # Errors
///
/// An [`OnlineError`] at a byte that is no digit nor white space, a column
/// off the board, or a last move of fewer than four digits.
pub fn read(bytes: &[u8]) -> Result<Record, OnlineError> {
    read_with(bytes, &mut RecordBuilder::default())
}

/// Reads a bare move list with `visitor`; the whole file is read (and
/// checked) before the first event, so a file that cannot be read tells
/// nothing.
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Result<V::Output, OnlineError> {
    Ok(read_game(bytes)?.tell(visitor))
}

/// Reads a bare move list into a game.
pub(crate) fn read_game(bytes: &[u8]) -> Result<Game, OnlineError> {
    if let Some(at) = bytes.iter().position(|b| !b.is_ascii_digit() && !b.is_ascii_whitespace()) {
        return Err(error(at, OnlineErrorKind::NotANumber { byte: bytes[at] }));
    }
    let all: Vec<(u32, usize)> = digits(bytes).collect();
    let mut game = Game::at_byte(0);
    let mut node = game.moves.root();
    for m in all.chunks(4) {
        let [(x1, a1), (y1, b1), (x2, a2), (y2, b2)] = m[..] else {
            return Err(error(m[0].1, OnlineErrorKind::Truncated { len: m.len(), size: 4 }));
        };
        let mv = Move::new(square(x1, Line::Row(y1), (a1, b1))?, square(x2, Line::Row(y2), (a2, b2))?);
        let at = Span { line: 0, column: u32::try_from(a1).unwrap_or(u32::MAX) };
        node = game.moves.add_child(node, RecordedMove { text: MoveText::Coords(mv), at });
    }
    crate::formats::start::settle_start(
        &mut game,
        &Board::start(),
        Span { line: 0, column: 0 },
        None,
        (0, 1),
    );
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ubb_moves_are_told_from_a_che_file() {
        assert!(is_ubb(b"77477062\n"));
        assert!(!is_ubb(b"1 2 26 32 1 2 7 2 4 0 1 0"));
    }

    #[test]
    fn a_move_list_reads_and_bad_ones_are_told() {
        let record = read(b"77477062 79671022\n").unwrap();
        assert!(record.replayed().is_valid());
        assert_eq!(record.replayed().moves.len(), 4);
        // Black first from the standard start: read so, with a warning.
        let record = read(b"72427747").unwrap();
        assert!(record.replayed().is_valid());
        assert!(
            record.warnings()[0].message.contains("does not say who moves first"),
            "{:?}",
            record.warnings()
        );
        // A column off the board, a move cut short.
        assert!(matches!(read(b"77479062").unwrap_err().kind, OnlineErrorKind::OffBoard { .. }));
        assert!(matches!(read(b"774770").unwrap_err().kind, OnlineErrorKind::Truncated { len: 2, size: 4 }));
        // Not move lists: a `.che` file's numbers, one digit too many, a
        // first move that stays put, text.
        for bytes in [&b"1 2 26 32 1 2 7 2 4 0 1 0"[..], b"774770621", b"7777", b"h2e2", b""] {
            assert!(!is_ubb(bytes), "{bytes:?}");
        }
    }

    #[test]
    fn random_games_read_back() {
        for moves in super::super::tests::random_games(0x00bb_1157, 40, 150) {
            let text: String = moves
                .iter()
                .map(|m| {
                    let (f, t) = (m.from, m.to);
                    format!(
                        "{}{}{}{}",
                        f.file().index(),
                        9 - f.rank().index(),
                        t.file().index(),
                        9 - t.rank().index()
                    )
                })
                .collect();
            assert!(moves.is_empty() || is_ubb(text.as_bytes()), "{text}");
            if moves.is_empty() {
                continue;
            }
            let record = read(text.as_bytes()).unwrap();
            assert_eq!(record.replayed().moves, moves);
        }
    }
}
