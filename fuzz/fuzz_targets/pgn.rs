//! Fuzzes the PGN and plain-text readers on any text: no panic. Every game
//! read is replayed, written back as PGN and read again: the writing must
//! give as many games and the same main line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;
use qipu::formats::{pgn, text};
use qipu::notation::Notation;
use qipu::notation::chinese::Style;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    for record in text::read(&input) {
        let _ = replay(&record);
    }
    for record in pgn::read(&input) {
        let replayed = replay(&record);
        if !replayed.is_valid() {
            continue;
        }
        let written = pgn::write(&record, Notation::Chinese(Style::Simplified));
        let again = pgn::read(&written);
        assert_eq!(again.len(), 1, "{written}");
        let back = replay(&again[0]);
        assert_eq!(back.moves, replayed.moves, "{written}");
    }
});
