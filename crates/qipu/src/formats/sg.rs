//! `.SG` game files: fixed-size records, one game each, one after another.
//!
//! # Layout
//!
//! Documented nowhere; read from the 48 files (1,038 games) of the
//! development corpus, where every game replays legally. A file is a run
//! of 1,192-byte records; in each, at these byte offsets:
//!
//! | offset | size | field | example |
//! |---|---|---|---|
//! | `0x00` | 32 | Red's name, GBK, padded with spaces | `湖北李望祥` |
//! | `0x20` | 32 | Black's name | `上海胡荣华` |
//! | `0x40` | 8 | the result: `R+` Red won, `B+` Black won, `D=` drawn, `---` not known (a third character, `c` or `=`, and spaces follow) | `R+c` |
//! | `0x48` | 10 | the date | `2004-12-29` |
//! | `0x52` | 128 | the start position: the 32 pieces, each three digits and a space, Red's then Black's, each side in the order pawn ×5, cannon ×2, horse ×2, rook ×2, elephant ×2, advisor ×2, king; a point is `row × 16 + column + 1` on a 16×16 board whose rows 3 to 12 are ranks 9 to 0 and whose columns 3 to 11 are files a to i; `000` is a piece not on the board | `148 150 …` |
//! | `0xD2` | 900 | the moves, two bytes each, from and to, a point being `file × 10 + (9 − rank) + 10` (file a is 0); after the last, the pair `09 20`, then spaces | `57 39` (h2-e2) |
//! | `0x456` | 6 | `0 1 1 ` in every record seen (not understood) | |
//! | `0x45C` | 76 | zeros | |
//!
//! The points could be read from the other side (file i as 0): the rules
//! cannot tell, since a game mirrored is as legal. The files' openings
//! decide: read as above, 611 of the 1,038 games open h2-e2 (炮二平五),
//! the commonest opening, and 14 b2-e2, where the mirror would give the
//! reverse.
//!
//! The fields are kept as the tags `Red`, `Black`, `Result` and `Date`.
//! Bytes the layout does not explain (anything but spaces after the
//! moves, another trailer than `0 1 1`) are not read, and a warning says
//! so. In 40 of the corpus's files the names are text once misread as
//! Big5 and written back as GBK (`广东` stored as `嫘陲`), with some
//! characters lost; they are kept as stored.

use super::tree::Game;
use crate::record::{GameResult, MoveText, Record, RecordBuilder, RecordedMove, Span, Visitor, Warning};
use crate::{Board, Color, Move, Piece, Role, Square};

use super::ByteError;

/// The size of a record.
pub(crate) const RECORD_LEN: usize = 1192;

/// Where the moves start in a record.
const MOVES_AT: usize = 0xD2;
/// Where the moves' area ends (the trailer starts).
const TRAILER_AT: usize = 0x456;
/// Where the piece list starts.
const PIECES_AT: usize = 0x52;
/// The trailer every record seen holds.
const TRAILER: &[u8] = b"0 1 1 ";

/// Why an `.SG` record cannot be read: the offset counts in the file.
pub type SgError = ByteError<SgErrorKind>;

/// What is wrong in an `.SG` record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgErrorKind {
    /// The file ends inside a record.
    #[error("a record of {len} bytes at the end of the file: a record has 1192")]
    Truncated {
        /// The bytes the last record has.
        len: usize,
    },
    /// A piece's point is not three digits, or not on the board.
    #[error("{text:?} is no point of the board (three digits, 000 for a piece not on it)")]
    BadPoint {
        /// The field as stored.
        text: String,
    },
    /// Two pieces of the start position on one point.
    #[error(transparent)]
    SharedPoint(#[from] super::SharedPoint),
    /// A move's pair of bytes is neither two points nor the end.
    #[error("bytes {0:02x} {1:02x} are no move (two points from 10 to 99) nor the end of the moves (09 20)")]
    BadMove(u8, u8),
}

/// Whether `bytes` start like an `.SG` file: printable text where the
/// result and date stand, and 32 three-digit points each followed by a
/// space at `0x52`.
pub(crate) fn is_sg(bytes: &[u8]) -> bool {
    let (Some(head), Some(pieces)) = (bytes.get(0x40..PIECES_AT), bytes.get(PIECES_AT..MOVES_AT)) else {
        return false;
    };
    head.iter().all(|b| b.is_ascii_graphic() || *b == b' ')
        && pieces.chunks(4).all(|p| p[..3].iter().all(u8::is_ascii_digit) && p[3] == b' ')
}

