//! Fuzzes the XQF reader: no input may panic, hang or take more than
//! linear time. Every record read is replayed and its tree walked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;
use qipu::formats::xqf;

fn check(bytes: &[u8]) {
    if let Ok(record) = xqf::read(bytes) {
        let _ = replay(&record);
        let _ = record.tree().depth_first().count();
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    // Most mutated inputs fail the signature check; a second run with the
    // signature prepended reaches the header and move checks more often.
    if data.len() >= 3 {
        let mut prefixed = Vec::with_capacity(data.len() + 2);
        prefixed.extend_from_slice(b"XQ");
        prefixed.extend_from_slice(data);
        check(&prefixed);
    }
});
