//! 象棋桥 (CCBridge) binary records: CBR (one game) and CBL (a library of
//! games), including the older zlib-compressed library.
//!
//! **CBR** (`CCBridge Record\0`, layout version 2 at byte 19): a header of
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
//!
//! **CBL** (`CCBridgeLibrary\0`): a 66,624-byte header, an index of
//! 276-byte entries (state 7 = a record, 5 = deleted, 0 = unused slot;
//! the record's byte length at +12), then the records on 4096-byte slots,
//! one after the other in index order (a record longer than a slot takes
//! the following slots as well).
//!
//! **Compressed CBL** (`CCBridge`, u32 21, u32 1 or 3, u32 inflated length,
//! zlib stream): an older library format, undocumented; this reader follows
//! the layout worked out from 16 sample libraries (851 games, all read,
//! 845 replay legally, 6 hold a record error). The inflated data holds GBK
//! strings with a u32 byte length first, and per game: its byte length,
//! 32 piece slots in XQF order (`column + 1 << 4 | row + 1`, row from the
//! top, 0 = not on the board), text fields, the result, a game comment,
//! the moves as 6 bytes `[u16 ply][from][to][two bytes of notation]`
//! (squares `column << 4 | row`; a ply number not one past the previous
//! move's starts an alternative to the earlier move of that ply), then one
//! comment line per move, each ended by CRLF, `||` standing for a line
//! break.
//!
//! Moves are kept as coordinates, unchecked: replay the record to check
//! them. Every length, offset and square is checked; a bad file is an
//! error that names its byte offset, never a panic.
//!
//! ```
//! use qipu::formats::ccbridge;
//! // A CBR record: kings on e0 and e9, a Red rook on a0; Red plays a0-a1.
//! let mut cbr = vec![0u8; 2214];
//! cbr[..16].copy_from_slice(b"CCBridge Record\0");
//! cbr[19] = 2; // layout version
//! cbr[2112] = 1; // Red moves first
//! cbr[2120 + 4] = 0x25; // Black king: row 0, column 4
//! cbr[2120 + 85] = 0x15; // Red king: row 9, column 4
//! cbr[2120 + 81] = 0x11; // Red rook: row 9, column 0
//! cbr.extend([0x00, 0, 0, 0]); // root: a move follows
//! cbr.extend([0x01, 0, 81, 72]); // a0-a1, the line ends
//! let record = ccbridge::read_cbr(&cbr).unwrap();
//! assert_eq!(record.tree.main_line().count(), 1);
//! assert_eq!(record.fen(), Some("4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"));
//! ```

use std::io::Read;

use crate::record::{GameResult, MoveText, MoveTree, NodeId, Record, RecordedMove, Span, Warning};
use crate::{Board, Color, File, Move, Piece, Rank, Role, Square};

use super::byte_error as error;
use super::settle_start;
use super::slots::put_slot;

/// The first 16 bytes of a CBR record.
pub const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";

/// The first 16 bytes of a CBL library.
pub const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";

/// The first 8 bytes of a compressed library, followed by u32
/// [`COMPRESSED_FORMAT`].
pub const COMPRESSED_MAGIC: &[u8; 8] = b"CCBridge";

/// The format number after [`COMPRESSED_MAGIC`] in a compressed library.
pub const COMPRESSED_FORMAT: u32 = 21;

/// Why a CCBridge file or record cannot be read, and at which byte: in the
/// file, or in the inflated data for a compressed library (the reason then
/// says so).
pub type CcbridgeError = super::ByteError;

/// The same error, its reason saying that the offset is in the inflated
/// data of a compressed library.
fn in_inflated_data(mut e: CcbridgeError) -> CcbridgeError {
    e.reason.push_str(" (offset in the inflated library data)");
    e
}

/// The games of a library.
#[derive(Clone, Debug)]
pub struct Library {
    /// How many games the library says it holds: for a CBL, the index
    /// entries that hold a record (deleted entries, state 5, are not
    /// counted and not read); for a compressed library, the count in its
    /// header.
    pub declared: usize,
    /// One entry per game, in index order: the record, or why it cannot be
    /// read. Positions (error offsets, [`Record::at`], the moves' byte
    /// offsets in `Span::column`) are offsets in the file, or in the
    /// inflated data for a compressed library.
    pub records: Vec<Result<Record, CcbridgeError>>,
}

/// Whether `bytes` starts like a CBR record.
pub fn is_cbr(bytes: &[u8]) -> bool {
    bytes.starts_with(RECORD_MAGIC)
}

/// Whether `bytes` starts like a CBL library, plain or compressed.
pub fn is_cbl(bytes: &[u8]) -> bool {
    bytes.starts_with(LIBRARY_MAGIC) || is_compressed_library(bytes)
}

fn is_compressed_library(bytes: &[u8]) -> bool {
    bytes.starts_with(COMPRESSED_MAGIC) && u32_at(bytes, 8) == Some(COMPRESSED_FORMAT)
}

