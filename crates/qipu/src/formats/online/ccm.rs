//! 中游 `.ccm` files: 7-byte move records (the layout: [`super`]).

use super::{OnlineError, Records};
use crate::formats::tree::Game;
use crate::record::{Record, RecordBuilder, Visitor};

/// The size of a move record.
pub(crate) const RECORD_LEN: usize = 7;

/// The layout: records from byte 0; from column, to column, from row, to
/// row at bytes 3 to 6.
const LAYOUT: Records = Records { start: 0, size: RECORD_LEN, fields: [3, 5, 4, 6], words: false };

/// Whether `bytes` look like a `.ccm` file: its first byte `01`, and its
/// whole 7-byte records (at least one) two different squares on the board:
/// the first, and at least three in four.
pub(crate) fn is_ccm(bytes: &[u8]) -> bool {
    bytes.first() == Some(&1) && LAYOUT.mostly_on_board(bytes)
}

/// Reads the game of a `.ccm` file.
///
/// # Errors
///
/// An [`OnlineError`] at a square off the board, or at a last record of
/// fewer than 7 bytes.
///
/// ```
/// // h2-e2, h9-g7, stored with the board turned round.
/// let record = qipu::formats::online::ccm::read(&[1, 0, 0, 1, 4, 2, 2, 1, 0, 0, 1, 2, 9, 7])?;
/// let moves: Vec<String> = record.replayed().moves.iter().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["h2e2", "h9g7"]);
/// # Ok::<(), qipu::formats::online::OnlineError>(())
/// ```
pub fn read(bytes: &[u8]) -> Result<Record, OnlineError> {
    read_with(bytes, &mut RecordBuilder::default())
}

/// Reads a `.ccm` file with `visitor`; the whole file is read (and
/// checked) before the first event, so a file that cannot be read tells
/// nothing; no [`Record`] is built.
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Result<V::Output, OnlineError> {
    Ok(read_game(bytes)?.tell(visitor))
}

/// Reads a `.ccm` file into a game.
pub(crate) fn read_game(bytes: &[u8]) -> Result<Game, OnlineError> {
    LAYOUT.read(bytes)
}

#[cfg(test)]
mod tests {
    use super::super::OnlineErrorKind as Kind;
    use super::*;
    use crate::{Move, Square};

    /// A `.ccm` file of `moves`, the board turned round when `turned`.
    fn file(moves: &[Move], turned: bool) -> Vec<u8> {
        let mut out = Vec::new();
        for m in moves {
            let point = |s: Square| {
                let (column, row) = (s.file().index() as u8, 9 - s.rank().index() as u8);
                if turned { (8 - column, 9 - row) } else { (column, row) }
            };
            let ((c1, r1), (c2, r2)) = (point(m.from), point(m.to));
            out.extend([1, 0, 0, c1, c2, r1, r2]);
        }
        out
    }

    #[test]
    fn is_ccm_as_its_docs_showed() {
        use crate::formats::online::ccm::is_ccm;
        assert!(is_ccm(&[1, 0, 0, 1, 4, 2, 2])); // h2-e2, the board turned round
        assert!(!is_ccm(&[1, 0, 0, 1, 1, 2, 2])); // from and to the same square
        assert!(!is_ccm(b"\x01abcdef"));
    }

    #[test]
    fn random_legal_games_read_back_move_for_move_either_way_round() {
        for (k, played) in super::super::tests::random_games(5, 100, 300).into_iter().enumerate() {
            let bytes = file(&played, k % 2 == 0);
            assert_eq!(is_ccm(&bytes), !played.is_empty());
            let record = read(&bytes).unwrap();
            let replayed = record.replayed();
            assert!(replayed.is_valid(), "{:?}", replayed.error);
            assert_eq!(replayed.moves, played);
        }
    }

    #[test]
    fn damaged_files_say_where_and_why() {
        let good = file(&[Move::new(Square::H2, Square::E2), Move::new(Square::H9, Square::G7)], true);
        let e = |bytes: &[u8]| read(bytes).unwrap_err();
        let cut = e(&good[..10]);
        assert_eq!((cut.offset, cut.kind), (7, Kind::Truncated { len: 3, size: 7 }));
        let mut off = good.clone();
        off[11] = 9;
        assert_eq!((e(&off).offset, e(&off).kind), (11, Kind::OffBoard { what: "column", value: 9, max: 8 }));
        off[11] = 2;
        off[13] = 200;
        assert_eq!((e(&off).offset, e(&off).kind), (13, Kind::OffBoard { what: "row", value: 200, max: 9 }));
        assert!(!is_ccm(&off));
    }
}
