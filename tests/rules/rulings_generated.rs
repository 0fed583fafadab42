//! The repetition judge on generated cycles: random sparse positions in
//! which each side shuffles a piece there and back, judged as played, left
//! for right (mirrored) and with the colours exchanged (flipped). A ruling
//! must not depend on the wing or the side: the mirrored cycle gets the
//! same verdict, the flipped one the verdict with the colours exchanged,
//! under both rule sets.

use qipu::rules::judge::{RuleSet, Ruling, Verdict, judge};
use qipu::{Board, Color, Move, Piece, Position, Role, Setup, Square};

/// A small xorshift generator: the same cases on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal position: both kings and up to `extra` other pieces.
fn random_position(rng: &mut Rng, extra: usize) -> Option<Position> {
    let mut board = Board::empty();
    let palace = |color: Color, rng: &mut Rng| {
        let file = 3 + rng.below(3);
        let rank = rng.below(3);
        let rank = if color == Color::Red { rank } else { 9 - rank };
        Square::from_index(rank * 9 + file).unwrap()
    };
    board.put(palace(Color::Red, rng), Piece::new(Color::Red, Role::King));
    board.put(palace(Color::Black, rng), Piece::new(Color::Black, Role::King));
    let roles =
        [Role::Rook, Role::Rook, Role::Horse, Role::Cannon, Role::Pawn, Role::Advisor, Role::Elephant];
    for _ in 0..extra {
        let color = if rng.below(2) == 0 { Color::Red } else { Color::Black };
        let role = roles[rng.below(roles.len())];
        let square = Square::from_index(rng.below(90)).unwrap();
        if board.piece_at(square).is_none() {
            board.put(square, Piece::new(color, role));
        }
    }
    let turn = if rng.below(2) == 0 { Color::Red } else { Color::Black };
    Position::from_setup(Setup { board, turn, halfmoves: 0, fullmoves: 1 }).ok()
}

/// A four-ply cycle from `pos`: a move of each side and the two moves back,
/// none of them a capture, chosen at random among those that return.
fn random_cycle(rng: &mut Rng, pos: &Position) -> Option<[Move; 4]> {
    let quiet = |p: &Position| -> Vec<Move> {
        p.legal_moves().iter().copied().filter(|m| p.board().piece_at(m.to).is_none()).collect()
    };
    let mut fallback = None;
    for _ in 0..12 {
        let first = quiet(pos);
        if first.is_empty() {
            return None;
        }
        let a = first[rng.below(first.len())];
        let mut p1 = pos.clone();
        let _ = p1.play(a).ok()?;
        let second = quiet(&p1);
        if second.is_empty() {
            continue;
        }
        let b = second[rng.below(second.len())];
        let mut p2 = p1.clone();
        let _ = p2.play(b).ok()?;
        let back_a = Move::new(a.to, a.from);
        let back_b = Move::new(b.to, b.from);
        let mut p3 = p2.clone();
        if p3.board().piece_at(back_a.to).is_some() || p3.play(back_a).is_err() {
            continue;
        }
        if p3.board().piece_at(back_b.to).is_some() || p3.play(back_b).is_err() {
            continue;
        }
        if p3.hash() != pos.hash() || p3.legal_moves().is_empty() {
            continue;
        }
        // Cycles in which the piece moved could take something after the
        // reply are chases more often than not: preferred.
        let attacks = p2.legal_moves().iter().any(|m| m.from == a.to && p2.board().piece_at(m.to).is_some());
        if attacks {
            return Some([a, b, back_a, back_b]);
        }
        fallback.get_or_insert([a, b, back_a, back_b]);
    }
    fallback
}

fn transform(pos: &Position, moves: &[Move], flip: bool) -> (Position, Vec<Move>) {
    let map = |s: Square| if flip { s.flip_vertical() } else { s.flip_horizontal() };
    let mut board = Board::empty();
    for (sq, piece) in pos.board().pieces() {
        let piece = if flip { Piece::new(!piece.color, piece.role) } else { piece };
        board.put(map(sq), piece);
    }
    let turn = if flip { !pos.turn() } else { pos.turn() };
    let pos =
        Position::from_setup(Setup { board, turn, halfmoves: 0, fullmoves: 1 }).expect("a mirror image");
    (pos, moves.iter().map(|m| Move::new(map(m.from), map(m.to))).collect())
}

/// The ruling with the colours exchanged (what the flipped cycle must get).
fn exchanged(r: &Ruling) -> (Verdict, [Option<&'static str>; 2]) {
    let verdict = match r.verdict {
        Verdict::Draw => Verdict::Draw,
        Verdict::Loses(c) => Verdict::Loses(!c),
    };
    let kinds = [r.side(Color::Black), r.side(Color::Red)].map(|s| s.violation.map(|v| v.as_str()));
    (verdict, kinds)
}

fn summary(r: &Ruling) -> (Verdict, [Option<&'static str>; 2]) {
    (r.verdict, [r.side(Color::Red), r.side(Color::Black)].map(|s| s.violation.map(|v| v.as_str())))
}

#[test]
fn rulings_do_not_depend_on_the_wing_or_the_side() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut judged = 0;
    let mut kinds = std::collections::BTreeMap::new();
    for _ in 0..40_000 {
        if judged >= 3000 {
            break;
        }
        let extra = 2 + rng.below(8);
        let Some(pos) = random_position(&mut rng, extra) else { continue };
        let Some(cycle) = random_cycle(&mut rng, &pos) else { continue };
        let moves: Vec<Move> = cycle.iter().chain(&cycle).copied().collect();
        for rules in [RuleSet::Asian, RuleSet::Chinese] {
            let ruling = judge(rules, &pos, &moves, 0).expect("the cycle repeats");
            assert_eq!(ruling.plies, [0, 4, 8]);
            let (mirror, mirror_moves) = transform(&pos, &moves, false);
            let mirrored = judge(rules, &mirror, &mirror_moves, 0).expect("the mirrored cycle repeats");
            assert_eq!(summary(&mirrored), summary(&ruling), "mirrored {}: {ruling} / {mirrored}", pos.fen());
            let (flip, flip_moves) = transform(&pos, &moves, true);
            let flipped = judge(rules, &flip, &flip_moves, 0).expect("the flipped cycle repeats");
            assert_eq!(summary(&flipped), exchanged(&ruling), "flipped {}: {ruling} / {flipped}", pos.fen());
            for side in Color::ALL {
                let (a, b) = (ruling.side(side), flipped.side(!side));
                assert_eq!((a.checks, a.chases, a.mate_threats), (b.checks, b.chases, b.mate_threats));
            }
            let kind = ruling.kind().map_or("draw", |k| k.as_str());
            *kinds.entry((rules.as_str(), kind)).or_insert(0) += 1;
        }
        judged += 1;
    }
    assert!(judged >= 2000, "only {judged} cycles generated");
    // The cases cover the rulings, or the test shows little.
    let count = |rules: &'static str, kind: &'static str| kinds.get(&(rules, kind)).copied().unwrap_or(0);
    for (rules, kind, least) in [
        ("asian", "draw", 100),
        ("asian", "perpetual-check", 20),
        ("asian", "perpetual-chase", 3),
        ("chinese", "check-chase", 5),
        ("chinese", "perpetual-mate-threat", 20),
        ("chinese", "mate-threat-mixed", 20),
    ] {
        assert!(count(rules, kind) >= least, "{rules} {kind}: {kinds:?}");
    }
    // The Asian rules allow what only the Chinese forbid.
    assert_eq!(count("asian", "check-chase") + count("asian", "perpetual-mate-threat"), 0, "{kinds:?}");
}
