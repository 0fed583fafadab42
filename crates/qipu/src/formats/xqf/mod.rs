//! XQF records (象棋演播室 / XQStudio), every version from 10 (XQF 1.0,
//! plain) to 18 (what XQStudio 1.63 writes, enciphered).
//!
//! A file is a 1024-byte header (keys, the 32 piece slots, result, type and
//! text fields in GB18030) and a move tree stored as a left-child /
//! right-sibling binary tree in pre-order. From version 11 on the tree is
//! enciphered with a 32-byte key and the squares and comment lengths are
//! offset by keys derived from the header; from version 12 on the piece
//! slots are also rotated. The reader follows XQStudio's own loader
//! (`XQFileRW.pas`), with an explicit stack so that trees of any depth read
//! in linear time, and it checks what XQStudio trusts: every length and
//! square, and that the tree ends where the file does.
//!
//! ```
//! use qipu::formats::xqf;
//! // An XQF 1.0 file: header, a root record with one move, 炮二平五 (h2e2).
//! let mut file = vec![0u8; 1024];
//! file[..3].copy_from_slice(b"XQ\x0a");
//! let start = [80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3,
//!              9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86];
//! file[0x10..0x30].copy_from_slice(&start);
//! file.extend([0x18, 0x20, 0xF0, 0xFF, 0, 0, 0, 0]); // root: a move follows
//! file.extend([72 + 0x18, 42 + 0x20, 0x00, 0, 0, 0, 0, 0]); // h2 -> e2, last move
//! let record = xqf::read(&file).unwrap();
//! assert_eq!(record.tree().main_line().count(), 1);
//! assert_eq!(record.fen(), None); // the standard start position
//! ```

mod error;
mod write;
pub use error::{Truncated, XqfErrorKind};
pub use write::{Version, WriteError, write, write_preserving, write_with_warnings};

use super::byte_error::byte_error as error;
use super::slots::put_slot;
use super::tree::{Game, Moves};
use crate::record::{GameResult, MoveText, Record, RecordBuilder, RecordedMove, Span, Visitor, Warning};
use crate::{Board, Color, Move, Square};

/// Size of the header; the move tree starts right after it.
pub const HEADER_LEN: usize = 0x400;

/// The newest version XQStudio writes and opens.
pub(crate) const NEWEST_VERSION: u8 = 18;

/// Why an XQF file cannot be read, and at which byte of the file.
pub type XqfError = super::ByteError<XqfErrorKind>;

/// The keys derived from the header (all zero up to version 10).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Keys {
    /// Offset of the piece positions.
    pub(crate) xy: u8,
    /// Offset of the moves' from-squares.
    pub(crate) xy_from: u8,
    /// Offset of the moves' to-squares.
    pub(crate) xy_to: u8,
    /// Offset of the comment lengths.
    pub(crate) remark_size: u32,
    /// The stream cipher on the tree, by absolute offset mod 32.
    pub stream: [u8; 32],
}

impl Keys {
    /// Derives the keys of a header (version 11 and later; zero keys for
    /// version 10 and earlier).
    pub fn derive(header: &[u8; HEADER_LEN]) -> Keys {
        if header[2] <= 10 {
            return Keys::default();
        }
        let (mask, or) = (header[3], &header[8..12]);
        let (sum, xy, xy_from, xy_to) = (header[0x0C], header[0x0D], header[0x0E], header[0x0F]);
        let g = |k: u8| 54u32.wrapping_mul(k as u32 * k as u32).wrapping_add(221);
        let key_xy = (g(xy).wrapping_mul(xy as u32) % 256) as u8;
        let key_from = (g(xy_from).wrapping_mul(key_xy as u32) % 256) as u8;
        let key_to = (g(xy_to).wrapping_mul(key_from as u32) % 256) as u8;
        let remark_size = (sum as u32 * 256 + xy as u32) % 32000 + 767;
        let b = [(sum & mask) | or[0], (xy & mask) | or[1], (xy_from & mask) | or[2], (xy_to & mask) | or[3]];
        const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
        let mut stream = [0u8; 32];
        for (i, k) in stream.iter_mut().enumerate() {
            *k = COPYRIGHT[i] & b[i % 4];
        }
        Keys { xy: key_xy, xy_from: key_from, xy_to: key_to, remark_size, stream }
    }
}

