//! Times, on one thread, reading a file, reading and replaying it, and
//! replaying records already read:
//! `cargo run --release --example parse_only -- FILE`.
use qipu::analysis::replay::replay;
use qipu::formats::read_in_batches;

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let bytes = std::fs::read(&path).unwrap();
    let t = std::time::Instant::now();
    let mut n = 0;
    read_in_batches(&bytes, None, 128, |_, _, r| n += r.len()).unwrap();
    eprintln!("{n} games read in {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let mut plies = 0;
    read_in_batches(&bytes, None, 128, |_, _, r| {
        plies += r.iter().map(|record| replay(record).moves.len()).sum::<usize>();
    })
    .unwrap();
    eprintln!("{n} games, {plies} plies read and replayed in {:?}", t.elapsed());
    let records = qipu::formats::read(&bytes, None).unwrap().records;
    let t = std::time::Instant::now();
    let plies: usize = records.iter().map(|record| replay(record).moves.len()).sum();
    eprintln!("{n} games, {plies} plies replayed (already read) in {:?}", t.elapsed());
}
