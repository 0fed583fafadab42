//! Writing XQF: plain version 10 (XQF 1.0, what converters write and every
//! reader opens) or enciphered version 18 (what XQStudio 1.63 writes), and
//! writing a file back byte for byte from what [`super::read_preserving`]
//! kept.

use super::{GAME_TYPES, HEADER_LEN, Keys, Preserved, RawRecord, STRINGS};
use crate::formats::slots::slots_of;
use crate::formats::tag_lines;
use crate::formats::written::{WriteWarning, Written};
use crate::record::{GameResult, MoveText, NodeId, Record, Resolution, Span};
use crate::{Board, Color, Move, Piece, Square};

/// The version to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Version {
    /// XQF 1.0: no cipher, 8-byte move records.
    #[default]
    V10,
    /// XQStudio 1.63's format: enciphered, rotated piece slots.
    V18,
}

/// Why a record cannot be written as XQF.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The start position cannot be read (its FEN does not parse), and XQF
    /// stores a board.
    #[error("the start position cannot be read, and XQF stores a board")]
    NoStart,
    /// The start position holds more of this piece than XQF's 32 piece
    /// slots have room for.
    #[error("the start position has more {} {}s than XQF's piece slots hold", .0.color.name(), .0.role.name())]
    TooManyPieces(Piece),
    /// A move did not replay: its text (or points) and where it was read.
    #[error("the move {text} ({at}) did not replay, and XQF stores points, not text")]
    NotReplayed {
        /// The move as the record holds it.
        text: String,
        /// Where it was read.
        at: Span,
    },
    /// The record does not have the nodes of the file it was read from
    /// ([`write_preserving`]).
    #[error("the record has {nodes} nodes, the preserved file {preserved}: it was changed")]
    Changed {
        /// The record's nodes, the root included.
        nodes: usize,
        /// The node records of the file.
        preserved: usize,
    },
    /// The node of this index is not the root and holds no move (it was
    /// taken away with [`crate::record::MoveTree::node_mut`]).
    #[error("node {0} holds no move, and XQF stores one for each node")]
    NoMove(usize),
}

/// Writes `record`, as its replay settled it, as an XQF file.
///
/// Every move must have replayed (XQF stores points, not text), and the
/// start position must fit XQF's 32 piece slots. Comments are written with
/// CRLF line breaks and a final CRLF, as XQStudio writes them; a comment
/// before a move is put ahead of the comment after it, and annotation
/// glyphs become the marks `!`, `?`, `!!`, `??`, `!?`, `?!` at the end of
/// the comment (XQF has no other place for them).
///
/// # Errors
///
/// A [`WriteError`] when the start position cannot be read or does not
/// fit the 32 piece slots, or when a move did not replay.
///
/// ```
/// use qipu::record::replay::replay;
/// use qipu::formats::{pgn, xqf};
/// let record = &pgn::read("[Red \"许银川\"]\n1. 炮二平五 {中炮} 马８进７ *")[0];
/// let replayed = replay(record);
/// let bytes = xqf::write(record, xqf::Version::V18).unwrap();
/// let back = xqf::read(&bytes).unwrap();
/// assert_eq!(back.tag("Red"), Some("许银川"));
/// assert_eq!(back.tree().main_line().count(), 2);
/// ```
pub fn write(record: &Record, version: Version) -> Result<Vec<u8>, WriteError> {
    write_with_warnings(record, version).map(|w| w.bytes)
}

