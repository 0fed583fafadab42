//! Every game of the PGN and text corpus is accounted for: read and valid,
//! except three records whose illegal moves were confirmed with
//! Fairy-Stockfish (see `corpus_moves.rs`). Skipped when the corpus is not
//! beside the project.

use crate::common;

use qipu::formats;
use qipu::record::replay::replay;

#[test]
fn pgn_and_text_corpus() {
    let Some(root) = common::corpus("") else { return };
    let mut paths = common::files(&root.join("pgn"));
    paths.extend(common::files(&root.join("text")));
    let (mut games, mut plies, mut unreadable, mut illegal) = (0, 0, Vec::new(), Vec::new());
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        match formats::read(&bytes, None) {
            Err(e) => unreadable.push(format!("{}: {e}", path.display())),
            Ok(parsed) => {
                for record in &parsed.records {
                    games += 1;
                    let r = replay(record);
                    plies += r.moves.len();
                    if let Some(e) = r.error {
                        illegal.push(format!("{}: {e}", path.display()));
                    }
                }
            }
        }
    }
    eprintln!(
        "{} files, {games} games, {plies} plies; illegal: {illegal:#?}; unreadable: {unreadable:#?}",
        paths.len()
    );
    assert!(unreadable.is_empty());
    assert_eq!(games, 7223 + 122);
    assert_eq!(illegal.len(), 3, "{illegal:#?}");
    for known in ["00000753.pgn", "00000011.pgn", "00000048.pgn"] {
        assert!(illegal.iter().any(|e| e.contains(known)), "{known}");
    }
}
