//! Fuzzes the DhtmlXQ reader on any text (bytes read as UTF-8, lossily),
//! with a `[DhtmlXQ]` opening put in front half of the time so that most
//! inputs reach the tag parser; every record is replayed, written back as
//! DhtmlXQ and read again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;
use qipu::formats::dhtmlxq;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let prefixed = format!("[DhtmlXQ]{text}");
    for text in [text.as_ref(), prefixed.as_str()] {
        for record in dhtmlxq::read(text) {
            let _ = replay(&record);
            if let Ok(block) = dhtmlxq::write(&record) {
                let _ = dhtmlxq::read(&block);
            }
        }
    }
});
