//! Random games from the start position and from sparse setups: the
//! incremental Zobrist hash equals the hash computed from scratch, FEN
//! round-trips, undo restores every position, and no legal move leaves the
//! mover's king attacked.

use crate::common::Rng;
use qipu::{Color, Position, Setup, zobrist};

fn playout(start: &Position, rng: &mut Rng, max_plies: usize) -> usize {
    let mut pos = start.clone();
    let mut undos = Vec::new();
    let mut trail = vec![pos.clone()];
    for _ in 0..max_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            assert!(pos.outcome().is_some());
            break;
        }
        let m = moves[rng.below(moves.len())];
        let mover = pos.turn();
        undos.push(pos.play(m).expect("a generated move is legal"));
        assert!(!pos.is_attacked(pos.king(mover), !mover), "{m} left the king attacked in {pos:?}");
        assert_eq!(pos.facing_kings_file(), None);
        assert_eq!(pos.is_check(), pos.is_attacked(pos.king(pos.turn()), !pos.turn()), "check after {m}");
        assert_eq!(pos.hash(), zobrist::hash_of(pos.board(), pos.turn()), "incremental hash after {m}");
        let again = Position::from_fen(&pos.fen()).expect("written FEN reads back");
        assert_eq!(again, pos, "FEN round trip of {}", pos.fen());
        trail.push(pos.clone());
    }
    let plies = undos.len();
    while let Some(u) = undos.pop() {
        pos.undo(u);
        assert_eq!(&pos, &trail[undos.len()], "undo");
    }
    plies
}

#[test]
fn random_games_from_the_start() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let plies: usize = (0..60).map(|_| playout(&Position::start(), &mut rng, 200)).sum();
    assert!(plies > 5_000);
}

#[test]
fn random_games_from_sparse_setups() {
    let mut rng = Rng(0x0dd_ba11_cafe_f00d);
    let start = Setup::start();
    let mut games = 0;
    while games < 200 {
        // Keep each non-king piece of the start position with probability 1/3.
        let mut setup = Setup::empty();
        for (sq, piece) in start.board.pieces() {
            if piece.role == qipu::Role::King || rng.below(3) == 0 {
                setup.board.put(sq, piece);
            }
        }
        setup.turn = if rng.below(2) == 0 { Color::Red } else { Color::Black };
        // Move the kings to random palace points.
        for color in Color::ALL {
            let king = setup.board.find(qipu::Piece::new(color, qipu::Role::King)).next().unwrap();
            let palace: Vec<_> = qipu::Square::all()
                .filter(|s| s.in_palace(color) && setup.board.piece_at(*s).is_none())
                .collect();
            let to = palace[rng.below(palace.len())];
            let k = setup.board.remove(king).unwrap();
            setup.board.put(to, k);
        }
        if let Ok(pos) = Position::from_setup(setup) {
            playout(&pos, &mut rng, 80);
            games += 1;
        }
    }
}

#[test]
fn illegal_moves_are_refused() {
    let pos = Position::start();
    let legal = pos.legal_moves();
    let mut refused = 0;
    for from in qipu::Square::all() {
        for to in qipu::Square::all() {
            let m = qipu::Move::new(from, to);
            assert_eq!(pos.is_legal(m), legal.contains(&m));
            if !legal.contains(&m) {
                let mut p = pos.clone();
                assert!(p.play(m).is_err());
                assert_eq!(p, pos);
                refused += 1;
            }
        }
    }
    assert_eq!(refused, 90 * 90 - 44);
}

#[test]
fn single_move_legality_agrees_with_generation() {
    // Positions along random games; every move from every own piece to every point.
    let mut rng = Rng(0x1e9a_1177_0000_0003);
    let mut checked = 0;
    for _ in 0..20 {
        let mut pos = Position::start();
        for _ in 0..150 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            for from in pos.board().squares_of(pos.turn()) {
                for to in qipu::Square::all() {
                    let m = qipu::Move::new(from, to);
                    assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.fen());
                    checked += 1;
                }
            }
            let _ = pos.play_unchecked(legal[rng.below(legal.len())]);
        }
    }
    assert!(checked > 1_000_000);
}