/// The text fields of the header: offset, capacity (the length byte not
/// counted) and the tag they become.
const STRINGS: [(usize, usize, &str); 13] = [
    (0x050, 63, "Title"),
    (0x090, 63, "TitleB"),
    (0x0D0, 63, "Event"),
    (0x110, 15, "Date"),
    (0x120, 15, "Site"),
    (0x130, 15, "Red"),
    (0x140, 15, "Black"),
    (0x150, 63, "TimeControl"),
    (0x190, 15, "RedTime"),
    (0x1A0, 15, "BlackTime"),
    (0x1B0, 31, "Reserved"),
    (0x1D0, 15, "Annotator"),
    (0x1E0, 15, "Author"),
];

/// The game types of header byte 0x40, as XQStudio names them.
const GAME_TYPES: [&str; 4] = ["全局", "布局", "中局", "残局"];

/// Reads one XQF file into a record. Moves are kept as coordinates; the
/// record is replayed like any other to check them.
///
/// # Errors
///
/// An [`XqfError`], with its byte offset, for a file that is not XQF, a
/// version qipu does not read, or a truncated or damaged header or move
/// tree.
pub fn read(bytes: &[u8]) -> Result<Record, XqfError> {
    read_with(bytes, &mut RecordBuilder::default())
}

/// Reads one XQF file with `visitor`: the game's events, in the order of
/// [`visit`](crate::record::visit), and what the visitor makes of them.
/// The whole file is read (and checked) before the first event, so a file
/// that cannot be read tells nothing; no record is built.
///
/// ```
/// use qipu::formats::xqf;
/// use qipu::record::replay::Replayer;
/// # let mut file = vec![0u8; 1024];
/// # file[..3].copy_from_slice(b"XQ\x0a");
/// # let start = [80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3,
/// #              9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86];
/// # file[0x10..0x30].copy_from_slice(&start);
/// # file.extend([0x18, 0x20, 0xF0, 0xFF, 0, 0, 0, 0]);
/// # file.extend([72 + 0x18, 42 + 0x20, 0x00, 0, 0, 0, 0, 0]);
/// let replayed = xqf::read_with(&file, &mut Replayer::default()).unwrap();
/// assert!(replayed.is_valid() && replayed.plies == 1);
/// ```
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Result<V::Output, XqfError> {
    Ok(read_game(bytes)?.tell(visitor))
}

/// Reads one XQF file into a game, to tell.
pub(crate) fn read_game(bytes: &[u8]) -> Result<Game, XqfError> {
    read_file(bytes, None)
}

/// What an XQF file holds beyond its record: the header as stored and each
/// node record's stored bytes (the random bits XQStudio writes, comment
/// bytes), so that [`write_preserving`] can write the file back byte for
/// byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preserved {
    header: Box<[u8; HEADER_LEN]>,
    /// Root first, then the moves in file order (the node order of the
    /// record's tree).
    records: Vec<RawRecord>,
}

/// Reads an XQF file, keeping what [`write_preserving`] needs to write it
/// back byte for byte.
///
/// # Errors
///
/// As [`read`].
///
/// # Panics
///
/// Never: a file that reads has the header kept.
pub fn read_preserving(bytes: &[u8]) -> Result<(Record, Preserved), XqfError> {
    let mut records = Vec::new();
    // The tree in file order, as the node records are kept.
    let record = read_file(bytes, Some(&mut records))?.into_record();
    // Cannot fail: a file shorter than its header is an error of `read_file`.
    let header = Box::new(*bytes.first_chunk::<HEADER_LEN>().expect("read checked the header"));
    Ok((record, Preserved { header, records }))
}

