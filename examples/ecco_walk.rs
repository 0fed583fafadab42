//! Generates games from the standard start for studying ECCO classification
//! against xqbase's classifier (`scripts/ecco-oracle.js`), beyond the games
//! of any collection.
//!
//! For every code, each line its definition describes (as
//! `ecco::grammar::lines` reads it) is played with the rules engine, and
//! so are its neighbours: the defining moves in other legal orders, extra
//! moves (those the definition allows before, or any move a definition
//! names, or any legal move) before, between and after them, games that
//! leave the line after some plies, games cut short, and mirrored games
//! (Red starting on the left wing). Random games from the start come last:
//! uniformly random moves, and random moves that the definitions name.
//!
//! Prints what `ecco_wxf` prints, one distinct game a line: `-` (no tag),
//! qipu's code, the first 20 plies in WXF as the classifier reads them, and
//! how the game was made (`walk C45/1 order+insert`, `random any`); on
//! standard error, how many games.
//!
//! `cargo run --release --example ecco_walk -- [SEED] [GAMES_PER_LINE] [RANDOM_GAMES] > games.tsv`

mod ecco_common;

use std::collections::HashSet;
use std::io::Write;

use qipu::analysis::ecco::{self, grammar, key::MoveKey, matching::Line, table};
use qipu::{Move, Position};

/// A small deterministic random number generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())])
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A move a line asks of one side: its alternatives, the ply the line
/// puts it on, if it does, its place in the side's list, and the other
/// side's move it answers (is played right after), if any.
#[derive(Clone, Debug)]
struct Wanted {
    alternatives: Vec<MoveKey>,
    ply: Option<usize>,
    id: usize,
    answers: Option<usize>,
}

/// A line's moves for each side (Red, Black), in the order written, and
/// the moves each side may play before them.
struct Plan {
    wanted: [Vec<Wanted>; 2],
    allowed: [Vec<MoveKey>; 2],
}

impl Plan {
    fn of(line: &Line) -> Plan {
        let mut wanted: [Vec<Wanted>; 2] = [Vec::new(), Vec::new()];
        if let Some(position) = &line.position {
            for (side, set) in position.iter().enumerate() {
                for (k, key) in set.iter().enumerate() {
                    let ply = Some(side + 2 * k);
                    wanted[side].push(Wanted { alternatives: vec![*key], ply, id: 0, answers: None });
                }
            }
        }
        for (ply, keys) in &line.fixed {
            let w = Wanted { alternatives: keys.clone(), ply: Some(*ply), id: 0, answers: None };
            wanted[ply % 2].push(w);
        }
        let fixed = [wanted[0].len(), wanted[1].len()];
        for (side, (list, later)) in wanted.iter_mut().zip(&line.later).enumerate() {
            list.sort_by_key(|w| w.ply);
            list.extend(later.iter().map(|l| Wanted {
                alternatives: l.moves.clone(),
                ply: None,
                id: 0,
                answers: l.answers.map(|j| fixed[1 - side] + j),
            }));
            list.iter_mut().enumerate().for_each(|(id, w)| w.id = id);
        }
        let allowed = [0, 1]
            .map(|side| line.later[side].iter().flat_map(|l| l.allowed.iter().flatten().copied()).collect());
        Plan { wanted, allowed }
    }
}

/// How one game leaves or follows its line.
#[derive(Clone, Debug, Default)]
struct Style {
    /// Each side's moves in a random order, wherever they are legal.
    shuffled: bool,
    /// Moves at fixed plies are played as soon as legal instead.
    loose: bool,
    /// The chance, in percent, of an extra move before each wanted one.
    extra_percent: u64,
    /// Extra moves are those the definition allows before, when it names some.
    extra_allowed: bool,
    /// From this ply on, random moves only.
    stray_at: usize,
    /// How many plies are played.
    length: usize,
}

impl Style {
    /// The line as written, then nothing (`tail` false) or random moves up
    /// to 20 plies.
    fn exact(tail: bool) -> Style {
        Style { stray_at: ecco::PLIES, length: if tail { ecco::PLIES } else { 0 }, ..Style::default() }
    }

    fn random(rng: &mut Rng) -> Style {
        let length = if rng.chance(70) { ecco::PLIES } else { 1 + rng.below(ecco::PLIES) };
        Style {
            shuffled: rng.chance(30),
            loose: rng.chance(40),
            extra_percent: [0, 0, 15, 35][rng.below(4)],
            extra_allowed: rng.chance(60),
            stray_at: if rng.chance(25) { 1 + rng.below(ecco::PLIES) } else { ecco::PLIES },
            length,
        }
    }

