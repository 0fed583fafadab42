//! qipu's XQF reader against an independent one: the start position and
//! main line of 721 corpus files as the cchess Python package reads them
//! (`scripts/gen-xqf-fixture.py`, committed in `tests/data`). Skipped when
//! the corpus is not beside the project.
//!
//! cchess drops a move record that starts on an empty point and goes on
//! from the position before it; qipu keeps every record and reports the
//! move as illegal. The fixture marks such files with a note, and the test
//! checks that qipu stops on exactly the record cchess dropped.

use crate::common;

use qipu::formats;
use qipu::record::MoveText;
use qipu::record::replay::replay;

#[test]
fn start_positions_and_main_lines_agree_with_cchess() {
    let Some(root) = common::corpus("xqf") else { return };
    let fixture = common::read_gz("xqf-cchess.txt.gz");
    let (mut compared, mut moves, mut dropped) = (0, 0, 0);
    for (n, line) in common::data_lines(&fixture) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (path, status) = (fields[0], fields[1]);
        let bytes = std::fs::read(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let parsed = formats::read(&bytes, None);
        match status {
            "OK" => {}
            // The impostor: cchess finds no 'XQ' signature, and neither does qipu.
            "ERROR" => {
                assert!(parsed.is_err(), "line {n}: {path}: cchess failed, qipu read it");
                continue;
            }
            _ => continue, // SKIPPED: too large for cchess
        }
        let record = &parsed.unwrap_or_else(|e| panic!("line {n}: {path}: {e}")).records[0];
        let replayed = replay(record);
        // Board and side to move; the move counters are not compared.
        let fen = replayed.resolution.setup.as_ref().unwrap().to_fen();
        let head = |f: &str| f.split(' ').take(2).collect::<Vec<_>>().join(" ");
        assert_eq!(head(&fen), head(fields[2]), "line {n}: {path}: start position");
        let ours: Vec<String> = record
            .tree()
            .main_line()
            .map(|id| match &record.tree().node(id).mv.as_ref().unwrap().text {
                MoveText::Coords(m) => m.to_string(),
                MoveText::Text(t) => panic!("line {n}: {path}: XQF moves are coordinates, not {t}"),
            })
            .collect();
        let theirs: Vec<&str> = fields[3].split_whitespace().collect();
        match fields.get(4) {
            None => assert_eq!(ours, theirs, "line {n}: {path}: main line"),
            Some(note) => {
                // "cchess dropped 1 of 10 main-line records (raw ply 10 e1f0: ...)"
                let ply: usize =
                    note.split("raw ply ").nth(1).and_then(|s| s.split(' ').next()).unwrap().parse().unwrap();
                let error = replayed
                    .error
                    .as_ref()
                    .unwrap_or_else(|| panic!("line {n}: {path}: qipu finds no error"));
                assert_eq!((error.ply, error.in_variation()), (ply, false), "line {n}: {path}: {error}");
                let mut kept = ours.clone();
                kept.remove(ply - 1);
                assert_eq!(kept, theirs, "line {n}: {path}: main line without the dropped record");
                dropped += 1;
            }
        }
        compared += 1;
        moves += theirs.len();
    }
    eprintln!("{compared} files compared, {moves} main-line moves, {dropped} with a record cchess dropped");
    assert!(compared >= 700, "{compared}");
    assert_eq!(dropped, 1);
}