/// Reads one CBR record.
pub fn read_cbr(bytes: &[u8]) -> Result<Record, CcbridgeError> {
    if is_cbl(bytes) {
        return error(0, "a CCBridge library (CBL), not a single record (CBR)");
    }
    if !is_cbr(bytes) {
        return error(0, format!("not a CCBridge record: it starts with {}", describe_start(bytes)));
    }
    read_record(bytes, 0, bytes.len(), "the file")
}

/// Reads a CBL library: every game it holds, each read or failed on its
/// own. The error is for a library that cannot be read at all (not a
/// library, a truncated index, a broken compressed stream).
pub fn read_cbl(bytes: &[u8]) -> Result<Library, CcbridgeError> {
    if bytes.starts_with(LIBRARY_MAGIC) {
        read_plain_library(bytes)
    } else if is_compressed_library(bytes) {
        read_compressed_library(bytes)
    } else if is_cbr(bytes) {
        error(0, "a single CCBridge record (CBR), not a library (CBL)")
    } else {
        error(0, format!("not a CCBridge library: it starts with {}", describe_start(bytes)))
    }
}

/// The first bytes of a file, for an error message.
fn describe_start(bytes: &[u8]) -> String {
    let shown: String = bytes
        .iter()
        .take(16)
        .map(|&b| if b.is_ascii_graphic() || b == b' ' { b as char } else { '.' })
        .collect();
    format!("'{shown}', not 'CCBridge Record', 'CCBridgeLibrary' or 'CCBridge' and format 21")
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let four = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(four.try_into().ok()?))
}

/// A binary source position: byte offset in `column`, line 0.
fn span(offset: usize) -> Span {
    Span { line: 0, column: u32::try_from(offset).unwrap_or(u32::MAX) }
}

fn warn(warnings: &mut Vec<Warning>, offset: usize, message: impl Into<String>) {
    warnings.push(Warning { at: span(offset), message: message.into() });
}

// ---------------------------------------------------------------------------
// Reading bytes

/// A reading position in `data`, whose first byte is at `base` in the
/// source (file or inflated data): errors name source offsets.
struct Cursor<'a> {
    data: &'a [u8],
    base: usize,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(data: &'a [u8], base: usize) -> Cursor<'a> {
        Cursor { data, base, at: 0 }
    }

    /// The source offset of the next byte.
    fn offset(&self) -> usize {
        self.base + self.at
    }

    fn left(&self) -> usize {
        self.data.len() - self.at
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], CcbridgeError> {
        if n > self.left() {
            return error(
                self.offset(),
                format!("truncated: {what} needs {n} bytes, {} are left", self.left()),
            );
        }
        let bytes = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(bytes)
    }

    fn u8(&mut self, what: &str) -> Result<u8, CcbridgeError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, CcbridgeError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32, CcbridgeError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

// ---------------------------------------------------------------------------
// Text

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

/// Decodes GBK (GB18030) text; bad bytes become U+FFFD with a warning.
fn gbk_text(bytes: &[u8], what: &str, offset: usize, warnings: &mut Vec<Warning>) -> String {
    let (text, bad) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    if bad {
        warn(warnings, offset, format!("{what}: bytes that are not GBK text, read as U+FFFD"));
    }
    text.into_owned()
}

/// A comment as the record keeps it: line breaks as `\n`, no trailing
/// blanks, no leading empty lines; `None` when nothing is left.
pub(crate) fn tidy_comment(text: &str) -> Option<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.trim_end_matches(|c: char| c.is_whitespace() || c == '\0').trim_start_matches('\n');
    (!text.is_empty()).then(|| text.to_string())
}

// ---------------------------------------------------------------------------
// Tags, result and start position (shared with the CBF reader)

/// The order of the tags the CCBridge readers write (`FEN` comes last).
const TAG_ORDER: [&str; 16] = [
    "Game",
    "Title",
    "Event",
    "Round",
    "Date",
    "Site",
    "Red",
    "Black",
    "RedTeam",
    "BlackTeam",
    "Result",
    "TimeControl",
    "Annotator",
    "Author",
    "Opening",
    "ECCO",
];

