//! The positions of a game so far: repetitions found as they happen, and
//! the plies counted toward the natural move limit.
//!
//! Under both Chinese and Asian (WXF) rules a repeated position is judged
//! by what each side did in the cycle: a side that gave check with every
//! one of its moves is checking perpetually (长将) and loses if the other
//! side did not do the same. [`History`] finds the third occurrence of a
//! position and says which side, if any, checked on every move of the
//! repeated cycle. The full ruling of a repetition (chases, mixed forms,
//! both rule sets) is [`judge`](super::judge)'s.

use std::collections::HashMap;

use super::{Color, Move, Position, Square};

/// Checks a side may give after the last capture before its further checks,
/// and the replies to them, stop counting toward the natural move limit
/// under the Asian rules.
pub const COUNTED_CHECKS: u32 = 10;

/// Past this many positions since the count began, repeated positions are
/// found through a hash map rather than by looking back.
const LONG_WINDOW: usize = 1024;

/// One ply of a game as the repetition rules see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Entry {
    hash: u64,
    /// Plies since the last capture when this position arose; positions
    /// before a capture cannot recur.
    halfmoves: u32,
    /// The move that led here (for the start, a move never read).
    m: Move,
    /// Whether the side to move here is in check, i.e. whether the move
    /// that led here gave check.
    check: bool,
    /// The side to move here; the other side made the move that led here.
    turn: Color,
}

/// A position that has occurred for the third time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The plies (0 = the starting position) at which the position stood,
    /// oldest first; the last is the current ply.
    pub plies: Vec<usize>,
    /// For Red and Black (index by [`Color::index`]): whether each of that
    /// side's moves from the first to the last occurrence gave check.
    pub checked_throughout: [bool; 2],
}

impl Repetition {
    /// The side checking perpetually (every move of the cycle a check)
    /// while the other side was not; under both rule sets it loses.
    pub fn perpetual_check(&self) -> Option<Color> {
        match self.checked_throughout {
            [true, false] => Some(Color::Red),
            [false, true] => Some(Color::Black),
            _ => None,
        }
    }
}

/// The positions of a game, ply by ply, for repetition detection and the
/// natural move limit.
///
/// Each position pushed is looked up among those since the count began
/// (the last capture, or [`History::restart_count`]) in constant time
/// (amortised): [`History::third_occurrence`] tells when one stands for
/// the third time, the moment the repetition rules judge.
///
/// ```
/// use qipu::{History, Move, Position, Square};
/// let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
/// let mut history = History::new(&pos);
/// let shuffle = [(Square::E0, Square::E1), (Square::D9, Square::D8), (Square::E1, Square::E0), (Square::D8, Square::D9)];
/// for _ in 0..2 {
///     for (from, to) in shuffle {
///         let m = Move::new(from, to);
///         let _ = pos.play(m).unwrap();
///         history.push(&pos, m);
///     }
/// }
/// assert_eq!(history.third_occurrence(), Some([0, 4, 8]));
/// let rep = history.repetition().unwrap();
/// assert_eq!(rep.plies, [0, 4, 8]);
/// assert_eq!(rep.perpetual_check(), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<Entry>,
    /// The index of the entry the count of occurrences begins at.
    window: usize,
    /// One bit for each hash (by its low bits) seen since the count began.
    seen: [u64; 16],
    /// Past [`LONG_WINDOW`] positions: how often each hash stood since the
    /// count began.
    long: Option<HashMap<u64, u32>>,
    /// The plies of the three occurrences, when the last position pushed
    /// stands for the third time.
    third: Option<[usize; 3]>,
    /// Checks given by Red and Black since the last capture.
    checks: [u32; 2],
    /// Plies since the last capture that count toward the natural move
    /// limit under the Asian rules.
    counted: u32,
}

impl History {
    /// A history starting at `start`.
    pub fn new(start: &Position) -> History {
        History::with_capacity(start, 0)
    }

    /// A history starting at `start`, with room for `plies` moves before
    /// it grows.
    pub fn with_capacity(start: &Position, plies: usize) -> History {
        let mut history = History { entries: Vec::with_capacity(plies + 1), ..History::default() };
        history.reset(start);
        history
    }

    /// Starts again at `start`, keeping the room made so far (no
    /// allocation for the next game of about the same length).
    pub fn reset(&mut self, start: &Position) {
        self.entries.clear();
        self.entries.push(Entry {
            hash: start.hash(),
            halfmoves: 0,
            m: Move::new(Square::A0, Square::A0),
            check: start.is_check(),
            turn: start.turn(),
        });
        self.window = 0;
        self.seen = [0; 16];
        self.mark(start.hash());
        self.long = None;
        self.third = None;
        self.checks = [0; 2];
        self.counted = start.halfmoves();
    }

