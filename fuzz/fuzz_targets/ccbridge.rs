//! Fuzzes the 象棋桥 readers: CBR and CBL on the input and on the input
//! behind each signature (so that mutated inputs reach the record, index
//! and compressed-library readers), and CBF on the input read as text and
//! wrapped in its root element. Every record read is replayed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;
use qipu::formats::{cbf, ccbridge};

fuzz_target!(|data: &[u8]| {
    let compressed: Vec<u8> = [&b"CCBridge"[..], &21u32.to_le_bytes()].concat();
    for magic in [&b""[..], &ccbridge::RECORD_MAGIC[..], &ccbridge::LIBRARY_MAGIC[..], &compressed] {
        let bytes = [magic, data].concat();
        if let Ok(record) = ccbridge::read_cbr(&bytes) {
            let _ = replay(&record);
        }
        if let Ok(library) = ccbridge::read_cbl(&bytes) {
            for record in library.records.iter().flatten() {
                let _ = replay(record);
            }
        }
    }
    let text = String::from_utf8_lossy(data);
    let wrapped = format!("<ChineseChessRecord Version=\"1.0\">{text}</ChineseChessRecord>");
    for text in [text.as_ref(), wrapped.as_str()] {
        if let Ok(record) = cbf::read(text) {
            let _ = replay(&record);
        }
    }
});