/// As [`write()`], with what XQF could not keep: a tag cut to its header
/// field's size, or one that neither a field nor the comment about the
/// game can hold. Tags XQF has no field for are kept as lines of the
/// comment about the game (docs/formats.md, "What a conversion keeps"), as
/// is a `GameType` that the header's code does not give back.
///
/// # Errors
///
/// As [`write()`].
pub fn write_with_warnings(record: &Record, version: Version) -> Result<Written, WriteError> {
    let mut warnings = Vec::new();
    let resolution = &record.replayed().resolution;
    let mut header = [0u8; HEADER_LEN];
    header[..2].copy_from_slice(b"XQ");
    header[2] = match version {
        Version::V10 => 10,
        Version::V18 => 18,
    };
    if version == Version::V18 {
        key_bytes(record, resolution, &mut header);
    }
    let keys = Keys::derive(&header);
    let Some(start) = &resolution.setup else {
        return Err(WriteError::NoStart);
    };
    write_slots(&start.board, &keys, &mut header)?;
    if start.halfmoves != 0 {
        warnings.push(WriteWarning::ClockLeftOut { halfmoves: start.halfmoves, format: "XQF" });
    }
    let fullmoves = start.fullmoves;
    let step = if fullmoves > 1 { (fullmoves * 2).min(u16::MAX as u32) as u16 } else { 0 };
    header[0x30..0x32].copy_from_slice(&step.to_le_bytes());
    header[0x32] = u8::from(start.turn == Color::Black);
    header[0x33] = match record.result() {
        Some(GameResult::RedWins) => 1,
        Some(GameResult::BlackWins) => 2,
        Some(GameResult::Draw) => 3,
        _ => 0,
    };
    // A type the code does not give back is kept in the comment instead.
    if let Some(kind) = record.tag("GameType") {
        header[0x40..0x42].copy_from_slice(&game_type(kind).to_le_bytes());
    }
    for &(offset, capacity, tag) in &STRINGS {
        if let Some(text) = record.tag(tag) {
            let text = crate::formats::clean::one_line(text);
            let (bytes, end) = gb18030_within(&text, capacity);
            header[offset] = bytes.len() as u8;
            header[offset + 1..offset + 1 + bytes.len()].copy_from_slice(&bytes);
            if end < text.len() {
                warnings.push(WriteWarning::Cut {
                    tag: Some(tag.to_string()),
                    kept: text[..end].chars().count(),
                    of: text.chars().count(),
                    field: format!("XQF's field of {capacity} bytes of GBK"),
                });
            }
        }
    }
    let held = |name: &str, value: &str| {
        STRINGS.iter().any(|&(_, _, t)| t.eq_ignore_ascii_case(name))
            || name.eq_ignore_ascii_case("GameType") && game_type(value) != 0
    };
    let lines = tag_lines::unheld(record, held, "XQF", &mut warnings);

    let tree = record.tree();
    let mut plain = Vec::with_capacity(tree.len() * 8);
    let root = tree.root();
    let root_comment = comment_bytes(tag_lines::append(tree.node(root).comment(), &lines).as_deref());
    let has_moves = tree.main_child(root).is_some();
    match version {
        Version::V10 => plain.extend([0x18, 0x20, if has_moves { 0xF0 } else { 0 }, 0xFF]),
        Version::V18 => plain.extend([b'X', b'Q', flags(has_moves, false, !root_comment.is_empty()), 0]),
    }
    push_comment(&mut plain, &root_comment, version, &keys);
    for id in tree.depth_first().skip(1) {
        let m = node_move(record, resolution, id)?;
        let node = tree.node(id);
        let comment = comment_bytes(node.merged_comment().as_deref());
        let child = tree.main_child(id).is_some();
        let sibling = tree.next_sibling(id).is_some();
        let (from, to) = (xqf_square(m.from), xqf_square(m.to));
        match version {
            Version::V10 => plain.extend([
                from + 0x18,
                to + 0x20,
                if child { 0xF0 } else { 0 } | if sibling { 0x0F } else { 0 },
                0,
            ]),
            Version::V18 => plain.extend([
                from.wrapping_add(0x18).wrapping_add(keys.xy_from),
                to.wrapping_add(0x20).wrapping_add(keys.xy_to),
                flags(child, sibling, !comment.is_empty()),
                0,
            ]),
        }
        push_comment(&mut plain, &comment, version, &keys);
    }
    Ok(Written { bytes: assemble(&header, &plain, &keys), warnings })
}

