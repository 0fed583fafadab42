//! Fuzzes FEN reading: no text may panic. A position that reads is written
//! back and must read as the same position; its legal moves are generated
//! and each is played and taken back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_fen(&text) {
        let again = Position::from_fen(&pos.fen()).expect("a written FEN reads back");
        assert_eq!(again.fen(), pos.fen());
        let mut play = pos.clone();
        for m in pos.legal_moves().iter() {
            let undo = play.play_unchecked(*m);
            play.undo(undo);
        }
        assert_eq!(play.fen(), pos.fen());
    }
});
