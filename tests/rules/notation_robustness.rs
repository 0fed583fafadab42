//! Arbitrary text never makes a notation reader panic: each input is read
//! and resolved, or rejected with an error.

use crate::common::Rng;
use qipu::Position;
use qipu::notation::{chinese, iccs, wxf};

const ALPHABET: &[&str] = &[
    "炮", "马", "車", "兵", "卒", "仕", "相", "帅", "将", "前", "中", "后", "一", "二", "三", "四", "五",
    "六", "七", "八", "九", "进", "退", "平", "上", "下", "１", "５", "９", "（", "）", "(", ")", "+", "-",
    ".", "=", "!", "?", "#", "C", "H", "R", "P", "K", "A", "E", "B", "N", "c", "p", "a", "e", "f", "m", "b",
    "0", "1", "2", "3", "5", "9", "x", " ", "Ｃ", "＋", "－", "＝", "é", "\u{0}", "h2", "e2", "-",
];

#[test]
fn random_text_is_read_or_rejected() {
    let positions = [
        Position::start(),
        Position::from_fen("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w").unwrap(),
        Position::from_fen("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b").unwrap(),
        Position::from_fen("3k5/9/9/9/9/9/9/R8/9/R3K4 w").unwrap(),
    ];
    let mut rng = Rng(0x0bad_c0de_1234_5678);
    let mut resolved = 0;
    for i in 0..200_000 {
        let len = 1 + rng.below(7);
        let text: String = (0..len).map(|_| ALPHABET[rng.below(ALPHABET.len())]).collect();
        let pos = &positions[i % positions.len()];
        if let Ok(d) = chinese::parse(&text) {
            resolved += d.resolve(pos).is_ok() as usize;
        }
        if let Ok(d) = wxf::parse(&text) {
            resolved += d.resolve(pos).is_ok() as usize;
        }
        if let Ok(m) = iccs::parse(&text) {
            resolved += m.resolve(pos).is_ok() as usize;
        }
    }
    assert!(resolved > 0, "{resolved}");
}

#[test]
fn mangled_moves_are_read_or_rejected() {
    let mut rng = Rng(0x5eed_0000_0000_0042);
    let fens = [qipu::fen::START, "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w", "4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b"];
    let (mut read, mut rejected) = (0, 0);
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        for &m in pos.legal_moves().iter() {
            for text in
                [chinese::write(&pos, m, chinese::Style::Simplified).unwrap(), wxf::write(&pos, m).unwrap()]
            {
                for _ in 0..200 {
                    let mut chars: Vec<&str> = text.split("").filter(|s| !s.is_empty()).collect();
                    let at = rng.below(chars.len() + 1);
                    let new = ALPHABET[rng.below(ALPHABET.len())];
                    match rng.below(3) {
                        0 if at < chars.len() => {
                            chars.remove(at);
                        }
                        1 if at < chars.len() => chars[at] = new,
                        _ => chars.insert(at, new),
                    }
                    let mangled: String = chars.concat();
                    let c = chinese::parse(&mangled).map(|d| d.resolve(&pos));
                    let w = wxf::parse(&mangled).map(|d| d.resolve(&pos));
                    let i = iccs::parse(&mangled).map(|d| d.resolve(&pos));
                    for r in [c.ok(), w.ok(), i.ok()] {
                        match r {
                            Some(Ok(m)) => {
                                assert!(pos.is_legal(m));
                                read += 1
                            }
                            _ => rejected += 1,
                        }
                    }
                }
            }
        }
    }
    assert!(read > 1_000 && rejected > 10_000, "read {read}, rejected {rejected}");
}