/// Reads the games of an `.SG` file, each record alone: a record that
/// cannot be read is an `Err` with its offset, and the others are read.
///
/// ```
/// let mut file = vec![b' '; 1192];
/// file[0x40..0x43].copy_from_slice(b"R+c");
/// file[0x48..0x52].copy_from_slice(b"2004-12-29");
/// let pieces = "148 150 152 154 156 165 171 197 203 196 204 198 202 199 201 200 \
///               100 102 104 106 108 085 091 053 059 052 060 054 058 055 057 056 ";
/// file[0x52..0xD2].copy_from_slice(pieces.as_bytes());
/// file[0xD2..0xD6].copy_from_slice(&[87, 57, 80, 72]); // h2-e2, h9-g7
/// file[0xD6..0xD8].copy_from_slice(&[0x09, 0x20]);
/// let games = qipu::formats::sg::read(&file);
/// let record = games[0].as_ref().unwrap();
/// assert_eq!((record.tag("Result"), record.tag("Date")), (Some("1-0"), Some("2004-12-29")));
/// let moves: Vec<String> = record.replayed().moves.iter().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["h2e2", "h9g7"]);
/// ```
pub fn read(bytes: &[u8]) -> Vec<Result<Record, SgError>> {
    let mut records = Vec::with_capacity(bytes.len().div_ceil(RECORD_LEN));
    read_with(bytes, &mut RecordBuilder::default(), |record| records.push(record));
    records
}

/// Reads the records of a `.SG` file with `visitor`, handing what it makes
/// of each game (or why the record cannot be read) to `each`, in file
/// order, as [`read`] gives them; no [`Record`] is built.
pub fn read_with<V: Visitor>(
    bytes: &[u8],
    visitor: &mut V,
    mut each: impl FnMut(Result<V::Output, SgError>),
) {
    each_game(bytes, |game| each(game.map(|game| game.tell(visitor))));
}

/// Reads the records of a `.SG` file, handing each game (or why it cannot
/// be read) to `each`.
pub(crate) fn each_game(bytes: &[u8], mut each: impl FnMut(Result<Game, SgError>)) {
    for (k, record) in bytes.chunks(RECORD_LEN).enumerate() {
        let base = k * RECORD_LEN;
        if record.len() < RECORD_LEN {
            let kind = SgErrorKind::Truncated { len: record.len() };
            each(Err(SgError { offset: base, in_inflated_data: false, kind }));
            continue;
        }
        each(read_record(record, base));
    }
}

/// Reads one record, found at `base` in its file.
fn read_record(bytes: &[u8], base: usize) -> Result<Game, SgError> {
    let error = |at: usize, kind| SgError { offset: base + at, in_inflated_data: false, kind };
    let span = |at: usize| Span { line: 0, column: u32::try_from(base + at).unwrap_or(u32::MAX) };
    let mut record = Game { at: span(0), ..Game::default() };
    for (tag, at) in [("Red", 0x00), ("Black", 0x20)] {
        let name = gbk(&bytes[at..at + 32]);
        if !name.is_empty() {
            record.tag(tag, name);
        }
    }
    let result_field = &bytes[0x40..0x48];
    let result = match &result_field[..2] {
        b"R+" => Some(GameResult::RedWins),
        b"B+" => Some(GameResult::BlackWins),
        b"D=" => Some(GameResult::Draw),
        b"--" => None,
        _ => {
            let message = format!("result {:?} not understood, not read", gbk(result_field));
            record.warnings.push(Warning { at: span(0x40), message });
            None
        }
    };
    if let Some(result) = result {
        record.tag("Result", result.as_str());
        record.result = Some(result);
    }
    let date = gbk(&bytes[0x48..PIECES_AT]);
    if !date.is_empty() {
        record.tag("Date", date);
    }
    let board = start_board(&bytes[PIECES_AT..MOVES_AT]).map_err(|(at, kind)| error(PIECES_AT + at, kind))?;

    let mut node = record.moves.root();
    let mut at = MOVES_AT;
    while at < TRAILER_AT {
        let (from, to) = (bytes[at], bytes[at + 1]);
        if (from, to) == (0x09, 0x20) {
            at += 2;
            break;
        }
        let mv = point(from).zip(point(to)).ok_or_else(|| error(at, SgErrorKind::BadMove(from, to)))?;
        let mv = RecordedMove { text: MoveText::Coords(Move::new(mv.0, mv.1)), at: span(at) };
        node = record.moves.add_child(node, mv);
        at += 2;
    }
    let unexplained = bytes[at..TRAILER_AT].iter().filter(|&&b| b != b' ').count();
    if unexplained > 0 {
        let message = format!("{unexplained} bytes after the moves not read (their layout is not known)");
        record.warnings.push(Warning { at: span(at), message });
    }
    if &bytes[TRAILER_AT..TRAILER_AT + TRAILER.len()] != TRAILER
        || bytes[TRAILER_AT + TRAILER.len()..].iter().any(|&b| b != 0)
    {
        let message = "the record's last 82 bytes differ from those of every file seen: not read".to_string();
        record.warnings.push(Warning { at: span(TRAILER_AT), message });
    }
    super::start::settle_start(&mut record, &board, span(PIECES_AT), None, (0, 1));
    Ok(record)
}

