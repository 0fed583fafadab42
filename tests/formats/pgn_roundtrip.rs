//! PGN that qipu writes reads back to the same game: same start position,
//! same moves in the main line and every variation, same comments, NAGs
//! and tags — in every notation. Checked on the bundled fixture and, when
//! it is beside the project, on every valid game of `../shared/corpus/pgn`.

use crate::common;

use std::path::Path;

use qipu::formats::{self, pgn};
use qipu::notation::{Notation, chinese};
use qipu::record::Record;
use qipu::record::replay::{Replayed, replay};

/// Everything that must survive a round trip, node by node in depth-first order.
fn essence(record: &Record, replayed: &Replayed) -> Vec<String> {
    let tree = &record.tree();
    let mut out = vec![
        replayed.resolution.setup.as_ref().unwrap().to_fen(),
        format!("{:?}", tree.node(tree.root()).comment()),
    ];
    for id in tree.depth_first().skip(1) {
        let n = tree.node(id);
        let parent = n.parent.unwrap();
        let position_in_parent = tree.children(parent).position(|c| c == id).unwrap();
        out.push(format!(
            "{:?} #{position_in_parent} {:?} {:?} {:?}",
            replayed.resolution.move_of(id),
            n.comment(),
            n.comment_before(),
            n.nags()
        ));
    }
    out
}

fn check_file(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let Ok(parsed) = formats::read(&bytes, None) else { return 0 };
    let mut checked = 0;
    for (index, record) in parsed.records.iter().enumerate() {
        let replayed = replay(record);
        if !replayed.is_valid() {
            continue;
        }
        let expected = essence(record, &replayed);
        for notation in [
            Notation::Chinese(chinese::Style::Simplified),
            Notation::Chinese(chinese::Style::Traditional),
            Notation::Wxf,
            Notation::Iccs,
            Notation::Uci,
        ] {
            let text = pgn::write(record, notation);
            let back = pgn::read(&text);
            assert_eq!(back.len(), 1, "{} game {index} as {notation:?}:\n{text}", path.display());
            let again = replay(&back[0]);
            assert!(
                again.is_valid(),
                "{} game {index} as {notation:?}: {:?}\n{text}",
                path.display(),
                again.error
            );
            assert_eq!(
                essence(&back[0], &again),
                expected,
                "{} game {index} as {notation:?}",
                path.display()
            );
            for (name, value) in record.tags() {
                if !["FEN", "Format", "Result", "Game"].iter().any(|t| t.eq_ignore_ascii_case(name)) {
                    assert_eq!(
                        back[0].tag(name),
                        Some(value.as_str()),
                        "{} game {index}: tag {name}",
                        path.display()
                    );
                }
            }
            assert_eq!(back[0].result(), record.result().or(Some(qipu::record::GameResult::Unknown)));
        }
        checked += 1;
    }
    checked
}

#[test]
fn bundled_fixture_round_trips() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
    assert_eq!(check_file(&path), 1391);
}

#[test]
fn corpus_round_trips() {
    let Some(dir) = common::corpus("pgn") else { return };
    let paths = common::files(&dir);
    let checked: usize = paths.iter().map(|p| check_file(p)).sum();
    eprintln!("{checked} corpus games round-trip in 5 notations");
    assert!(checked > 7_000, "{checked}");
}
