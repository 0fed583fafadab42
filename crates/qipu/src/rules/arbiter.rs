//! The rules beyond legal moves followed through a game: every repetition
//! ruled as it happens ([`judge`](super::judge)), the natural move limit
//! and the dead draw.

use super::judge::{RuleSet, Ruling, judge};
use super::{History, Move, NATURAL_MOVE_LIMIT, Position};

/// Follows a game move by move and rules on it as an arbiter would: each
/// time a position stands for the third time (since the last capture, or
/// since the last ruling) the repetition is judged; the ply at which the
/// natural move limit is reached, and the one at which the material left
/// can no longer win, are noted.
///
/// ```
/// use qipu::{Color, Move, Position};
/// use qipu::rules::Arbiter;
/// use qipu::rules::judge::{RuleSet, Verdict, Violation};
/// let mut pos = Position::from_fen("3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1").unwrap();
/// let mut arbiter = Arbiter::new(RuleSet::Asian, &pos);
/// for m in "g5g9 f5f9 g9g5 f9f5 g5g9 f5f9 g9g5 f9f5 g5g9".split(' ') {
///     let m: Move = m.parse().unwrap();
///     let _ = pos.play(m).unwrap();
///     arbiter.push(&pos, m);
/// }
/// let ruling = arbiter.final_ruling().unwrap();
/// assert_eq!((ruling.plies, ruling.end), ([0, 4, 8], 8));
/// assert_eq!(ruling.verdict, Verdict::Loses(Color::Red));
/// assert_eq!(ruling.kind(), Some(Violation::PerpetualCheck));
/// ```
#[derive(Clone, Debug)]
pub struct Arbiter {
    rules: RuleSet,
    history: History,
    rulings: Vec<Ruling>,
    move_limit_at: Option<usize>,
    dead_draw_at: Option<usize>,
}

impl Arbiter {
    /// An arbiter by `rules` for a game starting at `start`.
    pub fn new(rules: RuleSet, start: &Position) -> Arbiter {
        let mut arbiter = Arbiter {
            rules,
            history: History::new(start),
            rulings: Vec::new(),
            move_limit_at: None,
            dead_draw_at: None,
        };
        arbiter.reset(start);
        arbiter
    }

    /// Starts again at `start` (keeping the room made so far).
    pub(crate) fn reset(&mut self, start: &Position) {
        self.history.reset(start);
        self.rulings.clear();
        self.move_limit_at = None;
        self.dead_draw_at = if start.is_dead_draw() { Some(0) } else { None };
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Sets the rule set, for the next game.
    pub(crate) fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    /// The positions so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Follows the move `m`, which led to `pos`.
    #[inline(always)]
    pub fn push(&mut self, pos: &Position, m: Move) {
        let third = self.history.push(pos, m);
        // Most plies: no repetition, no capture, the move limit far off.
        // A capture (0) or the limit reached, in one comparison.
        let unusual_clock = pos.halfmoves().wrapping_sub(1) >= NATURAL_MOVE_LIMIT - 1;
        if third | unusual_clock {
            self.note(pos, third);
        }
    }

    /// What [`Arbiter::push`] notes after a third occurrence, a capture,
    /// or near the natural move limit.
    #[cold]
    #[inline(never)]
    fn note(&mut self, pos: &Position, third: bool) {
        if third && let Some(plies) = self.history.third_occurrence() {
            self.rule(pos, plies);
        }
        // No count exceeds the plies since the last capture.
        if pos.halfmoves() >= NATURAL_MOVE_LIMIT && self.move_limit_at.is_none() {
            let count = match self.rules {
                RuleSet::Asian => self.history.count_plies(),
                RuleSet::Chinese => self.history.plies_since_capture(),
            };
            if count >= NATURAL_MOVE_LIMIT {
                self.move_limit_at = Some(self.history.plies());
            }
        }
        if self.dead_draw_at.is_none() && pos.halfmoves() == 0 && pos.is_dead_draw() {
            self.dead_draw_at = Some(self.history.plies());
        }
    }

    /// Judges the repetition whose occurrences are at `plies`, `pos` being
    /// the position that stands there.
    #[cold]
    fn rule(&mut self, pos: &Position, plies: [usize; 3]) {
        let moves: Vec<Move> = self.history.moves(plies[0], plies[2]).collect();
        // The position now is the one the cycle began with.
        if let Some(ruling) = judge(self.rules, pos, &moves, plies[0]) {
            match self.rulings.last_mut() {
                // The same repetition going on, to the same verdict.
                Some(last)
                    if last.end == plies[0]
                        && last.verdict == ruling.verdict
                        && last
                            .sides
                            .iter()
                            .map(|s| s.violation)
                            .eq(ruling.sides.iter().map(|s| s.violation)) =>
                {
                    last.end = plies[2];
                }
                _ => self.rulings.push(ruling),
            }
        }
        self.history.restart_count();
    }

    /// The plies since the last capture that count toward the natural move
    /// limit under the rule set (with a FEN's clock before the first
    /// capture): under the Asian rules each side's checks after its tenth
    /// and the replies to them do not count; under the Chinese rules every
    /// ply counts.
    pub(crate) fn limit_count(&self) -> u32 {
        match self.rules {
            RuleSet::Asian => self.history.counted_plies(),
            RuleSet::Chinese => self.history.plies_since_capture(),
        }
    }

    /// Every repetition ruled so far, in order.
    pub fn rulings(&self) -> &[Ruling] {
        &self.rulings
    }

    /// Takes the rulings made (for the next game, [`Arbiter::reset`]).
    pub(crate) fn take_rulings(&mut self) -> Vec<Ruling> {
        std::mem::take(&mut self.rulings)
    }

    /// The ruling the game ends in: the last one, when the current position
    /// stood within its cycle and no capture has been made since.
    pub fn final_ruling(&self) -> Option<&Ruling> {
        let last = self.rulings.last()?;
        let now = self.history.plies();
        if now < last.end || (self.history.plies_since_capture() as usize) < now - last.plies[0] {
            return None;
        }
        let hash = self.history.hash_at(now)?;
        (last.plies[0]..=last.end).any(|p| self.history.hash_at(p) == Some(hash)).then_some(last)
    }

    /// The first ply at which the natural move limit was reached.
    pub fn move_limit_at(&self) -> Option<usize> {
        self.move_limit_at
    }

    /// The first ply at which neither side had material left that can win
    /// (`Position::is_dead_draw`); 0 for a start position so.
    pub fn dead_draw_at(&self) -> Option<usize> {
        self.dead_draw_at
    }
}
