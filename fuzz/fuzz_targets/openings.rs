//! Fuzzes ECCO classification and the opening tree on games made of the
//! input's bytes (each byte picks one of the legal moves): no panic; a
//! game and its mirror image get the same code.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::analysis::ecco;
use qipu::analysis::openings::OpeningTree;
use qipu::{Move, Position};

fuzz_target!(|data: &[u8]| {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for &b in data.iter().take(40) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[b as usize % legal.len()];
        pos.play_unchecked(m);
        moves.push(m);
    }
    let start = Position::start();
    let code = ecco::classify(&start, &moves).expect("the standard start has a code");
    let mirrored: Vec<Move> = moves.iter().map(|m| m.flip_horizontal()).collect();
    // A first move on the king's file is not mirrored: the mirror of the
    // rest then reads differently, so compare only games that open off it.
    if moves.first().is_some_and(|m| m.from.file().index() != 4) {
        assert_eq!(ecco::classify(&start, &mirrored).unwrap().code, code.code);
    }
    let _ = ecco::terms::opening_terms(&ecco::opening_keys(&start, &moves));
    let mut tree = OpeningTree::new(10);
    tree.add(&start, &moves, None, Some(code.code));
    tree.add(&start, &mirrored, None, None);
    assert!(tree.node(0).games == 2);
});
