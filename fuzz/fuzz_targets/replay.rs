//! Fuzzes the rules engine and replay on move sequences made of the input.
//!
//! The first byte picks a start position; each following pair of bytes is
//! a move: a legal one picked by index (high bit of the first byte clear)
//! or any from-to pair of points, legal or not. Checked at every move:
//! `is_legal` agrees with the list of legal moves; a legal move leaves the
//! mover's general unattacked, keeps the incremental hash equal to the hash
//! computed from scratch, and is taken back exactly. The moves are then
//! written as an ICCS PGN game and replayed: the game is valid exactly when
//! every move was legal, and otherwise the report names the first illegal
//! move's ply.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;
use qipu::formats::pgn;
use qipu::rules::zobrist;
use qipu::{Move, Position, Square};

const STARTS: [&str; 6] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RN1AKAB1R b - - 3 3",
    "3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
    "3akab2/9/4b4/2C6/2c6/9/4R4/4B4/4A4/3AKc3 w - - 10 40",
    "2bak4/4a4/4b4/9/9/9/9/4C4/4c4/3K5 b - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let start = Position::from_fen(STARTS[first as usize % STARTS.len()]).expect("the starts are legal");
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    let mut first_illegal = None;
    for pair in rest.chunks_exact(2).take(150) {
        let legal = pos.legal_moves();
        let m = if pair[0] & 0x80 == 0 && !legal.is_empty() {
            legal[pair[1] as usize % legal.len()]
        } else {
            let from = Square::from_index(pair[0] as usize % 90).unwrap();
            let to = Square::from_index(pair[1] as usize % 90).unwrap();
            Move::new(from, to)
        };
        let is_legal = pos.is_legal(m);
        assert_eq!(is_legal, legal.contains(&m), "{} {m}", pos.fen());
        assert_eq!(pos.play(m).is_ok(), is_legal, "{} {m}", pos.fen());
        moves.push(m);
        if !is_legal {
            first_illegal = Some(moves.len());
            break;
        }
        let mover = !pos.turn();
        assert!(!pos.is_attacked(pos.king(mover), pos.turn()), "{m} leaves its general attacked");
        assert_eq!(pos.hash(), zobrist::hash_of(pos.board(), pos.turn()), "{}", pos.fen());
        let (before, hash) = (pos.fen(), pos.hash());
        let next = pos.legal_moves();
        if let Some(&reply) = next.first() {
            let undo = pos.play_unchecked(reply);
            pos.undo(undo);
            assert_eq!((pos.fen(), pos.hash()), (before, hash), "taking back {reply}");
        }
    }

    let mut text = format!("[FEN \"{}\"]\n\n", start.fen());
    for m in &moves {
        text.push_str(&m.to_string());
        text.push(' ');
    }
    text.push('*');
    let records = pgn::read(&text);
    assert_eq!(records.len(), 1, "{text}");
    let replayed = replay(&records[0]);
    match first_illegal {
        None => {
            assert!(replayed.is_valid(), "{text}: {:?}", replayed.error);
            assert_eq!(replayed.moves, moves, "{text}");
        }
        Some(ply) => {
            let error = replayed.error.expect("an illegal move is reported");
            assert_eq!(error.ply, ply, "{text}");
            assert_eq!(replayed.moves, moves[..ply - 1], "{text}");
        }
    }
});
