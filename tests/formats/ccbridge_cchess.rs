//! qipu's 象棋桥 writer against an independent reader: the games of
//! `tests/data/ccbridge-games.pgn`, written by `qipu convert --to cbl` and
//! `--to cbr` into `tests/data/ccbridge-written/`, read by the cchess
//! Python package; what cchess read is `tests/data/ccbridge-cchess.txt.gz`
//! (`scripts/gen-ccbridge-cchess-fixture.py`, whose docstring gives the
//! dump's form).
//!
//! The dump leaves out, on both sides, what cchess does not read: the tags
//! other than Title, Event, Red, Black and Result (cchess's header skips
//! their fields), the side to move as stored (cchess takes it from the
//! start move number's field; the dump gives instead the side of the first
//! move, which cchess takes from the piece moved), the start move number
//! and the library's name (qipu's record has no place for it). Line breaks
//! are compared as LF: the files hold CR LF, qipu reads them as LF.

use crate::common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use qipu::Color;
use qipu::formats::ccbridge::{read_cbl, read_cbr};
use qipu::record::{GameResult, MoveText, NodeId, Record};

const SOURCE: &str = "tests/data/ccbridge-games.pgn";
const LIBRARY: &str = "ccbridge.cbl";

fn written() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ccbridge-written")
}

/// The CBR files of `dir`/cbr, by name.
fn cbr_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("cbr"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn qipu_writes_the_committed_files_byte_for_byte() {
    let dir = common::scratch("ccbridge-cchess");
    for (to, out) in [("cbl", dir.join(LIBRARY)), ("cbr", dir.join("cbr"))] {
        let run = Command::cargo_bin("qipu")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["-q", "convert", SOURCE, "--to", to, "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    }
    let rerun = "if the writer's change is intended, rerun scripts/gen-ccbridge-cchess-fixture.py \
                 (it rewrites tests/data/ccbridge-written and what cchess reads of it)";
    let names = cbr_names(&written());
    assert_eq!(cbr_names(&dir), names, "the CBR files written; {rerun}");
    assert_eq!(names.len(), 5);
    let files = std::iter::once(LIBRARY.to_string()).chain(names.iter().map(|n| format!("cbr/{n}")));
    for name in files {
        let ours = std::fs::read(dir.join(&name)).unwrap();
        let committed = std::fs::read(written().join(&name)).unwrap();
        assert!(ours == committed, "{name}: qipu now writes other bytes than the committed file; {rerun}");
    }
}

#[test]
fn qipu_reads_the_written_files_as_cchess_does() {
    let fixture = common::read_gz("ccbridge-cchess.txt.gz");
    let theirs: Vec<&str> = common::data_lines(&fixture).map(|(_, l)| l).collect();
    let mut ours = Vec::new();
    let library = read_cbl(&std::fs::read(written().join(LIBRARY)).unwrap()).unwrap();
    for (k, record) in library.records.iter().enumerate() {
        let record = record.as_ref().unwrap_or_else(|e| panic!("{LIBRARY} game {}: {e}", k + 1));
        ours.extend(dump(LIBRARY, k + 1, record));
    }
    for name in cbr_names(&written()) {
        let record = read_cbr(&std::fs::read(written().join("cbr").join(&name)).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        ours.extend(dump(&format!("cbr/{name}"), 1, &record));
    }
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "dump line {} (qipu, then cchess)", k + 1);
    }
    assert_eq!(ours.len(), theirs.len(), "dump lines");
    let games = theirs.iter().filter(|l| l.starts_with("game\t")).count();
    let lines = theirs.iter().filter(|l| l.starts_with("line\t")).count();
    let comments = theirs.iter().map(|l| l.matches(" {").count()).sum::<usize>();
    assert_eq!(games, 10);
    assert!(lines >= 20 && comments >= 20, "{lines} lines, {comments} move comments");
}

/// The game as the script dumps cchess's reading of it.
fn dump(file: &str, number: usize, record: &Record) -> Vec<String> {
    let mut rows = vec![format!("game\t{file}\t{number}")];
    for tag in ["Title", "Event", "Red", "Black"] {
        rows.push(format!("{}\t{}", tag.to_lowercase(), escape(record.tag(tag).unwrap_or(""))));
    }
    let result = record.result().unwrap_or(GameResult::Unknown);
    rows.push(format!("result\t{}", result.as_str()));
    let start = record.replayed().resolution.setup.as_ref().expect("a start position");
    rows.push(format!("board\t{}", start.to_fen().split(' ').next().unwrap()));
    let tree = record.tree();
    let mover = match (tree.main_child(tree.root()), start.turn) {
        (None, _) => "-",
        (Some(_), Color::Red) => "w",
        (Some(_), Color::Black) => "b",
    };
    rows.push(format!("mover\t{mover}"));
    rows.push(format!("comment\t{}", escape(tree.node(tree.root()).comment().unwrap_or(""))));
    let mut lines = Vec::new();
    walk(record, tree.root(), &mut Vec::new(), &mut lines);
    rows.extend(lines.into_iter().map(|l| format!("line\t{l}")));
    rows
}

/// Every line from `id` down to a leaf, leaves in pre-order.
fn walk(record: &Record, id: NodeId, path: &mut Vec<String>, out: &mut Vec<String>) {
    let tree = record.tree();
    if tree.main_child(id).is_none() && !path.is_empty() {
        out.push(path.join(" "));
    }
    for child in tree.children(id) {
        let node = tree.node(child);
        let mut text = match &node.mv.as_ref().unwrap().text {
            MoveText::Coords(m) => m.to_string(),
            MoveText::Text(t) => panic!("CBR moves are points, not {t}"),
        };
        if let Some(c) = node.merged_comment() {
            text += &format!(" {{{}}}", escape(&c));
        }
        path.push(text);
        walk(record, child, path, out);
        path.pop();
    }
}

/// As the script writes text: `\` as `\\`, LF as `\n`, TAB as `\t`.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n").replace('\t', "\\t")
}
