//! Fuzzes the piece-by-piece reader with tiny heads and pieces, so that
//! piece boundaries fall inside characters, lines, comments, tags, blocks,
//! index entries and records: it must not panic, and it must give exactly
//! the records of reading the whole input at once on UTF-8 PGN, DhtmlXQ,
//! EPD, UCI, WXF and plain text, and on CBL libraries (the error too when a library cannot be
//! read). The input is also read behind each library signature, so that
//! mutated inputs reach the index and the compressed-library readers.
//! JSON lines longer than the head are read as they come. The input is
//! read cut short too (as a truncated gzip file is, at a place its first
//! byte picks): the reading must end with an error, whatever the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::formats::{self, ccbridge, detect::Format, stream};
use qipu::record::RecordBuilder;

fuzz_target!(|data: &[u8]| {
    let (head, piece) = match data.first() {
        Some(&b) => (8 + (b as usize % 56), 1 + (b as usize % 13)),
        None => (8, 1),
    };
    let compressed: Vec<u8> = [&ccbridge::COMPRESSED_MAGIC[..], &ccbridge::COMPRESSED_FORMAT.to_le_bytes()].concat();
    for magic in [&b""[..], &ccbridge::LIBRARY_MAGIC[..], &compressed] {
        check(&[magic, data].concat(), head, piece);
    }
    let at = data.len() * data.first().map_or(0, |&b| b as usize) / 255;
    for whole in [false, true] {
        let source = Cut { bytes: &data[..at], whole };
        let read = stream::split_sized(source, None, head, piece)
            .and_then(|split| stream::read_split(split, &mut RecordBuilder::default(), |_| {}));
        assert!(read.is_err(), "read cut short without an error");
    }
});

/// `bytes`, then an error that the data is cut short.
struct Cut<'a> {
    bytes: &'a [u8],
    whole: bool,
}

impl std::io::Read for Cut<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.bytes.is_empty() {
            let message = "cut short".to_string();
            return Err(stream::CutShort { whole: self.whole, message }.into_io());
        }
        self.bytes.read(buf)
    }
}

/// Reads `bytes` a piece at a time and whole, and compares what they give.
fn check(bytes: &[u8], head: usize, piece: usize) {
    let mut streamed = Vec::new();
    let read = stream::split_sized(bytes, None, head, piece).and_then(|split| {
        stream::read_split(split, &mut RecordBuilder::default(), |g| streamed.push(g))
    });
    let whole = formats::read(bytes, None);
    let utf8 = std::str::from_utf8(bytes).is_ok() && !bytes.starts_with(&[0xEF, 0xBB, 0xBF]);
    match (&whole, &read) {
        (Ok(whole), Ok(read)) if whole.format == read.format => {
            if whole.format == Format::Cbl || utf8 && matches!(whole.format, Format::Pgn | Format::Dhtmlxq | Format::Epd | Format::Uci | Format::Wxf | Format::Text) {
                assert_eq!(streamed, whole.records);
            }
        }
        (Ok(whole), read) if whole.format == Format::Cbl => panic!("whole: a library, streamed: {read:?}"),
        (Err(whole), read) if whole.format == Format::Cbl => {
            assert_eq!(read.as_ref().map_err(|e| &e.reason).err(), Some(&whole.reason));
        }
        _ => {}
    }
}