/// Each side's pieces in the order the record lists them.
const ROLES: [Role; 16] = [
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Cannon,
    Role::Cannon,
    Role::Horse,
    Role::Horse,
    Role::Rook,
    Role::Rook,
    Role::Elephant,
    Role::Elephant,
    Role::Advisor,
    Role::Advisor,
    Role::King,
];

/// The start position of the 128-byte piece list; the `Err` has the
/// offset in the list.
fn start_board(list: &[u8]) -> Result<Board, (usize, SgErrorKind)> {
    let mut board = Board::empty();
    for (i, field) in list.chunks(4).enumerate() {
        let bad =
            || (i * 4, SgErrorKind::BadPoint { text: String::from_utf8_lossy(&field[..3]).into_owned() });
        if !field[..3].iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        let value = field[..3].iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        if value == 0 {
            continue;
        }
        let (row, column) = ((value - 1) / 16, (value - 1) % 16);
        if !(3..=12).contains(&row) || !(3..=11).contains(&column) {
            return Err(bad());
        }
        let (Some(file), Some(rank)) = (crate::File::new(column - 3), crate::Rank::new(12 - row)) else {
            return Err(bad());
        };
        let square = Square::new(file, rank);
        let color = if i < 16 { Color::Red } else { Color::Black };
        super::slots::put_piece(&mut board, square, Piece::new(color, ROLES[i % 16]))
            .map_err(|shared| (i * 4, SgErrorKind::SharedPoint(shared)))?;
    }
    Ok(board)
}

/// The square of a move byte, `file × 10 + (9 − rank) + 10`.
fn point(v: u8) -> Option<Square> {
    let v = u32::from(v).checked_sub(10).filter(|v| *v < 90)?;
    Some(Square::new(crate::File::new(v / 10)?, crate::Rank::new(9 - v % 10)?))
}

