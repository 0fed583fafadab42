//! qipu's ECCO codes against xqbase's classifier on games it has never
//! seen: `tests/data/ecco-xqbase.txt.gz` holds games from the standard
//! start made by `examples/ecco_walk.rs` (every code's lines, their
//! neighbours, random games), each line the first 20 plies in WXF as the
//! classifier reads them and the code xqbase's classifier (as vschess
//! implements it) gives; `scripts/gen-ecco-fixture.sh` writes it.
//!
//! `QIPU_ECCO_XQBASE=FILE` reads another file of the same lines (plain or
//! gzip), for studying a larger set; the differences are then listed by
//! class on standard error.

use crate::common;

use std::collections::BTreeMap;
use std::io::Read;

use qipu::Position;
use qipu::analysis::ecco;
use qipu::notation::wxf;

/// Games where qipu and xqbase's classifier are known to differ: the moves,
/// qipu's code and xqbase's. In each, xqbase's code contradicts the
/// published table and qipu follows the table; the generator makes each
/// kind many times (docs/guide.md gives the counts), the fixture keeps one.
const EXCEPTIONS: &[(&str, &str, &str)] = &[
    // A scan of one side's moves reaches the end of the 20 plies (or, in
    // the 屏风马 subgroup, Red's tenth move, which it never reads) without
    // a move that ends it, and returns a fixed code that forgets what it
    // found: here 马八进七 (C01), after which Red plays only moves the scan
    // passes over, gives C00.
    ("C2.5N8+7P7+1P3+1N8+7N2+3P7+1B3+5P3+1P7+1P3+1N3-5P7+1P1+1N2+3N7-8P3+1C8.6P3+1R9+2", "C01", "C00"),
    // The same in the 后补列炮 scan: 车一平二 found, D50 returned (D50 is
    // 1. 炮二平五，炮２平５; this game is 1. …，马８进７ … 炮２平５).
    ("C2.5N8+7P3+1C2.5P7+1N7-8P3+1C5.7P3+1B3+5P7+1C8.9N8+7R9+1P3+1N8+7N2+3R9.8R1.2A4+5", "D52", "D50"),
    // The same in the 反宫马 scan: 马８进７ found, B30 returned.
    ("C2.5N2+3P3+1C8.6P3+1N8+7P7+1A6+5N8+7B7+9P3+1P5+1P7+1C6-2N2+3C6+2P7+1R1.2P3+1P1+1", "B31", "B30"),
    // The same in Black's scan after 1. …，马８进７: 炮８平９ found, B05 returned.
    ("C2.5N8+7N2+3C8.9N8+7P3+1P3+1P7+1P3+1P3+1P3+1P3+1P3+1P3+1P3+1P3+1P3+1P3+1R9+2R9.8", "B20", "B05"),
    // The same in the 巡河炮 scan: 象７进５ found, C80 returned.
    ("C2.5N8+7P7+1N2+3P7+1P7+1C8+2B7+5C8+2P7+1P7.8P7+1R1+1P3+1A6+5P3+1P5+1P3+1N8+9P3+1", "C81", "C80"),
    // The same after 车二进四 (C15): the scan runs out into the 横车 one,
    // which returns C10.
    ("C2.5N8+7N2+3N2+3R1.2C2+7R2+4B7+9P3+1P7+1P3+1B3+5P7+1A6+5P3+1R1.2P3+1A5-6P3+1C8.6", "C15", "C10"),
    // C70 (卒３进１ after 炮八平七): a 卒７进１ after it makes xqbase forget
    // the 卒３进１ and, Red having no 兵七进一, return C60, which gives way
    // to C70 by the table.
    ("C2.5N8+7N2+3N2+3R1.2P3+1R2+6P7+1N8+9B7+5C8.7P3+1A6+5P3+1P1+1P7+1R2-1P7+1P1+1P7+1", "C70", "C60"),
    // 8. 兵七进一 … 9. 兵七进一, the same pawn again: xqbase returns C25,
    // whose lines push both the third and the seventh pawn.
    ("C2.5N8+7N2+3R9.8R1.2P7+1R2+6N2+3N8+7P3+1R9+1C2+1R2-2B3+5P7+1P5+1P7+1N7+8N7+6C8.9", "C24", "C25"),
    // 炮８进４ (B07) and then the same cannon 炮８平９: xqbase reads 三步虎,
    // whose opening allows no 炮８进４ before 炮８平９.
    ("C2.5N8+7P1+1C8+4C8-1C8.9P9+1R1+1N2+1", "B07", "B20"),
];

/// The fixture's text, or the file `QIPU_ECCO_XQBASE` names.
fn fixture() -> String {
    let Ok(path) = std::env::var("QIPU_ECCO_XQBASE") else { return common::read_gz("ecco-xqbase.txt.gz") };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut text = String::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).expect("gzip text");
        text
    } else {
        String::from_utf8(bytes).expect("UTF-8")
    }
}

/// The moves of a line's WXF text (four characters a move), replayed from
/// the standard start.
fn replay(text: &str) -> Vec<qipu::Move> {
    let mut pos = Position::start();
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .filter(|w| !w.trim().is_empty())
        .map(|w| {
            let read = wxf::parse(w.trim()).unwrap_or_else(|e| panic!("{text}: {w}: {e}"));
            let m = read.resolve(&pos).unwrap_or_else(|e| panic!("{text}: {w}: {e}"));
            pos.play_unchecked(m);
            m
        })
        .collect()
}

#[test]
fn codes_agree_with_xqbase_s_classifier() {
    let text = fixture();
    let mut games = 0;
    let mut excepted = Vec::new();
    let mut differ: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for (_, line) in common::data_lines(&text) {
        let mut fields = line.split('\t');
        let (Some(moves), Some(xqbase)) = (fields.next(), fields.next()) else { panic!("{line}") };
        let qipu = ecco::classify(&Position::start(), &replay(moves)).expect("standard start").code;
        games += 1;
        if EXCEPTIONS.contains(&(moves, qipu, xqbase)) {
            excepted.push(moves);
        } else if qipu != xqbase {
            differ.entry((qipu, xqbase)).or_default().push(line);
        }
    }
    let total: usize = differ.values().map(Vec::len).sum();
    let mut classes: Vec<_> = differ.iter().collect();
    classes.sort_by_key(|(_, lines)| std::cmp::Reverse(lines.len()));
    let all = std::env::var_os("QIPU_ECCO_XQBASE").is_some();
    for ((qipu, xqbase), lines) in &classes {
        eprintln!("{} qipu {qipu} xqbase {xqbase}", lines.len());
        for line in lines.iter().take(if all { usize::MAX } else { 3 }) {
            eprintln!("    {qipu}\t{line}");
        }
    }
    eprintln!("{games} games, {total} differ (and {} listed exceptions)", excepted.len());
    assert!(games >= 1000, "{games} games");
    assert_eq!(total, 0, "{total} of {games} games differ from xqbase's classifier");
    if !all {
        // Each listed exception is in the fixture and still differs so.
        assert_eq!(excepted.len(), EXCEPTIONS.len(), "exceptions found: {excepted:?}");
    }
}