/// The code of header bytes 0x40-0x41 for a `GameType` tag: its place
/// among the names XQStudio gives, or its number, when a reader gives the
/// tag back from it; else 0.
fn game_type(kind: &str) -> u16 {
    let code = GAME_TYPES.iter().position(|&t| t == kind).map(|i| i as u16).or_else(|| kind.parse().ok());
    code.filter(|&c| game_type_read(c).as_deref() == Some(kind)).unwrap_or(0)
}

/// The `GameType` tag a reader makes of code `code` (none for 0).
fn game_type_read(code: u16) -> Option<String> {
    (code != 0).then(|| GAME_TYPES.get(code as usize).map_or_else(|| code.to_string(), |n| n.to_string()))
}

/// Writes a record read with [`super::read_preserving`] back as the file
/// it came from: same version, keys, header and stored bytes. Moves and
/// comments come from the record, so a file whose record was not changed
/// comes out identical (as every file XQStudio wrote does).
///
/// # Errors
///
/// [`WriteError::Changed`] when the record no longer has the file's nodes,
/// and the errors of [`write()`] for its moves.
pub fn write_preserving(record: &Record, preserved: &Preserved) -> Result<Vec<u8>, WriteError> {
    let resolution = &record.replayed().resolution;
    let header = &*preserved.header;
    let version = header[2];
    let keys = Keys::derive(header);
    let tree = record.tree();
    if preserved.records.len() != tree.node_count() {
        return Err(WriteError::Changed { nodes: tree.node_count(), preserved: preserved.records.len() });
    }
    let mut plain = Vec::with_capacity(tree.len() * 8);
    for (k, id) in tree.depth_first().enumerate() {
        let raw: &RawRecord = &preserved.records[k];
        let node = tree.node(id);
        let child = tree.main_child(id).is_some();
        let sibling = id != tree.root() && tree.next_sibling(id).is_some();
        let comment = node.comment().unwrap_or("");
        let [mut from, mut to, stored_tag, reserved] = raw.head;
        if id != tree.root() {
            let m = node_move(record, resolution, id)?;
            from = xqf_square(m.from).wrapping_add(0x18).wrapping_add(keys.xy_from);
            to = xqf_square(m.to).wrapping_add(0x20).wrapping_add(keys.xy_to);
        }
        // The stored comment bytes when they still say the same, else the
        // comment written afresh.
        let same = super::decode_text(&raw.comment, |_| {});
        let same = same.strip_suffix("\r\n").unwrap_or(&same).replace("\r\n", "\n");
        let comment_bytes = if same == comment { raw.comment.clone() } else { comment_bytes(Some(comment)) };
        let tag = if version <= 10 {
            let ours = if child { 0xF0 } else { 0 } | if sibling { 0x0F } else { 0 };
            let keeps = (stored_tag & 0xF0 != 0) == child && (stored_tag & 0x0F != 0) == sibling;
            if keeps { stored_tag } else { ours }
        } else {
            flags(child, sibling, raw.length.is_some() || !comment_bytes.is_empty()) | (stored_tag & 0x1F)
        };
        plain.extend([from, to, tag, reserved]);
        match (version <= 10, raw.length) {
            // Version 10 always has a length; later versions keep a stored
            // length of 0 or an empty comment's length as they were.
            (true, _) => {
                plain.extend((comment_bytes.len() as u32).to_le_bytes());
                plain.extend(&comment_bytes);
            }
            (false, Some(stored)) if comment_bytes == raw.comment => {
                plain.extend(stored.to_le_bytes());
                plain.extend(&comment_bytes);
            }
            (false, _) => push_comment(&mut plain, &comment_bytes, Version::V18, &keys),
        }
    }
    Ok(assemble(header, &plain, &keys))
}

/// Header and enciphered tree, one file.
fn assemble(header: &[u8; HEADER_LEN], plain: &[u8], keys: &Keys) -> Vec<u8> {
    let mut file = Vec::with_capacity(HEADER_LEN + plain.len());
    file.extend_from_slice(header);
    file.extend(plain.iter().enumerate().map(|(i, &b)| b.wrapping_add(keys.stream[i % 32])));
    file
}

