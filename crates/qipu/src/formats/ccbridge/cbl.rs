//! CBL: a library of 象棋桥 games, and the reading of either library
//! format (this one, or the compressed one of `cbl_compressed.rs`).
//!
//! A library (`CCBridgeLibrary\0`) is a 66,624-byte header, an index of
//! 276-byte entries (state 7 = a record, 5 = deleted, 0 = unused slot;
//! the record's byte length at +12), then the records on 4096-byte slots,
//! one after the other in index order (a record longer than a slot takes
//! the following slots as well).

use crate::formats::tree::Game;
use crate::record::{RecordBuilder, Visitor, Warning};

use super::cbl_compressed::read_compressed_library;
use super::cbr::read_record;
use super::layout::{
    ENTRY_LEN, INDEX_AT, LIBRARY_MAGIC, RECORD_MAGIC, SLOT_LEN, STATE_DELETED, STATE_RECORD, STATE_UNUSED,
    is_cbr, is_compressed_library,
};
use super::{
    CcbridgeError, CcbridgeErrorKind, FileKind, Library, Overrun, Truncated, error, not_ccbridge, span,
    u32_at,
};

/// Reads a CBL library: every game it holds, each read or failed on its
/// own. The error is for a library that cannot be read at all (not a
/// library, a truncated index, a broken compressed stream).
///
/// # Errors
///
/// A [`CcbridgeError`], with its byte offset, for a file that is not a
/// library, a truncated index or header, or a compressed library whose zlib
/// stream is broken or holds another length than its header says.
pub fn read_cbl(bytes: &[u8]) -> Result<Library, CcbridgeError> {
    let mut records = Vec::new();
    let declared = read_cbl_with(bytes, &mut RecordBuilder::default(), |record| records.push(record))?;
    Ok(Library { declared, records })
}

/// Reads a CBL library with `visitor`, handing what it makes of each game
/// (or why the game cannot be read) to `each`, in index order, as
/// [`read_cbl`] gives them; no [`Record`](crate::record::Record) is built.
/// Returns how many games the library says it holds
/// ([`Library::declared`]). A library that cannot be read at all is
/// found so before any game is told.
///
/// # Errors
///
/// As [`read_cbl`].
pub(crate) fn read_cbl_with<V: Visitor>(
    bytes: &[u8],
    visitor: &mut V,
    mut each: impl FnMut(Result<V::Output, CcbridgeError>),
) -> Result<usize, CcbridgeError> {
    each_game(bytes, |game| each(game.map(|game| game.tell(visitor))))
}

/// Reads a CBL library, handing each game (or why it cannot be read) to
/// `each`; returns how many games the library says it holds.
pub(crate) fn each_game(
    bytes: &[u8],
    each: impl FnMut(Result<Game, CcbridgeError>),
) -> Result<usize, CcbridgeError> {
    if bytes.starts_with(LIBRARY_MAGIC) {
        read_plain_library(bytes, each)
    } else if is_compressed_library(bytes) {
        read_compressed_library(bytes, each)
    } else if is_cbr(bytes) {
        error(0, CcbridgeErrorKind::WrongFile { wanted: FileKind::Library })
    } else {
        error(0, not_ccbridge(FileKind::Library, bytes))
    }
}

/// Reads a plain CBL: the index, then each record on its slots.
fn read_plain_library(
    bytes: &[u8],
    mut each: impl FnMut(Result<Game, CcbridgeError>),
) -> Result<usize, CcbridgeError> {
    let Some(capacity) = u32_at(bytes, 60) else {
        return header_cut(bytes.len());
    };
    let Some(index_end) = index_end(capacity).filter(|&end| end <= bytes.len()) else {
        return index_cut(capacity, bytes.len());
    };
    let mut declared = 0;
    let mut slot_at = index_end;
    for i in 0..capacity as usize {
        let entry = INDEX_AT + i * ENTRY_LEN;
        // Cannot fail: the whole index was checked to lie in the file.
        let state = u32_at(bytes, entry).expect("inside the index");
        if state == STATE_UNUSED {
            continue;
        }
        let length = u32_at(bytes, entry + 12).expect("inside the index") as usize;
        let start = slot_at;
        slot_at = next_slot(slot_at, length);
        if state == STATE_DELETED {
            continue;
        }
        declared += 1;
        each(read_library_record(bytes, i, entry, state, start, length));
    }
    Ok(declared)
}

/// The error of a library of `len` bytes that ends before its index size.
pub(super) fn header_cut<T>(len: usize) -> Result<T, CcbridgeError> {
    error(len, Truncated::LibraryHeader)
}

