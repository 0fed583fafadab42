//! ECCO classification of real master games: the 1,391 games of
//! `fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn`, read and resolved
//! beforehand, so that only the classification is timed: from the moves
//! (mirroring, keys of the first 20 plies, the table) and from the keys.
//!
//! Run with `cargo bench --bench ecco`; the throughput is in games/s.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qipu::analysis::ecco;
use qipu::formats::pgn;
use qipu::record::replay;
use qipu::{Move, Position};

fn games() -> Vec<Vec<Move>> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn"
    ))
    .expect("fixture");
    pgn::read(&text)
        .iter()
        .filter_map(|r| replay::opening(r, ecco::PLIES))
        .filter(|(start, _)| *start == Position::start())
        .map(|(_, moves)| moves)
        .collect()
}

fn bench(c: &mut Criterion) {
    let games = games();
    let start = Position::start();
    let keys: Vec<_> = games.iter().map(|m| ecco::opening_keys(&start, m)).collect();
    let mut group = c.benchmark_group("ecco");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("classify (moves)", |b| {
        b.iter(|| games.iter().filter(|m| ecco::classify(&start, m).is_some()).count())
    });
    group.bench_function("classify_keys", |b| {
        b.iter(|| keys.iter().map(|k| ecco::classify_keys(k).code.len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
