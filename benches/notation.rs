//! Reading and writing moves: parse + resolve, and write, on the moves of
//! the first 1,000 games of `fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn`
//! (real master games), each move in the position where it was played.
//!
//! Run with `cargo bench --bench notation`; the throughput is in moves/s.
//! `legal_moves` on the same positions is measured as the yardstick.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qipu::notation::{chinese, iccs, wxf};
use qipu::{Move, Position};

struct Ply {
    pos: Position,
    m: Move,
    chinese: String,
    traditional: String,
    wxf: String,
    iccs: String,
}

fn plies() -> Vec<Ply> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn"
    ))
    .expect("fixture");
    let mut out = Vec::new();
    for game in text.split("[Event ").skip(1).take(1000) {
        let mut pos = Position::start();
        for word in game.lines().filter(|l| !l.starts_with('[')).flat_map(str::split_whitespace) {
            let Ok(mv) = iccs::parse(word) else { continue };
            let Ok(m) = mv.resolve(&pos) else { break };
            out.push(Ply {
                pos: pos.clone(),
                m,
                chinese: chinese::write(&pos, m, chinese::Style::Simplified).unwrap(),
                traditional: chinese::write(&pos, m, chinese::Style::Traditional).unwrap(),
                wxf: wxf::write(&pos, m).unwrap(),
                iccs: iccs::write(m, iccs::Style::Iccs),
            });
            let _ = pos.play_unchecked(m);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let plies = plies();
    let all = plies.len();
    let read_back = |f: &dyn Fn(&Ply) -> bool| plies.iter().filter(|p| f(p)).count();
    assert_eq!(read_back(&|p| chinese::parse(&p.chinese).map(|d| d.resolve(&p.pos)) == Ok(Ok(p.m))), all);
    assert!(plies.len() > 50_000, "{} plies", plies.len());
    let mut group = c.benchmark_group("notation-1000-games");
    group.throughput(Throughput::Elements(plies.len() as u64));
    group.sample_size(20);
    group.bench_function("chinese/parse+resolve", |b| {
        b.iter(|| {
            plies
                .iter()
                .filter(|p| matches!(chinese::parse(&p.chinese).map(|d| d.resolve(&p.pos)), Ok(Ok(m)) if m == p.m))
                .count()
        })
    });
    group.bench_function("chinese/parse", |b| {
        b.iter(|| plies.iter().filter(|p| chinese::parse(&p.chinese).is_ok()).count())
    });
    group.bench_function("chinese-traditional/parse+resolve", |b| {
        b.iter(|| {
            plies
                .iter()
                .filter(|p| matches!(chinese::parse(&p.traditional).map(|d| d.resolve(&p.pos)), Ok(Ok(m)) if m == p.m))
                .count()
        })
    });
    group.bench_function("wxf/parse+resolve", |b| {
        b.iter(|| {
            plies
                .iter()
                .filter(|p| matches!(wxf::parse(&p.wxf).map(|d| d.resolve(&p.pos)), Ok(Ok(m)) if m == p.m))
                .count()
        })
    });
    group.bench_function("iccs/parse+resolve", |b| {
        b.iter(|| {
            plies
                .iter()
                .filter(|p| matches!(iccs::parse(&p.iccs).map(|d| d.resolve(&p.pos)), Ok(Ok(m)) if m == p.m))
                .count()
        })
    });
    let mut buf = String::new();
    group.bench_function("chinese/write", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &plies {
                buf.clear();
                chinese::write_to(&p.pos, p.m, chinese::Style::Simplified, &mut buf).unwrap();
                n += buf.len();
            }
            n
        })
    });
    group.bench_function("wxf/write", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &plies {
                buf.clear();
                wxf::write_to(&p.pos, p.m, &mut buf).unwrap();
                n += buf.len();
            }
            n
        })
    });
    group.bench_function("yardstick/legal_moves", |b| {
        b.iter(|| plies.iter().map(|p| p.pos.legal_moves().len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
