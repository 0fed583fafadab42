//! The codes' lines as the classifier runs them on game after game: every
//! move key the table writes gets a number ([`KeyNumbers`]), a set of moves
//! is a bit mask of those numbers, a game's first plies are read once into
//! numbers ([`Plies`]), and each [`Line`] becomes a [`Matcher`] that decides
//! exactly as [`Line::matches`] does, the cheap tests first.

use super::PLIES;
use super::key::MoveKey;
use super::matching::{Line, MAX_LATER, OWN};

/// A set of table keys: bit `n` for the key numbered `n`.
type Set = u64;

/// The number of every key the table does not write: in no set of moves
/// (only in [`ANY`]).
const UNKNOWN: u8 = 63;

/// Every move, as the list of a step that allows any move before it.
const ANY: Set = Set::MAX;

/// The set holding the key numbered `n`.
fn bit(n: u8) -> Set {
    1 << n
}

/// The keys the table writes, numbered from 0 in the order first met.
#[derive(Clone, Debug)]
pub(super) struct KeyNumbers {
    /// The number of each key, by [`MoveKey::index`]; [`UNKNOWN`] for keys not
    /// numbered.
    by_index: Vec<u8>,
    count: u8,
}

impl KeyNumbers {
    /// No key numbered yet.
    pub(super) fn new() -> KeyNumbers {
        KeyNumbers { by_index: vec![UNKNOWN; MoveKey::INDICES], count: 0 }
    }

    /// The number of `key`, numbering it if it has none yet.
    ///
    /// # Panics
    ///
    /// When the table writes more keys than a [`Set`] holds (it writes
    /// 54): a change of the table that the tests show at once.
    fn add(&mut self, key: MoveKey) -> u8 {
        let slot = &mut self.by_index[key.index()];
        if *slot == UNKNOWN {
            assert!(self.count < UNKNOWN, "the table writes more than {UNKNOWN} move keys");
            *slot = self.count;
            self.count += 1;
        }
        *slot
    }

    /// The set of `keys`, numbering those that have no number yet.
    fn set(&mut self, keys: &[MoveKey]) -> Set {
        keys.iter().fold(0, |set, &k| set | bit(self.add(k)))
    }

    /// The number of `key`: [`UNKNOWN`] when the table does not write it.
    pub(super) fn number(&self, key: MoveKey) -> u8 {
        self.by_index.get(key.index()).copied().unwrap_or(UNKNOWN)
    }
}

/// A game's first [`PLIES`] plies as key numbers, with the moves each side
/// plays among them.
#[derive(Clone, Debug)]
pub(super) struct Plies {
    numbers: [u8; PLIES],
    /// The set of each ply's move (none for the plies after `len`).
    bits: [Set; PLIES],
    len: usize,
    /// For each side, the set of its moves.
    played: [Set; 2],
}

impl Plies {
    /// The plies `keys`, at most [`PLIES`] of them (those after are not
    /// read).
    pub(super) fn of(numbers: &KeyNumbers, keys: &[MoveKey]) -> Plies {
        let mut plies = Plies { numbers: [UNKNOWN; PLIES], bits: [0; PLIES], len: 0, played: [0; 2] };
        for (ply, &key) in keys.iter().take(PLIES).enumerate() {
            let n = numbers.number(key);
            plies.numbers[ply] = n;
            plies.bits[ply] = bit(n);
            plies.played[ply % 2] |= bit(n);
            plies.len = ply + 1;
        }
        plies
    }

    /// The key numbers of the plies read.
    pub(super) fn numbers(&self) -> &[u8] {
        &self.numbers[..self.len]
    }
}

/// A later move of a [`Line`] ([`super::matching::Later`]) in numbers.
#[derive(Clone, Debug)]
struct Step {
    moves: Set,
    sequence: usize,
    /// The steps of its side that must come before it: those of its
    /// sequence with a lower place, as bits of their indices.
    before: u8,
    answers: Option<usize>,
    /// The moves the side may play before it ([`ANY`]: any).
    allowed: Set,
}

/// The first moves of a line's position, in numbers.
#[derive(Clone, Debug)]
struct Start {
    /// The first Red move, which chooses the family.
    first: Option<u8>,
    /// Each side's moves.
    sets: [Vec<u8>; 2],
    /// The sets of those moves.
    masks: [Set; 2],
}

/// A [`Line`] compiled to decide quickly whether a game follows it; it
/// decides as [`Line::matches`] does for every game of at most [`PLIES`]
/// plies.
#[derive(Clone, Debug)]
pub(super) struct Matcher {
    fixed: Vec<(usize, Set)>,
    start: Option<Start>,
    loose_position: bool,
    later: [Vec<Step>; 2],
    from: [[usize; 2]; 2],
    /// The plies of `Line::opening_plies` below 64, as bits.
    opening_plies: u64,
    /// The moves each side must play for the game to follow the line.
    needs: Needs,
}

