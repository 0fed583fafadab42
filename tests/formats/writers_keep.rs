//! Nothing lost without a word: a game with random tags (standard ones,
//! unknown ones, long names, Chinese text), comments, glyphs and
//! variations, written in every format qipu writes and reads back, comes
//! back with everything the writer did not warn about, and each warning
//! names something that indeed did not come back.
//!
//! What comes back is compared as each format holds it: XQF, DhtmlXQ,
//! CBR and PFC hold one comment a move, the glyphs as marks at its end;
//! a comment about the game whose last line reads as a tag line gets `［`;
//! Big5 with `--unmappable replace` has `?` for what it lacks.

use std::collections::HashSet;

use proptest::prelude::*;
use qipu::Position;
use qipu::formats::encoding::Encoding;
use qipu::formats::write::{self, Unmappable, WriteFormat, WriteOptions, WriteWarning, Written};
use qipu::formats::{self, ccbridge, xqf};
use qipu::notation::Notation;
use qipu::notation::chinese::Style;
use qipu::record::{GameResult, MoveText, Record, RecordedMove, Span};

/// Tags PGN and other formats know, and some they do not.
const NAMES: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "Red",
    "Black",
    "RedTeam",
    "BlackTeam",
    "RedElo",
    "BlackElo",
    "ECCO",
    "Opening",
    "Variation",
    "Title",
    "Annotator",
    "Author",
    "TimeControl",
    "RedTime",
    "BlackTime",
    // (No `White…` tags: PGN reads them as `Red…`, see tests/formats/san_dialects.rs.)
    "Variant",
    "PlyCount",
    "EventDate",
    "Table",
    "Judge",
    "赛事",
    "My Tag",
    "DhtmlXQ_other",
    "DhtmlXQ_Other",
    "PFC_note",
    "PFC_title",
    "Reserved",
];

/// Words of tag values and comments.
const WORDS: &[&str] = &[
    "许银川",
    "胡荣华",
    "Hu",
    "Ronghua",
    "2600",
    "1999.01.02",
    "\"x\"",
    "a\\b",
    "[甲级]",
    "中炮对屏风马",
    "&#",
    "许",
    "広",
    "😀",
    "(1)",
    "!",
    "1-0",
    "纪念杯全国象棋个人赛决赛第七轮",
];

/// A text of 1 to 4 words, or a long run of characters.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => prop::collection::vec(prop::sample::select(WORDS), 1..5).prop_map(|w| w.join(" ")),
        1 => (1usize..40).prop_map(|n| "象".repeat(n)),
    ]
}

/// A comment: words on one or two lines, sometimes ending with a line
/// that reads as a tag.
fn comment() -> impl Strategy<Value = String> {
    (text(), prop::option::of(text()), any::<bool>()).prop_map(|(a, b, tag_like)| {
        let mut c = a;
        if let Some(b) = b {
            c.push('\n');
            c.push_str(&b);
        }
        if tag_like {
            c.push_str("\n[Round \"3\"]");
        }
        c
    })
}

/// Tags: a few of [`NAMES`], a `GameType`, unknown names, a result.
fn tags() -> impl Strategy<Value = Vec<(String, String)>> {
    let named = prop::collection::vec((prop::sample::select(NAMES), text()), 0..8);
    let unknown = prop::collection::vec(("[A-Z][a-zA-Z0-9_]{0,10}", text()), 0..3);
    let game_type =
        prop::option::of(prop::sample::select(vec!["全局", "布局", "中局", "残局", "排局", "7", "07"]));
    let result = prop::option::of(prop::sample::select(vec!["1-0", "0-1", "1/2-1/2", "*"]));
    (named, unknown, game_type, result).prop_map(|(named, unknown, game_type, result)| {
        let mut tags: Vec<(String, String)> = Vec::new();
        let all = named.into_iter().map(|(n, v)| (n.to_string(), v)).chain(unknown);
        let extra = game_type.map(|t| ("GameType".to_string(), t.to_string())).into_iter();
        let extra = extra.chain(result.map(|r| ("Result".to_string(), r.to_string())));
        for (name, value) in all.chain(extra) {
            if !tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name)) {
                tags.push((name, value));
            }
        }
        tags
    })
}

