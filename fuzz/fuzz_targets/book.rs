//! Fuzzes ElephantEye book reading: the input is a BOOK.DAT. Probing it in
//! the start position and in a middlegame may fail (a length that is no
//! whole number of records) but never panics; every move it gives is legal
//! there; a book of whole records reads back to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::Position;
use qipu::book::eleeye;

fuzz_target!(|data: &[u8]| {
    let middlegame = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b";
    for pos in [Position::start(), Position::from_fen(middlegame).unwrap()] {
        match eleeye::probe(&mut std::io::Cursor::new(data), &pos) {
            Ok(moves) => {
                assert!(data.len() % 8 == 0);
                assert!(moves.iter().all(|b| pos.is_legal(b.m)));
                assert!(moves.windows(2).all(|w| w[0].weight >= w[1].weight));
            }
            Err(_) => assert!(data.len() % 8 != 0),
        }
    }
    if let Ok(records) = eleeye::read_all(&mut &data[..]) {
        assert_eq!(eleeye::write(&records), data);
    }
});
