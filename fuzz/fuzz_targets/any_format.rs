//! Fuzzes format detection and every reader: no input may panic, hang or
//! take more than linear time. Every record read is replayed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = qipu::formats::read(data, None) {
        for record in &parsed.records {
            let _ = replay(record);
        }
    }
});
