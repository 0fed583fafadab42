//! Fuzzes the 鹏飞 PFC and DHJHtmlXQ readers on any text (bytes read as
//! UTF-8, lossily), alone and behind an opening (`<n version="2">`,
//! `[DHJHtmlXQ]`) so that most inputs get past the root; every record
//! read is replayed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::record::replay::replay;
use qipu::formats::{dhtmlxq::dhj, pfc};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let tree = format!("<n version=\"2\" m=\"\">{text}");
    for text in [text.as_ref(), tree.as_str()] {
        if let Ok(record) = pfc::read(text) {
            let _ = replay(&record);
        }
    }
    let block = format!("[DHJHtmlXQ]{text}");
    for text in [text.as_ref(), block.as_str()] {
        for record in dhj::read(text) {
            let _ = replay(&record);
        }
    }
});
