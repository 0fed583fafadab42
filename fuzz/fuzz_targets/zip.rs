//! Fuzzes zip archives: any bytes read as an archive named `*.zip` (a
//! mutated archive, nested ones inside) must not panic, hang or grow
//! without bound, and the batch must account for every member.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipu::batch::{self, Batch, Checker, Event};

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("qipu-fuzz-{}.zip", std::process::id()));
    std::fs::write(&path, data).expect("a scratch file");
    let inputs = batch::expand(&[path.clone()]).inputs;
    let mut done = 0;
    Batch::new()
        .threads(1)
        .run(&inputs, Checker::default, |_, event| {
            if let Event::Done = event {
                done += 1;
            }
            Ok::<(), ()>(())
        })
        .expect("the sink never fails");
    assert_eq!(done, inputs.len(), "every input is accounted for");
    let _ = std::fs::remove_file(&path);
});