/// Puts `Game` and the non-empty values of `found` (trimmed) into the
/// record's tags, in [`TAG_ORDER`].
pub(crate) fn put_tags(record: &mut Record, mut found: Vec<(&'static str, String)>) {
    found.retain(|(_, value)| !value.trim().is_empty());
    found.sort_by_key(|(name, _)| TAG_ORDER.iter().position(|t| t == name).unwrap_or(TAG_ORDER.len()));
    record.tags.push(("Game".into(), "Chinese Chess".into()));
    record.tags.extend(found.into_iter().map(|(name, value)| (name.to_string(), value.trim().to_string())));
}

/// The result of a CCBridge result code: 0 unknown, 1 Red wins, 2 Black
/// wins, 3 draw, 4 several results (read as unknown); `None` for others.
pub(crate) fn result_of_code(code: u32) -> Option<GameResult> {
    match code {
        0 | 4 => Some(GameResult::Unknown),
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 => Some(GameResult::Draw),
        _ => None,
    }
}

/// Sets the record's result and its `Result` tag value from a code.
fn result_tag(code: u32, offset: usize, record: &mut Record) -> (&'static str, String) {
    let result = result_of_code(code).unwrap_or_else(|| {
        warn(&mut record.warnings, offset, format!("result code {code} is not 0-4; read as unknown"));
        GameResult::Unknown
    });
    record.result = Some(result);
    ("Result", result.as_str().to_string())
}

// ---------------------------------------------------------------------------
// Squares and pieces

/// The square of a CBR version 2 byte: `row * 9 + column`, row 0 at the
/// top.
fn index_square(i: u8) -> Option<Square> {
    if i >= 90 {
        return None;
    }
    Some(Square::new(File::new(i as u32 % 9)?, Rank::new(9 - i as u32 / 9)?))
}

/// The square of a byte `column << 4 | row`, row 0 at the top (CBR
/// version 1 and compressed-library moves).
fn nibble_square(b: u8) -> Option<Square> {
    let (column, row) = ((b >> 4) as u32, (b & 0x0F) as u32);
    Some(Square::new(File::new(column)?, Rank::new(9u32.checked_sub(row)?)?))
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
            return error(
                base + offset + i,
                format!("board: byte {b:#04x} (row {}, column {}) is not a piece", i / 9, i % 9),
            );
        };
        let square = index_square(i as u8).expect("i < 90");
        if let Some(piece) = piece {
            board.put(square, piece);
        }
    }
    Ok(board)
}

// ---------------------------------------------------------------------------
// CBR record

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
    strings: &[
        (180, 128, "Title"),
        (692, 64, "Event"),
        (756, 64, "Round"),
        (884, 64, "Date"),
        (948, 64, "Site"),
        (1012, 64, "TimeControl"),
        (1076, 64, "Red"),
        (1140, 64, "RedTeam"),
        (1300, 64, "Black"),
        (1364, 64, "BlackTeam"),
        (1652, 64, "Annotator"),
        (1780, 64, "Author"),
    ],
    result: 2076,
    side: 2112,
    start_number: 2116,
    board: 2120,
    tree: 2214,
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

