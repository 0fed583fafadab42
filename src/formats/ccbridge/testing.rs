//! Builders of CCBridge records for the tests.

use super::cbr::RECORD_MAGIC;
use crate::record::{MoveText, NodeId, Record};

/// The board bytes of the standard start (row 0 = Black's back rank).
pub(super) fn start_board_bytes() -> [u8; 90] {
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
pub(super) fn cbr_header() -> Vec<u8> {
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

pub(super) fn put_utf16(h: &mut [u8], at: usize, text: &str) {
    for (i, unit) in text.encode_utf16().enumerate() {
        h[at + 2 * i..at + 2 * i + 2].copy_from_slice(&unit.to_le_bytes());
    }
}

/// A node record: flags, reserved, from, to, and a comment when given.
pub(super) fn node(flags: u8, from: u8, to: u8, comment: Option<&str>) -> Vec<u8> {
    let mut r = vec![flags | if comment.is_some() { 4 } else { 0 }, 0, from, to];
    if let Some(c) = comment {
        let bytes: Vec<u8> = c.encode_utf16().flat_map(u16::to_le_bytes).collect();
        r.extend((bytes.len() as u32).to_le_bytes());
        r.extend(bytes);
    }
    r
}

pub(super) fn coords(record: &Record, id: NodeId) -> String {
    match &record.tree.node(id).mv.as_ref().unwrap().text {
        MoveText::Coords(m) => m.to_string(),
        other => panic!("{other:?}"),
    }
}

/// root {game}; h2e2 {中炮} (alternative b2e2); after h2e2: h9g7.
pub(super) fn tree_with_a_variation() -> Vec<u8> {
    let mut t = node(0, 0, 0, Some("game\r\n"));
    t.extend(node(0x02, 70, 67, Some("中炮"))); // h2e2: continues, an alternative follows
    t.extend(node(0x01, 7, 24, None)); // h9g7: the line ends
    t.extend(node(0x01, 64, 67, None)); // b2e2: the alternative, ends
    t
}
