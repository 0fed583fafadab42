//! The FEN trail qipu computes for a game equals the one Fairy-Stockfish
//! (pyffish 0.0.90) gives when replaying its moves: every field, clocks
//! included. `tests/data/fen-trail-pyffish.txt.gz` is written by
//! `scripts/gen-fen-fixture.py` from the first 300 games of
//! `fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn`.

use crate::common;

use std::process::Command;

#[test]
fn fen_trails_equal_pyffish() {
    let text = common::read_gz("fen-trail-pyffish.txt.gz");
    let expected: Vec<(usize, usize, &str)> = common::data_lines(&text)
        .map(|(_, l)| {
            let mut f = l.splitn(3, ';');
            let game = f.next().unwrap().parse().unwrap();
            let ply = f.next().unwrap().parse().unwrap();
            (game, ply, f.next().unwrap())
        })
        .collect();
    assert!(expected.len() > 20_000);
    let out = Command::new(env!("CARGO_BIN_EXE_qipu"))
        .args(["fen", "--format", "csv", "--notation", "uci"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    let ours: Vec<(usize, usize, &str)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            // source,index,ply,move,fen,side,result
            let mut f = l.split(',');
            let _source = f.next();
            let game = f.next().unwrap().parse().unwrap();
            let ply = f.next().unwrap().parse().unwrap();
            let _mv = f.next();
            (game, ply, f.next().unwrap())
        })
        .filter(|&(game, _, _)| game < 300)
        .collect();
    assert_eq!(ours.len(), expected.len());
    for (a, b) in ours.iter().zip(&expected) {
        assert_eq!(a, b);
    }
}
