//! Writing CBR records and CBL libraries, the inverse of the readers.
//!
//! Text that does not fit its field is cut at a character boundary, with
//! a warning; tags CBR has no field for are kept as lines of the comment
//! about the game (docs/formats.md, "What a conversion keeps").

use super::layout::{
    ENTRY_LEN, INDEX_AT, LIBRARY_MAGIC, RECORD_MAGIC, SLOT_LEN, V2_BOARD, V2_RESULT, V2_SIDE,
    V2_START_NUMBER, V2_STRINGS, V2_TREE,
};
use crate::formats::tag_lines;
use crate::formats::written::WriteWarning;
pub use crate::formats::written::Written;
use crate::record::{GameResult, NodeId, Record};
use crate::{Color, Move, Role, Square};

/// Why a record cannot be written as CBR.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The start position cannot be read, and CBR stores a board.
    #[error("the start position cannot be read, and CBR stores a board")]
    NoStart,
    /// A move did not replay (CBR stores points): its node index.
    #[error("move node {0} did not replay, and CBR stores points")]
    NotReplayed(usize),
}

/// Writes `record`, as its replay settled it, as a CBR record (layout 2).
///
/// # Errors
///
/// A [`WriteError`] when the start position cannot be read or a move did
/// not replay.
pub fn write_cbr(record: &Record) -> Result<Written, WriteError> {
    let resolution = &record.replayed().resolution;
    let Some(start) = &resolution.setup else { return Err(WriteError::NoStart) };
    let mut warnings = Vec::new();
    let mut bytes = vec![0u8; V2_TREE];
    bytes[..16].copy_from_slice(RECORD_MAGIC);
    bytes[19] = 2;
    for &(offset, size, tag) in V2_STRINGS {
        if let Some(text) = record.tag(tag) {
            put_text(&mut bytes[offset..offset + size], text, Some(tag), &mut warnings);
        }
    }
    let held = |name: &str, _: &str| V2_STRINGS.iter().any(|&(_, _, t)| t.eq_ignore_ascii_case(name));
    let lines = tag_lines::unheld(record, held, "CBR", &mut warnings);
    let code: u32 = match record.result() {
        Some(GameResult::RedWins) => 1,
        Some(GameResult::BlackWins) => 2,
        Some(GameResult::Draw) => 3,
        _ => 0,
    };
    bytes[V2_RESULT..V2_RESULT + 4].copy_from_slice(&code.to_le_bytes());
    let side: u32 = if start.turn == Color::Black { 2 } else { 1 };
    bytes[V2_SIDE..V2_SIDE + 4].copy_from_slice(&side.to_le_bytes());
    if start.halfmoves != 0 {
        warnings.push(WriteWarning::ClockLeftOut { halfmoves: start.halfmoves, format: "CBR" });
    }
    let number = start.fullmoves.max(1);
    bytes[V2_START_NUMBER..V2_START_NUMBER + 4].copy_from_slice(&number.to_le_bytes());
    for (square, piece) in start.board.pieces() {
        let color = if piece.color == Color::Red { 0x10 } else { 0x20 };
        let role = match piece.role {
            Role::Rook => 1,
            Role::Horse => 2,
            Role::Elephant => 3,
            Role::Advisor => 4,
            Role::King => 5,
            Role::Cannon => 6,
            Role::Pawn => 7,
        };
        bytes[V2_BOARD + index_of(square) as usize] = color | role;
    }
    bytes[V2_BOARD + 90..V2_TREE].fill(0xFF);
    let tree = record.tree();
    let root = tree.root();
    for id in tree.depth_first() {
        let node = tree.node(id);
        let comment =
            if id == root { tag_lines::append(node.comment(), &lines) } else { node.merged_comment() };
        let comment = comment.filter(|c| !c.is_empty()).map(|c| c.replace('\n', "\r\n"));
        let mut flags = if tree.main_child(id).is_none() { 0x01 } else { 0 };
        if id != root && tree.next_sibling(id).is_some() {
            flags |= 0x02;
        }
        if comment.is_some() {
            flags |= 0x04;
        }
        let (from, to) = if id == root {
            (0, 0)
        } else {
            let m = node_move(record, id)?;
            (index_of(m.from), index_of(m.to))
        };
        bytes.extend([flags, 0, from, to]);
        if let Some(c) = comment {
            let units: Vec<u8> = c.encode_utf16().flat_map(u16::to_le_bytes).collect();
            bytes.extend((units.len() as u32).to_le_bytes());
            bytes.extend(units);
        }
    }
    Ok(Written { bytes, warnings })
}

/// Writes `records` as one CBL library named `title`: each game on its
/// slots (a record longer than a slot takes the following ones, as
/// 象棋桥 does). A game that cannot be written is a warning, left out.
pub fn write_cbl(records: &[Record], title: &str) -> Written {
    let mut warnings = Vec::new();
    let mut games = Vec::new();
    for (k, record) in records.iter().enumerate() {
        match write_cbr(record) {
            Ok(w) => {
                let game = k + 1;
                warnings.extend(
                    w.warnings.into_iter().map(|w| WriteWarning::InGame { game, warning: Box::new(w) }),
                );
                games.push((w.bytes, record.tag("Title").unwrap_or("").to_string()));
            }
            Err(e) => warnings.push(WriteWarning::GameLeftOut { game: k + 1, why: e.to_string() }),
        }
    }
    let mut library = write_library(&games, title);
    warnings.append(&mut library.warnings);
    library.warnings = warnings;
    library
}

