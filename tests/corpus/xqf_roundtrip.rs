//! Round trips through XQF: every corpus XQF record goes XQF -> PGN -> XQF
//! (version 18), XQF -> DhtmlXQ -> XQF (version 10) and XQF -> JSON -> XQF
//! (version 10), and comes back with the same start position, moves,
//! variations, header fields and comments, to the character. Records with
//! an illegal move are written with their moves as stored. Skipped when the
//! corpus is not beside the project.
//!
//! The changes expected are the writers' documented ones: a PGN comment
//! cannot hold `}` (the writer puts the full-width `｝`), and PGN, DhtmlXQ
//! and XQF text holds no control characters but line breaks and tabs (the
//! others become spaces, `qipu::formats::clean`); the test counts those.

use crate::common;

use qipu::formats::{self, clean, dhtmlxq, json, pgn, xqf};
use qipu::notation::{Notation, chinese};
use qipu::record::Record;
use qipu::record::replay::replay;

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

/// The format a record went through and back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Through {
    /// Control characters become spaces; `}` in a comment becomes `｝`.
    Pgn,
    /// Control characters become spaces.
    Dhtmlxq,
    /// Everything is kept (but XQF, written last, holds no control
    /// characters either).
    Json,
}

/// What must survive: start position, then each node depth first with its
/// parent's place, move and comment; then the header fields and result.
fn essence(record: &Record, through: Through) -> Vec<String> {
    let r = replay(record);
    let tree = &record.tree();
    let comment = |c: Option<&str>| {
        c.map(|c| match through {
            Through::Pgn => clean::lines(c).replace('}', "｝"),
            Through::Dhtmlxq => clean::lines(c).into_owned(),
            Through::Json => clean::lines(c).into_owned(),
        })
    };
    let field = |v: Option<&str>| v.map(|v| clean::one_line(v).into_owned());
    let mut out = vec![
        r.resolution.setup.as_ref().unwrap().to_fen(),
        format!("{:?}", comment(tree.node(tree.root()).comment())),
    ];
    for id in tree.depth_first().skip(1) {
        let n = tree.node(id);
        let parent = n.parent.unwrap();
        let place = tree.children(parent).position(|c| c == id).unwrap();
        let points = n.mv.as_ref().and_then(|mv| mv.points());
        out.push(format!("{points:?} #{place} {:?}", comment(n.comment())));
    }
    for f in FIELDS {
        out.push(format!("{f}={:?}", field(record.tag(f))));
    }
    out.push(format!("{:?}", record.result()));
    out
}

#[test]
fn xqf_to_pgn_dhtmlxq_and_json_and_back() {
    let Some(root) = common::corpus("xqf") else { return };
    let (mut checked, mut nodes, mut comments, mut braces, mut controls) = (0, 0, 0, 0, 0);
    for path in common::files(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(original) = xqf::read(&bytes) else { continue };
        let name = path.display();
        // XQF -> PGN (Chinese moves) -> XQF 18
        let text = pgn::write(&original, Notation::Chinese(chinese::Style::Simplified));
        let from_pgn = &pgn::read(&text)[0];
        let written = xqf::write(from_pgn, xqf::Version::V18).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = xqf::read(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            essence(&back, Through::Pgn),
            essence(&original, Through::Pgn),
            "{name}: XQF -> PGN -> XQF"
        );
        // XQF -> DhtmlXQ -> XQF 10
        let block = dhtmlxq::write(&original).unwrap_or_else(|e| panic!("{name}: {e}"));
        let from_dhtmlxq = &dhtmlxq::read(&block)[0];
        let written = xqf::write(from_dhtmlxq, xqf::Version::V10).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = xqf::read(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            essence(&back, Through::Dhtmlxq),
            essence(&original, Through::Dhtmlxq),
            "{name}: XQF -> DhtmlXQ -> XQF"
        );
        // XQF -> JSON -> XQF 10
        let line = json::write(&original);
        let from_json = formats::read(line.as_bytes(), None).unwrap().records.remove(0);
        let written = xqf::write(&from_json, xqf::Version::V10).unwrap();
        let back = xqf::read(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            essence(&back, Through::Json),
            essence(&original, Through::Json),
            "{name}: XQF -> JSON -> XQF"
        );
        checked += 1;
        nodes += original.tree().len();
        for id in original.tree().depth_first() {
            if let Some(c) = original.tree().node(id).comment() {
                comments += 1;
                braces += usize::from(c.contains('}'));
                controls += usize::from(clean::lines(c) != c);
            }
        }
        controls += original.tags().iter().filter(|(_, v)| clean::one_line(v) != v.as_str()).count();
    }
    eprintln!(
        "{checked} files, {nodes} nodes, {comments} comments ({braces} holding '}}', written '｝' in PGN), \
         {controls} comments or tags with control characters (written as spaces), \
         through PGN, DhtmlXQ and JSON and back"
    );
    assert_eq!(checked, 5110);
}
