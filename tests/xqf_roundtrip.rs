//! Round trips through XQF: every corpus XQF record that validates goes
//! XQF -> PGN -> XQF (version 18) and XQF -> JSON -> XQF (version 10), and
//! comes back with the same start position, moves, variations, comments and
//! header fields. Skipped when the corpus is not beside the project.
//!
//! Two normalisations, both of the PGN side: a PGN comment cannot hold `}`
//! (the writer puts the full-width `｝`), and white space at the two ends of
//! a comment is layout in PGN, not text.

mod common;

use std::path::Path;

use qipu::analysis::replay::replay;
use qipu::formats::{self, json, pgn, xqf};
use qipu::notation::{Notation, chinese};
use qipu::record::Record;

/// The header fields an XQF file holds.
const FIELDS: [&str; 14] = [
    "Title",
    "TitleB",
    "Event",
    "Date",
    "Site",
    "Red",
    "Black",
    "TimeControl",
    "RedTime",
    "BlackTime",
    "Reserved",
    "Annotator",
    "Author",
    "GameType",
];

/// What must survive: start position, then each node depth first with its
/// parent's place, move and comment; then the header fields and result.
fn essence(record: &Record, through_pgn: bool) -> Vec<String> {
    let r = replay(record);
    let tree = &record.tree;
    let comment = |c: Option<&str>| {
        c.map(|c| {
            if through_pgn {
                c.replace('}', "｝").trim_matches(|x: char| x.is_ascii_whitespace()).to_string()
            } else {
                c.to_string()
            }
        })
        .filter(|c| !c.is_empty())
    };
    let mut out = vec![r.resolution.start.fen(), format!("{:?}", comment(tree.node(tree.root()).comment()))];
    for id in tree.depth_first().skip(1) {
        let n = tree.node(id);
        let parent = n.parent.unwrap();
        let place = tree.children(parent).position(|c| c == id).unwrap();
        out.push(format!("{:?} #{place} {:?}", r.resolution.move_of(id), comment(n.comment())));
    }
    for f in FIELDS {
        out.push(format!("{f}={:?}", record.tag(f)));
    }
    out.push(format!("{:?}", record.result()));
    out
}

#[test]
fn xqf_to_pgn_and_json_and_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/xqf");
    if !root.is_dir() {
        eprintln!("skipped: ../shared/corpus/xqf is not there");
        return;
    }
    let (mut checked, mut nodes) = (0, 0);
    for path in common::files(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(original) = xqf::read(&bytes) else { continue };
        let replayed = replay(&original);
        if !replayed.is_valid() {
            continue;
        }
        let name = path.display();
        // XQF -> PGN (Chinese moves) -> XQF 18
        let text = pgn::write(&original, &replayed.resolution, Notation::Chinese(chinese::Style::Simplified));
        let from_pgn = &pgn::read(&text)[0];
        let written = xqf::write(from_pgn, &replay(from_pgn).resolution, xqf::Version::V18).unwrap();
        let back = xqf::read(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(essence(&back, true), essence(&original, true), "{name}: XQF -> PGN -> XQF");
        // XQF -> JSON -> XQF 10
        let line = json::write(&original, &replayed.resolution);
        let from_json = formats::read(line.as_bytes(), None).unwrap().records.remove(0);
        let written = xqf::write(&from_json, &replay(&from_json).resolution, xqf::Version::V10).unwrap();
        let back = xqf::read(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(essence(&back, false), essence(&original, false), "{name}: XQF -> JSON -> XQF");
        checked += 1;
        nodes += original.tree.len();
    }
    eprintln!("{checked} files, {nodes} nodes, through PGN and through JSON and back");
    assert_eq!(checked, 5093);
}
