//! Fuzzes the piece-by-piece reader with tiny heads and pieces, so that
//! piece boundaries fall inside characters, lines, comments and tags: it
//! must not panic, and on UTF-8 PGN it must give exactly the records of
//! reading the whole text at once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::formats::{self, detect::Format, stream};
use qipu::record::RecordBuilder;

fuzz_target!(|data: &[u8]| {
    let (head, piece) = match data.first() {
        Some(&b) => (8 + (b as usize % 56), 1 + (b as usize % 13)),
        None => (8, 1),
    };
    let mut streamed = Vec::new();
    let read = stream::split_sized(data, None, head, piece).and_then(|split| {
        stream::read_split(split, None, &mut RecordBuilder::default(), |g| streamed.push(g))
    });
    let utf8 = std::str::from_utf8(data).is_ok() && !data.starts_with(&[0xEF, 0xBB, 0xBF]);
    if let (Ok(formats::Read { format: Format::Pgn, .. }), true) = (&read, utf8)
        && let Ok(whole) = formats::read(data, None)
        && whole.format == Format::Pgn
    {
        assert_eq!(streamed, whole.records);
    }
});
