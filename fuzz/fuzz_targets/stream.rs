//! Fuzzes the piece-by-piece reader with tiny heads and pieces, so that
//! piece boundaries fall inside characters, lines, comments and tags: it
//! must not panic, and on UTF-8 PGN it must give exactly the records of
//! reading the whole text at once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::formats::{self, detect::Format, stream};

fuzz_target!(|data: &[u8]| {
    let (head, piece) = match data.first() {
        Some(&b) => (8 + (b as usize % 56), 1 + (b as usize % 13)),
        None => (8, 1),
    };
    let mut streamed = Vec::new();
    let read = stream::read_stream_sized(data, None, 2, head, piece, |_, _, g| streamed.extend(g));
    let utf8 = std::str::from_utf8(data).is_ok() && !data.starts_with(&[0xEF, 0xBB, 0xBF]);
    if let (Ok((Format::Pgn, _)), true) = (&read, utf8)
        && let Ok(whole) = formats::read(data, None)
        && whole.format == Format::Pgn
    {
        assert_eq!(streamed, whole.records);
    }
});