fn read_file(bytes: &[u8], raws: Option<&mut Vec<RawRecord>>) -> Result<Game, XqfError> {
    if !bytes.starts_with(b"XQ") {
        return error(0, XqfErrorKind::NotXqf { found: bytes[..bytes.len().min(2)].to_vec() });
    }
    let Some(header) = bytes.first_chunk::<HEADER_LEN>() else {
        return error(bytes.len(), XqfErrorKind::Truncated(Truncated::Header { len: bytes.len() }));
    };
    let version = header[2];
    if version > NEWEST_VERSION {
        return error(2, XqfErrorKind::Version(version));
    }
    let key_sum = header[0x0C..0x10].iter().fold(0u8, |a, &b| a.wrapping_add(b));
    if key_sum != 0 {
        return error(0x0C, XqfErrorKind::KeySum { sum: key_sum });
    }
    let keys = Keys::derive(header);
    let mut record = Game::at_byte(0);
    record.tag("Game", "Chinese Chess");
    for &(offset, capacity, tag) in &STRINGS {
        if let Some(text) = header_string(header, offset, capacity, tag, &mut record.warnings) {
            record.tag(tag, text);
        }
    }
    let result = match header[0x33] {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 | 4 => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    record.tag("Result", result.as_str());
    record.result = Some(result);
    let game_type = u16::from_le_bytes([header[0x40], header[0x41]]);
    if game_type != 0 {
        let name =
            GAME_TYPES.get(game_type as usize).map_or_else(|| game_type.to_string(), |n| n.to_string());
        record.tag("GameType", name);
    }
    let board = start_board(header, &keys)?;

    let tree_bytes = &bytes[HEADER_LEN..];
    let plain: Vec<u8> = if version <= 10 {
        tree_bytes.to_vec()
    } else {
        // Offsets from 0x400 on: 0x400 is a multiple of 32, so the key
        // index is the offset in the tree mod 32.
        tree_bytes.iter().enumerate().map(|(i, &b)| b.wrapping_sub(keys.stream[i % 32])).collect()
    };
    let mut reader = TreeReader { plain: &plain, at: 0, version, keys: &keys, text: String::new() };
    let who_plays = header[0x32];
    // A file read to be written back byte for byte keeps its comment whole.
    let preserving = raws.is_some();
    read_tree(&mut reader, &mut record, raws)?;
    if !preserving {
        record.take_tag_lines();
    }
    if reader.at < plain.len() {
        record.warnings.push(Warning {
            at: Span { line: 0, column: (HEADER_LEN + reader.at) as u32 },
            message: format!("{} byte(s) after the end of the move tree, ignored", plain.len() - reader.at),
        });
    }

    // The side to move: the colour of the first move's piece; without a
    // move, the header's WhoPlay byte.
    let header_turn = if who_plays == 1 { Color::Black } else { Color::Red };
    let fullmoves = u16::from_le_bytes([header[0x30], header[0x31]]) as u32 / 2;
    super::start::settle_start(
        &mut record,
        &board,
        Span { line: 0, column: 0x10 },
        Some((header_turn, Span { line: 0, column: 0x32 }, "header")),
        (0, fullmoves),
    );
    Ok(record)
}

/// The string field at `offset`: length byte, then text in GB18030.
fn header_string(
    header: &[u8; HEADER_LEN],
    offset: usize,
    capacity: usize,
    tag: &str,
    warnings: &mut Vec<Warning>,
) -> Option<String> {
    let mut len = header[offset] as usize;
    let at = Span { line: 0, column: offset as u32 };
    if len > capacity {
        warnings.push(Warning {
            at,
            message: format!("{tag}: length {len} is past its field of {capacity} bytes; read {capacity}"),
        });
        len = capacity;
    }
    // A fixed-size field ends at its first NUL: what follows is not text
    // (a field that another one overflowed, uninitialised bytes).
    let field = &header[offset + 1..offset + 1 + len];
    let field = &field[..memchr::memchr(0, field).unwrap_or(len)];
    if field.is_empty() {
        return None;
    }
    let text =
        decode_text(field, |message| warnings.push(Warning { at, message: format!("{tag}: {message}") }));
    (!text.is_empty()).then_some(text)
}

/// Decodes GB18030 text; a double-byte character cut at the end is
/// dropped, other bad bytes become U+FFFD, and `warn` is told either way.
fn decode_text(bytes: &[u8], warn: impl FnMut(&str)) -> String {
    let mut text = String::new();
    decode_text_into(bytes, &mut text, warn);
    text
}

/// [`decode_text`] into `out` (emptied first), reusing its room.
fn decode_text_into(bytes: &[u8], out: &mut String, mut warn: impl FnMut(&str)) {
    let decode = |bytes: &[u8], out: &mut String| {
        out.clear();
        let mut decoder = encoding_rs::GB18030.new_decoder_without_bom_handling();
        // Cannot be `None`: a comment is far shorter than memory.
        out.reserve(decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(bytes.len() * 3));
        let (_, _, had_errors) = decoder.decode_to_string(bytes, out, true);
        had_errors
    };
    if !decode(bytes, out) {
        return;
    }
    let whole = out.clone();
    if !decode(&bytes[..bytes.len() - 1], out) {
        warn("a character is cut in half at the end; read up to it");
        return;
    }
    warn("bytes that are not GB18030 text, read as U+FFFD");
    *out = whole;
}

/// The start position from the 32 piece slots.
fn start_board(header: &[u8; HEADER_LEN], keys: &Keys) -> Result<Board, XqfError> {
    let raw = &header[0x10..0x30];
    let mut slots = [0u8; 32];
    if header[2] >= 12 {
        for (i, &b) in raw.iter().enumerate() {
            slots[(i + 1 + keys.xy as usize) % 32] = b;
        }
    } else {
        slots.copy_from_slice(raw);
    }
    let mut board = Board::empty();
    for (i, &slot) in slots.iter().enumerate() {
        let v = slot.wrapping_sub(keys.xy);
        let Some(square) = square(v) else { continue }; // off the board: captured
        if let Err(why) = put_slot(&mut board, i, square) {
            return error(0x10 + i, XqfErrorKind::SharedPoint(why));
        }
    }
    Ok(board)
}

/// The square of an XQF square byte `X*10 + Y`, if it is on the board.
fn square(v: u8) -> Option<Square> {
    if v > 89 {
        return None;
    }
    Some(Square::new(crate::File::new(v as u32 / 10)?, crate::Rank::new(v as u32 % 10)?))
}

/// Reading position in the deciphered tree.
struct TreeReader<'a> {
    plain: &'a [u8],
    at: usize,
    version: u8,
    keys: &'a Keys,
    /// The text of the last comment decoded, kept to reuse its room.
    text: String,
}

