//! Every CCBridge file of the corpus (CBR, CBL plain and compressed, CBF)
//! is read with the reader its content calls for, every record replayed,
//! and the counts per file pinned. Skipped when the corpus is not beside
//! the project.
//!
//! The seven illegal records are all in the two compressed endgame books
//! (桔中秘, 韬略元机): six hold a move played after a mate or that leaves
//! the king in check (each checked with Fairy-Stockfish: the move is not
//! among its legal moves), one starts with a Red pawn on a2, where no pawn
//! can stand.

use crate::common;

use qipu::formats::{cbf, ccbridge};
use qipu::record::Record;
use qipu::record::replay::replay;

/// What one file gave.
#[derive(Debug, Default, PartialEq, Eq)]
struct Row {
    declared: usize,
    read: usize,
    failed: usize,
    valid: usize,
    illegal: usize,
    /// Records without a game: an empty board and no moves.
    blank: usize,
    plies: usize,
}

fn count(declared: usize, records: Vec<Result<Record, String>>, errors: &mut Vec<String>) -> Row {
    let mut row = Row { declared, ..Row::default() };
    for record in records {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                row.failed += 1;
                errors.push(e);
                continue;
            }
        };
        row.read += 1;
        if record.tree().is_empty()
            && record.unreadable().is_some_and(|w| w.message.contains("board is empty"))
        {
            row.blank += 1;
            continue;
        }
        let replayed = replay(&record);
        row.plies += replayed.moves.len() + replayed.variation_plies;
        match &replayed.error {
            None => row.valid += 1,
            Some(e) => {
                row.illegal += 1;
                errors.push(format!(
                    "{}: {} at ply {}: {}",
                    record.tag("Title").unwrap_or("?"),
                    e.text,
                    e.ply,
                    e.message()
                ));
            }
        }
    }
    row
}

/// Reads one file by its content.
fn read(bytes: &[u8]) -> (usize, Vec<Result<Record, String>>) {
    if ccbridge::is_cbr(bytes) {
        (1, vec![ccbridge::read_cbr(bytes).map_err(|e| e.to_string())])
    } else if ccbridge::is_cbl(bytes) {
        let library = ccbridge::read_cbl(bytes).unwrap();
        (library.declared, library.records.into_iter().map(|r| r.map_err(|e| e.to_string())).collect())
    } else {
        let text = std::str::from_utf8(bytes).expect("CBF is UTF-8");
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        assert!(cbf::is_cbf(text), "neither CBR, CBL nor CBF");
        (1, vec![cbf::read(text).map_err(|e| e.to_string())])
    }
}

#[test]
fn ccbridge_corpus() {
    let Some(root) = common::corpus("ccbridge") else { return };
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for path in common::files(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let (declared, records) = read(&bytes);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let compressed = bytes.starts_with(ccbridge::COMPRESSED_MAGIC)
            && !bytes.starts_with(b"CCBridge ")
            && !bytes.starts_with(ccbridge::LIBRARY_MAGIC);
        rows.push((name, compressed, count(declared, records, &mut errors)));
    }
    eprintln!(
        "{:<40} {:>8} {:>5} {:>6} {:>5} {:>7} {:>5} {:>6}",
        "file", "declared", "read", "failed", "valid", "illegal", "blank", "plies"
    );
    for (name, _, r) in &rows {
        eprintln!(
            "{name:<40} {:>8} {:>5} {:>6} {:>5} {:>7} {:>5} {:>6}",
            r.declared, r.read, r.failed, r.valid, r.illegal, r.blank, r.plies
        );
    }
    eprintln!("problems: {errors:#?}");

    let row =
        |name: &str| &rows.iter().find(|(n, ..)| n == name).unwrap_or_else(|| panic!("{name} missing")).2;
    let pinned = |declared, valid, illegal, blank, plies| Row {
        declared,
        read: valid + illegal + blank,
        failed: 0,
        valid,
        illegal,
        blank,
        plies,
    };
    assert_eq!(rows.len(), 22);
    assert_eq!(*row("test.cbr"), pinned(1, 1, 0, 0, 102));
    assert_eq!(*row("test2.cbr"), pinned(1, 1, 0, 0, 2));
    assert_eq!(*row("test.cbf"), pinned(1, 1, 0, 0, 50));
    assert_eq!(*row("test2.cbf"), pinned(1, 1, 0, 0, 75));
    assert_eq!(*row("1956年全国象棋锦标赛93局.CBL"), pinned(93, 93, 0, 0, 7313));
    // 38 index entries: 37 records and one deleted (state 5); two records
    // are title entries with an empty board and no moves.
    assert_eq!(*row("1989年龙化杯象棋名师邀请赛35局.CBL"), pinned(37, 35, 0, 2, 3186));
    let compressed: Vec<&Row> = rows.iter().filter(|(_, c, _)| *c).map(|(.., r)| r).collect();
    assert_eq!(compressed.len(), 16);
    let total = |f: fn(&Row) -> usize| compressed.iter().map(|r| f(r)).sum::<usize>();
    assert_eq!(total(|r| r.declared), 851);
    assert_eq!(total(|r| r.read), 851);
    assert_eq!(total(|r| r.valid), 844);
    assert_eq!(total(|r| r.illegal), 7);
    assert_eq!(total(|r| r.plies), 52_605);
    assert_eq!(row("桔中秘残局谱.CBL").illegal, 1);
    // Five illegal moves and a start position with a Red pawn on a2.
    assert_eq!(row("韬略元机残局谱.CBL").illegal, 6);
}
