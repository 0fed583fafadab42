//! Compressed CBL: the older 象棋桥 library format.
//!
//! A compressed library (`CCBridge`, u32 21, u32 1 or 3, u32 inflated
//! length, zlib stream) is undocumented; this reader follows the layout
//! worked out from 16 sample libraries (851 games, all read, 845 replay
//! legally, 6 hold a record error). The inflated data holds GBK strings
//! with a u32 byte length first, and per game: its byte length,
//! 32 piece slots in XQF order (`column + 1 << 4 | row + 1`, row from the
//! top, 0 = not on the board), text fields, the result, a game comment,
//! the moves as 6 bytes `[u16 ply][from][to][two bytes of notation]`
//! (squares `column << 4 | row`; a ply number not one past the previous
//! move's starts an alternative to the earlier move of that ply), then one
//! comment line per move, each ended by CRLF, `||` standing for a line
//! break.

use std::io::Read;

use crate::formats::slots::put_slot;
use crate::formats::start::settle_start;
use crate::formats::tree::{Game, Moves};
use crate::record::{MoveText, RecordedMove, Warning};
use crate::{Board, Move};

use super::cursor::Cursor;
use super::{
    BadByte, BadMove, CcbridgeError, CcbridgeErrorKind, Inflate, Overrun, Truncated, error, nibble_square,
    put_tags, result_tag, span, tidy_comment, u32_at, warn,
};

/// The same error, its offset marked as one in the inflated data of a
/// compressed library.
pub(super) fn in_inflated_data(mut e: CcbridgeError) -> CcbridgeError {
    e.in_inflated_data = true;
    e
}

/// Decodes GBK (GB18030) text; bad bytes become U+FFFD with a warning.
fn gbk_text(bytes: &[u8], what: &str, offset: usize, warnings: &mut Vec<Warning>) -> String {
    let (text, bad) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    if bad {
        warn(warnings, offset, format!("{what}: bytes that are not GBK text, read as U+FFFD"));
    }
    text.into_owned()
}

/// Where the zlib stream starts.
pub(super) const STREAM_AT: usize = 20;
/// The largest inflated library read (the largest in the corpus is under
/// 1 MB): a bound on the memory a hostile file can ask for.
pub(super) const MAX_INFLATED: usize = 256 << 20;
/// zlib never inflates more than about 1032 times its input.
pub(super) const MAX_INFLATE_RATIO: usize = 1032;
/// The fewest bytes a game of a compressed library takes.
const MIN_GAME_LEN: usize = 4 + 32 + 16 * 4 + 1 + 38 + 4;

/// Inflates a compressed library and reads its games.
pub(super) fn read_compressed_library(
    bytes: &[u8],
    each: impl FnMut(Result<Game, CcbridgeError>),
) -> Result<usize, CcbridgeError> {
    let Some(declared_len) = u32_at(bytes, 16) else {
        return header_cut(bytes.len());
    };
    let declared_len = check_declared(declared_len)?;
    let stream = &bytes[STREAM_AT.min(bytes.len())..];
    check_ratio(declared_len, stream.len())?;
    let mut data = Vec::new();
    let limit = declared_len as u64 + 1;
    if let Err(e) = flate2::read::ZlibDecoder::new(stream).take(limit).read_to_end(&mut data) {
        return broken(&e);
    }
    if data.len() != declared_len {
        return other_length(declared_len, data.len());
    }
    read_inflated_library(&data, each).map_err(in_inflated_data)
}

/// The error of a compressed library of `len` bytes, shorter than its
/// header.
pub(super) fn header_cut<T>(len: usize) -> Result<T, CcbridgeError> {
    error(len, Truncated::CompressedHeader)
}

/// The inflated length the header declares, if qipu reads that much.
pub(super) fn check_declared(declared_len: u32) -> Result<usize, CcbridgeError> {
    let declared_len = declared_len as usize;
    if declared_len > MAX_INFLATED {
        return error(16, Inflate::TooLarge { declared: declared_len, max: MAX_INFLATED });
    }
    Ok(declared_len)
}

