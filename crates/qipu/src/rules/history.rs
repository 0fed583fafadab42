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
pub(crate) const COUNTED_CHECKS: u32 = 10;

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
    pub(crate) checked_throughout: [bool; 2],
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
/// (the last capture, or `History::restart_count`) in constant time
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
    /// Entries up to this index are counted by [`History::seen`] and a look
    /// back; past it (a long count, or one already in [`History::long`]),
    /// through the hash map.
    short_until: usize,
    /// One bit for each hash (by its low bits) seen since the count began.
    seen: [u64; 16],
    /// Past [`LONG_WINDOW`] positions: how often each hash stood since the
    /// count began.
    long: Option<HashMap<u64, u32>>,
    /// The plies of the three occurrences of the last position found
    /// standing for the third time (current while its last ply is).
    third: Option<[usize; 3]>,
    /// The count toward the natural move limit under the Asian rules,
    /// kept up to [`LimitCount::upto`] only when asked for.
    limit: LimitCount,
}

/// The plies counted toward the natural move limit under the Asian rules
/// since the last capture, up to an entry: worked out only when asked for,
/// from where the last count ended (no work on most plies).
#[derive(Copy, Clone, Debug, Default)]
struct LimitCount {
    /// The last entry counted: the last capture's to begin with (0 before
    /// the first capture: the start, whose clock `counted` begins with).
    upto: usize,
    /// Checks given by Red and Black after the capture, up to `upto`.
    checks: [u32; 2],
    /// Plies counted after the capture, up to `upto`.
    counted: u32,
}

impl LimitCount {
    /// Counts the entries after `upto` in `entries` (the capture's and
    /// those after it).
    fn count(&mut self, entries: &[Entry]) {
        for i in self.upto + 1..entries.len() {
            let (before, entry) = (&entries[i - 1], &entries[i]);
            let mover = (!entry.turn).index();
            if entry.check {
                self.checks[mover] = self.checks[mover].saturating_add(1);
            }
            let late_check = entry.check && self.checks[mover] > COUNTED_CHECKS;
            let late_reply = before.check && self.checks[1 - mover] > COUNTED_CHECKS;
            self.counted = self.counted.saturating_add(u32::from(!late_check && !late_reply));
        }
        self.upto = self.upto.max(entries.len() - 1);
    }
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
    pub(crate) fn reset(&mut self, start: &Position) {
        self.entries.clear();
        self.entries.push(Entry {
            hash: start.hash(),
            halfmoves: 0,
            m: Move::new(Square::A0, Square::A0),
            check: start.is_check(),
            turn: start.turn(),
        });
        self.window = 0;
        self.short_until = LONG_WINDOW;
        self.seen = [0; 16];
        self.mark(start.hash());
        self.long = None;
        self.third = None;
        self.limit = LimitCount { counted: start.halfmoves(), ..LimitCount::default() };
    }

    /// Sets the bit of `hash`; whether it was set.
    #[inline(always)]
    fn mark(&mut self, hash: u64) -> bool {
        let bit = (hash & 1023) as usize;
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        let was = self.seen[word] & mask != 0;
        self.seen[word] |= mask;
        was
    }

    /// Records the position `pos` reached by the move `m`; whether it
    /// stands for the third time now ([`History::third_occurrence`]).
    #[inline(always)]
    pub fn push(&mut self, pos: &Position, m: Move) -> bool {
        let index = self.entries.len();
        let hash = pos.hash();
        let check = pos.is_check();
        let halfmoves = pos.halfmoves();
        if halfmoves == 0 {
            self.captured(index);
        }
        self.entries.push(Entry { hash, halfmoves, m, check, turn: pos.turn() });
        if index > self.short_until {
            self.count_long(hash, index)
        } else {
            self.mark(hash) && self.count_back(hash, index)
        }
    }

    /// A capture led to the entry `index`: the counts begin again.
    #[cold]
    fn captured(&mut self, index: usize) {
        self.limit = LimitCount { upto: index, ..LimitCount::default() };
        self.window = index;
        self.short_until = index + LONG_WINDOW;
        self.seen = [0; 16];
        self.long = None;
    }

    /// The entry `index` (the last) may repeat an earlier one: counts its
    /// occurrences since the count began, the same side to move, so every
    /// second entry; whether it stands for exactly the third time.
    #[cold]
    fn count_back(&mut self, hash: u64, index: usize) -> bool {
        let mut found = [0; 2];
        let mut n = 0;
        let mut i = index;
        while i >= self.window + 2 {
            i -= 2;
            if self.entries[i].hash == hash {
                if n == 2 {
                    return false; // a fourth occurrence at least
                }
                found[n] = i;
                n += 1;
            }
        }
        if n == 2 {
            self.third = Some([found[1], found[0], index]);
        }
        n == 2
    }