/// The moves each side must play somewhere among a game's first plies for
/// it to follow a line: the one move of a fixed ply or of a later move,
/// and the moves of a position's sets when they must be played as they
/// are. Two masks tried before anything else, rejecting most of the lines
/// a game's first two moves leave (hundreds for 中炮对屏风马).
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Needs([Set; 2]);

impl Needs {
    /// Whether the game of `plies` plays every move needed.
    pub(super) fn met_by(&self, plies: &Plies) -> bool {
        self.0[0] & !plies.played[0] == 0 && self.0[1] & !plies.played[1] == 0
    }
}

impl Matcher {
    /// `line` compiled, its keys numbered in `numbers`.
    pub(super) fn new(line: &Line, numbers: &mut KeyNumbers) -> Matcher {
        let mut fixed: Vec<(usize, Set)> =
            line.fixed.iter().map(|(ply, keys)| (*ply, numbers.set(keys))).collect();
        // The first two plies last: the index has mostly chosen them.
        fixed.sort_by_key(|&(ply, _)| (ply < 2, ply));
        let start = line.position.as_ref().map(|[red, black]| {
            let sets = [red, black].map(|set| set.iter().map(|&k| numbers.add(k)).collect::<Vec<u8>>());
            Start {
                first: sets[0].first().copied(),
                masks: [0, 1].map(|side| sets[side].iter().fold(0, |m, &n| m | bit(n))),
                sets,
            }
        });
        let later = [0, 1].map(|side| {
            let steps = &line.later[side];
            steps
                .iter()
                .enumerate()
                .map(|(i, step)| Step {
                    moves: numbers.set(&step.moves),
                    sequence: step.sequence,
                    before: (0..i)
                        .filter(|&j| steps[j].sequence == step.sequence && steps[j].place < step.place)
                        .fold(0, |b, j| b | (1 << j)),
                    answers: step.answers,
                    allowed: step.allowed.as_ref().map_or(ANY, |keys| numbers.set(keys)),
                })
                .collect::<Vec<Step>>()
        });
        let opening_plies = line.opening_plies.iter().filter(|&&p| p < 64).fold(0, |m, &p| m | (1 << p));
        let mut needs = Needs::default();
        for &(ply, set) in &fixed {
            if set.count_ones() == 1 {
                needs.0[ply % 2] |= set;
            }
        }
        if let Some(start) = start.as_ref().filter(|_| !line.loose_position) {
            needs.0[0] |= start.masks[0];
            needs.0[1] |= start.masks[1];
        }
        for (side, steps) in later.iter().enumerate() {
            for step in steps.iter().filter(|step| step.moves.count_ones() == 1) {
                needs.0[side] |= step.moves;
            }
        }
        Matcher {
            fixed,
            start,
            loose_position: line.loose_position,
            later,
            from: line.from,
            opening_plies,
            needs,
        }
    }

    /// The moves a game must play to follow the line.
    pub(super) fn needs(&self) -> Needs {
        self.needs
    }

    /// Whether the game of `plies` follows the line.
    pub(super) fn matches(&self, plies: &Plies) -> bool {
        self.needs.met_by(plies)
            && self.fixed_match(plies)
            && self.moves_present(plies)
            && self.start_matches(plies)
            && self.later_moves_match(plies)
    }

    /// Whether the fixed plies hold moves they allow.
    fn fixed_match(&self, plies: &Plies) -> bool {
        self.fixed.iter().all(|&(ply, set)| plies.bits.get(ply).is_some_and(|&b| b & set != 0))
    }

    /// Whether each side plays, somewhere, a move of each of its later
    /// moves: a game that does not cannot follow the line.
    fn moves_present(&self, plies: &Plies) -> bool {
        (0..2).all(|side| self.later[side].iter().all(|step| step.moves & plies.played[side] != 0))
    }

    /// Whether the position's first moves match (as
    /// `Line::start_matches` decides).
    fn start_matches(&self, plies: &Plies) -> bool {
        let Some(start) = &self.start else { return true };
        let numbers = plies.numbers();
        if start.first.is_some_and(|first| numbers.first() != Some(&first)) {
            return false;
        }
        start.sets.iter().enumerate().all(|(side, set)| {
            let played = || numbers.iter().skip(side).step_by(2).take(set.len());
            played().count() == set.len()
                && if self.loose_position {
                    played().all(|&n| start.masks[side] & bit(n) != 0)
                } else {
                    same_multiset(played(), set)
                }
        })
    }