/// Whether a zlib stream of `stream_len` bytes can hold `declared_len`
/// inflated bytes.
pub(super) fn check_ratio(declared_len: usize, stream_len: usize) -> Result<(), CcbridgeError> {
    if declared_len > stream_len.saturating_mul(MAX_INFLATE_RATIO).saturating_add(64) {
        return error(16, Inflate::PastRatio { declared: declared_len, stream: stream_len });
    }
    Ok(())
}

/// The error of a zlib stream that cannot be inflated.
pub(super) fn broken<T>(e: &std::io::Error) -> Result<T, CcbridgeError> {
    error(STREAM_AT, Inflate::Broken { kind: e.kind(), message: e.to_string() })
}

/// The error of a zlib stream that holds `got` bytes (up to one more than
/// declared), not the `declared_len` of the header.
pub(super) fn other_length<T>(declared_len: usize, got: usize) -> Result<T, CcbridgeError> {
    error(16, Inflate::Length { declared: declared_len, inflated: got })
}

/// The inflated data of a compressed library, read in order: in memory
/// (a [`Cursor`]), or as it is inflated. Offsets are in the inflated data;
/// what is left counts to its end.
pub(super) trait Inflated {
    /// The offset of the next byte.
    fn offset(&self) -> usize;
    /// How many bytes are left.
    fn left(&self) -> usize;
    /// The next `n` bytes of `what`.
    fn take(&mut self, n: usize, what: &'static str) -> Result<std::borrow::Cow<'_, [u8]>, CcbridgeError>;
    /// The next little-endian u32 of `what`.
    fn u32(&mut self, what: &'static str) -> Result<u32, CcbridgeError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl Inflated for Cursor<'_> {
    fn offset(&self) -> usize {
        Cursor::offset(self)
    }
    fn left(&self) -> usize {
        Cursor::left(self)
    }
    fn take(&mut self, n: usize, what: &'static str) -> Result<std::borrow::Cow<'_, [u8]>, CcbridgeError> {
        Cursor::take(self, n, what).map(std::borrow::Cow::Borrowed)
    }
}

/// Reads a GBK string with its u32 byte length.
fn gbk_string(
    cursor: &mut impl Inflated,
    what: &'static str,
    warnings: &mut Vec<Warning>,
) -> Result<String, CcbridgeError> {
    let length_at = cursor.offset();
    let len = cursor.u32(what)? as usize;
    if len > cursor.left() {
        return error(length_at, Overrun::Text { what, len, left: cursor.left() });
    }
    let text_at = cursor.offset();
    // The text ends at a NUL (a C string's terminator, counted in its length).
    let bytes = cursor.take(len, what)?;
    let bytes = &bytes[..memchr::memchr(0, &bytes).unwrap_or(bytes.len())];
    Ok(gbk_text(bytes, what, text_at, warnings))
}

/// Reads the library header of the inflated data: its game count.
pub(super) fn read_library_header(data: &mut impl Inflated) -> Result<usize, CcbridgeError> {
    let mut ignored = Vec::new();
    for what in ["the library name", "a library field", "a library field", "the creator", "the e-mail"] {
        gbk_string(data, what, &mut ignored)?;
    }
    data.take(38, "the library dates")?;
    let count_at = data.offset();
    let count = data.u32("the game count")? as usize;
    gbk_string(data, "the library remarks", &mut ignored)?;
    if count > data.left() / MIN_GAME_LEN {
        let (left, most) = (data.left(), data.left() / MIN_GAME_LEN);
        return error(count_at, Overrun::Games { count, left, most });
    }
    Ok(count)
}

/// The end of game `i`, whose length `length` (`None`: the data ends
/// before it) is at `start` in inflated data of `len` bytes; else its error.
pub(super) fn game_end(
    i: usize,
    start: usize,
    length: Option<usize>,
    len: usize,
) -> Result<usize, CcbridgeError> {
    match length.and_then(|n| start.checked_add(n)).filter(|&end| end <= len && end > start + 4) {
        Some(end) => Ok(end),
        None => {
            let kind: CcbridgeErrorKind = match length {
                None => Truncated::GameLength.into(),
                Some(n) => Overrun::Game { game: i, len: n, left: len - start }.into(),
            };
            error(start, kind)
        }
    }
}

/// The error of game `j`, after game `i` (at `start`) whose length is
/// unusable.
pub(super) fn not_reached(j: usize, i: usize, start: usize) -> CcbridgeError {
    let kind = CcbridgeErrorKind::NotReached { game: j, unusable: i };
    CcbridgeError { offset: start, in_inflated_data: false, kind }
}

/// Reads the inflated data: the library header, then the games, each with
/// its own length.
fn read_inflated_library(
    data: &[u8],
    mut each: impl FnMut(Result<Game, CcbridgeError>),
) -> Result<usize, CcbridgeError> {
    let mut cursor = Cursor::new(data, 0);
    let count = read_library_header(&mut cursor)?;
    for i in 0..count {
        let start = cursor.offset();
        let length = u32_at(data, start).map(|n| n as usize);
        let end = match game_end(i, start, length, data.len()) {
            Ok(end) => end,
            Err(e) => {
                each(Err(in_inflated_data(e)));
                for j in i + 1..count {
                    each(Err(in_inflated_data(not_reached(j, i, start))));
                }
                break;
            }
        };
        each(read_compressed_game(&data[start..end], start).map_err(in_inflated_data));
        cursor.at = end;
    }
    Ok(count)
}

/// A field of a compressed-library game between the piece slots and the
/// moves.
enum Field {
    /// A u32 whose meaning is unknown (game type, an unknown 1).
    Number(&'static str),
    /// The u32 result code.
    Result,
    /// A string, and the tag it becomes (`None`: meaning unknown, or an
    /// e-mail address).
    Text(Option<&'static str>),
    /// The game comment, `||` for a line break.
    Comment,
}

/// The fields of a compressed-library game, in file order.
const GAME_FIELDS: [Field; 16] = [
    Field::Number("the game type"),
    Field::Text(Some("Event")),
    Field::Number("an unknown number"),
    Field::Text(Some("Title")),
    Field::Text(None),
    Field::Text(None),
    Field::Text(Some("Site")),
    Field::Text(Some("Date")),
    Field::Text(Some("Red")),
    Field::Text(Some("Black")),
    Field::Result,
    Field::Text(Some("Annotator")),
    Field::Text(None),
    Field::Text(Some("Author")),
    Field::Text(None),
    Field::Comment,
];

/// Reads one game of a compressed library (`bytes` starts with its
/// length, at `base` in the inflated data).
pub(super) fn read_compressed_game(bytes: &[u8], base: usize) -> Result<Game, CcbridgeError> {
    let mut record = Game::at_byte(base);
    let mut cursor = Cursor::new(bytes, base);
    cursor.u32("the game length")?;
    let board_at = cursor.offset();
    let board = read_piece_slots(cursor.take(32, "the piece slots")?, board_at)?;
    let mut found = Vec::new();
    let mut comment = None;
    for field in &GAME_FIELDS {
        match *field {
            Field::Number(what) => {
                cursor.u32(what)?;
            }
            Field::Result => {
                let at = cursor.offset();
                let code = cursor.u32("the result")?;
                found.push(result_tag(code, at, &mut record));
            }
            Field::Text(tag) => {
                let text = gbk_string(&mut cursor, tag.unwrap_or("a text field"), &mut record.warnings)?;
                if let Some(tag) = tag {
                    found.push((tag, text));
                }
            }
            Field::Comment => {
                let text = gbk_string(&mut cursor, "the game comment", &mut record.warnings)?;
                comment = tidy_comment(&text.replace("||", "\n"));
            }
        }
    }
    put_tags(&mut record, found);
    cursor.u8("an unknown byte")?;
    cursor.take(38, "the game dates")?;
    let (tree, moves) = read_numbered_moves(&mut cursor)?;
    record.moves = tree;
    if let Some(c) = &comment {
        record.moves.set_comment(record.moves.root(), c);
    }
    read_comment_lines(&mut cursor, &moves, &mut record);
    settle_start(&mut record, &board, span(board_at), None, (0, 1));
    Ok(record)
}

/// The start position from 32 piece slots in XQF order, each
/// `column + 1 << 4 | row + 1` (row from the top) or 0 for a piece not on
/// the board.
fn read_piece_slots(slots: &[u8], offset: usize) -> Result<Board, CcbridgeError> {
    let mut board = Board::empty();
    for (i, &b) in slots.iter().enumerate() {
        if b == 0 {
            continue;
        }
        let square = match (b >> 4, b & 0x0F) {
            (column @ 1..=9, row @ 1..=10) => nibble_square((column - 1) << 4 | (row - 1)),
            _ => None,
        };
        let Some(square) = square else {
            return error(offset + i, BadByte::Slot { slot: i, byte: b });
        };
        if let Err(why) = put_slot(&mut board, i, square) {
            return error(offset + i, why);
        }
    }
    Ok(board)
}

/// Reads the move count and the moves `[u16 ply][from][to][2 bytes]`: a
/// move of ply `p` continues the line from the latest move of ply `p - 1`.
/// Returns the tree and the nodes in file order.
fn read_numbered_moves(cursor: &mut Cursor<'_>) -> Result<(Moves, Vec<u32>), CcbridgeError> {
    let count_at = cursor.offset();
    let count = cursor.u32("the move count")? as usize;
    if count > cursor.left() / 6 {
        return error(count_at, Overrun::Moves { count, left: cursor.left() });
    }
    let mut tree = Moves::with_capacity(count + 1);
    let mut line = vec![tree.root()];
    let mut moves = Vec::with_capacity(count);
    for n in 0..count {
        let offset = cursor.offset();
        let ply = cursor.u16("a move")? as usize;
        let squares = cursor.take(4, "a move")?;
        if ply == 0 || ply > line.len() {
            return error(offset, BadMove::Ply { number: n + 1, ply, line: line.len() - 1 });
        }
        let (Some(from), Some(to)) = (nibble_square(squares[0]), nibble_square(squares[1])) else {
            let (from, to) = (squares[0], squares[1]);
            return error(offset + 2, BadMove::OffBoard { number: Some(n + 1), from, to });
        };
        if from == to {
            return error(offset + 2, BadMove::SameSquare { number: Some(n + 1), square: from });
        }
        line.truncate(ply);
        let mv = RecordedMove { text: MoveText::Coords(Move::new(from, to)), at: span(offset) };
        let id = tree.add_child(line[ply - 1], mv);
        line.push(id);
        moves.push(id);
    }
    Ok((tree, moves))
}

/// Reads the comment lines after the moves: one per move, in move order,
/// each ended by CRLF, `||` for a line break inside a comment.
fn read_comment_lines(cursor: &mut Cursor<'_>, moves: &[u32], record: &mut Game) {
    let mut read = 0;
    while read < moves.len() && cursor.left() > 0 {
        let at = cursor.offset();
        let rest = &cursor.data[cursor.at..];
        let (line, used) = match memchr::memmem::find(rest, b"\r\n") {
            Some(k) => (&rest[..k], k + 2),
            None => (rest, rest.len()),
        };
        cursor.at += used;
        let text = gbk_text(line, "a comment", at, &mut record.warnings);
        if let Some(comment) = tidy_comment(&text.replace("||", "\n")) {
            record.moves.set_comment(moves[read], &comment);
        }
        read += 1;
    }
    if read < moves.len() {
        let message = format!("{read} comment lines for {} moves; the last moves have none", moves.len());
        warn(&mut record.warnings, cursor.offset(), message);
    }
    if cursor.left() > 0 {
        let message =
            format!("{} byte(s) after the comment lines, within the game's length; ignored", cursor.left());
        warn(&mut record.warnings, cursor.offset(), message);
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::ccbridge::testing::{compressed_game, compressed_library, coords};
    use crate::formats::ccbridge::{BadMove, CcbridgeErrorKind, Inflate, is_cbl, is_cbr, read_cbl};

    #[test]
    fn compressed_games_with_variations_and_comments() {
        // h2e2 {中炮}, h9g7; then an alternative to ply 2: b9c7 {也可}.
        let moves = [(1, 0x77, 0x47), (2, 0x70, 0x62), (1, 0x79, 0x67), (2, 0x10, 0x22)];
        let game = compressed_game(&moves, b"\xd6\xd0\xc5\xda\r\n\r\n\r\n\xd2\xb2||\xbf\xc9\r\n");
        let file = compressed_library(&[game]);
        assert!(is_cbl(&file) && !is_cbr(&file));
        let lib = read_cbl(&file).unwrap();
        assert_eq!((lib.declared, lib.records.len()), (1, 1));
        let record = lib.records[0].as_ref().unwrap();
        assert_eq!(record.tag("Title"), Some("中炮对屏风马"));
        assert_eq!(record.tag("Red"), Some("吕钦"));
        assert_eq!(record.tag("Result"), Some("1/2-1/2"));
        assert_eq!(record.tag("Author"), Some("gjf"));
        assert_eq!(record.fen(), None);
        let t = record.tree();
        assert_eq!(t.node(t.root()).comment(), Some("开局\n说明"));
        let main: Vec<_> = t.main_line().collect();
        assert_eq!(main.iter().map(|&id| coords(record, id)).collect::<Vec<_>>(), ["h2e2", "h9g7"]);
        assert_eq!(t.node(main[0]).comment(), Some("中炮"));
        let alt = t.children(t.root()).nth(1).unwrap();
        assert_eq!(coords(record, alt), "h0g2");
        let reply = t.main_child(alt).unwrap();
        assert_eq!(coords(record, reply), "b9c7");
        assert_eq!(t.node(reply).comment(), Some("也\n可"));
        assert!(record.warnings().is_empty(), "{:?}", record.warnings());
        assert!(crate::record::replay::replay(record).is_valid());
    }

    #[test]
    fn bad_compressed_games_name_their_inflated_byte() {
        // Ply 3 after one move: not a line.
        let bad = compressed_game(&[(1, 0x77, 0x47), (3, 0x70, 0x62)], b"\r\n\r\n");
        let good = compressed_game(&[(1, 0x77, 0x47)], b"\r\n");
        let lib = read_cbl(&compressed_library(&[bad, good])).unwrap();
        let e = lib.records[0].as_ref().unwrap_err();
        assert!(e.reason().contains("ply 3") && e.reason().contains("inflated"), "{e}");
        assert!(e.in_inflated_data);
        assert_eq!(e.kind, CcbridgeErrorKind::BadMove(BadMove::Ply { number: 2, ply: 3, line: 1 }));
        assert!(lib.records[1].is_ok());
        // An off-board square.
        let off = compressed_game(&[(1, 0x77, 0x4A)], b"\r\n");
        let lib = read_cbl(&compressed_library(&[off])).unwrap();
        assert!(lib.records[0].as_ref().unwrap_err().reason().contains("off the board"));
        // A broken stream and a wrong inflated length fail the library.
        let mut file = compressed_library(&[]);
        let n = file.len();
        file[n - 6] ^= 0xFF;
        assert!(read_cbl(&file).is_err());
        let mut file = compressed_library(&[]);
        file[16] += 1;
        let e = read_cbl(&file).unwrap_err();
        assert_eq!(e.offset, 16);
        assert!(matches!(e.kind, CcbridgeErrorKind::Inflate(Inflate::Length { .. })), "{e}");
        assert!(!e.in_inflated_data);
        assert!(read_cbl(&file[..12]).is_err());
    }

    #[test]
    fn a_cut_game_length_fails_the_rest() {
        let mut game = compressed_game(&[(1, 0x77, 0x47)], b"\r\n");
        game[0] = 0xFF;
        game[1] = 0xFF;
        let good = compressed_game(&[(1, 0x77, 0x47)], b"\r\n");
        let lib = read_cbl(&compressed_library(&[game, good])).unwrap();
        assert_eq!(lib.records.len(), 2);
        assert!(lib.records[0].as_ref().unwrap_err().reason().contains("does not fit"));
        assert!(lib.records[1].as_ref().unwrap_err().reason().contains("not reached"));
        let e = lib.records[1].as_ref().unwrap_err();
        assert_eq!(e.kind, CcbridgeErrorKind::NotReached { game: 1, unusable: 0 });
    }
}
