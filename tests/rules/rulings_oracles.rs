//! The repetition judge beside two independent judges: chessdb.cn's
//! `ccboard` and Fairy-Stockfish (through pyffish), whose verdicts are
//! committed in `tests/data/rulings/oracle-cycles.tsv` (generated cycles,
//! with FEN and moves) and `oracle-corpus.tsv` (every third occurrence on
//! the main lines of `../shared/corpus`: path, game and ply). See the
//! README beside them for how they were made.
//!
//! At every row qipu judges the same cycle the oracles were asked about,
//! under the Asian rules (the oracles' rules): the position at the row's
//! ply stands there for the third time, and the moves from its first
//! occurrence are judged. The counts of agreement are asserted, and every
//! row on which qipu differs from an oracle must fall into one of the
//! differences explained in `tests/data/rulings/README.md` ("qipu beside
//! the oracles"); the corpus part is skipped, with a message, when the
//! corpus is not beside the project.

use crate::common;

use std::collections::BTreeMap;

use qipu::rules::judge::{RuleSet, Verdict, Violation, judge};
use qipu::{Color, Move, Position};

const CYCLES: &str = include_str!("../data/rulings/oracle-cycles.tsv");
const CORPUS: &str = include_str!("../data/rulings/oracle-corpus.tsv");

/// The verdict in the fixtures' words (`draw`, `red-loses check`, …), or
/// `none` when the position at `ply` does not stand there for the third
/// time.
fn verdict_at(start: &Position, moves: &[Move], ply: usize) -> String {
    ruling_at(start, moves, ply).0
}

/// The verdict at `ply` (as [`verdict_at`]) and the ruling's explanation.
fn ruling_at(start: &Position, moves: &[Move], ply: usize) -> (String, String) {
    let mut positions = vec![start.clone()];
    for &m in &moves[..ply] {
        let mut next = positions.last().unwrap().clone();
        next.play(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
        positions.push(next);
    }
    let now = &positions[ply];
    // Occurrences since the last capture (the clock counts plies since it).
    let since = ply.saturating_sub(now.halfmoves() as usize);
    let occurrences: Vec<usize> = (since..=ply).filter(|&p| positions[p].hash() == now.hash()).collect();
    if occurrences.len() != 3 {
        return ("none".into(), String::new());
    }
    let first = occurrences[0];
    let ruling = judge(RuleSet::Asian, &positions[first], &moves[first..ply], first)
        .expect("the position stands three times");
    (words(ruling.verdict, ruling.kind()), format!("{ruling} [{}]", positions[first].fen()))
}

fn words(verdict: Verdict, kind: Option<Violation>) -> String {
    match verdict {
        Verdict::Draw => "draw".into(),
        Verdict::Loses(color) => {
            let side = if color == Color::Red { "red" } else { "black" };
            let kind = match kind {
                Some(Violation::PerpetualCheck) => "check",
                Some(Violation::PerpetualChase) => "chase",
                other => panic!("an Asian ruling of {other:?}"),
            };
            format!("{side}-loses {kind}")
        }
    }
}

/// Agreement counts of one fixture: (rows, qipu = ccboard, qipu = pyffish,
/// oracles agree, qipu = both where they agree), and the rows where qipu
/// differs, by (qipu, ccboard, pyffish).
#[derive(Default, Debug)]
struct Tally {
    rows: usize,
    ccboard: usize,
    pyffish: usize,
    oracles_agree: usize,
    with_both: usize,
    differences: BTreeMap<(String, String, String), Vec<String>>,
}

impl Tally {
    fn add(&mut self, id: String, qipu: String, ccboard: &str, pyffish: &str) {
        self.rows += 1;
        self.ccboard += usize::from(qipu == ccboard);
        self.pyffish += usize::from(qipu == pyffish);
        if ccboard == pyffish {
            self.oracles_agree += 1;
            self.with_both += usize::from(qipu == ccboard);
        }
        if qipu != ccboard || qipu != pyffish {
            self.differences.entry((qipu, ccboard.into(), pyffish.into())).or_default().push(id);
        }
    }

    fn show(&self, name: &str) -> String {
        let mut s = format!(
            "{name}: {} rows; qipu = ccboard {}, qipu = pyffish {}; oracles agree {}, qipu with them {}\n",
            self.rows, self.ccboard, self.pyffish, self.oracles_agree, self.with_both
        );
        for ((q, c, p), ids) in &self.differences {
            let shown: Vec<&str> = ids.iter().take(6).map(String::as_str).collect();
            s += &format!(
                "  qipu {q:18} ccboard {c:18} pyffish {p:18} {:4}  {}\n",
                ids.len(),
                shown.join(" ")
            );
        }
        s
    }
}

fn rows(tsv: &str) -> impl Iterator<Item = Vec<&str>> {
    tsv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| l.split('\t').collect())
}