    /// Whether the later moves are all played, each side playing before
    /// each only the moves its list allows (as
    /// `Line::later_moves_match` decides).
    fn later_moves_match(&self, plies: &Plies) -> bool {
        /// No ply: the step is not played yet.
        const NOT: u8 = u8::MAX;
        let all = [0, 1].map(|side| ((1u16 << self.later[side].len()) - 1) as u8);
        // For each side: the ply each step was played on, the steps played
        // (bits of their indices) and their moves.
        let mut found = [[NOT; MAX_LATER]; 2];
        let mut done = [0u8; 2];
        let mut done_moves: [Set; 2] = [0; 2];
        let due = |found: &[[u8; MAX_LATER]; 2], side: usize, step: &Step, ply: usize| {
            step.answers
                .is_some_and(|j| found[1 - side][j] != NOT && usize::from(found[1 - side][j]) + 1 == ply)
        };
        for ply in 0..plies.len {
            if done == all {
                break;
            }
            let side = ply % 2;
            if done[side] == all[side] {
                // Nothing is asked of this side any more.
                continue;
            }
            let steps = &self.later[side];
            let key = bit(plies.numbers[ply]);
            let ready = |i: usize, step: &Step| {
                done[side] & (1 << i) == 0
                    && ply >= self.from[step.sequence][side]
                    && step.before & !done[side] == 0
                    && (step.answers.is_none() || due(&found, side, step, ply))
            };
            let hit = [0, 1].map(|sequence| {
                steps
                    .iter()
                    .enumerate()
                    .position(|(i, s)| s.sequence == sequence && s.moves & key != 0 && ready(i, s))
            });
            let answer_missed = steps.iter().enumerate().any(|(i, s)| {
                done[side] & (1 << i) == 0 && due(&found, side, s, ply) && !hit.contains(&Some(i))
            });
            if answer_missed {
                return false;
            }
            let opening_move = (ply < 64 && self.opening_plies & (1 << ply) != 0) || hit[0].is_some();
            let again = done_moves[side] & key != 0;
            let allowed = steps.iter().enumerate().all(|(i, s)| {
                done[side] & (1 << i) != 0
                    || s.allowed & key != 0
                    || ply < self.from[s.sequence][side]
                    || hit[s.sequence].is_some()
                    || (s.sequence == OWN && opening_move)
                    || again
            });
            if !allowed {
                return false;
            }
            for i in hit.into_iter().flatten() {
                // At most MAX_LATER plies are read here, and PLIES < NOT.
                found[side][i] = ply as u8;
                done[side] |= 1 << i;
                done_moves[side] |= steps[i].moves;
            }
        }
        done == all
    }
}

/// Whether `played` holds the numbers of `set` (at most [`MAX_LATER`] * 2),
/// as many times each.
fn same_multiset<'a>(mut played: impl Iterator<Item = &'a u8>, set: &[u8]) -> bool {
    let mut used = [false; 2 * MAX_LATER];
    played.all(|n| match (0..set.len()).find(|&i| !used[i] && set[i] == *n) {
        Some(i) => {
            used[i] = true;
            true
        }
        None => false,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::{Move, Position};

    /// Random legal openings of `plies` plies that play, three times in
    /// four, a move the table writes when there is one: games that go
    /// deep into the table's lines and stray from them.
    pub(in super::super) fn openings(count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
        let numbers = &super::super::codes().numbers;
        let mut state = seed | 1;
        let mut next = move || {
            // xorshift64
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let mut pos = Position::start();
                let mut moves = Vec::new();
                for _ in 0..plies {
                    let legal = pos.legal_moves();
                    let written: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&m| MoveKey::of(&pos, m).is_some_and(|k| numbers.number(k) != UNKNOWN))
                        .collect();
                    let pool = if !written.is_empty() && next() % 4 != 0 { &written[..] } else { &legal[..] };
                    let Some(&m) = pool.get((next() % pool.len().max(1) as u64) as usize) else { break };
                    pos.play_unchecked(m);
                    moves.push(m);
                }
                moves
            })
            .collect()
    }

    #[test]
    fn matchers_decide_as_the_lines() {
        let codes = super::super::codes();
        let mut matched = 0;
        for moves in openings(1500, PLIES, 0x9e37_79b9_7f4a_7c15) {
            let keys = super::super::opening_keys(&Position::start(), &moves);
            // Every prefix length, so that games stop at every ply.
            for len in [keys.len(), keys.len() / 2, 3, 1, 0] {
                let keys = &keys[..len.min(keys.len())];
                let plies = Plies::of(&codes.numbers, keys);
                for code in &codes.codes {
                    for ((_, line), matcher) in code.lines.iter().zip(&code.matchers) {
                        let expected = line.matches(keys);
                        assert_eq!(matcher.matches(&plies), expected, "{line:?} on {keys:?}");
                        matched += usize::from(expected);
                    }
                }
            }
        }
        // The games follow lines often enough to test the matchers.
        assert!(matched > 5000, "{matched}");
    }

    #[test]
    fn unknown_keys_are_in_no_set_but_any() {
        let mut numbers = KeyNumbers::new();
        let written = crate::analysis::ecco::key::key("炮二平五");
        let other = crate::analysis::ecco::key::key("马二进一");
        let set = numbers.set(&[written]);
        assert_eq!(numbers.number(other), UNKNOWN);
        assert_eq!(set & bit(numbers.number(other)), 0);
        assert_ne!(set & bit(numbers.number(written)), 0);
        assert_ne!(ANY & bit(UNKNOWN), 0);
    }
}