    /// Sets the bit of `hash`; whether it was set.
    #[inline]
    fn mark(&mut self, hash: u64) -> bool {
        let bit = (hash & 1023) as usize;
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        let was = self.seen[word] & mask != 0;
        self.seen[word] |= mask;
        was
    }

    /// Records the position `pos` reached by the move `m`.
    #[inline]
    pub fn push(&mut self, pos: &Position, m: Move) {
        let last_check = self.entries.last().is_some_and(|e| e.check);
        let index = self.entries.len();
        let hash = pos.hash();
        let check = pos.is_check();
        if pos.halfmoves() == 0 {
            self.captured(index);
        } else if check || last_check {
            self.count_check(pos, check, last_check);
        } else {
            self.counted = self.counted.saturating_add(1);
        }
        self.entries.push(Entry { hash, halfmoves: pos.halfmoves(), m, check, turn: pos.turn() });
        self.third = None;
        if self.long.is_some() || index - self.window > LONG_WINDOW {
            self.count_long(hash, index);
        } else if self.mark(hash) {
            self.count_back(hash, index);
        }
    }

    /// A capture led to the entry `index`: the counts begin again.
    #[cold]
    fn captured(&mut self, index: usize) {
        self.checks = [0; 2];
        self.counted = 0;
        self.window = index;
        self.seen = [0; 16];
        self.long = None;
    }

    /// Counts a ply that gives check or answers one toward the natural
    /// move limit: each side's checks after its tenth since the last
    /// capture, and the replies to them, are not counted (the Asian rules;
    /// the rule Pikafish follows).
    #[inline(never)]
    fn count_check(&mut self, pos: &Position, check: bool, last_check: bool) {
        let mover = (!pos.turn()).index();
        if check {
            self.checks[mover] = self.checks[mover].saturating_add(1);
        }
        let late_check = check && self.checks[mover] > COUNTED_CHECKS;
        let late_reply = last_check && self.checks[1 - mover] > COUNTED_CHECKS;
        self.counted = self.counted.saturating_add(u32::from(!late_check && !late_reply));
    }

    /// The entry `index` (the last) may repeat an earlier one: counts its
    /// occurrences since the count began, the same side to move, so every
    /// second entry.
    #[cold]
    fn count_back(&mut self, hash: u64, index: usize) {
        let mut found = [0; 2];
        let mut n = 0;
        let mut i = index;
        while i >= self.window + 2 {
            i -= 2;
            if self.entries[i].hash == hash {
                if n == 2 {
                    return; // a fourth occurrence at least
                }
                found[n] = i;
                n += 1;
            }
        }
        if n == 2 {
            self.third = Some([found[1], found[0], index]);
        }
    }

    /// Counts the occurrences of `hash` through the hash map of a long
    /// count (made now if need be), the entry `index` pushed last.
    #[cold]
    fn count_long(&mut self, hash: u64, index: usize) {
        let window = self.window;
        let entries = &self.entries;
        let long = self.long.get_or_insert_with(|| {
            let mut long = HashMap::with_capacity(2 * (index - window));
            for e in &entries[window..index] {
                *long.entry(e.hash).or_insert(0u32) += 1;
            }
            long
        });
        let times = long.entry(hash).or_insert(0);
        *times = times.saturating_add(1);
        if *times == 3 {
            self.count_back(hash, index);
        }
    }

    /// Plies recorded after the start.
    pub fn plies(&self) -> usize {
        self.entries.len().saturating_sub(1)
    }

    /// When the last position pushed stands for exactly the third time
    /// since the count began (the last capture, or the last
    /// [`History::restart_count`]): the plies of its three occurrences,
    /// oldest first.
    #[inline]
    pub fn third_occurrence(&self) -> Option<[usize; 3]> {
        self.third
    }

    /// Begins the count of occurrences again at the current position: a
    /// repetition judged is not judged again as it goes on.
    pub fn restart_count(&mut self) {
        let last = self.entries.len() - 1;
        self.window = last;
        self.seen = [0; 16];
        self.long = None;
        self.third = None;
        let hash = self.entries[last].hash;
        self.mark(hash);
    }

