//! CBR: one 象棋桥 game in binary.
//!
//! A record (`CCBridge Record\0`, layout version 2 at byte 19) is a header of
//! fixed-size UTF-16LE text fields (title, event, players…), the result,
//! the side to move, the board as 90 bytes (`row * 9 + column`, row 0 =
//! Black's back rank; high nibble 1 Red / 2 Black, low nibble 1 rook, 2
//! horse, 3 elephant, 4 advisor, 5 king, 6 cannon, 7 pawn), then the move
//! tree in pre-order: `[flags][reserved][from][to]` per node, flags `0x01`
//! = the line ends here, `0x02` = an alternative follows this move's
//! subtree, `0x04` = a UTF-16LE comment follows (u32 byte length first).
//! Layout version 1 (known from vschess only, no sample seen) has the same
//! tree with the header fields 128 to 256 bytes earlier and squares
//! written as `column << 4 | row`.

use crate::formats::start::settle_start;
use crate::formats::tree::{Game, Moves};
use crate::record::{MoveText, Record, RecordBuilder, RecordedMove, Visitor, Warning};
use crate::{Board, Color, File, Move, Piece, Rank, Role, Square};

use super::cursor::Cursor;
use super::layout::{V2_BOARD, V2_RESULT, V2_SIDE, V2_START_NUMBER, V2_STRINGS, V2_TREE, is_cbr};
use super::{
    BadByte, BadMove, CcbridgeError, CcbridgeErrorKind, FileKind, Overrun, Truncated, error, is_cbl,
    nibble_square, not_ccbridge, put_tags, result_tag, span, tidy_comment, warn,
};

/// Reads one CBR record.
///
/// # Errors
///
/// A [`CcbridgeError`], with its byte offset, for a file that is not a CBR
/// record (a library, other data), a version other than 1 and 2, and a
/// truncated or damaged header or move tree.
pub fn read_cbr(bytes: &[u8]) -> Result<Record, CcbridgeError> {
    read_cbr_with(bytes, &mut RecordBuilder::default())
}

/// Reads one CBR record with `visitor`: the game's events, in the order of
/// [`visit`](crate::record::visit), and what the visitor makes of them. The
/// whole record is read (and checked) before the first event, so a record
/// that cannot be read tells nothing; no [`Record`] is built.
///
/// # Errors
///
/// As [`read_cbr`].
pub(crate) fn read_cbr_with<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Result<V::Output, CcbridgeError> {
    Ok(read_game(bytes)?.tell(visitor))
}

/// Reads one CBR record into a game, to tell.
pub(crate) fn read_game(bytes: &[u8]) -> Result<Game, CcbridgeError> {
    if is_cbl(bytes) {
        return error(0, CcbridgeErrorKind::WrongFile { wanted: FileKind::Record });
    }
    if !is_cbr(bytes) {
        return error(0, not_ccbridge(FileKind::Record, bytes));
    }
    read_record(bytes, 0, "the file")
}

/// Decodes a UTF-16LE field up to its first NUL code unit (what follows
/// is uninitialised memory in real files).
fn utf16_field(bytes: &[u8], what: &str, offset: usize, warnings: &mut Vec<Warning>) -> String {
    let units = bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).take_while(|&u| u != 0);
    decode_utf16(units, what, offset, warnings)
}

/// Decodes UTF-16 code units; an unpaired surrogate becomes U+FFFD with a
/// warning.
fn decode_utf16(
    units: impl Iterator<Item = u16>,
    what: &str,
    offset: usize,
    warnings: &mut Vec<Warning>,
) -> String {
    let mut bad = false;
    let text = char::decode_utf16(units)
        .map(|c| {
            c.unwrap_or_else(|_| {
                bad = true;
                char::REPLACEMENT_CHARACTER
            })
        })
        .collect();
    if bad {
        warn(warnings, offset, format!("{what}: an unpaired UTF-16 surrogate, read as U+FFFD"));
    }
    text
}