/// The tag byte of a version 11+ record.
fn flags(child: bool, sibling: bool, comment: bool) -> u8 {
    (if child { 0x80 } else { 0 }) | (if sibling { 0x40 } else { 0 }) | (if comment { 0x20 } else { 0 })
}

/// Appends a comment's length field and bytes: always in version 10, only
/// for a comment in version 18.
fn push_comment(plain: &mut Vec<u8>, comment: &[u8], version: Version, keys: &Keys) {
    match version {
        Version::V10 => {
            plain.extend((comment.len() as u32).to_le_bytes());
            plain.extend(comment);
        }
        Version::V18 if !comment.is_empty() => {
            plain.extend((comment.len() as u32 + keys.remark_size).to_le_bytes());
            plain.extend(comment);
        }
        Version::V18 => {}
    }
}

/// A comment as XQStudio stores one: GB18030, CRLF line breaks and a final
/// CRLF; empty when there is nothing.
fn comment_bytes(text: Option<&str>) -> Vec<u8> {
    let Some(text) = text.filter(|t| !t.is_empty()) else { return Vec::new() };
    let mut text = crate::formats::clean::lines(text).replace('\n', "\r\n");
    text.push_str("\r\n");
    encoding_rs::GB18030.encode(&text).0.into_owned()
}

/// `text` in GB18030, cut on a character boundary to at most `capacity`
/// bytes, and the end of the part of `text` kept.
fn gb18030_within(text: &str, capacity: usize) -> (Vec<u8>, usize) {
    let whole = encoding_rs::GB18030.encode(text).0;
    if whole.len() <= capacity {
        return (whole.into_owned(), text.len());
    }
    // GB18030 writes each character on its own (1, 2 or 4 bytes): the
    // bytes of a prefix are the prefix of the bytes. One pass, each
    // character's length counted.
    let (mut bytes, mut end) = (0, 0);
    let mut one = [0u8; 4];
    for (at, c) in text.char_indices() {
        let len = gb18030_len(c.encode_utf8(&mut one));
        if bytes + len > capacity {
            break;
        }
        bytes += len;
        end = at + c.len_utf8();
    }
    (whole[..bytes].to_vec(), end)
}

/// How many bytes GB18030 writes `c` (one character) in.
fn gb18030_len(c: &str) -> usize {
    match c.len() {
        1 => 1,
        _ => encoding_rs::GB18030.encode(c).0.len(),
    }
}

/// The XQF square byte of a point: file × 10 + rank.
fn xqf_square(s: Square) -> u8 {
    (s.file().index() * 10 + s.rank().index()) as u8
}

/// The move of node `id`: as replayed, or as stored by a binary format.
fn node_move(record: &Record, resolution: &Resolution, id: NodeId) -> Result<Move, WriteError> {
    if let Some(m) = resolution.move_of(id) {
        return Ok(m);
    }
    let Some(mv) = record.tree().node(id).mv.as_ref() else { return Err(WriteError::NoMove(id.index())) };
    mv.points().ok_or_else(|| {
        let text = match &mv.text {
            MoveText::Text(t) => t.to_string(),
            MoveText::Coords(m) => m.to_string(),
        };
        WriteError::NotReplayed { text, at: mv.at }
    })
}

/// Puts the start position into the 32 piece slots: each side's pieces of
/// a kind from its own right to left, as XQStudio lists them.
fn write_slots(board: &Board, keys: &Keys, header: &mut [u8; HEADER_LEN]) -> Result<(), WriteError> {
    let slots = slots_of(board).map_err(WriteError::TooManyPieces)?;
    // A piece not on the board: 0xFF, as XQF 1.0 writes it.
    let slots = slots.map(|s| s.map_or(0xFF, xqf_square));
    let encoded: Vec<u8> = slots.iter().map(|&v| v.wrapping_add(keys.xy)).collect();
    for i in 0..32 {
        header[0x10 + i] =
            if header[2] >= 12 { encoded[(i + 1 + keys.xy as usize) % 32] } else { encoded[i] };
    }
    Ok(())
}

