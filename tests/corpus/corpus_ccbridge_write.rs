//! Every valid game of the corpus's 象棋桥 files, written back as a CBR
//! record and as a CBL library by qipu, reads again to the same move tree
//! (every node, main line and variations), the same commented nodes and
//! the same tags that CBR holds. Skipped when the corpus is not beside the
//! project.

use crate::common;

use qipu::formats::{self, ccbridge};
use qipu::record::Record;

/// The moves of every node in pre-order, and which nodes carry a comment.
fn shape(record: &Record) -> (Vec<Option<String>>, Vec<bool>) {
    let tree = &record.tree();
    let (mut moves, mut commented) = (Vec::new(), Vec::new());
    let mut stack = vec![tree.root()];
    while let Some(id) = stack.pop() {
        let node = tree.node(id);
        moves.push(node.mv.as_ref().and_then(|m| m.points()).map(|m| m.to_string()));
        commented.push(node.comment().is_some_and(|c| !c.trim().is_empty()));
        let children: Vec<_> = tree.children(id).collect();
        stack.extend(children.into_iter().rev());
    }
    (moves, commented)
}

#[test]
fn corpus_games_come_back_from_cbr_and_cbl() {
    let Some(root) = common::corpus("ccbridge") else { return };
    let (mut games, mut nodes) = (0, 0);
    for path in common::files(&root) {
        let Ok(parsed) = formats::read(&std::fs::read(&path).unwrap(), None) else { continue };
        let valid: Vec<Record> = parsed
            .records
            .into_iter()
            .filter(|r| r.unreadable().is_none() && r.replayed().is_valid())
            .collect();
        for record in &valid {
            let written = ccbridge::write_cbr(record).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let back = formats::read(&written.bytes, None).unwrap();
            let [again] = &back.records[..] else { panic!("{}: one record", path.display()) };
            assert_eq!(shape(again), shape(record), "{}", path.display());
            assert_eq!(again.replayed().moves, record.replayed().moves, "{}", path.display());
            for tag in ["Red", "Black", "Event", "Date", "Site", "Result"] {
                if written.warnings.iter().all(|w| w.tag() != Some(tag)) {
                    assert_eq!(again.tag(tag), record.tag(tag), "{}: {tag}", path.display());
                }
            }
            games += 1;
            nodes += record.tree().len();
        }
        if valid.is_empty() {
            continue;
        }
        let library = ccbridge::write_cbl(&valid, "corpus");
        let back = formats::read(&library.bytes, None).unwrap();
        assert_eq!(back.records.len(), valid.len(), "{}", path.display());
        for (again, record) in back.records.iter().zip(&valid) {
            assert_eq!(shape(again), shape(record), "{}", path.display());
        }
    }
    assert!(games > 0 && nodes > games, "{games} games, {nodes} nodes");
    eprintln!("{games} games, {nodes} nodes written as CBR and CBL and read back");
}