/// The square of a CBR version 2 byte: `row * 9 + column`, row 0 at the
/// top.
fn index_square(i: u8) -> Option<Square> {
    if i >= 90 {
        return None;
    }
    Some(Square::new(File::new(i as u32 % 9)?, Rank::new(9 - i as u32 / 9)?))
}

/// The piece of a CBR board byte: `Some(None)` for an empty point, `None`
/// for a byte that is not a piece.
fn board_piece(b: u8) -> Option<Option<Piece>> {
    if b == 0 {
        return Some(None);
    }
    let color = match b >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let role = match b & 0x0F {
        1 => Role::Rook,
        2 => Role::Horse,
        3 => Role::Elephant,
        4 => Role::Advisor,
        5 => Role::King,
        6 => Role::Cannon,
        7 => Role::Pawn,
        _ => return None,
    };
    Some(Some(Piece::new(color, role)))
}

/// Reads the 90 board bytes at `offset` in `bytes` (a record starting at
/// `base` in its source).
fn read_board(bytes: &[u8], offset: usize, base: usize) -> Result<Board, CcbridgeError> {
    let mut board = Board::empty();
    for (i, &b) in bytes[offset..offset + 90].iter().enumerate() {
        let Some(piece) = board_piece(b) else {
            return error(base + offset + i, BadByte::Board { byte: b, row: i / 9, column: i % 9 });
        };
        // Cannot fail: the board has 90 bytes, each a point.
        let square = index_square(i as u8).expect("i < 90");
        if let Some(piece) = piece {
            board.put(square, piece);
        }
    }
    Ok(board)
}

/// Where a CBR layout version keeps things.
struct Layout {
    /// Text fields: offset, size in bytes, tag.
    strings: &'static [(usize, usize, &'static str)],
    result: usize,
    side: usize,
    start_number: usize,
    board: usize,
    tree: usize,
    square: fn(u8) -> Option<Square>,
}

/// Layout version 2, what CCBridge writes (formats.md §5.1).
const VERSION_2: Layout = Layout {
    strings: V2_STRINGS,
    result: V2_RESULT,
    side: V2_SIDE,
    start_number: V2_START_NUMBER,
    board: V2_BOARD,
    tree: V2_TREE,
    square: index_square,
};

/// Layout version 1, as vschess reads it (formats.md §5.6; no sample).
const VERSION_1: Layout = Layout {
    strings: &[
        (52, 128, "Title"),
        (564, 64, "Event"),
        (628, 64, "Round"),
        (756, 64, "Date"),
        (820, 64, "Site"),
        (948, 64, "Red"),
        (1012, 64, "RedTeam"),
        (1172, 64, "Black"),
        (1236, 64, "BlackTeam"),
        (1396, 64, "Annotator"),
        (1524, 64, "Author"),
    ],
    result: 1820,
    side: 1856,
    start_number: 1860,
    board: 1864,
    tree: 1958,
    square: nibble_square,
};