#[test]
fn generated_cycles_beside_the_oracles() {
    let mut tally = Tally::default();
    for row in rows(CYCLES) {
        let [id, _, _, fen, moves, ccboard, pyffish] = row[..] else { panic!("{row:?}") };
        let start = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
        let qipu = verdict_at(&start, &moves, moves.len());
        tally.add(id.into(), qipu, ccboard, pyffish);
    }
    let shown = tally.show("oracle-cycles.tsv");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), shown.as_bytes());
    assert_eq!(tally.rows, 1002, "{shown}");
    // Where the oracles agree, so does qipu; where they differ, qipu gives
    // one of their answers (README beside the fixtures: which, and why).
    assert_eq!((tally.oracles_agree, tally.with_both), (888, 888), "{shown}");
    assert!(tally.differences.keys().all(|(q, c, p)| q == c || q == p), "{shown}");
    assert_eq!((tally.ccboard, tally.pyffish), (936, 954), "{shown}");
}

#[test]
fn corpus_repetitions_beside_the_oracles() {
    let Some(corpus) = common::corpus("") else { return };
    let mut by_file: BTreeMap<&str, Vec<(usize, usize, &str, &str)>> = BTreeMap::new();
    for row in rows(CORPUS) {
        let [path, game, ply, _, ccboard, pyffish] = row[..] else { panic!("{row:?}") };
        by_file.entry(path).or_default().push((
            game.parse().unwrap(),
            ply.parse().unwrap(),
            ccboard,
            pyffish,
        ));
    }
    let mut tally = Tally::default();
    for (path, points) in by_file {
        let bytes = std::fs::read(corpus.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let parsed = qipu::formats::read(&bytes, None).unwrap_or_else(|e| panic!("{path}: {e}"));
        // The fixture numbers the games `qipu convert` writes: records that
        // are no game (an empty board: a title entry of a library) are not.
        let games: Vec<_> = parsed
            .records
            .iter()
            .map(qipu::record::replay::replay)
            .filter(|replayed| replayed.resolution.start.is_some())
            .collect();
        for (game, ply, ccboard, pyffish) in points {
            let replayed = &games[game - 1];
            let start = replayed.resolution.start.clone().expect("a start position");
            let (qipu, why) = ruling_at(&start, &replayed.moves, ply);
            if std::env::var_os("QIPU_SHOW_RULINGS").is_some() && (qipu != ccboard || qipu != pyffish) {
                eprintln!("{path}:{game}:{ply}\tqipu {qipu}\tccboard {ccboard}\tpyffish {pyffish}\t{why}");
            }
            tally.add(format!("{path}:{game}:{ply}"), qipu, ccboard, pyffish);
        }
    }
    let shown = tally.show("oracle-corpus.tsv");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), shown.as_bytes());
    assert_eq!(tally.rows, 3091, "{shown}");
    // Where the oracles agree, so does qipu but on one cycle (README beside
    // the fixtures); where they differ, qipu gives one of their answers.
    assert_eq!((tally.oracles_agree, tally.with_both), (3028, 3027), "{shown}");
    let against_both: Vec<&String> =
        tally.differences.iter().filter(|((q, c, p), _)| q != c && q != p).flat_map(|(_, ids)| ids).collect();
    assert_eq!(against_both, [AGAINST_BOTH], "{shown}");
    assert_eq!((tally.ccboard, tally.pyffish), (3068, 3049), "{shown}");
}

/// The one third occurrence of the corpus on which qipu rules otherwise
/// than both oracles: Red's rook goes e6-g6 and back, attacking Black's
/// unprotected horse each time (on g5, then on e4), and qipu rules Red's
/// perpetual chase. ccboard does not count the return to e6, the horse on
/// e4 being attacked already by Red's cannon on e1 (through Red's horse on
/// e3); Fairy-Stockfish's draw at this ply comes from its window (it asks
/// that the move into the first occurrence chase too). See the README
/// beside the fixtures: the rule books are with qipu (a piece chased "by
/// one piece or by several in turn"; the rook's attack did not exist
/// before its move, whatever the cannon attacked).
const AGAINST_BOTH: &str =
    "sg/hbsxcjp__cchess_qt/棋谱文件/棋谱研究/棋谱大全/对局/雷霆最新五大赛棋谱/第14届银荔杯.SG:3:65";