    /// A few words saying how the game was made.
    fn label(&self) -> String {
        let mut words = Vec::new();
        if self.shuffled {
            words.push("order".to_string());
        } else if self.loose {
            words.push("loose".to_string());
        }
        if self.extra_percent > 0 {
            words.push(if self.extra_allowed { "insert-allowed" } else { "insert" }.to_string());
        }
        if self.stray_at < ecco::PLIES {
            words.push(format!("stray{}", self.stray_at));
        }
        if self.length == 0 {
            words.push("exact".to_string());
        } else if self.length < ecco::PLIES {
            words.push(format!("short{}", self.length));
        }
        if words.is_empty() { "line".to_string() } else { words.join("+") }
    }
}

/// The keys that the definitions name: moves a player of these openings
/// plays.
fn vocabulary(lines: &[(&str, Line)]) -> HashSet<MoveKey> {
    let mut keys = HashSet::new();
    for (_, line) in lines {
        let plan = Plan::of(line);
        for side in 0..2 {
            keys.extend(plan.wanted[side].iter().flat_map(|w| w.alternatives.iter().copied()));
            keys.extend(plan.allowed[side].iter().copied());
        }
    }
    keys
}

/// The legal moves of a position with their keys.
fn legal_with_keys(pos: &Position) -> Vec<(Move, MoveKey)> {
    pos.legal_moves().iter().filter_map(|&m| MoveKey::of(pos, m).map(|k| (m, k))).collect()
}

/// A random legal move among those whose key is in `keys`, else any.
fn move_among(legal: &[(Move, MoveKey)], keys: impl Fn(&MoveKey) -> bool, rng: &mut Rng) -> Option<Move> {
    let among: Vec<Move> = legal.iter().filter(|(_, k)| keys(k)).map(|(m, _)| *m).collect();
    rng.pick(&among).or_else(|| rng.pick(&legal.iter().map(|(m, _)| *m).collect::<Vec<_>>()))
}

/// Where a side's extra moves come from: the moves the definition allows
/// it before, the style of the game, and the moves the definitions name.
struct Extras<'a> {
    allowed: &'a [MoveKey],
    style: &'a Style,
    vocab: &'a HashSet<MoveKey>,
}

impl Extras<'_> {
    /// A move off the line: one the definition allows, one a definition
    /// names, or, now and then, any.
    fn pick(&self, legal: &[(Move, MoveKey)], rng: &mut Rng) -> Option<Move> {
        if self.style.extra_allowed && !self.allowed.is_empty() {
            return move_among(legal, |k| self.allowed.contains(k), rng);
        }
        if rng.chance(85) {
            move_among(legal, |k| self.vocab.contains(k), rng)
        } else {
            move_among(legal, |_| false, rng)
        }
    }
}

/// The next move of a side that still has wanted moves, and which of them
/// it plays: the one that answers the other side's last move (`answered`),
/// else the first that is due and legal, or an extra move.
fn next_wanted(
    pending: &mut Vec<Wanted>,
    ply: usize,
    answered: Option<usize>,
    legal: &[(Move, MoveKey)],
    extras: &Extras,
    rng: &mut Rng,
) -> Option<(Move, Option<usize>)> {
    let playable = |w: &Wanted| legal.iter().find(|(_, k)| w.alternatives.contains(k)).map(|(m, _)| *m);
    let extra = |rng: &mut Rng| extras.pick(legal, rng).map(|m| (m, None));
    let answer =
        pending.iter().position(|w| answered.is_some() && w.answers == answered && playable(w).is_some());
    if let Some(i) = answer {
        let w = pending.remove(i);
        return playable(&w).map(|m| (m, Some(w.id)));
    }
    if let Some(at) = pending[0].ply {
        if at > ply {
            return extra(rng);
        }
        let first = pending.remove(0);
        return playable(&first).map(|m| (m, Some(first.id))).or_else(|| extra(rng));
    }
    if rng.chance(extras.style.extra_percent) {
        return extra(rng);
    }
    // A move that answers another is played only right after it.
    match pending.iter().position(|w| w.answers.is_none() && playable(w).is_some()) {
        Some(i) => {
            let w = pending.remove(i);
            playable(&w).map(|m| (m, Some(w.id)))
        }
        None => extra(rng),
    }
}