/// A text field, decoded from GBK, without its padding.
fn gbk(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let text = encoding_rs::GBK.decode_without_bom_handling(&field[..end]).0;
    text.trim_matches(|c: char| c == ' ' || c == '\u{3000}').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record with the standard start and `moves`.
    fn record(moves: &[Move]) -> Vec<u8> {
        let mut r = vec![b' '; RECORD_LEN];
        r[0..3].copy_from_slice(b"red");
        r[0x40..0x43].copy_from_slice(b"D==");
        r[0x48..0x52].copy_from_slice(b"2003-08-20");
        let pieces = "148 150 152 154 156 165 171 197 203 196 204 198 202 199 201 200 \
                      100 102 104 106 108 085 091 053 059 052 060 054 058 055 057 056 ";
        r[PIECES_AT..MOVES_AT].copy_from_slice(pieces.as_bytes());
        let mut at = MOVES_AT;
        for m in moves {
            let code = |s: Square| (s.file().index() * 10 + (9 - s.rank().index()) + 10) as u8;
            r[at] = code(m.from);
            r[at + 1] = code(m.to);
            at += 2;
        }
        if at < TRAILER_AT {
            r[at] = 0x09;
        }
        r[TRAILER_AT..TRAILER_AT + 6].copy_from_slice(TRAILER);
        r[TRAILER_AT + 6..].fill(0);
        r
    }

    #[test]
    fn is_sg_as_its_docs_showed() {
        let mut record = vec![b' '; 1192];
        record[0x52..0xD2].copy_from_slice(b"000 ".repeat(32).as_slice());
        assert!(crate::formats::sg::is_sg(&record));
        assert!(!crate::formats::sg::is_sg(b"[Event \"x\"]"));
    }

    #[test]
    fn random_legal_games_read_back_move_for_move() {
        let mut state = 11u64;
        let mut next = || {
            let (s, out) = crate::rules::zobrist::splitmix64(state);
            state = s;
            out
        };
        let mut file = Vec::new();
        let mut games = Vec::new();
        for _ in 0..100 {
            let length = next() % 460;
            let mut pos = crate::Position::start();
            let mut played = Vec::new();
            for _ in 0..length.min(450) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                played.push(m);
                pos.play_unchecked(m);
            }
            file.extend(record(&played));
            games.push(played);
        }
        let read = read(&file);
        assert_eq!(read.len(), games.len());
        for (k, (r, played)) in read.iter().zip(&games).enumerate() {
            let r = r.as_ref().unwrap();
            assert_eq!(r.at().column as usize, k * RECORD_LEN);
            assert!(r.warnings().is_empty(), "{:?}", r.warnings());
            let replayed = r.replayed();
            assert!(replayed.is_valid(), "{:?}", replayed.error);
            assert_eq!(&replayed.moves, played);
            assert_eq!((r.tag("Result"), r.tag("FEN")), (Some("1/2-1/2"), None));
        }
    }

    #[test]
    fn damaged_records_say_where_and_why_and_the_others_read() {
        let good = record(&[]);
        let mut file = good.clone();
        let mut bad_point = good.clone();
        bad_point[PIECES_AT + 4..PIECES_AT + 7].copy_from_slice(b"1x0");
        file.extend(&bad_point);
        let mut bad_move = good.clone();
        bad_move[MOVES_AT..MOVES_AT + 2].copy_from_slice(&[5, 99]);
        file.extend(&bad_move);
        let mut shared = good.clone();
        shared[PIECES_AT + 4..PIECES_AT + 7].copy_from_slice(b"148");
        file.extend(&shared);
        file.extend(&good[..100]);
        let read = read(&file);
        assert_eq!(read.len(), 5);
        assert!(read[0].is_ok());
        let e = |k: usize| read[k].as_ref().unwrap_err();
        assert_eq!(
            (e(1).offset, &e(1).kind),
            (RECORD_LEN + PIECES_AT + 4, &SgErrorKind::BadPoint { text: "1x0".into() })
        );
        assert_eq!((e(2).offset, &e(2).kind), (2 * RECORD_LEN + MOVES_AT, &SgErrorKind::BadMove(5, 99)));
        assert!(matches!(e(3).kind, SgErrorKind::SharedPoint(_)), "{}", e(3));
        assert_eq!((e(4).offset, &e(4).kind), (4 * RECORD_LEN, &SgErrorKind::Truncated { len: 100 }));
    }

    #[test]
    fn a_start_position_of_its_own_and_unexplained_bytes() {
        let mut r = record(&[]);
        // Red keeps only a rook on a0 (point 196) and the king, on d0; Black its king.
        let mut pieces = vec!["000"; 32];
        pieces[9] = "196";
        pieces[15] = "199";
        pieces[31] = "056";
        let list: String = pieces.iter().map(|p| format!("{p} ")).collect();
        r[PIECES_AT..MOVES_AT].copy_from_slice(list.as_bytes());
        r[MOVES_AT..MOVES_AT + 2].copy_from_slice(&[19, 18]); // a0-a1
        r[MOVES_AT + 2] = 0x09;
        r[MOVES_AT + 10] = b'x';
        r[TRAILER_AT] = b'9';
        let read = read(&r);
        let record = read[0].as_ref().unwrap();
        assert_eq!(record.tag("FEN"), Some("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"));
        assert!(record.replayed().is_valid());
        assert_eq!(record.warnings().len(), 2, "{:?}", record.warnings());
        assert_eq!(record.warnings()[0].at.column as usize, MOVES_AT + 4);
    }

    #[test]
    fn results_and_names() {
        for (field, result) in
            [(&b"R+c"[..], Some("1-0")), (b"B+c", Some("0-1")), (b"D==", Some("1/2-1/2")), (b"---", None)]
        {
            let mut r = record(&[]);
            r[0x40..0x43].copy_from_slice(field);
            let (gbk, _, _) = encoding_rs::GBK.encode("广东 吕钦");
            r[0x20..0x20 + gbk.len()].copy_from_slice(&gbk);
            let read = read(&r);
            let record = read[0].as_ref().unwrap();
            assert_eq!(record.tag("Result"), result);
            assert_eq!((record.tag("Red"), record.tag("Black")), (Some("red"), Some("广东 吕钦")));
            assert!(record.warnings().is_empty());
        }
        let mut r = record(&[]);
        r[0x40..0x43].copy_from_slice(b"X+c");
        assert_eq!(read(&r)[0].as_ref().unwrap().warnings().len(), 1);
    }
}
