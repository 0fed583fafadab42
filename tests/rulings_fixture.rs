//! The repetition rulings of `tests/data/rulings/rulebook.txt` replay.
//!
//! Each block names a start position, the moves of a repetition cycle
//! (played until the start position stands for the third time) and the
//! verdicts of the Asian and the Chinese rule books (see `RULES.md` beside
//! the fixture). This test checks the data, not a judge: the keys are
//! there, the verdicts use the fixture's words, every move is legal, the
//! last position is the first one for the third time, and a side ruled to
//! lose by perpetual check gives check with every one of its moves.

use qipu::Position;
use qipu::notation::iccs;

const FIXTURE: &str = include_str!("data/rulings/rulebook.txt");
const KEYS: [&str; 7] = ["id", "source", "fen", "moves", "asian", "chinese", "note"];
const KINDS: [&str; 5] =
    ["perpetual-check", "perpetual-chase", "check-chase", "perpetual-mate-threat", "mate-threat-mixed"];

struct Example<'a> {
    fields: Vec<(&'a str, &'a str)>,
}

impl<'a> Example<'a> {
    fn get(&self, key: &str) -> &'a str {
        self.fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("{}: no {key}", self.fields.first().map(|f| f.1).unwrap_or("?")))
    }
}

fn examples() -> Vec<Example<'static>> {
    FIXTURE
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|block| Example {
            fields: block
                .lines()
                .map(|line| {
                    let (k, v) = line.split_once(':').expect("a `key: value` line");
                    (k.trim(), v.trim())
                })
                .collect(),
        })
        .collect()
}

/// `None` for a draw or no ruling, else the losing side ('w' or 'b') and the kind.
fn loser(verdict: &str, id: &str) -> Option<(char, &'static str)> {
    if verdict == "draw" || verdict == "-" {
        return None;
    }
    let (side, kind) = verdict.split_once("-loses ").unwrap_or_else(|| panic!("{id}: verdict {verdict}"));
    let kind = KINDS.iter().find(|k| **k == kind).unwrap_or_else(|| panic!("{id}: kind {kind}"));
    match side {
        "red" => Some(('w', kind)),
        "black" => Some(('b', kind)),
        _ => panic!("{id}: side {side}"),
    }
}

/// Placement and side to move: what makes two positions the same.
fn key(pos: &Position) -> String {
    pos.fen().split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn every_ruling_replays() {
    let all = examples();
    assert!(all.len() >= 20, "{} examples", all.len());
    let mut ids = std::collections::HashSet::new();
    for ex in &all {
        for k in KEYS {
            ex.get(k);
        }
        let id = ex.get("id");
        assert!(ids.insert(id), "{id}: duplicate id");
        let (asian, chinese) = (ex.get("asian"), ex.get("chinese"));
        assert!(asian != "-" || chinese != "-", "{id}: no ruling");
        let losers: Vec<_> = [loser(asian, id), loser(chinese, id)].into_iter().flatten().collect();

        let fen = ex.get("fen");
        let full =
            if fen.split_whitespace().count() == 2 { format!("{fen} - - 0 1") } else { fen.to_string() };
        let mut pos = Position::from_fen(&full).unwrap_or_else(|e| panic!("{id}: {e}"));
        let start = key(&pos);
        let mut seen = 1;
        for text in ex.get("moves").split_whitespace() {
            let mover = if pos.fen().split_whitespace().nth(1) == Some("w") { 'w' } else { 'b' };
            let m = iccs::parse(text)
                .unwrap_or_else(|e| panic!("{id}: {text}: {e}"))
                .resolve(&pos)
                .unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
            pos.play(m).unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
            if losers.contains(&(mover, "perpetual-check")) {
                assert!(pos.is_check(), "{id}: {text} is ruled part of a perpetual check but gives none");
            }
            if key(&pos) == start {
                seen += 1;
            }
        }
        assert_eq!(key(&pos), start, "{id}: the moves do not return to the start");
        assert_eq!(seen, 3, "{id}: the start position stands {seen} times");
    }
}
