//! Times reading, and reading plus replay, of a file on one thread:
//! `cargo run --release --example parse_only -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let bytes = std::fs::read(&path).unwrap();
    let t = std::time::Instant::now();
    let mut n = 0;
    qipu::formats::read_in_batches(&bytes, None, 4096, |_, _, r| n += r.len()).unwrap();
    eprintln!("{n} games read in {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let mut plies = 0;
    qipu::formats::read_in_batches(&bytes, None, 4096, |_, _, r| {
        for record in &r {
            plies += qipu::analysis::replay::replay(record).moves.len();
        }
    })
    .unwrap();
    eprintln!("{n} games, {plies} plies read and replayed in {:?}", t.elapsed());
}