/// Reads the CBR record in `file[start..end]` (it starts with the magic);
/// `holder` names what bounds it, for messages.
fn read_record(file: &[u8], start: usize, end: usize, holder: &str) -> Result<Record, CcbridgeError> {
    let bytes = &file[start..end];
    let Some(&version) = bytes.get(19) else {
        return error(
            end,
            format!("truncated: {holder} gives the record {} bytes, not even a header", bytes.len()),
        );
    };
    let layout = match version {
        2 => &VERSION_2,
        1 => &VERSION_1,
        3 => return error(start + 19, "CBR version 3, a newer CCBridge record format: not supported"),
        _ => return error(start + 19, format!("CBR version {version}: only versions 1 and 2 are known")),
    };
    if bytes.len() < layout.tree {
        return error(
            end,
            format!(
                "truncated: {holder} gives the record {} bytes, its header needs {}",
                bytes.len(),
                layout.tree
            ),
        );
    }
    let mut record = Record { at: span(start), ..Record::default() };
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
    record.tree = read_tree(&mut cursor, layout.square, &mut record.warnings)?;
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
    settle_start(&mut record, &board, board_at, Some((side, side_at, "file")), fullmoves as u32);
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
        return error(
            offset,
            format!("move record flags {flags:#04x}: only bits 0x01, 0x02, 0x04 are known"),
        );
    }
    let mut comment = None;
    if flags & 0x04 != 0 {
        let length_at = cursor.offset();
        let len = cursor.u32("a comment length")? as usize;
        if len > cursor.left() {
            return error(
                length_at,
                format!("comment of {len} bytes, but only {} bytes are left", cursor.left()),
            );
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
) -> Result<MoveTree, CcbridgeError> {
    let root = read_node(cursor, warnings)?;
    let mut tree = MoveTree::with_capacity(cursor.left() / 4 + 1);
    tree.node_mut(tree.root()).notes_mut().comment = root.comment;
    if root.has_sibling {
        warn(warnings, root.offset, "the root record says an alternative follows; ignored");
    }
    // Parents waiting for their next record: the top one gets it.
    let mut stack: Vec<NodeId> = Vec::new();
    if root.has_child {
        stack.push(tree.root());
    }
    while let Some(parent) = stack.pop() {
        let node = read_node(cursor, warnings)?;
        let (Some(from), Some(to)) = (square(node.from), square(node.to)) else {
            return error(
                node.offset + 2,
                format!("move from {} to {}: a square is off the board", node.from, node.to),
            );
        };
        if from == to {
            return error(node.offset + 2, format!("move from {from} to {from}: the same square"));
        }
        let mv = RecordedMove { text: MoveText::Coords(Move::new(from, to)), at: span(node.offset) };
        let id = tree.add_child(parent, mv);
        if node.comment.is_some() {
            tree.node_mut(id).notes_mut().comment = node.comment;
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

// ---------------------------------------------------------------------------
// CBL library

/// Where the index starts in a CBL.
const INDEX_AT: usize = 66_624;
/// Size of an index entry.
const ENTRY_LEN: usize = 276;
/// Records sit on slots of this size.
const SLOT_LEN: usize = 4096;
/// Index entry states.
const STATE_UNUSED: u32 = 0;
const STATE_DELETED: u32 = 5;
const STATE_RECORD: u32 = 7;

/// Reads a plain CBL: the index, then each record on its slots.
fn read_plain_library(bytes: &[u8]) -> Result<Library, CcbridgeError> {
    let Some(capacity) = u32_at(bytes, 60) else {
        return error(bytes.len(), "truncated: the library header ends before its index size (byte 60)");
    };
    let index_end = (capacity as usize).checked_mul(ENTRY_LEN).and_then(|n| n.checked_add(INDEX_AT));
    let Some(index_end) = index_end.filter(|&end| end <= bytes.len()) else {
        return error(
            bytes.len(),
            format!(
                "truncated: an index of {capacity} entries from byte {INDEX_AT} does not fit in the file"
            ),
        );
    };
    let mut library = Library { declared: 0, records: Vec::new() };
    let mut slot_at = index_end;
    for i in 0..capacity as usize {
        let entry = INDEX_AT + i * ENTRY_LEN;
        let state = u32_at(bytes, entry).expect("inside the index");
        if state == STATE_UNUSED {
            continue;
        }
        let length = u32_at(bytes, entry + 12).expect("inside the index") as usize;
        let start = slot_at;
        slot_at = slot_at.saturating_add(length.div_ceil(SLOT_LEN).max(1).saturating_mul(SLOT_LEN));
        if state == STATE_DELETED {
            continue;
        }
        library.declared += 1;
        library.records.push(read_library_record(bytes, i, entry, state, start, length));
    }
    Ok(library)
}

/// Reads the record of index entry `i` (at byte `entry`), `length` bytes
/// from `start`.
fn read_library_record(
    bytes: &[u8],
    i: usize,
    entry: usize,
    state: u32,
    start: usize,
    length: usize,
) -> Result<Record, CcbridgeError> {
    let Some(end) = start.checked_add(length).filter(|&end| end <= bytes.len()) else {
        return error(
            entry + 12,
            format!(
                "index entry {i}: a record of {length} bytes at byte {start} goes past the end of the file ({} bytes)",
                bytes.len()
            ),
        );
    };
    if !bytes[start..end].starts_with(RECORD_MAGIC) {
        return error(
            start,
            format!("index entry {i} (byte {entry}): no 'CCBridge Record' where its slot starts"),
        );
    }
    let mut record = read_record(bytes, start, end, "its index entry")?;
    if state != STATE_RECORD {
        let message = format!("index entry {i}: state {state} (7 = a record, 5 = deleted); read as a record");
        record.warnings.push(Warning { at: span(entry), message });
    }
    Ok(record)
}

// ---------------------------------------------------------------------------
// Compressed library

/// Where the zlib stream starts.
const STREAM_AT: usize = 20;
/// The largest inflated library read (the largest in the corpus is under
/// 1 MB): a bound on the memory a hostile file can ask for.
const MAX_INFLATED: usize = 256 << 20;
/// zlib never inflates more than about 1032 times its input.
const MAX_INFLATE_RATIO: usize = 1032;
/// The fewest bytes a game of a compressed library takes.
const MIN_GAME_LEN: usize = 4 + 32 + 16 * 4 + 1 + 38 + 4;

/// Inflates a compressed library and reads its games.
fn read_compressed_library(bytes: &[u8]) -> Result<Library, CcbridgeError> {
    let Some(declared_len) = u32_at(bytes, 16) else {
        return error(bytes.len(), "truncated: the compressed library header has 20 bytes");
    };
    let declared_len = declared_len as usize;
    if declared_len > MAX_INFLATED {
        return error(
            16,
            format!(
                "the header says {declared_len} inflated bytes; qipu reads libraries up to {MAX_INFLATED}"
            ),
        );
    }
    let stream = &bytes[STREAM_AT.min(bytes.len())..];
    if declared_len > stream.len().saturating_mul(MAX_INFLATE_RATIO).saturating_add(64) {
        return error(
            16,
            format!(
                "the header says {declared_len} inflated bytes, more than {} zlib bytes can hold",
                stream.len()
            ),
        );
    }
    let mut data = Vec::new();
    let limit = declared_len as u64 + 1;
    if let Err(e) = flate2::read::ZlibDecoder::new(stream).take(limit).read_to_end(&mut data) {
        return error(STREAM_AT, format!("compressed CCBridge library: the zlib stream is broken ({e})"));
    }
    if data.len() != declared_len {
        return error(
            16,
            format!("the header says {declared_len} inflated bytes, the zlib stream holds {}", data.len()),
        );
    }
    read_inflated_library(&data).map_err(in_inflated_data)
}

/// Reads a GBK string with its u32 byte length.
fn gbk_string(
    cursor: &mut Cursor<'_>,
    what: &str,
    warnings: &mut Vec<Warning>,
) -> Result<String, CcbridgeError> {
    let length_at = cursor.offset();
    let len = cursor.u32(what)? as usize;
    if len > cursor.left() {
        return error(length_at, format!("{what}: {len} bytes, but only {} are left", cursor.left()));
    }
    let text_at = cursor.offset();
    // The text ends at a NUL (a C string's terminator, counted in its length).
    let bytes = cursor.take(len, what)?;
    let bytes = &bytes[..memchr::memchr(0, bytes).unwrap_or(bytes.len())];
    Ok(gbk_text(bytes, what, text_at, warnings))
}

/// Reads the inflated data: the library header, then the games, each with
/// its own length.
fn read_inflated_library(data: &[u8]) -> Result<Library, CcbridgeError> {
    let mut cursor = Cursor::new(data, 0);
    let mut ignored = Vec::new();
    for what in ["the library name", "a library field", "a library field", "the creator", "the e-mail"] {
        gbk_string(&mut cursor, what, &mut ignored)?;
    }
    cursor.take(38, "the library dates")?;
    let count_at = cursor.offset();
    let count = cursor.u32("the game count")? as usize;
    gbk_string(&mut cursor, "the library remarks", &mut ignored)?;
    if count > cursor.left() / MIN_GAME_LEN {
        return error(
            count_at,
            format!(
                "{count} games, but the {} bytes left hold {} at most",
                cursor.left(),
                cursor.left() / MIN_GAME_LEN
            ),
        );
    }
    let mut library = Library { declared: count, records: Vec::with_capacity(count) };
    for i in 0..count {
        let start = cursor.offset();
        let length = u32_at(data, start).map(|n| n as usize);
        let Some(end) =
            length.and_then(|n| start.checked_add(n)).filter(|&end| end <= data.len() && end > start + 4)
        else {
            let reason = match length {
                None => "truncated: the data ends before the game's length".to_string(),
                Some(n) => format!(
                    "game {i}: a length of {n} bytes does not fit in the {} bytes left",
                    data.len() - start
                ),
            };
            library.records.push(error::<Record>(start, reason).map_err(in_inflated_data));
            for j in i + 1..count {
                let reason = format!("game {j}: not reached, the length of game {i} is unusable");
                library.records.push(error::<Record>(start, reason).map_err(in_inflated_data));
            }
            break;
        };
        let game = read_compressed_game(&data[start..end], start).map_err(in_inflated_data);
        library.records.push(game);
        cursor.at = end;
    }
    Ok(library)
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
fn read_compressed_game(bytes: &[u8], base: usize) -> Result<Record, CcbridgeError> {
    let mut record = Record { at: span(base), ..Record::default() };
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
    record.tree = tree;
    record.tree.node_mut(record.tree.root()).notes_mut().comment = comment;
    read_comment_lines(&mut cursor, &moves, &mut record);
    settle_start(&mut record, &board, span(board_at), None, 1);
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
            return error(offset + i, format!("piece slot {i}: byte {b:#04x} is not a point of the board"));
        };
        if let Err(why) = put_slot(&mut board, i, square) {
            return error(offset + i, why.to_string());
        }
    }
    Ok(board)
}

/// Reads the move count and the moves `[u16 ply][from][to][2 bytes]`: a
/// move of ply `p` continues the line from the latest move of ply `p - 1`.
/// Returns the tree and the nodes in file order.
fn read_numbered_moves(cursor: &mut Cursor<'_>) -> Result<(MoveTree, Vec<NodeId>), CcbridgeError> {
    let count_at = cursor.offset();
    let count = cursor.u32("the move count")? as usize;
    if count > cursor.left() / 6 {
        return error(
            count_at,
            format!("{count} moves of 6 bytes, but only {} bytes are left", cursor.left()),
        );
    }
    let mut tree = MoveTree::with_capacity(count + 1);
    let mut line = vec![tree.root()];
    let mut moves = Vec::with_capacity(count);
    for n in 0..count {
        let offset = cursor.offset();
        let ply = cursor.u16("a move")? as usize;
        let squares = cursor.take(4, "a move")?;
        if ply == 0 || ply > line.len() {
            return error(
                offset,
                format!("move {}: ply {ply}, but the line so far has {} moves", n + 1, line.len() - 1),
            );
        }
        let (Some(from), Some(to)) = (nibble_square(squares[0]), nibble_square(squares[1])) else {
            return error(
                offset + 2,
                format!(
                    "move {}: from {:#04x} to {:#04x}, a square is off the board",
                    n + 1,
                    squares[0],
                    squares[1]
                ),
            );
        };
        if from == to {
            return error(offset + 2, format!("move {}: from {from} to {from}, the same square", n + 1));
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
fn read_comment_lines(cursor: &mut Cursor<'_>, moves: &[NodeId], record: &mut Record) {
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
            record.tree.node_mut(moves[read]).notes_mut().comment = Some(comment);
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
    use super::*;

    /// The board bytes of the standard start (row 0 = Black's back rank).
    fn start_board_bytes() -> [u8; 90] {
        let mut b = [0u8; 90];
        b[..9].copy_from_slice(&[0x21, 0x22, 0x23, 0x24, 0x25, 0x24, 0x23, 0x22, 0x21]);
        b[81..].copy_from_slice(&[0x11, 0x12, 0x13, 0x14, 0x15, 0x14, 0x13, 0x12, 0x11]);
        (b[19], b[25]) = (0x26, 0x26);
        (b[64], b[70]) = (0x16, 0x16);
        for column in [0, 2, 4, 6, 8] {
            b[27 + column] = 0x27;
            b[54 + column] = 0x17;
        }
        b
    }

    /// A version-2 CBR header: standard start, Red to move, title and Red
    /// player set.
    fn cbr_header() -> Vec<u8> {
        let mut h = vec![0u8; 2214];
        h[..16].copy_from_slice(RECORD_MAGIC);
        h[19] = 2;
        put_utf16(&mut h, 180, "中炮局");
        put_utf16(&mut h, 1076, " 胡荣华 ");
        h[2076] = 1;
        h[2112] = 1;
        h[2116] = 1;
        h[2120..2210].copy_from_slice(&start_board_bytes());
        h[2210..2214].copy_from_slice(&[0xFF; 4]);
        h
    }

    fn put_utf16(h: &mut [u8], at: usize, text: &str) {
        for (i, unit) in text.encode_utf16().enumerate() {
            h[at + 2 * i..at + 2 * i + 2].copy_from_slice(&unit.to_le_bytes());
        }
    }

    /// A node record: flags, reserved, from, to, and a comment when given.
    fn node(flags: u8, from: u8, to: u8, comment: Option<&str>) -> Vec<u8> {
        let mut r = vec![flags | if comment.is_some() { 4 } else { 0 }, 0, from, to];
        if let Some(c) = comment {
            let bytes: Vec<u8> = c.encode_utf16().flat_map(u16::to_le_bytes).collect();
            r.extend((bytes.len() as u32).to_le_bytes());
            r.extend(bytes);
        }
        r
    }

    fn coords(record: &Record, id: NodeId) -> String {
        match &record.tree.node(id).mv.as_ref().unwrap().text {
            MoveText::Coords(m) => m.to_string(),
            other => panic!("{other:?}"),
        }
    }

    /// root {game}; h2e2 {中炮} (alternative b2e2); after h2e2: h9g7.
    fn tree_with_a_variation() -> Vec<u8> {
        let mut t = node(0, 0, 0, Some("game\r\n"));
        t.extend(node(0x02, 70, 67, Some("中炮"))); // h2e2: continues, an alternative follows
        t.extend(node(0x01, 7, 24, None)); // h9g7: the line ends
        t.extend(node(0x01, 64, 67, None)); // b2e2: the alternative, ends
        t
    }

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
        assert_eq!(record.result, Some(GameResult::RedWins));
        assert_eq!(record.fen(), None);
        let t = &record.tree;
        assert_eq!(t.node(t.root()).comment(), Some("game"));
        let main: Vec<_> = t.main_line().collect();
        assert_eq!(main.iter().map(|&id| coords(&record, id)).collect::<Vec<_>>(), ["h2e2", "h9g7"]);
        assert_eq!(t.node(main[0]).comment(), Some("中炮"));
        assert_eq!(t.node(main[0]).mv.as_ref().unwrap().at, span(2234));
        let alts: Vec<_> = t.children(t.root()).collect();
        assert_eq!(coords(&record, alts[1]), "b2e2");
        assert!(record.warnings.is_empty(), "{:?}", record.warnings);
        assert!(crate::analysis::replay::replay(&record).is_valid());
    }

    #[test]
    fn bad_records_name_their_byte() {
        let e = read_cbr(b"PK\x03\x04").unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.reason.contains("not a CCBridge record"), "{e}");
        // Truncated in the header.
        let e = read_cbr(&cbr_header()[..1000]).unwrap_err();
        assert_eq!((e.offset, e.reason.contains("truncated")), (1000, true), "{e}");
        // No root record.
        let e = read_cbr(&cbr_header()).unwrap_err();
        assert_eq!(e.offset, 2214, "{e}");
        // A move record cut short.
        let mut file = cbr_header();
        file.extend(node(0, 0, 0, None));
        file.extend([0x01, 0, 70]);
        let e = read_cbr(&file).unwrap_err();
        assert_eq!((e.offset, e.reason.contains("truncated")), (2218, true), "{e}");
        // A square off the board.
        let mut file = cbr_header();
        file.extend(node(0, 0, 0, None));
        file.extend(node(0x01, 70, 90, None));
        let e = read_cbr(&file).unwrap_err();
        assert_eq!(e.offset, 2220, "{e}");
        assert!(e.reason.contains("off the board"), "{e}");
        // A comment longer than what is left.
        let mut file = cbr_header();
        file.extend([0x05, 0, 0, 0, 200, 0, 0, 0, b'a', 0]);
        let e = read_cbr(&file).unwrap_err();
        assert_eq!(e.offset, 2218, "{e}");
        assert!(e.reason.contains("comment of 200 bytes, but only 2 bytes are left"), "{e}");
        // Unknown flag bits, a bad board byte, a newer version.
        let mut file = cbr_header();
        file.extend(node(0x08, 0, 0, None));
        assert!(read_cbr(&file).unwrap_err().reason.contains("flags 0x08"));
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
        assert!(record.warnings.is_empty());
        // The file says Black, but the first move is Red's: the move wins.
        let mut file = cbr_header();
        file[2112] = 2;
        file.extend(node(0, 0, 0, None));
        file.extend(node(0x01, 70, 67, None));
        let record = read_cbr(&file).unwrap();
        assert_eq!(record.fen(), None);
        assert!(record.warnings[0].message.contains("first move is Red's"), "{:?}", record.warnings);
    }

    #[test]
    fn an_empty_board_without_moves_is_a_separator() {
        let mut file = cbr_header();
        file[2120..2210].fill(0);
        file.extend(node(0x05, 0, 0, Some("第一轮")));
        let record = read_cbr(&file).unwrap();
        assert!(record.tree.is_empty());
        assert_eq!(record.tree.node(record.tree.root()).comment(), Some("第一轮"));
        assert!(record.unreadable.as_ref().unwrap().message.contains("board is empty"));
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
        assert_eq!(record.tree.main_line().count(), 100_000);
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
        let first = record.tree.main_line().next().unwrap();
        assert_eq!(coords(&record, first), "h2e2");
    }

    /// A plain library of `capacity` index slots holding `records` with
    /// index states `states`.
    fn library(capacity: usize, records: &[(u32, Vec<u8>)]) -> Vec<u8> {
        let mut file = vec![0u8; INDEX_AT + ENTRY_LEN * capacity];
        file[..16].copy_from_slice(LIBRARY_MAGIC);
        file[60..64].copy_from_slice(&(capacity as u32).to_le_bytes());
        for (i, (state, record)) in records.iter().enumerate() {
            let entry = INDEX_AT + i * ENTRY_LEN;
            file[entry..entry + 4].copy_from_slice(&state.to_le_bytes());
            file[entry + 12..entry + 16].copy_from_slice(&(record.len() as u32).to_le_bytes());
            let mut slot = record.clone();
            slot.resize(record.len().div_ceil(SLOT_LEN) * SLOT_LEN, 0);
            file.extend(slot);
        }
        file
    }

    #[test]
    fn a_library_skips_deleted_entries_and_isolates_bad_records() {
        let mut good = cbr_header();
        good.extend(tree_with_a_variation());
        let mut bad = cbr_header();
        bad.extend(node(0, 0, 0, None));
        bad.extend(node(0x01, 70, 99, None));
        let mut long = cbr_header();
        long.extend(node(0, 0, 0, Some(&"长".repeat(1500))));
        long.extend(node(0x01, 70, 67, None));
        assert!(long.len() > SLOT_LEN);
        let file = library(8, &[(7, good.clone()), (5, good.clone()), (7, bad), (7, long), (7, good)]);
        assert!(is_cbl(&file) && !is_cbr(&file));
        let lib = read_cbl(&file).unwrap();
        assert_eq!(lib.declared, 4);
        assert_eq!(lib.records.len(), 4);
        assert_eq!(lib.records[0].as_ref().unwrap().tree.main_line().count(), 2);
        let e = lib.records[1].as_ref().unwrap_err();
        let third_slot = INDEX_AT + ENTRY_LEN * 8 + 2 * SLOT_LEN;
        assert_eq!(e.offset, third_slot + 2214 + 4 + 2, "{e}");
        assert_eq!(lib.records[2].as_ref().unwrap().tree.main_line().count(), 1);
        let last = lib.records[3].as_ref().unwrap();
        assert_eq!(last.at, span(third_slot + 3 * SLOT_LEN));
        // Record offsets are absolute in the file.
        let first = last.tree.main_line().next().unwrap();
        assert_eq!(last.tree.node(first).mv.as_ref().unwrap().at, span(third_slot + 3 * SLOT_LEN + 2234));
    }

    #[test]
    fn bad_libraries_fail_whole() {
        assert!(read_cbl(b"CCBridge Record\0").unwrap_err().reason.contains("not a library"));
        assert!(read_cbr(&library(1, &[])).unwrap_err().reason.contains("not a single record"));
        assert!(read_cbl(b"XQ\x12").unwrap_err().reason.contains("not a CCBridge library"));
        let mut file = library(4, &[]);
        file.truncate(INDEX_AT + 100);
        let e = read_cbl(&file).unwrap_err();
        assert!(e.reason.contains("truncated"), "{e}");
        // An index entry whose record goes past the end is that record's error.
        let mut file = library(4, &[(7, cbr_header())]);
        file.truncate(file.len() - SLOT_LEN + 100);
        let lib = read_cbl(&file).unwrap();
        assert_eq!(lib.records[0].as_ref().unwrap_err().offset, INDEX_AT + 12);
    }

    /// A GBK string with its u32 length.
    fn gbk(text: &str) -> Vec<u8> {
        let (bytes, _, _) = encoding_rs::GBK.encode(text);
        let mut out = (bytes.len() as u32).to_le_bytes().to_vec();
        out.extend_from_slice(&bytes);
        out
    }

    /// A compressed-library game: standard start, `moves` as (ply, from,
    /// to) with nibble squares, `comments` one line per move.
    fn compressed_game(moves: &[(u16, u8, u8)], comments: &[u8]) -> Vec<u8> {
        let mut g = Vec::new();
        let red =
            [0x1a, 0x2a, 0x3a, 0x4a, 0x5a, 0x6a, 0x7a, 0x8a, 0x9a, 0x28, 0x88, 0x17, 0x37, 0x57, 0x77, 0x97];
        let black =
            [0x11, 0x21, 0x31, 0x41, 0x51, 0x61, 0x71, 0x81, 0x91, 0x23, 0x83, 0x14, 0x34, 0x54, 0x74, 0x94];
        g.extend(red);
        g.extend(black);
        g.extend(1u32.to_le_bytes()); // game type
        g.extend(gbk("全国赛"));
        g.extend(1u32.to_le_bytes());
        g.extend(gbk("中炮对屏风马"));
        g.extend(gbk(""));
        g.extend(gbk(""));
        g.extend(gbk("广州"));
        g.extend(gbk("1990"));
        g.extend(gbk("吕钦"));
        g.extend(gbk("许银川"));
        g.extend(3u32.to_le_bytes()); // a draw
        g.extend(gbk(""));
        g.extend(gbk(""));
        g.extend(gbk("gjf"));
        g.extend(gbk(""));
        g.extend(gbk("开局||说明"));
        g.push(1);
        g.extend(b"02-11-17 17:31:18  02-11-17 17:31:18  ");
        g.extend((moves.len() as u32).to_le_bytes());
        for &(ply, from, to) in moves {
            g.extend(ply.to_le_bytes());
            g.extend([from, to, 0, 0]);
        }
        g.extend_from_slice(comments);
        let mut out = ((g.len() + 4) as u32).to_le_bytes().to_vec();
        out.extend(g);
        out
    }

    fn compressed_library(games: &[Vec<u8>]) -> Vec<u8> {
        let mut data = gbk("库");
        for _ in 0..4 {
            data.extend(gbk(""));
        }
        data.extend([b' '; 38]);
        data.extend((games.len() as u32).to_le_bytes());
        data.extend(gbk(""));
        for g in games {
            data.extend_from_slice(g);
        }
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut z, &data).unwrap();
        let stream = z.finish().unwrap();
        let mut file = COMPRESSED_MAGIC.to_vec();
        file.extend(COMPRESSED_FORMAT.to_le_bytes());
        file.extend(3u32.to_le_bytes());
        file.extend((data.len() as u32).to_le_bytes());
        file.extend(stream);
        file
    }

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
        let t = &record.tree;
        assert_eq!(t.node(t.root()).comment(), Some("开局\n说明"));
        let main: Vec<_> = t.main_line().collect();
        assert_eq!(main.iter().map(|&id| coords(record, id)).collect::<Vec<_>>(), ["h2e2", "h9g7"]);
        assert_eq!(t.node(main[0]).comment(), Some("中炮"));
        let alt = t.children(t.root()).nth(1).unwrap();
        assert_eq!(coords(record, alt), "h0g2");
        let reply = t.main_child(alt).unwrap();
        assert_eq!(coords(record, reply), "b9c7");
        assert_eq!(t.node(reply).comment(), Some("也\n可"));
        assert!(record.warnings.is_empty(), "{:?}", record.warnings);
        assert!(crate::analysis::replay::replay(record).is_valid());
    }

    #[test]
    fn bad_compressed_games_name_their_inflated_byte() {
        // Ply 3 after one move: not a line.
        let bad = compressed_game(&[(1, 0x77, 0x47), (3, 0x70, 0x62)], b"\r\n\r\n");
        let good = compressed_game(&[(1, 0x77, 0x47)], b"\r\n");
        let lib = read_cbl(&compressed_library(&[bad, good])).unwrap();
        let e = lib.records[0].as_ref().unwrap_err();
        assert!(e.reason.contains("ply 3") && e.reason.contains("inflated"), "{e}");
        assert!(lib.records[1].is_ok());
        // An off-board square.
        let off = compressed_game(&[(1, 0x77, 0x4A)], b"\r\n");
        let lib = read_cbl(&compressed_library(&[off])).unwrap();
        assert!(lib.records[0].as_ref().unwrap_err().reason.contains("off the board"));
        // A broken stream and a wrong inflated length fail the library.
        let mut file = compressed_library(&[]);
        let n = file.len();
        file[n - 6] ^= 0xFF;
        assert!(read_cbl(&file).is_err());
        let mut file = compressed_library(&[]);
        file[16] += 1;
        assert_eq!(read_cbl(&file).unwrap_err().offset, 16);
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
        assert!(lib.records[0].as_ref().unwrap_err().reason.contains("does not fit"));
        assert!(lib.records[1].as_ref().unwrap_err().reason.contains("not reached"));
    }
}
