//! Playing, undoing and generating moves never touch the heap; reading and
//! checking a game (validate), gathering its statistics (stats) and writing
//! its FEN trail (fen, as FEN or EPD lines, of the main line or of every
//! line) allocate per game, not per move.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread (the test harness allocates on others).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn move_generation_play_and_undo_do_not_allocate() {
    let fens = [
        qipu::fen::START,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1",
    ];
    let positions: Vec<qipu::Position> = fens.iter().map(|f| f.parse().unwrap()).collect();
    let before = ALLOCATIONS.with(Cell::get);
    let mut nodes = 0;
    for pos in &positions {
        nodes += qipu::perft(pos, 3);
        let mut p = pos.clone();
        for &m in p.legal_moves().iter() {
            let u = p.play_unchecked(m);
            nodes += p.is_check() as u64 + p.outcome().is_some() as u64;
            p.undo(u);
        }
    }
    let after = ALLOCATIONS.with(Cell::get);
    assert!(nodes > 79_666);
    assert_eq!(after - before, 0, "allocations during move generation, play and undo");
}

/// A random game of up to `plies` plies from the start, as an ICCS PGN
/// game, and how many plies it has.
fn random_game(plies: usize, seed: u64) -> (String, usize) {
    random_game_with(plies, seed, false)
}

/// As [`random_game`]; with `variations`, every tenth move has a one-move
/// alternative.
fn random_game_with(plies: usize, seed: u64, variations: bool) -> (String, usize) {
    let mut pos = qipu::Position::start();
    let mut state = seed;
    let mut text = String::from("[Event \"allocations\"]\n");
    let mut played = 0;
    while played < plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let m = moves[(state >> 33) as usize % moves.len()];
        if played % 2 == 0 {
            text.push_str(&format!("{}. ", played / 2 + 1));
        }
        text.push_str(&format!("{m} "));
        if variations && played % 10 == 5 {
            let other = moves[(state >> 40) as usize % moves.len()];
            let dots = if played % 2 == 0 { "." } else { "..." };
            text.push_str(&format!("({}{dots} {other}) ", played / 2 + 1));
        }
        pos.play_unchecked(m);
        played += 1;
    }
    text.push_str("*\n");
    (text, played)
}

/// Allocations made by reading and checking `text` with `visitor`.
fn allocations_reading<V: qipu::record::Visitor>(text: &str, visitor: &mut V) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    let mut games = 0;
    qipu::formats::read_with(text.as_bytes(), None, visitor, |_| games += 1).unwrap();
    assert_eq!(games, 1);
    ALLOCATIONS.with(Cell::get) - before
}

/// The allocations a game's reading and replay make grow with the log of
/// its length (vectors doubling), not with its moves: a game ten times as
/// long makes at most a few more.
fn assert_no_allocation_per_move<V: qipu::record::Visitor>(what: &str, make: impl Fn() -> V) {
    let (short, short_plies) = random_game(60, 7);
    // The first seed whose game runs to 600 plies without an end.
    let (long, long_plies) =
        (1..100).map(|seed| random_game(600, seed)).find(|(_, plies)| *plies == 600).expect("a long game");
    assert!(short_plies == 60);
    // Warm up what is made once (tables, the start position).
    allocations_reading(&short, &mut make());
    let short_allocations = allocations_reading(&short, &mut make());
    let long_allocations = allocations_reading(&long, &mut make());
    let extra = long_allocations.saturating_sub(short_allocations);
    assert!(
        extra <= 40,
        "{what}: {short_allocations} allocations for {short_plies} plies, {long_allocations} for {long_plies}"
    );
}

#[test]
fn validating_a_game_does_not_allocate_per_move() {
    assert_no_allocation_per_move("validate", qipu::batch::Checker::default);
}

#[test]
fn the_statistics_of_a_game_do_not_allocate_per_move() {
    assert_no_allocation_per_move("stats", || {
        qipu::batch::Checker::following(qipu::analysis::stats::MainLine::default())
    });
}

/// What `qipu fen` does at each ply: the move written in a notation and
/// the FEN brought up to date from the ranks the move touched, both
/// appended to one buffer.
#[derive(Debug, Default)]
struct FenTrail {
    ranks: Option<qipu::fen::RankTexts>,
    mv: String,
    lines: Vec<u8>,
}

impl qipu::record::replay::Follow for FenTrail {
    type Output = usize;

    fn start(&mut self, start: &qipu::Position) {
        self.ranks = Some(qipu::fen::RankTexts::new(start.board()));
    }

    fn before_move(&mut self, before: &qipu::Position, m: qipu::Move) {
        self.mv.clear();
        qipu::notation::Notation::Chinese(qipu::notation::chinese::Style::Simplified)
            .write_to(before, m, &mut self.mv)
            .expect("a legal move");
    }

    fn after_move(&mut self, pos: &qipu::Position, m: qipu::Move) {
        let Some(ranks) = &mut self.ranks else { return };
        ranks.update(pos.board(), m);
        self.lines.extend_from_slice(self.mv.as_bytes());
        self.lines.push(b'\t');
        ranks.write_bytes(pos.turn(), pos.halfmoves(), pos.fullmoves(), &mut self.lines);
        self.lines.push(b'\n');
    }

