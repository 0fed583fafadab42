//! 联众 `.chn` files: a 188-byte header, then 32-byte move records (the
//! layout: [`super`]).

use super::{OnlineError, OnlineErrorKind, Records, error};
use crate::formats::tree::Game;
use crate::record::{Record, RecordBuilder, Visitor};

/// The size of the header.
pub const HEADER_LEN: usize = 188;
/// The size of a move record.
pub(crate) const RECORD_LEN: usize = 32;

/// The layout: records after the header; from column, from row, to column
/// and to row the words at bytes 4, 6, 8 and 10.
const LAYOUT: Records = Records { start: HEADER_LEN, size: RECORD_LEN, fields: [4, 6, 8, 10], words: true };

/// Whether `bytes` look like a `.chn` file: after the 188-byte header, its
/// whole 32-byte records (at least one) two different squares on the
/// board: the first, and at least three in four.
pub(crate) fn is_chn(bytes: &[u8]) -> bool {
    LAYOUT.mostly_on_board(bytes)
}

/// Reads the game of a `.chn` file.
///
/// # Errors
///
/// An [`OnlineError`] for a file shorter than the header, at a square off
/// the board, or at a last record of fewer than 32 bytes.
///
/// ```
/// let mut file = vec![0u8; 188 + 32];
/// file[188 + 4..188 + 12].copy_from_slice(&[1, 0, 2, 0, 4, 0, 2, 0]);
/// let record = qipu::formats::online::chn::read(&file)?;
/// assert_eq!(record.replayed().moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["h2e2"]);
/// # Ok::<(), qipu::formats::online::OnlineError>(())
/// ```
pub fn read(bytes: &[u8]) -> Result<Record, OnlineError> {
    read_with(bytes, &mut RecordBuilder::default())
}

/// Reads a `.chn` file with `visitor`; the whole file is read (and
/// checked) before the first event, so a file that cannot be read tells
/// nothing; no [`Record`] is built.
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Result<V::Output, OnlineError> {
    Ok(read_game(bytes)?.tell(visitor))
}

/// Reads a `.chn` file into a game.
pub(crate) fn read_game(bytes: &[u8]) -> Result<Game, OnlineError> {
    if bytes.len() < HEADER_LEN {
        return Err(error(bytes.len(), OnlineErrorKind::ShortHeader { len: bytes.len() }));
    }
    LAYOUT.read(bytes)
}

#[cfg(test)]
mod tests {
    use super::super::OnlineErrorKind as Kind;
    use super::*;
    use crate::{Move, Square};

    /// A `.chn` file of `moves`, the board turned round when `turned`.
    fn file(moves: &[Move], turned: bool) -> Vec<u8> {
        let mut out = vec![0x55; HEADER_LEN];
        for (k, m) in moves.iter().enumerate() {
            let point = |s: Square| {
                let (column, row) = (s.file().index() as u16, 9 - s.rank().index() as u16);
                if turned { (8 - column, 9 - row) } else { (column, row) }
            };
            let ((c1, r1), (c2, r2)) = (point(m.from), point(m.to));
            let mut words = [0u16; 16];
            words[0] = k as u16;
            words[2..6].copy_from_slice(&[c1, r1, c2, r2]);
            words[15] = 0xFFFF;
            out.extend(words.iter().flat_map(|w| w.to_le_bytes()));
        }
        out
    }

    #[test]
    fn is_chn_as_its_docs_showed() {
        use crate::formats::online::chn::is_chn;
        let mut file = vec![0u8; 188 + 32];
        file[188 + 4..188 + 12].copy_from_slice(&[1, 0, 2, 0, 4, 0, 2, 0]); // h2-e2, turned round
        assert!(is_chn(&file));
        file[188 + 5] = 1; // a column of 257
        assert!(!is_chn(&file));
    }

    #[test]
    fn random_legal_games_read_back_move_for_move_either_way_round() {
        for (k, played) in super::super::tests::random_games(9, 100, 300).into_iter().enumerate() {
            let bytes = file(&played, k % 2 == 1);
            assert_eq!(is_chn(&bytes), !played.is_empty());
            let record = read(&bytes).unwrap();
            let replayed = record.replayed();
            assert!(replayed.is_valid(), "{:?}", replayed.error);
            assert_eq!(replayed.moves, played);
        }
    }

    #[test]
    fn damaged_files_say_where_and_why() {
        let good = file(&[Move::new(Square::H2, Square::E2), Move::new(Square::H9, Square::G7)], false);
        assert!(read(&good).is_ok());
        let e = |bytes: &[u8]| read(bytes).unwrap_err();
        assert_eq!(e(&good[..100]).kind, Kind::ShortHeader { len: 100 });
        let cut = e(&good[..HEADER_LEN + RECORD_LEN + 5]);
        assert_eq!((cut.offset, cut.kind), (HEADER_LEN + RECORD_LEN, Kind::Truncated { len: 5, size: 32 }));
        let mut off = good.clone();
        off[HEADER_LEN + RECORD_LEN + 7] = 1;
        let at = HEADER_LEN + RECORD_LEN + 6;
        assert_eq!((e(&off).offset, e(&off).kind), (at, Kind::OffBoard { what: "row", value: 256, max: 9 }));
        assert!(read(&good[..HEADER_LEN]).unwrap().replayed().moves.is_empty());
    }
}