/// Key bytes for version 18: chosen from the record's content, so the same
/// record always gives the same file, and meeting XQStudio's rules (the
/// four key seeds and the four OR bytes each sum to zero, the seeds are
/// 1..254, the mask has the bits 0xAA).
fn key_bytes(record: &Record, resolution: &Resolution, header: &mut [u8; HEADER_LEN]) {
    // FNV-1a over the moves and tags.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for m in resolution.moves.iter().flatten() {
        feed(&[m.from.index() as u8, m.to.index() as u8]);
    }
    for (k, v) in record.tags() {
        feed(k.as_bytes());
        feed(v.as_bytes());
    }
    let byte = |n: u32| (hash >> (8 * (n % 8))) as u8;
    let seed = |n: u32| 1 + byte(n) % 254;
    header[3] = byte(0) | 0xAA;
    let (a, b, c) = (byte(1), byte(2), byte(3));
    header[8..12].copy_from_slice(&[a, b, c, 0u8.wrapping_sub(a.wrapping_add(b).wrapping_add(c))]);
    let (xy, from, to) = (seed(4), seed(5), seed(6));
    header[0x0C] = 0u8.wrapping_sub(xy.wrapping_add(from).wrapping_add(to));
    header[0x0D..0x10].copy_from_slice(&[xy, from, to]);
}

#[cfg(test)]
mod tests {

    /// The cut, by encoding ever shorter prefixes: the reference.
    fn gb18030_within_slowly(text: &str, capacity: usize) -> (Vec<u8>, usize) {
        let mut end = text.len();
        loop {
            let bytes = encoding_rs::GB18030.encode(&text[..end]).0;
            if bytes.len() <= capacity {
                return (bytes.into_owned(), end);
            }
            end = text[..end].char_indices().next_back().map_or(0, |(i, _)| i);
        }
    }

    #[test]
    fn header_text_is_cut_where_encoding_every_prefix_cuts_it() {
        for text in ["", "abc", "许银川 vs 吕钦", "é€😀中a\u{10FFFF}炮", "全国象棋个人赛第一轮·2001年"]
        {
            let encoded = encoding_rs::GB18030.encode(text).0.len();
            for capacity in 0..=encoded + 1 {
                assert_eq!(
                    gb18030_within(text, capacity),
                    gb18030_within_slowly(text, capacity),
                    "{text:?} {capacity}"
                );
            }
        }
        // 40,000 characters cut to a header field: one pass (the reference
        // took minutes on this).
        let long = "象".repeat(40_000);
        let (bytes, end) = gb18030_within(&long, 63);
        assert_eq!((bytes.len(), end), (62, 31 * 3));
    }

    use super::*;
    use crate::formats::pgn;

    #[test]
    fn what_cannot_be_written_is_an_error() {
        let mut record = pgn::read("1. 炮二平五 马８进７ 2. 马九进十 *").remove(0);
        let e = write(&record, Version::V10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the move 马九进十 (line 1, column 17) did not replay, and XQF stores points, not text"
        );
        // The move that did not replay taken away (the replay kept).
        let third = record.tree().main_line().nth(2).unwrap();
        record.tree_mut().node_mut(third).mv = None;
        assert_eq!(write(&record, Version::V18), Err(WriteError::NoMove(third.index())));
        let record = &pgn::read("[FEN \"4k4/9/9/9/9/9/9/9/PPPPPP3/4K4 w\"]\n*")[0];
        let e = write(record, Version::V10).unwrap_err();
        assert_eq!(e.to_string(), "the start position has more Red pawns than XQF's piece slots hold");
        let record = &pgn::read("[FEN \"xyz\"]\n*")[0];
        assert_eq!(write(record, Version::V10), Err(WriteError::NoStart));
    }
}