/// A legal game from the start with `tags`, a variation at ply 2, and
/// comments and glyphs on the moves.
fn record(tags: &[(String, String)], choices: &[u8], comments: &[Option<String>], nags: &[u8]) -> Record {
    let mut record = Record::default();
    for (name, value) in tags {
        record.push_tag(name.clone(), value.clone());
    }
    let tree = record.tree_mut();
    let root = tree.root();
    tree.node_mut(root).notes_mut().comment = comments[0].clone();
    let mut pos = Position::start();
    let mut at = root;
    for (ply, &c) in choices.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        let node = tree.add_child(at, RecordedMove { text: MoveText::Coords(m), at: Span::default() });
        if ply == 1 && legal.len() > 1 {
            let other = legal[(c as usize + 1) % legal.len()];
            let alt = tree.add_child(at, RecordedMove { text: MoveText::Coords(other), at: Span::default() });
            tree.node_mut(alt).notes_mut().comment = comments[1].clone();
        }
        tree.node_mut(node).notes_mut().comment = comments[(ply + 2) % comments.len()].clone();
        if let Some(&nag) = nags.get(ply).filter(|&&n| n > 0) {
            tree.node_mut(node).notes_mut().nags.push(nag);
        }
        pos.play_unchecked(m);
        at = node;
    }
    record
}

/// A format to write: its name, how, and the encoding it is read in.
struct Target {
    name: &'static str,
    options: WriteOptions,
}

fn targets() -> Vec<Target> {
    let with = |format, notation, encoding, unmappable| WriteOptions {
        notation,
        encoding,
        unmappable,
        ..WriteOptions::new(format)
    };
    let utf8 = Encoding::Utf8;
    let error = Unmappable::Error;
    let chinese = Notation::Chinese(Style::Simplified);
    vec![
        Target { name: "pgn", options: with(WriteFormat::Pgn, Notation::Iccs, utf8, error) },
        Target { name: "pgn-gbk", options: with(WriteFormat::Pgn, chinese, Encoding::Gb18030, error) },
        Target {
            name: "pgn-big5",
            options: with(WriteFormat::Pgn, Notation::Iccs, Encoding::Big5, Unmappable::Replace),
        },
        Target { name: "json", options: with(WriteFormat::Json, chinese, utf8, error) },
        Target { name: "dhtmlxq", options: with(WriteFormat::Dhtmlxq, chinese, utf8, error) },
        Target {
            name: "dhtmlxq-gbk",
            options: with(WriteFormat::Dhtmlxq, chinese, Encoding::Gb18030, error),
        },
        Target { name: "xqf10", options: WriteOptions::new(WriteFormat::Xqf) },
        Target {
            name: "xqf18",
            options: WriteOptions { xqf_version: xqf::Version::V18, ..WriteOptions::new(WriteFormat::Xqf) },
        },
        Target { name: "cbr", options: WriteOptions::new(WriteFormat::Cbr) },
        Target { name: "cbl", options: WriteOptions::new(WriteFormat::Cbr) },
        Target { name: "pfc", options: WriteOptions::new(WriteFormat::Pfc) },
    ]
}

/// `text` as Big5 with `?` for what it lacks, or as it is.
fn in_encoding(text: &str, target: &Target) -> String {
    if target.options.unmappable != Unmappable::Replace {
        return text.to_string();
    }
    let encoding = target.options.encoding;
    let mut buf = [0u8; 4];
    text.chars().map(|c| if encoding.encode(c.encode_utf8(&mut buf)).is_ok() { c } else { '?' }).collect()
}

/// Whether the format holds comments and glyphs apart.
fn keeps_glyphs(target: &Target) -> bool {
    target.name.starts_with("pgn") || target.name == "json"
}

/// A comment about the game whose last line reads as a tag line, with
/// `［` for its `[`, as formats that keep tags in it write it.
fn guarded(comment: &str) -> String {
    let start = comment.rfind('\n').map_or(0, |i| i + 1);
    let last = &comment[start..];
    let reads_as_tag = last.starts_with('[')
        && last.ends_with("\"]")
        && last[1..].split_once(' ').is_some_and(|(n, v)| !n.is_empty() && v.starts_with('"'));
    if reads_as_tag { format!("{}［{}", &comment[..start], &last[1..]) } else { comment.to_string() }
}