    /// The moves that led from ply `from` to ply `to` (plies `from + 1` to
    /// `to`), oldest first.
    pub fn moves(&self, from: usize, to: usize) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.entries[from + 1..=to].iter().map(|e| e.m)
    }

    /// The hash of the position at `ply` (0 = the start).
    pub fn hash_at(&self, ply: usize) -> Option<u64> {
        self.entries.get(ply).map(|e| e.hash)
    }

    /// Plies since the last capture that count toward the natural move
    /// limit under the Asian rules: every ply but each side's checks after
    /// its tenth ([`COUNTED_CHECKS`]) and the replies to them (before the
    /// first capture, with the start position's clock).
    pub fn counted_plies(&self) -> u32 {
        self.counted
    }

    /// Plies since the last capture, every ply counted (the start
    /// position's own count included).
    pub fn plies_since_capture(&self) -> u32 {
        self.entries.last().map_or(0, |e| e.halfmoves)
    }

    /// Whether the current position stands for the third time (or more)
    /// since the last capture; if so, where, and who checked throughout.
    pub fn repetition(&self) -> Option<Repetition> {
        self.repetition_of(3)
    }

    /// Like [`History::repetition`], for `times` occurrences (at least 2).
    pub fn repetition_of(&self, times: usize) -> Option<Repetition> {
        let last = self.entries.len().checked_sub(1)?;
        let current = self.entries[last];
        let reach = (current.halfmoves as usize).min(last);
        let mut plies = vec![last];
        let mut ply = last;
        while ply >= 2 && last - (ply - 2) <= reach && plies.len() < times {
            ply -= 2;
            if self.entries[ply].hash == current.hash {
                plies.push(ply);
            }
        }
        if plies.len() < times.max(2) {
            return None;
        }
        plies.reverse();
        let first = plies[0];
        let mut checked_throughout = [true; 2];
        for entry in &self.entries[first + 1..] {
            if !entry.check {
                checked_throughout[(!entry.turn).index()] = false;
            }
        }
        Some(Repetition { plies, checked_throughout })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, Square};

    fn play_cycle(fen: &str, cycle: &[(Square, Square)], times: usize) -> (History, Position) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut history = History::new(&pos);
        for _ in 0..times {
            for &(from, to) in cycle {
                let m = Move::new(from, to);
                let _ = pos.play(m).unwrap();
                history.push(&pos, m);
            }
        }
        (history, pos)
    }

    const ROOK_CHECKS: [(Square, Square); 4] = [
        (Square::H8, Square::H9),
        (Square::E9, Square::E8),
        (Square::H9, Square::H8),
        (Square::E8, Square::E9),
    ];
    const ROOK_FEN: &str = "4k4/7R1/9/9/9/9/9/9/9/3K5 w";

    #[test]
    fn perpetual_check_by_red() {
        // The red rook checks on rank 9, then on rank 8, as the black king
        // steps between e9 and e8: every red move of the cycle is a check.
        let (history, pos) = play_cycle(ROOK_FEN, &ROOK_CHECKS, 2);
        let rep = history.repetition().expect("third occurrence");
        assert_eq!(rep.plies, [0, 4, 8]);
        assert_eq!(pos.turn(), Color::Red);
        assert_eq!(rep.checked_throughout, [true, false]);
        assert_eq!(rep.perpetual_check(), Some(Color::Red));
    }

    #[test]
    fn two_occurrences_are_not_a_threefold_repetition() {
        let (history, _) = play_cycle(ROOK_FEN, &ROOK_CHECKS, 1);
        assert_eq!(history.plies(), 4);
        assert_eq!(history.repetition(), None);
        assert_eq!(history.repetition_of(2).map(|r| r.plies), Some(vec![0, 4]));
    }

    #[test]
    fn a_quiet_move_breaks_perpetual_check() {
        // Red alternates checks with quiet king steps (d0-d1) while the
        // black king and horse shuffle.
        let cycle = [
            ("h8", "h9"),
            ("e9", "e8"),
            ("d0", "d1"),
            ("a5", "b7"),
            ("h9", "h8"),
            ("e8", "e9"),
            ("d1", "d0"),
            ("b7", "a5"),
        ]
        .map(|(a, b)| (a.parse::<Square>().unwrap(), b.parse::<Square>().unwrap()));
        let fen = "4k4/7R1/9/9/n8/9/9/9/9/3K5 w";
        let (history, _) = play_cycle(fen, &cycle, 2);
        let rep = history.repetition().expect("third occurrence");
        assert_eq!(rep.plies, [0, 8, 16]);
        assert_eq!(rep.checked_throughout, [false, false]);
        assert_eq!(rep.perpetual_check(), None);
    }

    #[test]
    fn starting_position_alone_repeats_nothing() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        let history = History::new(&pos);
        assert_eq!(history.repetition_of(2), None);
    }
}
