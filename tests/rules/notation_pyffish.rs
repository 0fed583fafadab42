//! qipu reads the WXF that Fairy-Stockfish (pyffish 0.0.90) writes.
//!
//! `tests/data/notation-pyffish-wxf.txt.gz` (from
//! `scripts/gen-notation-fixture.py`) holds positions rich in tandem
//! pieces and pawn files, each with moves in ICCS and as pyffish writes
//! them in WXF. Every one must read back to the same move.
//!
//! Where Fairy-Stockfish's dialect differs from official WXF:
//! - it writes `=` for sideways moves (official: `.`);
//! - it numbers pawns instead of using `+`/`-` when three or more share a
//!   file, or when two files each hold two or more: `15=6` is the first
//!   (front) pawn on file 5, `26=5` the second on file 6 (official WXF:
//!   `P+.6`, `P5.6` for the middle, `6-.5` ...);
//! - with two of a kind on a file it writes the plain file (`R9-1`) unless
//!   the other piece could make the same step (official: always `R+`/`R-`).
//!
//! The official two-digit form `33.4` (the middle pawn of file 3 when two
//! files hold several) and Fairy-Stockfish's `33=4` (the third pawn of
//! file 3) are both read; when both readings are legal moves the move is
//! reported ambiguous rather than guessed. The test counts those cases.

use crate::common;

use qipu::notation::{ResolveError, iccs, wxf};
use qipu::{Move, Position};

#[test]
fn reads_fairy_stockfish_wxf() {
    let text = common::read_gz("notation-pyffish-wxf.txt.gz");
    let (mut ok, mut ambiguous, mut wrong) = (0, Vec::new(), Vec::new());
    let mut shapes = std::collections::BTreeMap::<String, usize>::new();
    for (line, l) in common::data_lines(&text) {
        let mut f = l.split(';');
        let (Some(fen), Some(uci), Some(text), None) = (f.next(), f.next(), f.next(), f.next()) else {
            panic!("line {line}: {l:?}");
        };
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {line}: {e}"));
        let expected: Move = iccs::parse(uci).unwrap().resolve(&pos).unwrap();
        let shape: String = text
            .chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    'D'
                } else if c.is_ascii_alphabetic() {
                    'L'
                } else {
                    c
                }
            })
            .collect();
        *shapes.entry(shape).or_default() += 1;
        match wxf::parse(text).unwrap_or_else(|e| panic!("line {line}: {e}")).resolve(&pos) {
            Ok(m) if m == expected => ok += 1,
            Err(ResolveError::Ambiguous { moves }) if moves.contains(&expected) => {
                // Only the documented conflict: `11`/`33` with three pawns on that
                // file and several on another file, two readings both legal.
                let b = text.as_bytes();
                assert!(b[0] == b[1] && (b[0] == b'1' || b[0] == b'3'), "line {line}: {text} ambiguous");
                assert_eq!(moves.len(), 2, "line {line}");
                let color = pos.turn();
                let file = qipu::File::from_number(color, b[0] - b'0').unwrap();
                let pawn = qipu::Piece::new(color, qipu::Role::Pawn);
                let on_file = pos.board().find(pawn).filter(|s| s.file() == file).count();
                let multi_files = qipu::File::ALL
                    .iter()
                    .filter(|&&f| pos.board().find(pawn).filter(|s| s.file() == f).count() >= 2)
                    .count();
                assert!(on_file == 3 && multi_files >= 2, "line {line}: {text} ambiguous in {fen}");
                ambiguous.push(format!("line {line}: {text} in {fen}: {moves:?}"))
            }
            other => wrong.push(format!("line {line}: {text} in {fen}: expected {expected}, got {other:?}")),
        }
    }
    eprintln!("{ok} read back, {} ambiguous, {} wrong; shapes {shapes:?}", ambiguous.len(), wrong.len());
    for a in ambiguous.iter().take(10) {
        eprintln!("  ambiguous: {a}");
    }
    assert!(wrong.is_empty(), "{} misread, first: {:#?}", wrong.len(), &wrong[..wrong.len().min(10)]);
    assert!(ok >= 90_000, "{ok}");
    // 181 of 92,602 at the time of writing; bounded so a change shows.
    assert!(ambiguous.len() < 250, "{} ambiguous", ambiguous.len());
}