/// Writes CBR records already written ([`write_cbr`]), each with its
/// title for the index, as one CBL library named `title`.
pub fn write_library(games: &[(Vec<u8>, String)], title: &str) -> Written {
    let mut warnings = Vec::new();
    let capacity = games.len().div_ceil(128).max(1) * 128;
    let mut bytes = vec![0u8; INDEX_AT + capacity * ENTRY_LEN];
    bytes[..16].copy_from_slice(LIBRARY_MAGIC);
    bytes[16] = 3;
    bytes[52..56].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    bytes[60..64].copy_from_slice(&(capacity as u32).to_le_bytes());
    put_text(&mut bytes[64..576], title, None, &mut warnings);
    for (i, (record, title)) in games.iter().enumerate() {
        let entry = INDEX_AT + i * ENTRY_LEN;
        let slots = record.len().div_ceil(SLOT_LEN).max(1);
        bytes[entry..entry + 4].copy_from_slice(&7u32.to_le_bytes());
        bytes[entry + 4..entry + 8].copy_from_slice(&(i as u32).to_le_bytes());
        bytes[entry + 8..entry + 12].copy_from_slice(&(slots as u32).to_le_bytes());
        bytes[entry + 12..entry + 16].copy_from_slice(&(record.len() as u32).to_le_bytes());
        let mut ignored = Vec::new();
        put_text(&mut bytes[entry + 100..entry + ENTRY_LEN], title, Some("Title"), &mut ignored);
    }
    for (record, _) in games {
        let slots = record.len().div_ceil(SLOT_LEN).max(1);
        let at = bytes.len();
        bytes.extend(record);
        bytes.resize(at + slots * SLOT_LEN, 0);
    }
    Written { bytes, warnings }
}

/// Puts `text` as UTF-16LE into `field`, NUL-terminated, cut at a
/// character boundary with a warning naming `tag` (or a title) when it
/// does not fit.
fn put_text(field: &mut [u8], text: &str, tag: Option<&str>, warnings: &mut Vec<WriteWarning>) {
    let room = field.len() / 2 - 1;
    let mut units = Vec::new();
    let text = text.trim();
    let mut kept = 0;
    for c in text.chars() {
        let mut buf = [0u16; 2];
        let enc = c.encode_utf16(&mut buf);
        if units.len() + enc.len() > room {
            break;
        }
        units.extend_from_slice(enc);
        kept += 1;
    }
    if kept < text.chars().count() {
        warnings.push(WriteWarning::Cut {
            tag: tag.map(str::to_string),
            kept,
            of: text.chars().count(),
            field: format!("CBR's field of {room} UTF-16 units"),
        });
    }
    for (i, u) in units.iter().enumerate() {
        field[2 * i..2 * i + 2].copy_from_slice(&u.to_le_bytes());
    }
}

/// The CBR byte of a square: `row * 9 + column`, row 0 at the top.
fn index_of(s: Square) -> u8 {
    ((9 - s.rank().index()) * 9 + s.file().index()) as u8
}

/// The move of node `id`, as replayed or as stored.
fn node_move(record: &Record, id: NodeId) -> Result<Move, WriteError> {
    if let Some(m) = record.replayed().resolution.move_of(id) {
        return Ok(m);
    }
    record.tree().node(id).mv.as_ref().and_then(|mv| mv.points()).ok_or(WriteError::NotReplayed(id.index()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ccbridge::{read_cbl, read_cbr};
    use crate::formats::pgn;

    #[test]
    fn a_game_comes_back_from_cbr_and_cbl() {
        let text = "[Title \"中炮\"]\n[Red \"许银川\"]\n[Result \"1-0\"]\n{开局} 1. h2e2 {中炮} (1. b2e2) h9g7 2. h0g2 1-0";
        let record = &pgn::read(text)[0];
        let w = write_cbr(record).unwrap();
        let back = read_cbr(&w.bytes).unwrap();
        assert_eq!(back.tag("Title"), Some("中炮"));
        assert_eq!(back.tag("Red"), Some("许银川"));
        assert_eq!(back.tag("Result"), Some("1-0"));
        assert_eq!(back.tree().main_line().count(), 3);
        assert_eq!(back.tree().len(), record.tree().len());
        assert_eq!(back.tree().node(back.tree().root()).comment(), Some("开局"));
        let long = vec![record.clone(); 3];
        let lib = read_cbl(&write_cbl(&long, "库").bytes).unwrap();
        assert_eq!(lib.records.len(), 3);
        assert_eq!(lib.records[2].as_ref().unwrap().tree().len(), record.tree().len());
    }

    #[test]
    fn long_titles_are_cut_with_a_warning() {
        let text = format!("[Title \"{}\"]\n1. h2e2 *", "长".repeat(100));
        let w = write_cbr(&pgn::read(&text)[0]).unwrap();
        assert_eq!(
            w.warnings[0].to_string(),
            "tag Title: cut to 63 of its 100 characters, the size of CBR's field of 63 UTF-16 units"
        );
        assert_eq!(read_cbr(&w.bytes).unwrap().tag("Title").unwrap().chars().count(), 63);
    }
}
