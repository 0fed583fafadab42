//! Perft speed, one thread, leaves counted in bulk at the last ply.
//!
//! Run with `cargo bench --bench perft`; nodes/s = nodes / time. The
//! positions are the start position (depth 4: 3,290,240 nodes) and a
//! middlegame from the published perft set (cpw-2, depth 4: 1,339,047
//! nodes).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qipu::{Position, perft};

const CASES: [(&str, &str, u32, u64); 2] = [
    ("startpos", qipu::fen::START, 4, 3_290_240),
    (
        "middlegame-cpw2",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        4,
        1_339_047,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for (name, fen, depth, nodes) in CASES {
        let pos = Position::from_fen(fen).expect("valid FEN");
        assert_eq!(perft(&pos, depth), nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/depth{depth}"), |b| b.iter(|| perft(&pos, depth)));
    }
    group.finish();
}

fn bench_play_undo(c: &mut Criterion) {
    let pos = Position::start();
    let moves = pos.legal_moves();
    c.bench_function("play+undo/startpos-44-moves", |b| {
        let mut p = pos.clone();
        b.iter(|| {
            for &m in moves.iter() {
                let u = p.play_unchecked(m);
                p.undo(u);
            }
        })
    });
    c.bench_function("legal_moves/startpos", |b| b.iter(|| pos.legal_moves().len()));
}

criterion_group!(benches, bench_perft, bench_play_undo);
criterion_main!(benches);
