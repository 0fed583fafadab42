//! Perft against the published reference numbers in `tests/data/perft.txt`.
//!
//! The default run checks every entry up to 20 million nodes (the start
//! position to depth 4 and most positions to depth 5); the ignored test
//! checks them all, start position depth 6 included:
//! `cargo test --release --test rules -- --ignored perft_all`.

use qipu::{Position, perft};

struct Case {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/perft.txt");
    let mut cases = Vec::new();
    let (mut id, mut fen) = (String::new(), String::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or_else(|| panic!("line {}: {line:?}", n + 1));
        match key {
            "id" => id = rest.to_string(),
            "fen" => fen = rest.to_string(),
            "perft" => {
                let (d, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
                cases.push(Case {
                    id: id.clone(),
                    fen: fen.clone(),
                    depth: d.parse().unwrap(),
                    nodes: nodes.parse().unwrap(),
                });
            }
            other => panic!("line {}: unknown key {other:?}", n + 1),
        }
    }
    cases
}

fn check(limit: u64) -> usize {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.nodes <= limit) {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert_eq!(perft(&pos, case.depth), case.nodes, "{} depth {}", case.id, case.depth);
        checked += 1;
    }
    checked
}

#[test]
fn data_file_is_complete() {
    let cases = cases();
    assert!(cases.iter().any(|c| c.id == "startpos" && c.depth == 4 && c.nodes == 3_290_240));
    assert_eq!(cases.iter().filter(|c| c.depth == 5).count(), 14);
}

#[test]
fn perft_up_to_20_million_nodes() {
    let checked = check(20_000_000);
    assert!(checked >= 60, "only {checked} cases checked");
}

#[test]
#[ignore = "slow: about a minute in release mode; run with --ignored"]
fn perft_all() {
    check(u64::MAX);
}
