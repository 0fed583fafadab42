//! Fuzzes the writers against the readers: the input is read with format
//! detection (as `any_format` reads it), and every record that reads and
//! replays valid is written in every format qipu writes and reads (PGN in
//! each notation, JSON, DhtmlXQ, XQF, CBR, PFC, UCI lines) and read back
//! with detection. A writing must read back to one game with the same
//! start position and the same moves (the whole tree; the main line for
//! UCI lines, which hold no variation), or the writer must refuse the
//! record with an error: no format may differ silently. A start position's
//! half-move clock that the format says it has no field for
//! ([`WriteWarning::ClockLeftOut`]) must read back as 0.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::formats::write::{self, WriteFormat, WriteOptions, WriteWarning};
use qipu::formats::{self, xqf};
use qipu::notation::Notation;
use qipu::notation::chinese::Style;
use qipu::record::Record;

/// The formats written, and whether each keeps variations.
fn targets() -> Vec<(&'static str, WriteOptions, bool)> {
    let pgn = |notation| WriteOptions { notation, ..WriteOptions::new(WriteFormat::Pgn) };
    vec![
        ("pgn-chinese", pgn(Notation::Chinese(Style::Simplified)), true),
        ("pgn-traditional", pgn(Notation::Chinese(Style::Traditional)), true),
        ("pgn-wxf", pgn(Notation::Wxf), true),
        ("pgn-iccs", pgn(Notation::Iccs), true),
        ("pgn-uci", pgn(Notation::Uci), true),
        ("json", WriteOptions::new(WriteFormat::Json), true),
        ("dhtmlxq", WriteOptions::new(WriteFormat::Dhtmlxq), true),
        ("xqf10", WriteOptions::new(WriteFormat::Xqf), true),
        ("xqf18", WriteOptions { xqf_version: xqf::Version::V18, ..WriteOptions::new(WriteFormat::Xqf) }, true),
        ("cbr", WriteOptions::new(WriteFormat::Cbr), true),
        ("pfc", WriteOptions::new(WriteFormat::Pfc), true),
        ("uci", WriteOptions::new(WriteFormat::Uci), false),
    ]
}

/// The start position and the moves of a valid record: every node's, or
/// the main line's.
fn moves(record: &Record, tree: bool) -> (Option<String>, Vec<String>) {
    let replayed = record.replayed();
    let start = replayed.resolution.start.as_ref().map(|p| p.fen());
    if !tree {
        return (start, replayed.moves.iter().map(|m| format!("{m:?}")).collect());
    }
    let t = record.tree();
    let said = t
        .depth_first()
        .map(|id| {
            let place = t.node(id).parent.map(|p| t.children(p).position(|c| c == id));
            format!("{:?} {place:?}", replayed.resolution.move_of(id))
        })
        .collect();
    (start, said)
}

/// A FEN with its half-move clock 0.
fn without_clock(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if let Some(clock) = fields.get_mut(4) {
        *clock = "0";
    }
    fields.join(" ")
}

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = formats::read(data, None) else { return };
    for record in &parsed.records {
        if record.unreadable().is_some() || !record.replayed().is_valid() {
            continue;
        }
        for (name, options, tree) in targets() {
            // A writer that cannot hold the record says so.
            let Ok(written) = write::write_with_warnings(record, &options) else { continue };
            let clock_left_out = written.warnings.iter().any(|w| matches!(w, WriteWarning::ClockLeftOut { .. }));
            let written = written.bytes;
            let shown = String::from_utf8_lossy(&written);
            let back = match formats::read(&written, None) {
                Ok(back) => back,
                Err(e) => panic!("{name}: does not read back: {e}\n{shown}"),
            };
            assert_eq!(back.records.len(), 1, "{name}: {} games read back\n{shown}", back.records.len());
            let again = &back.records[0];
            assert!(again.unreadable().is_none(), "{name}: unreadable: {:?}\n{shown}", again.unreadable());
            assert!(again.replayed().is_valid(), "{name}: {:?}\n{shown}", again.replayed().error);
            let (mut start, said) = moves(record, tree);
            if clock_left_out {
                start = start.map(|fen| without_clock(&fen));
            }
            assert_eq!(moves(again, tree), (start, said), "{name}\n{shown}");
        }
    }
});