    /// Counts the occurrences of `hash` through the hash map of a long
    /// count (made now if need be), the entry `index` pushed last; whether
    /// it stands for exactly the third time.
    #[cold]
    fn count_long(&mut self, hash: u64, index: usize) -> bool {
        self.short_until = 0;
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
        *times == 3 && self.count_back(hash, index)
    }

    /// Plies recorded after the start.
    pub fn plies(&self) -> usize {
        self.entries.len().saturating_sub(1)
    }

    /// When the last position pushed stands for exactly the third time
    /// since the count began (the last capture, or the last
    /// `History::restart_count`): the plies of its three occurrences,
    /// oldest first.
    #[inline]
    pub fn third_occurrence(&self) -> Option<[usize; 3]> {
        self.third.filter(|t| t[2] == self.plies())
    }

    /// Begins the count of occurrences again at the current position: a
    /// repetition judged is not judged again as it goes on.
    pub(crate) fn restart_count(&mut self) {
        let last = self.entries.len() - 1;
        self.window = last;
        self.short_until = last + LONG_WINDOW;
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
    pub(crate) fn hash_at(&self, ply: usize) -> Option<u64> {
        self.entries.get(ply).map(|e| e.hash)
    }

    /// Plies since the last capture that count toward the natural move
    /// limit under the Asian rules: every ply but each side's checks after
    /// its tenth ([`COUNTED_CHECKS`]) and the replies to them (before the
    /// first capture, with the start position's clock).
    pub(crate) fn counted_plies(&self) -> u32 {
        let mut limit = self.limit;
        limit.count(&self.entries);
        limit.counted
    }

    /// Brings the count of [`History::counted_plies`] up to the current
    /// ply, so that asking again costs only the plies pushed since.
    pub(crate) fn count_plies(&mut self) -> u32 {
        self.limit.count(&self.entries);
        self.limit.counted
    }

    /// Plies since the last capture, every ply counted (the start
    /// position's own count included).
    pub(crate) fn plies_since_capture(&self) -> u32 {
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
    fn checks_past_the_tenth_and_their_replies_are_not_counted() {
        // Every Red move checks, every Black move answers: 20 checks in 40
        // plies, of which the first 10 and their replies count.
        let (mut history, mut pos) = play_cycle(ROOK_FEN, &ROOK_CHECKS, 10);
        assert_eq!(history.plies(), 40);
        assert_eq!(history.plies_since_capture(), 40);
        assert_eq!(history.counted_plies(), 20);
        assert_eq!(history.count_plies(), 20);
        // A quiet move counts again.
        let m = Move::new(Square::H8, Square::H7);
        let _ = pos.play(m).unwrap();
        history.push(&pos, m);
        assert_eq!(history.counted_plies(), 21);
    }

    /// The plies counted toward the limit after the last capture, worked
    /// out from the whole game at once.
    fn counted_from_scratch(start: &Position, moves: &[Move]) -> u32 {
        let mut pos = start.clone();
        let (mut counted, mut checks, mut last_check) = (start.halfmoves(), [0u32; 2], start.is_check());
        for &m in moves {
            let mover = pos.turn().index();
            let _ = pos.play_unchecked(m);
            let check = pos.is_check();
            if pos.halfmoves() == 0 {
                (counted, checks) = (0, [0; 2]);
            } else {
                checks[mover] += u32::from(check);
                let late = (check && checks[mover] > COUNTED_CHECKS)
                    || (last_check && checks[1 - mover] > COUNTED_CHECKS);
                counted += u32::from(!late);
            }
            last_check = check;
        }
        counted
    }

    #[test]
    fn the_count_asked_at_any_ply_is_the_count_from_scratch() {
        // Random games with many checks (two rooks and a horse against a
        // bare king and a pawn), asked at every ply, and every few plies
        // kept up to date, across captures.
        let start = Position::from_fen("3k5/9/9/9/4p4/9/9/9/R8/RN2K4 w - - 30 1").unwrap();
        let mut state = 7u64;
        for game in 0..40 {
            let mut pos = start.clone();
            let mut history = History::new(&pos);
            let mut moves = Vec::new();
            for ply in 0..300 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let (next, r) = crate::rules::zobrist::splitmix64(state);
                state = next;
                let m = legal[(r % legal.len() as u64) as usize];
                let _ = pos.play_unchecked(m);
                let _ = history.push(&pos, m);
                moves.push(m);
                let expected = counted_from_scratch(&start, &moves);
                assert_eq!(history.counted_plies(), expected, "game {game} ply {ply}");
                if r % 7 == 0 {
                    assert_eq!(history.count_plies(), expected, "game {game} ply {ply}");
                }
            }
        }
    }

    #[test]
    fn starting_position_alone_repeats_nothing() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        let history = History::new(&pos);
        assert_eq!(history.repetition_of(2), None);
    }
}
