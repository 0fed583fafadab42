//! Mangled record files never panic the readers, the replay or the
//! writers: every input is read (maybe with warnings or illegal moves) or
//! reported unreadable.

use crate::common::Rng;
use qipu::formats::{self, json, pgn};
use qipu::notation::{Notation, chinese};
use qipu::record::replay::replay;

const SEED_TEXT: &str = "[Game \"Chinese Chess\"]\n[Event \"测试\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n{开局}\n1. 炮二平五 {中炮} 马８进７ (1... 象３进５ {x} (1... h9g7)) 2. 马二进三 $1 车９平８!? 3. C2.5 h7e7\n3... 车一平二 1-0\n\n吉林洪智  红先和  上海林宏敏\n  1. 兵七进一  炮２平３\n";

const PIECES: &[&str] = &[
    "{", "}", "(", ")", "[", "]", "\"", ";", "$", "1.", "...", "\n", " ", "炮", "五", "平", "进", "前",
    "1-0", "*", "=", "[FEN \"", "h2e2", "C2.5", "\r\n", "\u{FEFF}", "\u{3000}", "\\", "%", "½-½",
];

#[test]
fn mangled_records_are_read_or_reported() {
    let mut rng = Rng(0x00c0_ffee_1234_5678);
    let mut read = 0;
    // QIPU_ROBUST_ITERS raises the count for a longer hunt by hand.
    let iterations = std::env::var("QIPU_ROBUST_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(3_000);
    for _ in 0..iterations {
        let mut text: Vec<char> = SEED_TEXT.chars().collect();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(text.len() + 1);
            match rng.below(3) {
                0 if at < text.len() => {
                    text.remove(at);
                }
                _ => {
                    let piece: Vec<char> = PIECES[rng.below(PIECES.len())].chars().collect();
                    for (k, c) in piece.into_iter().enumerate() {
                        text.insert(at + k, c);
                    }
                }
            }
        }
        let text: String = text.into_iter().collect();
        let Ok(parsed) = formats::read(text.as_bytes(), None) else { continue };
        for record in &parsed.records {
            let written = pgn::write(record, Notation::Chinese(chinese::Style::Simplified));
            let _ = json::write(record);
            // What qipu writes, it reads back.
            assert!(!pgn::read(&written).is_empty(), "{written}");
            read += 1;
        }
    }
    assert!(read > 1_000, "{read}");
}

#[test]
fn binary_noise_is_unreadable_not_a_panic() {
    let mut rng = Rng(0x0bad_5eed_0000_0001);
    for len in [0, 1, 2, 3, 10, 100, 1000] {
        for _ in 0..50 {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            if let Ok(parsed) = formats::read(&bytes, None) {
                for record in &parsed.records {
                    let _ = replay(record);
                }
            }
        }
    }
}