/// One node record of the tree, as read: its bytes stay in the tree.
struct NodeRecord {
    from: u8,
    to: u8,
    has_child: bool,
    has_sibling: bool,
    /// The record has a comment length field.
    has_length: bool,
    /// Offset of the record in the deciphered tree.
    at: usize,
    /// Where the comment's bytes are in the deciphered tree (empty
    /// without one).
    comment: std::ops::Range<usize>,
}

/// A node record as stored (deciphered), for writing it back byte for byte.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RawRecord {
    /// From, to, tag and reserved bytes.
    head: [u8; 4],
    /// The comment length field, when there is one.
    length: Option<u32>,
    /// The comment bytes.
    comment: Vec<u8>,
}

impl NodeRecord {
    /// Offset of the record in the file.
    fn offset(&self) -> usize {
        HEADER_LEN + self.at
    }

    /// The record as stored in `plain`, the tree it was read from.
    fn raw(&self, plain: &[u8]) -> RawRecord {
        let head = [plain[self.at], plain[self.at + 1], plain[self.at + 2], plain[self.at + 3]];
        let length = self.has_length.then(|| {
            u32::from_le_bytes([
                plain[self.at + 4],
                plain[self.at + 5],
                plain[self.at + 6],
                plain[self.at + 7],
            ])
        });
        RawRecord { head, length, comment: plain[self.comment.clone()].to_vec() }
    }
}

