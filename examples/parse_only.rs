//! Times reading (no replay) of a file: `cargo run --release --example parse_only -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let bytes = std::fs::read(&path).unwrap();
    let t = std::time::Instant::now();
    let mut n = 0;
    qipu::formats::read_in_batches(&bytes, None, 4096, |_, _, r| n += r.len()).unwrap();
    eprintln!("{n} games read in {:?}", t.elapsed());
}
