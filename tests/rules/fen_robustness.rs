//! Mangled FENs never panic: each is read into a position or rejected with
//! an error that names what is wrong; clocks at their limits do not
//! overflow.

use crate::common::Rng;
use qipu::{FromFenError, Position};

const SEEDS: [&str; 4] = [
    qipu::fen::START,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "3k5/4P4/4P4/9/9/9/9/9/9/4K4 b - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/3K5 w",
];

const ALPHABET: &[u8] = b"kabnrcpehKABNRCPEH0123456789/ -wrbx\xe4\xb8\xad";

#[test]
fn mangled_fens_are_rejected_or_read() {
    let mut rng = Rng(0x00fe_110f_f00d);
    let (mut ok, mut bad) = (0, 0);
    for i in 0..50_000 {
        let mut bytes = SEEDS[i % SEEDS.len()].as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            match rng.below(3) {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 if at < bytes.len() => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
                _ => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        match Position::from_fen(&text) {
            Ok(pos) => {
                // A valid position is fully usable.
                let _ = pos.legal_moves();
                let _ = pos.outcome();
                assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
                ok += 1;
            }
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.starts_with("FEN") || matches!(e, FromFenError::Position(_)), "{msg}");
                assert!(!msg.is_empty());
                bad += 1;
            }
        }
    }
    assert!(ok > 300 && bad > 10_000, "ok {ok}, bad {bad}");
}

#[test]
fn clocks_at_their_limits_do_not_overflow() {
    let fen = format!("4k4/9/9/9/9/9/9/9/9/3K5 b - - {} {}", u32::MAX, u32::MAX);
    let mut pos = Position::from_fen(&fen).unwrap();
    let before = pos.clone();
    let m = pos.legal_moves()[0];
    let undo = pos.play_unchecked(m);
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (u32::MAX, u32::MAX));
    pos.undo(undo);
    assert_eq!(pos, before);
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 4294967296 1").is_err());
}