impl TreeReader<'_> {
    fn offset(&self) -> usize {
        HEADER_LEN + self.at
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], XqfError> {
        let left = self.plain.len() - self.at;
        if left < n {
            return error(self.offset(), XqfErrorKind::Truncated(Truncated::Needs { what, needs: n, left }));
        }
        let bytes = &self.plain[self.at..self.at + n];
        self.at += n;
        Ok(bytes)
    }

    /// The next node record; its comment, if any, is checked but not
    /// decoded (see [`TreeReader::comment`]). Inlined: a record handed
    /// back through memory stalls every read of it.
    #[inline(always)]
    fn node(&mut self) -> Result<NodeRecord, XqfError> {
        let at = self.at;
        let &[from, to, tag, _] = self.take(4, "a move record")? else { unreachable!("took 4 bytes") };
        let (has_child, has_sibling, has_length) = if self.version <= 10 {
            (tag & 0xF0 != 0, tag & 0x0F != 0, true)
        } else {
            (tag & 0x80 != 0, tag & 0x40 != 0, tag & 0x20 != 0)
        };
        let mut comment = 0..0;
        if has_length {
            let length_at = self.offset();
            let stored =
                u32::from_le_bytes(*self.take(4, "a comment length")?.first_chunk().expect("4 bytes"));
            let len = match stored {
                0 => 0,
                _ if self.version <= 10 => stored,
                _ if stored < self.keys.remark_size => {
                    let key = self.keys.remark_size;
                    return error(length_at, XqfErrorKind::CommentBelowKey { stored, key });
                }
                _ => stored - self.keys.remark_size,
            } as usize;
            if len > self.plain.len() - self.at {
                let left = self.plain.len() - self.at;
                return error(length_at, XqfErrorKind::CommentPastEnd { len, left });
            }
            comment = self.at..self.at + len;
            self.at += len;
        }
        let from = from.wrapping_sub(0x18).wrapping_sub(self.keys.xy_from);
        let to = to.wrapping_sub(0x20).wrapping_sub(self.keys.xy_to);
        Ok(NodeRecord { from, to, has_child, has_sibling, has_length, at, comment })
    }

    /// The comment of `node` as the record keeps it: decoded, a last line
    /// break dropped, line breaks as `\n`; `None` when it is empty.
    /// Problems of decoding are warned of.
    fn comment(&mut self, node: &NodeRecord, warnings: &mut Vec<Warning>) -> Option<&str> {
        if node.comment.is_empty() {
            return None;
        }
        let at = Span { line: 0, column: (HEADER_LEN + node.comment.start) as u32 };
        let bytes = &self.plain[node.comment.clone()];
        decode_text_into(bytes, &mut self.text, |m| {
            warnings.push(Warning { at, message: format!("comment: {m}") })
        });
        if self.text.ends_with("\r\n") {
            self.text.truncate(self.text.len() - 2);
        }
        if self.text.contains("\r\n") {
            self.text = self.text.replace("\r\n", "\n");
        }
        (!self.text.is_empty()).then_some(self.text.as_str())
    }
}

