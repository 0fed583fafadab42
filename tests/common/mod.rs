//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::io::Read;

/// Reads a gzip-compressed text file from `tests/data`.
pub fn read_gz(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).expect("gzip text");
    text
}

/// The data lines of a fixture (no `#` comments, no blank lines), with
/// their 1-based line numbers.
pub fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
}

/// The FENs of the move-generation fixture.
pub fn movegen_fens() -> Vec<String> {
    let text = read_gz("movegen-pyffish.txt.gz");
    data_lines(&text).map(|(_, l)| l.split(';').next().expect("FEN").to_string()).collect()
}

/// The distinct FENs of the WXF notation fixture (positions rich in tandem
/// pieces and pawn files).
pub fn notation_fens() -> Vec<String> {
    let text = read_gz("notation-pyffish-wxf.txt.gz");
    let mut fens: Vec<String> =
        data_lines(&text).map(|(_, l)| l.split(';').next().expect("FEN").to_string()).collect();
    fens.dedup();
    fens
}
