//! Properties of zip archives read as folders (proptest): random legal
//! games written as PGN and XQF members of an archive (stored or
//! deflated, some inside an inner archive) read back in member order to
//! the same moves; a one-byte change of the archive never panics, every
//! input the archive expands to is accounted for, and no game is
//! invented.

use crate::common;

use std::io::Write;

use proptest::prelude::*;
use qipu::batch::{self, Batch, Event};
use qipu::formats::{pgn, xqf};
use qipu::record::RecordBuilder;
use qipu::record::replay::replay;
use qipu::{Move, Position};

/// A legal game from the start as PGN: each choice picks a legal move.
fn game(choices: &[u8]) -> (String, Vec<Move>) {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    let mut text = String::from("[Event \"generated\"]\n");
    for &c in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        text.push_str(&format!("{m} "));
        pos.play_unchecked(m);
        moves.push(m);
    }
    text.push_str("*\n");
    (text, moves)
}

/// An archive of `members` (name, bytes), deflated or stored.
fn archive(members: &[(String, Vec<u8>)], deflate: bool) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let method = if deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, bytes) in members {
        z.start_file(name.as_str(), options).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap().into_inner()
}

/// The main lines of every game read from `path`, the inputs it expands
/// to and how many were told done.
fn read(path: &std::path::Path) -> (Vec<Vec<Move>>, usize, usize) {
    let inputs = batch::expand(&[path.to_path_buf()]).inputs;
    let (mut games, mut done) = (Vec::new(), 0);
    Batch::new()
        .threads(2)
        .run(&inputs, RecordBuilder::default, |_, event| {
            match event {
                Event::Games { games: records, .. } => {
                    games.extend(records.iter().filter(|r| r.unreadable().is_none()).map(|r| replay(r).moves))
                }
                Event::Done => done += 1,
                _ => {}
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    (games, inputs.len(), done)
}

/// The archive of the games and their moves in the order they read.
fn zipped(games: &[Vec<u8>], deflate: bool, nest: usize) -> (Vec<u8>, Vec<Vec<Move>>) {
    let mut outer = Vec::new();
    let mut inner = Vec::new();
    let mut moves = Vec::new();
    for (i, choices) in games.iter().enumerate() {
        let (text, m) = game(choices);
        // Every third game as XQF, the others as PGN.
        let bytes = if i % 3 == 2 {
            xqf::write(&pgn::read(&text)[0], xqf::Version::V18).unwrap()
        } else {
            text.into_bytes()
        };
        let name = format!("g{i:02}.{}", if i % 3 == 2 { "xqf" } else { "pgn" });
        if i < nest {
            inner.push((name, bytes))
        } else {
            outer.push((name, bytes))
        }
        moves.push(m);
    }
    if !inner.is_empty() {
        // "a.zip" comes before every "g..": its games read first, as they were made.
        outer.insert(0, ("a.zip".to_string(), archive(&inner, !deflate)));
    }
    (archive(&outer, deflate), moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn games_in_an_archive_read_back(
        games in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..80), 1..6),
        deflate in any::<bool>(),
        nest in 0usize..3,
    ) {
        let dir = common::scratch("zip-property");
        let (bytes, moves) = zipped(&games, deflate, nest);
        let path = dir.join("games.zip");
        std::fs::write(&path, bytes).unwrap();
        let (read, inputs, done) = read(&path);
        prop_assert_eq!(read, moves);
        prop_assert_eq!(inputs, done);
    }

    #[test]
    fn a_changed_byte_of_an_archive_never_panics(
        games in prop::collection::vec(prop::collection::vec(any::<u8>(), 1..40), 1..4),
        deflate in any::<bool>(),
        nest in 0usize..3,
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let dir = common::scratch("zip-damaged-property");
        let (mut bytes, moves) = zipped(&games, deflate, nest);
        let i = at.index(bytes.len());
        bytes[i] = byte;
        let path = dir.join("games.zip");
        std::fs::write(&path, bytes).unwrap();
        let (read, inputs, done) = read(&path);
        prop_assert_eq!(inputs, done, "every input accounted for");
        prop_assert!(read.len() <= moves.len(), "{} games read from {}", read.len(), moves.len());
    }
}