/// Where an index of `capacity` entries ends.
pub(super) fn index_end(capacity: u32) -> Option<usize> {
    (capacity as usize).checked_mul(ENTRY_LEN).and_then(|n| n.checked_add(INDEX_AT))
}

/// The error of a library of `len` bytes that ends inside its index.
pub(super) fn index_cut<T>(capacity: u32, len: usize) -> Result<T, CcbridgeError> {
    error(len, Truncated::Index { entries: capacity })
}

/// Where the slots of the entry after one of `length` bytes on the slot at
/// `slot_at` start (an entry takes one slot at least).
pub(super) fn next_slot(slot_at: usize, length: usize) -> usize {
    slot_at.saturating_add(length.div_ceil(SLOT_LEN).max(1).saturating_mul(SLOT_LEN))
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
) -> Result<Game, CcbridgeError> {
    let Some(end) = start.checked_add(length).filter(|&end| end <= bytes.len()) else {
        return Err(past_the_end(i, entry, start, length, bytes.len()));
    };
    read_slot(&bytes[start..end], i, entry, state, start)
}

/// The error of the record of index entry `i` (at byte `entry`), `length`
/// bytes from `start`, in a file of `len` bytes that ends before it does.
pub(super) fn past_the_end(i: usize, entry: usize, start: usize, length: usize, len: usize) -> CcbridgeError {
    let kind = Overrun::Record { entry: i, len: length, start, file_len: len }.into();
    CcbridgeError { offset: entry + 12, in_inflated_data: false, kind }
}

/// Reads the record of index entry `i` (at byte `entry`, in state `state`):
/// `record`, its bytes, from byte `start` of the file.
pub(super) fn read_slot(
    record: &[u8],
    i: usize,
    entry: usize,
    state: u32,
    start: usize,
) -> Result<Game, CcbridgeError> {
    if !record.starts_with(RECORD_MAGIC) {
        return error(start, CcbridgeErrorKind::NoRecordInSlot { entry: i, at: entry });
    }
    let mut record = read_record(record, start, "its index entry")?;
    if state != STATE_RECORD {
        let message = format!("index entry {i}: state {state} (7 = a record, 5 = deleted); read as a record");
        record.warnings.push(Warning { at: span(entry), message });
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ccbridge::testing::*;
    use crate::formats::ccbridge::{is_cbl, read_cbr};

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
        assert_eq!(lib.records[0].as_ref().unwrap().tree().main_line().count(), 2);
        let e = lib.records[1].as_ref().unwrap_err();
        let third_slot = INDEX_AT + ENTRY_LEN * 8 + 2 * SLOT_LEN;
        assert_eq!(e.offset, third_slot + 2214 + 4 + 2, "{e}");
        assert_eq!(lib.records[2].as_ref().unwrap().tree().main_line().count(), 1);
        let last = lib.records[3].as_ref().unwrap();
        assert_eq!(last.at(), span(third_slot + 3 * SLOT_LEN));
        // Record offsets are absolute in the file.
        let first = last.tree().main_line().next().unwrap();
        assert_eq!(last.tree().node(first).mv.as_ref().unwrap().at, span(third_slot + 3 * SLOT_LEN + 2234));
    }

    #[test]
    fn bad_libraries_fail_whole() {
        assert!(read_cbl(b"CCBridge Record\0").unwrap_err().reason().contains("not a library"));
        let e = read_cbl(b"CCBridge Record\0").unwrap_err();
        assert_eq!(e.kind, CcbridgeErrorKind::WrongFile { wanted: FileKind::Library });
        assert!(read_cbr(&library(1, &[])).unwrap_err().reason().contains("not a single record"));
        assert!(read_cbl(b"XQ\x12").unwrap_err().reason().contains("not a CCBridge library"));
        let mut file = library(4, &[]);
        file.truncate(INDEX_AT + 100);
        let e = read_cbl(&file).unwrap_err();
        assert!(e.reason().contains("truncated"), "{e}");
        assert_eq!(e.kind, CcbridgeErrorKind::Truncated(Truncated::Index { entries: 4 }));
        // An index entry whose record goes past the end is that record's error.
        let mut file = library(4, &[(7, cbr_header())]);
        file.truncate(file.len() - SLOT_LEN + 100);
        let lib = read_cbl(&file).unwrap();
        let e = lib.records[0].as_ref().unwrap_err();
        assert_eq!(e.offset, INDEX_AT + 12);
        assert!(matches!(e.kind, CcbridgeErrorKind::Overrun(Overrun::Record { entry: 0, .. })), "{e}");
    }
}
