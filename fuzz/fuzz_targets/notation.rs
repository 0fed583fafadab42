//! Fuzzes the move notations: any text read as Chinese, WXF, ICCS or SAN
//! must not panic, in the start position and in a middlegame with tandem
//! pieces. A text that resolves to a legal move is written in every
//! notation, and each writing must resolve to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::notation::resolve_any as resolve;
use qipu::notation::Notation;
use qipu::notation::chinese::Style;
use qipu::Position;

const POSITIONS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
    "3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("fixed positions are legal");
        let Ok(m) = resolve(&pos, &text) else { continue };
        for notation in
            [Notation::Chinese(Style::Simplified), Notation::Chinese(Style::Traditional), Notation::Wxf, Notation::Iccs, Notation::Uci]
        {
            let written = notation.write(&pos, m).expect("a resolved move is legal");
            assert_eq!(resolve(&pos, &written), Ok(m), "{notation:?} {written}");
        }
    }
});
