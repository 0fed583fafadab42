//! Builders of CCBridge records for the tests.

use super::layout::{
    COMPRESSED_FORMAT, COMPRESSED_MAGIC, ENTRY_LEN, INDEX_AT, LIBRARY_MAGIC, RECORD_MAGIC, SLOT_LEN,
};
use crate::record::{MoveText, NodeId, Record};

/// The board bytes of the standard start (row 0 = Black's back rank).
pub(crate) fn start_board_bytes() -> [u8; 90] {
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
pub(crate) fn cbr_header() -> Vec<u8> {
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

pub(crate) fn put_utf16(h: &mut [u8], at: usize, text: &str) {
    for (i, unit) in text.encode_utf16().enumerate() {
        h[at + 2 * i..at + 2 * i + 2].copy_from_slice(&unit.to_le_bytes());
    }
}

/// A node record: flags, reserved, from, to, and a comment when given.
pub(crate) fn node(flags: u8, from: u8, to: u8, comment: Option<&str>) -> Vec<u8> {
    let mut r = vec![flags | if comment.is_some() { 4 } else { 0 }, 0, from, to];
    if let Some(c) = comment {
        let bytes: Vec<u8> = c.encode_utf16().flat_map(u16::to_le_bytes).collect();
        r.extend((bytes.len() as u32).to_le_bytes());
        r.extend(bytes);
    }
    r
}

pub(crate) fn coords(record: &Record, id: NodeId) -> String {
    match &record.tree().node(id).mv.as_ref().unwrap().text {
        MoveText::Coords(m) => m.to_string(),
        other => panic!("{other:?}"),
    }
}

/// root {game}; h2e2 {中炮} (alternative b2e2); after h2e2: h9g7.
pub(crate) fn tree_with_a_variation() -> Vec<u8> {
    let mut t = node(0, 0, 0, Some("game\r\n"));
    t.extend(node(0x02, 70, 67, Some("中炮"))); // h2e2: continues, an alternative follows
    t.extend(node(0x01, 7, 24, None)); // h9g7: the line ends
    t.extend(node(0x01, 64, 67, None)); // b2e2: the alternative, ends
    t
}

/// A plain library of `capacity` index slots whose first entries hold
/// `records`, each with its index state, on their slots.
pub(crate) fn library(capacity: usize, records: &[(u32, Vec<u8>)]) -> Vec<u8> {
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

/// A GBK string with its u32 length.
pub(crate) fn gbk(text: &str) -> Vec<u8> {
    let (bytes, _, _) = encoding_rs::GBK.encode(text);
    let mut out = (bytes.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&bytes);
    out
}

/// A compressed-library game: standard start, `moves` as (ply, from,
/// to) with nibble squares, `comments` one line per move.
pub(crate) fn compressed_game(moves: &[(u16, u8, u8)], comments: &[u8]) -> Vec<u8> {
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

/// A compressed library of `games`.
pub(crate) fn compressed_library(games: &[Vec<u8>]) -> Vec<u8> {
    compress_library(&library_data(games))
}

/// The inflated data of a compressed library of `games`.
pub(crate) fn library_data(games: &[Vec<u8>]) -> Vec<u8> {
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
    data
}

/// A compressed library of the inflated data `data`.
pub(crate) fn compress_library(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut z, data).unwrap();
    let stream = z.finish().unwrap();
    let mut file = COMPRESSED_MAGIC.to_vec();
    file.extend(COMPRESSED_FORMAT.to_le_bytes());
    file.extend(3u32.to_le_bytes());
    file.extend((data.len() as u32).to_le_bytes());
    file.extend(stream);
    file
}