    fn end(&mut self) -> usize {
        self.lines.len()
    }
}

#[test]
fn the_fen_trail_of_a_game_does_not_allocate_per_move() {
    assert_no_allocation_per_move("fen", || qipu::batch::Checker::following(FenTrail::default()));
}

/// What `qipu fen --format epd --all-lines` does at each ply: the move
/// written, the rank texts brought up to date (set anew where a variation
/// begins or ends) and the EPD line built in one reused string with
/// [`qipu::formats::epd`]'s writer, then appended to the trail.
#[derive(Debug, Default)]
struct EpdTrail {
    ranks: Option<qipu::fen::RankTexts>,
    line: String,
    ply: usize,
    mv: String,
    epd: String,
    lines: Vec<u8>,
}

impl EpdTrail {
    fn write(&mut self, pos: &qipu::Position, m: qipu::Move) {
        use qipu::formats::epd::{self, Operand};
        let Some(ranks) = &mut self.ranks else { return };
        ranks.update(pos.board(), m);
        self.ply += 1;
        self.epd.clear();
        epd::push_ranks(&mut self.epd, ranks, pos.turn());
        epd::push_opcode(&mut self.epd, "hmvc", &[Operand::Number(pos.halfmoves().into())]);
        epd::push_opcode(&mut self.epd, "fmvn", &[Operand::Number(pos.fullmoves().into())]);
        epd::push_opcode(&mut self.epd, "line", &[Operand::Word(&self.line)]);
        epd::push_opcode(&mut self.epd, "ply", &[Operand::Number(self.ply as u64)]);
        epd::push_opcode(&mut self.epd, "move", &[Operand::Word(&self.mv)]);
        self.lines.extend_from_slice(self.epd.as_bytes());
        self.lines.push(b'\n');
    }

    fn go_to(&mut self, pos: &qipu::Position, ply: usize, line: qipu::record::replay::LineId<'_>) {
        use std::fmt::Write;
        self.ranks = Some(qipu::fen::RankTexts::new(pos.board()));
        self.ply = ply;
        self.line.clear();
        let _ = write!(self.line, "{line}");
    }

    fn write_move(&mut self, before: &qipu::Position, m: qipu::Move) {
        self.mv.clear();
        qipu::notation::Notation::Chinese(qipu::notation::chinese::Style::Simplified)
            .write_to(before, m, &mut self.mv)
            .expect("a legal move");
    }
}

impl qipu::record::replay::Follow for EpdTrail {
    type Output = usize;

    fn start(&mut self, start: &qipu::Position) {
        self.go_to(start, 0, qipu::record::replay::LineId::MAIN);
    }

    fn before_move(&mut self, before: &qipu::Position, m: qipu::Move) {
        self.write_move(before, m);
    }

    fn after_move(&mut self, pos: &qipu::Position, m: qipu::Move) {
        self.write(pos, m);
    }

    fn begin_variation(
        &mut self,
        from: &qipu::Position,
        ply: usize,
        line: qipu::record::replay::LineId<'_>,
    ) -> qipu::record::Skip {
        self.go_to(from, ply, line);
        qipu::record::Skip(false)
    }

    fn before_variation_move(&mut self, before: &qipu::Position, m: qipu::Move) {
        self.write_move(before, m);
    }

    fn variation_move(&mut self, after: &qipu::Position, m: qipu::Move) {
        self.write(after, m);
    }

    fn end_variation(&mut self, back: &qipu::Position, ply: usize, line: qipu::record::replay::LineId<'_>) {
        self.go_to(back, ply, line);
    }

    fn end(&mut self) -> usize {
        self.ranks = None;
        let n = memchr_count(&self.lines);
        self.lines.clear();
        n
    }
}

fn memchr_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

#[test]
fn the_epd_trail_of_every_line_does_not_allocate_per_move() {
    assert_no_allocation_per_move(
        "fen --format epd",
        || qipu::batch::Checker::following(EpdTrail::default()),
    );
    // With variations, the replay itself allocates for each (the report
    // of where it leaves the main line): the trail adds nothing per move
    // or per variation to what validate makes.
    let (short, _) = random_game_with(60, 7, true);
    let (long, _) = (1..100).map(|seed| random_game_with(600, seed, true)).find(|(_, p)| *p == 600).unwrap();
    let epd = || qipu::batch::Checker::following(EpdTrail::default());
    allocations_reading(&short, &mut epd());
    let validate_short = allocations_reading(&short, &mut qipu::batch::Checker::default());
    let validate_long = allocations_reading(&long, &mut qipu::batch::Checker::default());
    let epd_short = allocations_reading(&short, &mut epd());
    let epd_long = allocations_reading(&long, &mut epd());
    let extra = (epd_long - validate_long).saturating_sub(epd_short - validate_short);
    assert!(
        extra <= 40,
        "fen --format epd --all-lines: {epd_short} and {epd_long} allocations, validate {validate_short} and {validate_long}"
    );
    // The trail holds every line's positions: 600 plies and 60 one-move
    // variations.
    let checked = qipu::formats::pgn::read_with(&long, &mut epd());
    assert_eq!((checked[0].followed, checked[0].replayed.variation_plies), (660, 60));
}
