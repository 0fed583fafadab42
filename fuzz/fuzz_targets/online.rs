//! Fuzzes the QQ象棋 `.che`, 中游 `.ccm` and 联众 `.chn` readers, and the
//! bare UBB move list's: no input
//! may panic, hang or take more than linear time. Each reader runs on the
//! input alone and behind what its detector looks for first (a count of
//! moves, the byte `01`, a 188-byte header); every record read is
//! replayed, and a file its detector claims must read or fail with an
//! offset within it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;
use qipu::formats::online::{OnlineError, ccm, che, chn, ubb};
use qipu::record::Record;

fn check(bytes: &[u8], read: fn(&[u8]) -> Result<Record, OnlineError>) {
    match read(bytes) {
        Ok(record) => {
            let _ = replay(&record);
        }
        Err(e) => assert!(e.offset <= bytes.len(), "{e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    check(data, che::read);
    check(data, ccm::read);
    check(data, chn::read);
    check(data, ubb::read);
    let mut counted = b"1 1 ".to_vec();
    counted.extend_from_slice(data);
    check(&counted, che::read);
    let mut first = vec![1u8];
    first.extend_from_slice(data);
    check(&first, ccm::read);
    let mut headed = vec![0u8; chn::HEADER_LEN];
    headed.extend_from_slice(data);
    check(&headed, chn::read);
    if let Ok(parsed) = qipu::formats::read(&headed, None) {
        for record in &parsed.records {
            let _ = replay(record);
        }
    }
});
