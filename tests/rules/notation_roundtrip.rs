//! Write -> parse -> resolve gives back the same move, for every legal move
//! of every position of the move-generation fixture and of the WXF notation
//! fixture (many tandem pieces and pawn files), in every notation and style.

use crate::common;

use qipu::Position;
use qipu::notation::{chinese, iccs, wxf};

#[test]
fn every_legal_move_round_trips_in_every_notation() {
    let mut moves = 0;
    let mut failures = Vec::new();
    for fen in common::movegen_fens().into_iter().chain(common::notation_fens()) {
        let pos = Position::from_fen(&fen).unwrap();
        for &m in pos.legal_moves().iter() {
            moves += 1;
            let texts = [
                ("chinese", chinese::write(&pos, m, chinese::Style::Simplified).unwrap()),
                ("chinese-traditional", chinese::write(&pos, m, chinese::Style::Traditional).unwrap()),
                ("wxf", wxf::write(&pos, m).unwrap()),
                ("iccs", iccs::write(m, iccs::Style::Iccs)),
                ("uci", iccs::write(m, iccs::Style::Uci)),
            ];
            for (style, text) in texts {
                let back = match style {
                    "chinese" | "chinese-traditional" => chinese::parse(&text).map(|d| d.resolve(&pos)),
                    "wxf" => wxf::parse(&text).map(|d| d.resolve(&pos)),
                    _ => iccs::parse(&text).map(|d| d.resolve(&pos)),
                };
                if back != Ok(Ok(m)) && failures.len() < 30 {
                    failures.push(format!("{fen}: {m} as {style} {text:?} reads back as {back:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first:\n{}", failures.len(), failures.join("\n"));
    assert!(moves > 800_000, "{moves} moves");
}
