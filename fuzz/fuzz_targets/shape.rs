//! Fuzzes shaping (`record::shape`) on PGN text: the first byte picks the
//! flags, the second the ply limit; the rest is read as PGN. No panic; a
//! shaped game keeps at most the plies asked for, no variation with
//! `main_line`, no comment or glyph when they are dropped, the start
//! position always; written back as PGN it reads as one game with the same
//! main line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::formats::pgn;
use qipu::notation::Notation;
use qipu::record::shape::{Shape, TagFilter};

fuzz_target!(|data: &[u8]| {
    let [flags, max, text @ ..] = data else { return };
    let shape = Shape {
        main_line: flags & 1 != 0,
        no_comments: flags & 2 != 0,
        no_nags: flags & 4 != 0,
        plies_max: (flags & 8 != 0).then_some(usize::from(*max)),
        tags: match flags >> 4 & 3 {
            0 => TagFilter::All,
            1 => TagFilter::Standard,
            2 => TagFilter::Only(vec!["Red".into(), "event".into()]),
            _ => TagFilter::Only(vec!["Nothing".into()]),
        },
    };
    let input = String::from_utf8_lossy(text);
    for mut record in pgn::read(&input) {
        let fen = record.fen().map(str::to_string);
        let plies = record.tree().main_line().count();
        let cut = shape.apply(&mut record);
        let tree = record.tree();
        if let Some(max) = shape.plies_max {
            assert_eq!(cut, plies > max);
            assert!(tree.main_line().count() <= max);
        }
        if shape.main_line {
            assert_eq!(tree.variation_count(), 0);
        }
        for id in tree.depth_first() {
            let node = tree.node(id);
            if shape.no_comments {
                assert!(node.comment().is_none() && node.comment_before().is_none());
            }
            if shape.no_nags {
                assert!(node.nags().is_empty());
            }
        }
        assert_eq!(record.fen().map(str::to_string), fen);
        let replayed = record.replayed();
        if !replayed.is_valid() {
            continue;
        }
        let written = pgn::write(&record, Notation::Iccs);
        let again = pgn::read(&written);
        assert_eq!(again.len(), 1, "{written}");
        assert_eq!(again[0].replayed().moves, replayed.moves, "{written}");
    }
});
