//! Properties over generated games and damaged files (proptest):
//! - any legal game, written in any format and notation qipu writes, reads
//!   back to the same moves;
//! - any one-byte change of a valid file gives records or an error, never a
//!   panic, and never more games than the original.

use proptest::prelude::*;
use qipu::analysis::replay::replay;
use qipu::formats::{self, dhtmlxq, json, pgn, xqf};
use qipu::notation::Notation;
use qipu::notation::chinese::Style;
use qipu::{Move, Position};

/// A legal game from the start: each choice picks one of the legal moves.
fn game(choices: &[u8]) -> (String, Vec<Move>) {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    let mut text = String::from("[Event \"generated\"]\n");
    for (ply, &c) in choices.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&format!("{m} "));
        pos.play_unchecked(m);
        moves.push(m);
    }
    text.push_str("*\n");
    (text, moves)
}

/// The main-line moves of every record of `bytes`, read as qipu reads a file.
fn read_moves(bytes: &[u8]) -> Vec<Vec<Move>> {
    formats::read(bytes, None).expect("readable").records.iter().map(|r| replay(r).moves).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_legal_game_reads_back_from_every_format(choices in prop::collection::vec(any::<u8>(), 0..120)) {
        let (text, moves) = game(&choices);
        let record = &pgn::read(&text)[0];
        let replayed = replay(record);
        prop_assert!(replayed.is_valid());
        prop_assert_eq!(&replayed.moves, &moves);
        for notation in [
            Notation::Chinese(Style::Simplified),
            Notation::Chinese(Style::Traditional),
            Notation::Wxf,
            Notation::Iccs,
            Notation::Uci,
        ] {
            let written = pgn::write(record, &replayed.resolution, notation);
            prop_assert_eq!(read_moves(written.as_bytes()), vec![moves.clone()], "{:?}: {}", notation, written);
        }
        let written = json::write(record, &replayed.resolution);
        prop_assert_eq!(read_moves(written.as_bytes()), vec![moves.clone()]);
        let written = dhtmlxq::write(record, &replayed.resolution).unwrap();
        prop_assert_eq!(read_moves(written.as_bytes()), vec![moves.clone()]);
        for version in [xqf::Version::V10, xqf::Version::V18] {
            let written = xqf::write(record, &replayed.resolution, version).unwrap();
            prop_assert_eq!(read_moves(&written), vec![moves.clone()]);
        }
    }

    #[test]
    fn a_changed_byte_never_panics_nor_adds_games(
        choices in prop::collection::vec(any::<u8>(), 1..60),
        format in 0usize..5,
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        change in 0usize..3,
    ) {
        let (text, _) = game(&choices);
        let two = format!("{text}\n{text}");
        let record = &pgn::read(&text)[0];
        let resolution = replay(record).resolution;
        let original: Vec<u8> = match format {
            0 => two.into_bytes(),
            1 => xqf::write(record, &resolution, xqf::Version::V10).unwrap(),
            2 => xqf::write(record, &resolution, xqf::Version::V18).unwrap(),
            3 => dhtmlxq::write(record, &resolution).unwrap().into_bytes(),
            _ => json::write(record, &resolution).into_bytes(),
        };
        let games = formats::read(&original, None).unwrap().records.len();
        let mut damaged = original.clone();
        let i = at.index(damaged.len());
        match change {
            0 => damaged[i] = byte,
            1 => { damaged.remove(i); }
            _ => damaged.insert(i, byte),
        }
        if let Ok(parsed) = formats::read(&damaged, None) {
            prop_assert!(parsed.records.len() <= games, "{} games from {}", parsed.records.len(), games);
            for r in &parsed.records {
                let _ = replay(r);
            }
        }
    }
}