/// Reads the CBR record `bytes` (it starts with the magic), which starts at
/// byte `start` of its source; `holder` names what bounds it, for messages.
pub(super) fn read_record(bytes: &[u8], start: usize, holder: &'static str) -> Result<Game, CcbridgeError> {
    let end = start + bytes.len();
    let Some(&version) = bytes.get(19) else {
        return error(end, Truncated::Record { holder, len: bytes.len(), header: None });
    };
    let layout = match version {
        2 => &VERSION_2,
        1 => &VERSION_1,
        _ => return error(start + 19, CcbridgeErrorKind::Version(version)),
    };
    if bytes.len() < layout.tree {
        return error(end, Truncated::Record { holder, len: bytes.len(), header: Some(layout.tree) });
    }
    let mut record = Game::at_byte(start);
    let mut found = Vec::new();
    for &(offset, size, tag) in layout.strings {
        let text = utf16_field(&bytes[offset..offset + size], tag, start + offset, &mut record.warnings);
        found.push((tag, text));
    }
    found.push(result_tag(bytes[layout.result] as u32, start + layout.result, &mut record));
    put_tags(&mut record, found);
    let board = read_board(bytes, layout.board, start)?;
    let side = match bytes[layout.side] {
        1 => Color::Red,
        2 => Color::Black,
        other => {
            let at = start + layout.side;
            warn(&mut record.warnings, at, format!("side to move {other} is neither 1 (Red) nor 2 (Black)"));
            Color::Red
        }
    };
    let fullmoves = u16::from_le_bytes([bytes[layout.start_number], bytes[layout.start_number + 1]]);
    let mut cursor = Cursor::new(&bytes[layout.tree..], start + layout.tree);
    record.moves = read_tree(&mut cursor, layout.square, &mut record.warnings)?;
    record.take_tag_lines();
    if cursor.left() > 0 {
        let message =
            format!("{} byte(s) after the end of the move tree, within {holder}; ignored", cursor.left());
        warn(&mut record.warnings, cursor.offset(), message);
    }
    if board == Board::empty() {
        // Not a game: accounted for as an unreadable record, with the reason.
        let message = "the board is empty: a title or separator entry, not a game".to_string();
        record.unreadable = Some(Warning { at: span(start + layout.board), message });
    }
    let (board_at, side_at) = (span(start + layout.board), span(start + layout.side));
    settle_start(&mut record, &board, board_at, Some((side, side_at, "file")), (0, fullmoves as u32));
    Ok(record)
}

/// One node record of a CBR move tree.
struct TreeNode {
    offset: usize,
    from: u8,
    to: u8,
    has_child: bool,
    has_sibling: bool,
    comment: Option<String>,
}

/// Reads one node record: flags, reserved byte, from, to, and the comment
/// when flag 0x04 says there is one.
fn read_node(cursor: &mut Cursor<'_>, warnings: &mut Vec<Warning>) -> Result<TreeNode, CcbridgeError> {
    let offset = cursor.offset();
    let head = cursor.take(4, "a move record")?;
    let (flags, from, to) = (head[0], head[2], head[3]);
    if flags & !0x07 != 0 {
        return error(offset, BadByte::Flags(flags));
    }
    let mut comment = None;
    if flags & 0x04 != 0 {
        let length_at = cursor.offset();
        let len = cursor.u32("a comment length")? as usize;
        if len > cursor.left() {
            return error(length_at, Overrun::Comment { len, left: cursor.left() });
        }
        let text_at = cursor.offset();
        let bytes = cursor.take(len, "a comment")?;
        if len % 2 == 1 {
            warn(warnings, length_at, format!("comment length {len} is odd; the last byte is ignored"));
        }
        let units = bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]));
        comment = tidy_comment(&decode_utf16(units, "comment", text_at, warnings));
    }
    Ok(TreeNode { offset, from, to, has_child: flags & 0x01 == 0, has_sibling: flags & 0x02 != 0, comment })
}