/// Plays a line in a style, up to 20 plies.
fn play(plan: &Plan, style: &Style, vocab: &HashSet<MoveKey>, rng: &mut Rng) -> Vec<Move> {
    let mut pending = plan.wanted.clone();
    for side in &mut pending {
        if style.shuffled {
            rng.shuffle(side);
        }
        if style.shuffled || style.loose {
            side.iter_mut().for_each(|w| w.ply = None);
        }
    }
    let mut pos = Position::start();
    let mut moves = Vec::new();
    // For each side, the wanted move it played last and the ply.
    let mut last: [Option<(usize, usize)>; 2] = [None, None];
    for ply in 0..ecco::PLIES {
        let side = ply % 2;
        let done = pending.iter().all(Vec::is_empty);
        if done && ply >= style.length {
            break;
        }
        let legal = legal_with_keys(&pos);
        let m = if ply >= style.stray_at || pending[side].is_empty() {
            let m = if rng.chance(70) {
                move_among(&legal, |k| vocab.contains(k), rng)
            } else {
                move_among(&legal, |_| false, rng)
            };
            m.map(|m| (m, None))
        } else {
            let answered = last[1 - side].filter(|&(_, p)| p + 1 == ply).map(|(id, _)| id);
            let extras = Extras { allowed: &plan.allowed[side], style, vocab };
            next_wanted(&mut pending[side], ply, answered, &legal, &extras, rng)
        };
        let Some((m, played)) = m else { break };
        if let Some(id) = played {
            last[side] = Some((id, ply));
        }
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

/// A random game of up to 20 plies: uniform moves, or (`named`) moves
/// that the definitions name where there are some.
fn random_game(named: bool, vocab: &HashSet<MoveKey>, rng: &mut Rng) -> Vec<Move> {
    let length = if rng.chance(80) { ecco::PLIES } else { 1 + rng.below(ecco::PLIES) };
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..length {
        let legal = legal_with_keys(&pos);
        let m = if named && rng.chance(85) {
            move_among(&legal, |k| vocab.contains(k), rng)
        } else {
            move_among(&legal, |_| false, rng)
        };
        let Some(m) = m else { break };
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

/// The games written so far, told apart by their moves.
struct Output<W: Write> {
    out: W,
    seen: HashSet<Vec<Move>>,
    texts: HashSet<String>,
}

impl<W: Write> Output<W> {
    fn write(&mut self, moves: Vec<Move>, source: &str) {
        if moves.is_empty() || !self.seen.insert(moves.clone()) {
            return;
        }
        let code = ecco::classify(&Position::start(), &moves).expect("the standard start").code;
        let text = ecco_common::classifier_text(&moves);
        writeln!(self.out, "-\t{code}\t{text}\t{source}").expect("writable");
        self.texts.insert(text);
    }
}

/// Writes `per_line` games of every line (the first two as written, with
/// nothing after it and with random moves after it), one in ten mirrored
/// too.
fn walk<W: Write>(
    lines: &[(&str, Line)],
    per_line: usize,
    vocab: &HashSet<MoveKey>,
    rng: &mut Rng,
    out: &mut Output<W>,
) {
    let mut index = 0;
    let mut last_code = "";
    for (code, line) in lines {
        index = if *code == last_code { index + 1 } else { 0 };
        last_code = code;
        let plan = Plan::of(line);
        for n in 0..per_line {
            let style = match n {
                0 => Style::exact(false),
                1 => Style::exact(true),
                _ => Style::random(rng),
            };
            let moves = play(&plan, &style, vocab, rng);
            let source = format!("walk {code}/{index} {}", style.label());
            if rng.chance(10) {
                let mirrored = moves.iter().map(|m| m.flip_horizontal()).collect();
                out.write(mirrored, &format!("{source}+mirror"));
            }
            out.write(moves, &source);
        }
    }
}

fn main() {
    let arg =
        |i: usize, default: u64| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let mut rng = Rng(arg(1, 2004).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let per_line = arg(2, 400) as usize;
    let random = arg(3, 40_000) as usize;
    let lines: Vec<(&str, Line)> = table::ROWS
        .iter()
        .flat_map(|row| grammar::lines(row.code, row.definition).into_iter().map(move |l| (row.code, l)))
        .collect();
    let vocab = vocabulary(&lines);
    let stdout = std::io::stdout();
    let mut out =
        Output { out: std::io::BufWriter::new(stdout.lock()), seen: HashSet::new(), texts: HashSet::new() };
    walk(&lines, per_line, &vocab, &mut rng, &mut out);
    for n in 0..random {
        let named = n % 4 != 0;
        let moves = random_game(named, &vocab, &mut rng);
        out.write(moves, if named { "random named" } else { "random any" });
    }
    eprintln!("{} distinct games, {} distinct as the classifier reads them", out.seen.len(), out.texts.len());
}
