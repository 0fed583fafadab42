//! Differential test against Fairy-Stockfish (through pyffish).
//!
//! `tests/data/movegen-pyffish.txt.gz` is written by
//! `scripts/gen-movegen-fixture.py`: positions from random games from the
//! start position and from random endgame setups, each with whether pyffish
//! finds the side to move in check and pyffish's sorted legal moves in
//! lower-case 0-based ICCS. For every position qipu must give the same
//! moves, the same check status, and report checkmate or stalemate exactly
//! where pyffish has no legal move.

use crate::common;

use qipu::{Outcome, Position};

struct Expected {
    line: usize,
    fen: String,
    check: bool,
    moves: Vec<String>,
}

fn fixture() -> Vec<Expected> {
    let text = common::read_gz("movegen-pyffish.txt.gz");
    common::data_lines(&text)
        .map(|(line, l)| {
            let mut fields = l.split(';');
            let (fen, status, moves) = (fields.next(), fields.next(), fields.next());
            let (Some(fen), Some(status), Some(moves), None) = (fen, status, moves, fields.next()) else {
                panic!("line {line}: expected FEN;status;moves, got {l:?}");
            };
            Expected {
                line,
                fen: fen.to_string(),
                check: match status {
                    "check" => true,
                    "-" => false,
                    other => panic!("line {line}: bad status {other:?}"),
                },
                moves: moves.split_ascii_whitespace().map(String::from).collect(),
            }
        })
        .collect()
}

#[test]
fn legal_moves_agree_with_fairy_stockfish() {
    let cases = fixture();
    assert!(cases.len() >= 20_000, "only {} positions in the fixture", cases.len());
    let (mut mates, mut stalemates, mut checks, mut moves) = (0, 0, 0, 0);
    for case in &cases {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        let mut ours: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        ours.sort();
        assert_eq!(ours, case.moves, "line {}: legal moves of {}", case.line, case.fen);
        // Single-move legality agrees with pyffish for every move of every own piece.
        for from in pos.board().squares_of(pos.turn()) {
            for to in qipu::Square::all() {
                let m = qipu::Move::new(from, to);
                let listed = case.moves.binary_search(&m.to_string()).is_ok();
                assert_eq!(pos.is_legal(m), listed, "line {}: is_legal({m}) in {}", case.line, case.fen);
                if to.index() % 7 == 0 {
                    // A sample of the reasons: present exactly for the illegal moves.
                    assert_eq!(pos.illegality(m).is_none(), listed, "line {}: illegality({m})", case.line);
                }
            }
        }
        assert_eq!(pos.is_check(), case.check, "line {}: check status of {}", case.line, case.fen);
        let outcome = pos.outcome();
        if case.moves.is_empty() {
            match outcome {
                Some(Outcome::Checkmate { winner }) => {
                    assert!(case.check, "line {}: checkmate without check", case.line);
                    assert_eq!(winner, !pos.turn());
                    mates += 1;
                }
                Some(Outcome::Stalemate { winner }) => {
                    assert!(!case.check, "line {}: stalemate in check", case.line);
                    assert_eq!(winner, !pos.turn());
                    stalemates += 1;
                }
                None => panic!("line {}: no legal moves but no outcome in {}", case.line, case.fen),
            }
            assert!(pos.is_checkmate() || pos.is_stalemate());
        } else {
            assert_eq!(outcome, None, "line {}", case.line);
            assert!(!pos.is_checkmate() && !pos.is_stalemate());
        }
        checks += case.check as usize;
        moves += case.moves.len();
    }
    // The fixture must exercise the terminal cases, not only ordinary positions.
    assert!(mates >= 50, "{mates} checkmates");
    assert!(stalemates >= 20, "{stalemates} stalemates");
    assert!(checks >= 1_000, "{checks} checks");
    assert!(moves >= 500_000, "{moves} moves");
}