/// Reads the root record and the move tree into `record`.
fn read_tree(
    reader: &mut TreeReader<'_>,
    record: &mut Game,
    mut raws: Option<&mut Vec<RawRecord>>,
) -> Result<(), XqfError> {
    if reader.plain.is_empty() {
        return error(HEADER_LEN, XqfErrorKind::Truncated(Truncated::NoRoot));
    }
    let root = reader.node()?;
    if let Some(raws) = raws.as_mut() {
        raws.push(root.raw(reader.plain));
    }
    let mut tree = Moves::with_capacity(reader.plain.len() / 8 + 1);
    if let Some(c) = reader.comment(&root, &mut record.warnings) {
        tree.set_comment(tree.root(), c);
    }
    if root.has_sibling {
        record.warnings.push(Warning {
            at: Span { line: 0, column: root.offset() as u32 },
            message: "the root record says an alternative follows; ignored".into(),
        });
    }
    // Parents waiting for their next record: the top one gets it. A record
    // with a sibling leaves its parent on the stack for after its subtree.
    let mut stack: Vec<u32> = Vec::new();
    if root.has_child {
        stack.push(tree.root());
    }
    while let Some(parent) = stack.pop() {
        let node = reader.node()?;
        if let Some(raws) = raws.as_mut() {
            raws.push(node.raw(reader.plain));
        }
        let offset = node.offset();
        let (Some(from), Some(to)) = (square(node.from), square(node.to)) else {
            return error(offset, XqfErrorKind::OffBoard { from: node.from, to: node.to });
        };
        let mv = RecordedMove {
            text: MoveText::Coords(Move::new(from, to)),
            at: Span { line: 0, column: offset as u32 },
        };
        let id = tree.add_child(parent, mv);
        if let Some(c) = reader.comment(&node, &mut record.warnings) {
            tree.set_comment(id, c);
        }
        if node.has_sibling {
            stack.push(parent);
        }
        if node.has_child {
            stack.push(id);
        }
    }
    record.moves = tree;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen::write_fen;

    /// The key bytes of `xqbase/eleeye: XQFTOOLS/SAMPLE.XQF` (formats.md §3.15).
    fn sample_header() -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..16].copy_from_slice(&[
            0x58, 0x51, 0x12, 0xBE, 0, 0, 0, 0, 0xE8, 0xD8, 0xBC, 0x84, 0xA5, 0x9C, 0xE7, 0xD8,
        ]);
        h[0x10..0x30].copy_from_slice(&[
            0xF7, 0xFB, 0xB2, 0x35, 0x3F, 0x49, 0x53, 0x5D, 0x67, 0x71, 0x7B, 0x85, 0x3D, 0x79, 0x32, 0x46,
            0x5A, 0x6E, 0x82, 0x2C, 0x36, 0x02, 0xF8, 0x54, 0x12, 0xEA, 0x72, 0x7C, 0x38, 0x74, 0xD7, 0xB4,
        ]);
        h
    }

    #[test]
    fn keys_of_the_spec_test_vector() {
        let keys = Keys::derive(&sample_header());
        assert_eq!((keys.xy, keys.xy_from, keys.xy_to, keys.remark_size), (44, 196, 52, 11163));
        assert_eq!(
            keys.stream,
            [
                0x48, 0x08, 0x02, 0x08, 0x20, 0x40, 0x2E, 0x10, 0x68, 0x50, 0x28, 0x04, 0x68, 0x54, 0x20,
                0x0C, 0x60, 0x0C, 0x20, 0x04, 0x6C, 0x4C, 0x26, 0x00, 0x40, 0x48, 0x28, 0x14, 0x64, 0x48,
                0x2E, 0x1C
            ]
        );
    }

    #[test]
    fn pieces_of_the_spec_test_vector() {
        let header = sample_header();
        let board = start_board(&header, &Keys::derive(&header)).unwrap();
        let mut fen = String::new();
        write_fen(&board, Color::Red, 0, 1, &mut fen);
        // Red has rooks, horses, king and cannons only: a nine-piece handicap.
        assert_eq!(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1");
    }

    fn v10_file(tree: &[u8]) -> Vec<u8> {
        let mut file = vec![0u8; HEADER_LEN];
        file[..3].copy_from_slice(b"XQ\x0a");
        let start = [
            80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59, 69, 79, 89,
            17, 77, 6, 26, 46, 66, 86,
        ];
        file[0x10..0x30].copy_from_slice(&start);
        file.extend_from_slice(tree);
        file
    }

    fn mv(from: u8, to: u8, tag: u8, comment: &[u8]) -> Vec<u8> {
        let mut r = vec![from + 0x18, to + 0x20, tag, 0];
        r.extend((comment.len() as u32).to_le_bytes());
        r.extend_from_slice(comment);
        r
    }

    #[test]
    fn variations_and_comments_in_file_order() {
        // root; h2e2 {中炮} with alternative b2e2; after h2e2: h9g7.
        let mut tree = mv(0, 0, 0xF0, b"game\r\n");
        tree.extend(mv(72, 42, 0xFF, b"\xd6\xd0\xc5\xda\r\n")); // has child and sibling
        tree.extend(mv(79, 67, 0x00, b"")); // h9g7 (79 -> 67): last of its line
        tree.extend(mv(12, 42, 0x00, b"")); // b2e2, the alternative
        let record = read(&v10_file(&tree)).unwrap();
        let t = record.tree();
        assert_eq!(t.node(t.root()).comment(), Some("game"));
        let main: Vec<_> = t.main_line().collect();
        assert_eq!(main.len(), 2);
        assert_eq!(t.node(main[0]).comment(), Some("中炮"));
        let alts: Vec<_> = t.children(t.root()).collect();
        assert_eq!(alts.len(), 2);
        match &t.node(alts[1]).mv.as_ref().unwrap().text {
            MoveText::Coords(m) => assert_eq!(m.to_string(), "b2e2"),
            other => panic!("{other:?}"),
        }
        assert!(record.warnings().is_empty(), "{:?}", record.warnings());
    }

    #[test]
    fn bad_files_are_reported_with_their_offset() {
        assert_eq!(read(b"PK\x03\x04").unwrap_err().offset, 0);
        assert!(read(b"XQ\x0a").unwrap_err().reason().contains("truncated"));
        let mut newer = v10_file(&mv(0, 0, 0, b""));
        newer[2] = 19;
        assert_eq!(read(&newer).unwrap_err().offset, 2);
        // A move record cut short.
        let mut tree = mv(0, 0, 0xF0, b"");
        tree.extend([72 + 0x18, 42 + 0x20]);
        let e = read(&v10_file(&tree)).unwrap_err();
        assert_eq!(e.offset, HEADER_LEN + 8);
        let cut = Truncated::Needs { what: "a move record", needs: 4, left: 2 };
        assert_eq!(e.kind, XqfErrorKind::Truncated(cut));
        // A comment longer than the file.
        let mut tree = mv(0, 0, 0x00, b"");
        tree[4] = 200;
        let e = read(&v10_file(&tree)).unwrap_err();
        assert!(e.reason().contains("comment of 200 bytes"), "{e}");
        assert_eq!(e.kind, XqfErrorKind::CommentPastEnd { len: 200, left: 0 });
        // A square off the board.
        let mut tree = mv(0, 0, 0xF0, b"");
        tree.extend(mv(95, 42, 0, b""));
        let e = read(&v10_file(&tree)).unwrap_err();
        assert!(e.reason().contains("off the board"));
        assert_eq!((e.offset, e.kind), (HEADER_LEN + 8, XqfErrorKind::OffBoard { from: 95, to: 42 }));
    }

    #[test]
    fn a_deep_tree_needs_no_recursion() {
        let mut tree = mv(0, 0, 0xF0, b"");
        // 100,000 plies of rook shuffles a0-a1-a0 / a9-a8-a9.
        let moves = [(0, 1), (9, 8), (1, 0), (8, 9)];
        for i in 0..100_000 {
            let (f, t) = moves[i % 4];
            tree.extend(mv(f, t, if i + 1 < 100_000 { 0xF0 } else { 0 }, b""));
        }
        let record = read(&v10_file(&tree)).unwrap();
        assert_eq!(record.tree().main_line().count(), 100_000);
    }

    #[test]
    fn black_moves_first_from_the_standard_start_only_when_the_header_says_so() {
        let mut tree = mv(0, 0, 0xF0, b"");
        tree.extend(mv(79, 67, 0, b""));
        // The header says Red: the first move is out of turn.
        let record = read(&v10_file(&tree)).unwrap();
        assert_eq!(record.fen(), None);
        let e = record.replayed().error.clone().expect("out of turn");
        assert_eq!(e.ply, 1);
        assert!(e.to_string().contains("Black moves first from the standard start; Red moves first"), "{e}");
        // The header says Black.
        let mut file = v10_file(&tree);
        file[0x32] = 1;
        let record = read(&file).unwrap();
        assert!(record.fen().unwrap().contains(" b "), "{:?}", record.fen());
        assert!(record.warnings().is_empty(), "{:?}", record.warnings());
        assert!(record.replayed().is_valid());
    }

    #[test]
    fn a_header_contradicted_by_the_first_move_of_a_setup_gives_way() {
        // The standard placement less Red's a0 rook: not the standard start.
        let mut tree = mv(0, 0, 0xF0, b"");
        tree.extend(mv(79, 67, 0, b""));
        let mut file = v10_file(&tree);
        file[0x10] = 0xFF;
        let record = read(&file).unwrap();
        assert!(record.fen().unwrap().contains(" b "), "{:?}", record.fen());
        assert!(record.warnings()[0].message.contains("first move is Black's"), "{:?}", record.warnings());
    }
}