/// The moves, their places in the tree and their comments, as `target`
/// holds them.
fn moves_said(record: &Record, target: &Target, original: bool) -> Vec<String> {
    let tree = record.tree();
    let resolution = &record.replayed().resolution;
    let mut out = Vec::new();
    for id in tree.depth_first() {
        let node = tree.node(id);
        let place = node.parent.map(|p| tree.children(p).position(|c| c == id).unwrap());
        let (comment, nags) = if keeps_glyphs(target) || !original {
            (node.comment().map(str::to_string), node.nags().to_vec())
        } else {
            (node.merged_comment(), Vec::new())
        };
        let mut comment = comment.map(|c| in_encoding(&c, target));
        if original && id == tree.root() && !keeps_glyphs(target) {
            comment = comment.map(|c| guarded(&c));
        }
        out.push(format!("{:?} {place:?} {comment:?} {nags:?}", resolution.move_of(id)));
    }
    out
}

/// Tags no format writes as tags, and those a reader adds.
fn stored_otherwise(name: &str) -> bool {
    ["FEN", "Result", "Game", "Format", "DhtmlXQ_ver"].iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// Writes `record` as `target` and reads it back.
fn write_and_read(record: &Record, target: &Target) -> Result<(Written, Record), TestCaseError> {
    let written = if target.name == "cbl" {
        let library = ccbridge::write_cbl(std::slice::from_ref(record), "t");
        let warnings = library
            .warnings
            .into_iter()
            .map(|w| match w {
                WriteWarning::InGame { game: 1, warning } => Ok(*warning),
                other => Err(TestCaseError::fail(format!("cbl: {other}"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Written { bytes: library.bytes, warnings }
    } else {
        write::write_with_warnings(record, &target.options)
            .map_err(|e| TestCaseError::fail(format!("{}: {e}", target.name)))?
    };
    let encoding = target.options.format.is_text().then_some(target.options.encoding);
    let parsed = formats::read(&written.bytes, encoding)
        .map_err(|e| TestCaseError::fail(format!("{}: {e}", target.name)))?;
    prop_assert_eq!(parsed.records.len(), 1, "{}", target.name);
    let back = parsed.records.into_iter().next().expect("one");
    Ok((written, back))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn what_a_writer_does_not_warn_about_comes_back(
        tags in tags(),
        choices in prop::collection::vec(any::<u8>(), 0..24),
        comments in prop::collection::vec(prop::option::of(comment()), 4..8),
        nags in prop::collection::vec(0u8..7, 0..24),
    ) {
        let record = record(&tags, &choices, &comments, &nags);
        prop_assert!(record.replayed().is_valid());
        for target in targets() {
            let name = target.name;
            let (written, back) = write_and_read(&record, &target)?;
            let text = String::from_utf8_lossy(&written.bytes).into_owned();
            prop_assert!(back.unreadable().is_none(), "{}: {:?}", name, back.unreadable());
            prop_assert!(back.replayed().is_valid(), "{}", name);
            prop_assert_eq!(moves_said(&back, &target, false), moves_said(&record, &target, true), "{}: {}", name, text);
            let result = |r: &Record| r.result().unwrap_or(GameResult::Unknown);
            prop_assert_eq!(result(&back), result(&record), "{}", name);

            // Each warning names a tag, or characters replaced.
            let mut warned = HashSet::new();
            for w in written.warnings.iter().flat_map(WriteWarning::each) {
                match w {
                    WriteWarning::Replaced { characters, .. } => {
                        prop_assert_eq!(target.options.unmappable, Unmappable::Replace, "{}: {}", name, w);
                        prop_assert!(!characters.is_empty());
                    }
                    _ => {
                        let tag = w.tag();
                        prop_assert!(tag.is_some(), "{}: {}", name, w);
                        warned.insert(tag.unwrap().to_ascii_lowercase());
                    }
                }
            }
            // Every tag comes back, or is warned about and does not.
            for (tag, value) in record.tags() {
                if stored_otherwise(tag) {
                    continue;
                }
                let expected = in_encoding(value, &target);
                let got = back.tag(&in_encoding(tag, &target));
                if warned.contains(&tag.to_ascii_lowercase()) {
                    prop_assert_ne!(got, Some(expected.as_str()), "{}: {} was warned about: {}", name, tag, text);
                } else {
                    prop_assert_eq!(got, Some(expected.as_str()), "{}: tag {}: {:?}: {}", name, tag, written.warnings, text);
                }
            }
            // And no tag is made up.
            for (tag, _) in back.tags() {
                let known = record.tags().iter().any(|(t, _)| in_encoding(t, &target).eq_ignore_ascii_case(tag));
                prop_assert!(known || stored_otherwise(tag), "{}: tag {} made up: {}", name, tag, text);
            }
        }
    }
}
