//! For studying ECCO classification against other classifiers: prints, for
//! every game from the standard start, its `[ECCO]` tag, qipu's code, and
//! its first 20 plies in WXF, mirrored as the classifier reads them
//! (horse `N`, elephant `B`, as xqbase's tools write them), one game a line.
//!
//! `cargo run --release --example ecco_wxf -- FILE...`

mod ecco_common;

use qipu::analysis::ecco;
use qipu::formats;
use qipu::record::replay;

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("readable");
        let Ok(parsed) = formats::read(&bytes, None) else { continue };
        for record in &parsed.records {
            let Some((start, moves)) = replay::opening(record, ecco::PLIES) else { continue };
            let Some(found) = ecco::classify(&start, &moves) else { continue };
            let text = ecco_common::classifier_text(&moves);
            let tag = record.tag("ecco").map(str::trim).filter(|t| !t.is_empty()).unwrap_or("-");
            println!("{tag}\t{}\t{text}\t{path}", found.code);
        }
    }
}