/// Reads the root record and the move tree, with an explicit stack: a
/// node's continuation comes right after it, its alternative after the
/// whole subtree of the continuation.
fn read_tree(
    cursor: &mut Cursor<'_>,
    square: fn(u8) -> Option<Square>,
    warnings: &mut Vec<Warning>,
) -> Result<Moves, CcbridgeError> {
    let root = read_node(cursor, warnings)?;
    let mut tree = Moves::with_capacity(cursor.left() / 4 + 1);
    if let Some(c) = &root.comment {
        tree.set_comment(tree.root(), c);
    }
    if root.has_sibling {
        warn(warnings, root.offset, "the root record says an alternative follows; ignored");
    }
    // Parents waiting for their next record: the top one gets it.
    let mut stack: Vec<u32> = Vec::new();
    if root.has_child {
        stack.push(tree.root());
    }
    while let Some(parent) = stack.pop() {
        let node = read_node(cursor, warnings)?;
        let (Some(from), Some(to)) = (square(node.from), square(node.to)) else {
            return error(node.offset + 2, BadMove::OffBoard { number: None, from: node.from, to: node.to });
        };
        if from == to {
            return error(node.offset + 2, BadMove::SameSquare { number: None, square: from });
        }
        let mv = RecordedMove { text: MoveText::Coords(Move::new(from, to)), at: span(node.offset) };
        let id = tree.add_child(parent, mv);
        if let Some(c) = &node.comment {
            tree.set_comment(id, c);
        }
        if node.has_sibling {
            stack.push(parent);
        }
        if node.has_child {
            stack.push(id);
        }
    }
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ccbridge::layout::RECORD_MAGIC;
    use crate::formats::ccbridge::testing::*;
    use crate::record::GameResult;

    #[test]
    fn header_tags_tree_and_comments() {
        let mut file = cbr_header();
        file.extend(tree_with_a_variation());
        let record = read_cbr(&file).unwrap();
        assert_eq!(record.tag("Game"), Some("Chinese Chess"));
        assert_eq!(record.tag("Title"), Some("中炮局"));
        assert_eq!(record.tag("Red"), Some("胡荣华"));
        assert_eq!(record.tag("Black"), None);
        assert_eq!(record.tag("Result"), Some("1-0"));
        assert_eq!(record.written_result(), Some(GameResult::RedWins));
        assert_eq!(record.fen(), None);
        let t = record.tree();
        assert_eq!(t.node(t.root()).comment(), Some("game"));
        let main: Vec<_> = t.main_line().collect();
        assert_eq!(main.iter().map(|&id| coords(&record, id)).collect::<Vec<_>>(), ["h2e2", "h9g7"]);
        assert_eq!(t.node(main[0]).comment(), Some("中炮"));
        assert_eq!(t.node(main[0]).mv.as_ref().unwrap().at, span(2234));
        let alts: Vec<_> = t.children(t.root()).collect();
        assert_eq!(coords(&record, alts[1]), "b2e2");
        assert!(record.warnings().is_empty(), "{:?}", record.warnings());
        assert!(crate::record::replay::replay(&record).is_valid());
    }

    #[test]
    fn bad_records_name_their_byte() {
        let e = read_cbr(b"PK\x03\x04").unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.reason().contains("not a CCBridge record"), "{e}");
        // Truncated in the header.
        let e = read_cbr(&cbr_header()[..1000]).unwrap_err();
        assert_eq!((e.offset, e.reason().contains("truncated")), (1000, true), "{e}");
        let cut = Truncated::Record { holder: "the file", len: 1000, header: Some(2214) };
        assert_eq!(e.kind, CcbridgeErrorKind::Truncated(cut));
        // No root record.
        let e = read_cbr(&cbr_header()).unwrap_err();
        assert_eq!(e.offset, 2214, "{e}");
        // A move record cut short.
        let mut file = cbr_header();
        file.extend(node(0, 0, 0, None));
        file.extend([0x01, 0, 70]);
        let e = read_cbr(&file).unwrap_err();
        assert_eq!((e.offset, e.reason().contains("truncated")), (2218, true), "{e}");
        // A square off the board.
        let mut file = cbr_header();
        file.extend(node(0, 0, 0, None));
        file.extend(node(0x01, 70, 90, None));
        let e = read_cbr(&file).unwrap_err();
        assert_eq!(e.offset, 2220, "{e}");
        assert!(e.reason().contains("off the board"), "{e}");
        assert_eq!(e.kind, BadMove::OffBoard { number: None, from: 70, to: 90 }.into());
        // A comment longer than what is left.
        let mut file = cbr_header();
        file.extend([0x05, 0, 0, 0, 200, 0, 0, 0, b'a', 0]);
        let e = read_cbr(&file).unwrap_err();
        assert_eq!(e.offset, 2218, "{e}");
        assert!(e.reason().contains("comment of 200 bytes, but only 2 bytes are left"), "{e}");
        assert_eq!(e.kind, CcbridgeErrorKind::Overrun(Overrun::Comment { len: 200, left: 2 }));
        // Unknown flag bits, a bad board byte, a newer version.
        let mut file = cbr_header();
        file.extend(node(0x08, 0, 0, None));
        assert!(read_cbr(&file).unwrap_err().reason().contains("flags 0x08"));
        assert_eq!(read_cbr(&file).unwrap_err().kind, CcbridgeErrorKind::BadByte(BadByte::Flags(0x08)));
        let mut file = cbr_header();
        file[2120 + 40] = 0x38;
        file.extend(node(0x01, 0, 0, None));
        assert_eq!(read_cbr(&file).unwrap_err().offset, 2160);
        file[2160] = 0;
        file[19] = 3;
        assert_eq!(read_cbr(&file).unwrap_err().offset, 19);
    }

    #[test]
    fn black_to_move_and_the_first_move_wins() {
        // The file says Black moves first and its first move is Black's.
        let mut file = cbr_header();
        file[2112] = 2;
        file.extend(node(0, 0, 0, None));
        file.extend(node(0x01, 7, 24, None)); // h9g7
        let record = read_cbr(&file).unwrap();
        assert!(record.fen().unwrap().contains(" b "), "{:?}", record.fen());
        assert!(record.warnings().is_empty());
        // The file says Black, but the first move is Red's: the move wins.
        let mut file = cbr_header();
        file[2112] = 2;
        file.extend(node(0, 0, 0, None));
        file.extend(node(0x01, 70, 67, None));
        let record = read_cbr(&file).unwrap();
        assert_eq!(record.fen(), None);
        assert!(record.warnings()[0].message.contains("first move is Red's"), "{:?}", record.warnings());
    }

    #[test]
    fn an_empty_board_without_moves_is_a_separator() {
        let mut file = cbr_header();
        file[2120..2210].fill(0);
        file.extend(node(0x05, 0, 0, Some("第一轮")));
        let record = read_cbr(&file).unwrap();
        assert!(record.tree().is_empty());
        assert_eq!(record.tree().node(record.tree().root()).comment(), Some("第一轮"));
        assert!(record.unreadable().unwrap().message.contains("board is empty"));
    }

    #[test]
    fn a_deep_tree_needs_no_recursion() {
        let mut file = cbr_header();
        file.extend(node(0, 0, 0, None));
        // Rook shuffles a0-a1 / a9-a8 and back, 100,000 plies.
        let moves = [(81, 72), (0, 9), (72, 81), (9, 0)];
        for i in 0..100_000 {
            let (from, to) = moves[i % 4];
            file.extend(node(if i + 1 < 100_000 { 0 } else { 0x01 }, from, to, None));
        }
        let record = read_cbr(&file).unwrap();
        assert_eq!(record.tree().main_line().count(), 100_000);
    }

    #[test]
    fn version_1_squares_are_nibbles() {
        let mut file = vec![0u8; 1958];
        file[..16].copy_from_slice(RECORD_MAGIC);
        file[19] = 1;
        put_utf16(&mut file, 52, "V1");
        file[1856] = 1;
        file[1864..1954].copy_from_slice(&start_board_bytes());
        file.extend(node(0, 0, 0, None));
        file.extend(node(0x01, 0x77, 0x47, None)); // column 7 row 7 -> column 4 row 7: h2e2
        let record = read_cbr(&file).unwrap();
        assert_eq!(record.tag("Title"), Some("V1"));
        let first = record.tree().main_line().next().unwrap();
        assert_eq!(coords(&record, first), "h2e2");
    }
}
