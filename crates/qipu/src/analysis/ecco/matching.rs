//! A code's lines, and whether a game follows one: its fixed plies, the
//! position it starts from, and its later moves, each side playing before
//! each only the moves its list allows ([`super::grammar`] reads the
//! definitions into lines).

use super::key::MoveKey;

/// A move a line asks of one side at some later ply (a lettered step,
/// `n. 炮八平六`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Later {
    /// The moves that play it (`马八进七／马八进九`: either).
    pub moves: Vec<MoveKey>,
    /// The written sequence it belongs to: `OPENING` for a subgroup's
    /// opening, or for the code's own steps when it continues none;
    /// `OWN` for the code's own steps after a subgroup's opening.
    pub sequence: usize,
    /// Its place in its sequence: it comes after the moves of its sequence
    /// with a lower place; moves of one place (those written before a
    /// `(不分先后)`) come in any order.
    pub place: u16,
    /// The other side's later move that this one answers: it is played on
    /// the ply right after that one.
    pub answers: Option<usize>,
    /// The moves the side may play before this one (`None`: any): the
    /// list of the `(此前可走 …)` clause written after it.
    pub allowed: Option<Vec<MoveKey>>,
}

/// The most later moves a line asks of one side (the table asks at most
/// four; [`lines`](super::grammar::lines) checks it).
pub(crate) const MAX_LATER: usize = 8;

/// The sequence of a subgroup's opening (or of a code that continues none).
pub(crate) const OPENING: usize = 0;
/// The sequence of a code's own steps after its subgroup's opening.
pub(crate) const OWN: usize = 1;

/// One way a game can match a code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves at fixed plies: the ply, and the moves allowed there.
    pub fixed: Vec<(usize, Vec<MoveKey>)>,
    /// For each side (Red, Black), the moves it plays at some later ply.
    pub later: [Vec<Later>; 2],
    /// For each sequence and side, the first ply at which its later moves
    /// are looked for: the one after the sequence's own numbered moves.
    pub from: [[usize; 2]; 2],
    /// The plies the subgroup's opening fixes: to the code's own sequence
    /// they are moves of the opening, not moves before its own.
    pub(crate) opening_plies: Vec<usize>,
    /// The first Red and Black moves, in any order.
    pub position: Option<[Vec<MoveKey>; 2]>,
    /// Whether each of those first moves is only one of the position's,
    /// as often as it comes (numbered moves `(不分先后)`, as xqbase's
    /// classifier reads them), rather than the position's moves each once
    /// (`从C20局面开始`).
    pub(crate) loose_position: bool,
}

impl Line {
    /// How much of a game this line pins down: a match of a more specific
    /// line beats that of a less specific one.
    /// A move at a fixed ply pins down more than one played at some ply.
    pub fn weight(&self) -> u32 {
        let mut w = 3 * self.fixed.len() as u32;
        w += 2 * (self.later[0].len() + self.later[1].len()) as u32;
        if let Some([red, black]) = &self.position {
            w += 3 * (red.len() + black.len()) as u32;
        }
        w
    }

    /// Whether the game whose first plies have `keys` follows this line.
    pub fn matches(&self, keys: &[MoveKey]) -> bool {
        self.start_matches(keys) && self.later_moves_match(keys)
    }

    /// Whether the fixed plies and the position match.
    fn start_matches(&self, keys: &[MoveKey]) -> bool {
        if !self.fixed.iter().all(|(ply, allowed)| keys.get(*ply).is_some_and(|k| allowed.contains(k))) {
            return false;
        }
        let Some(position) = &self.position else { return true };
        // The positions all grow out of the first Red move of their set
        // (炮二平五): the family is chosen on it first (§6.2, item 4).
        if position[0].first().is_some_and(|first| keys.first() != Some(first)) {
            return false;
        }
        position.iter().enumerate().all(|(side, set)| {
            let plies = || keys.iter().skip(side).step_by(2).take(set.len());
            plies().count() == set.len()
                && if self.loose_position {
                    plies().all(|k| set.contains(k))
                } else {
                    same_multiset(plies(), set)
                }
        })
    }

    /// Whether the later moves are all played, each side playing before
    /// each only the moves its list allows.
    fn later_moves_match(&self, keys: &[MoveKey]) -> bool {
        let mut progress = Progress { line: self, found: [[None; MAX_LATER]; 2] };
        let mut left = self.later[0].len() + self.later[1].len();
        for (ply, key) in keys.iter().enumerate() {
            if left == 0 {
                break;
            }
            let side = ply % 2;
            let hit = progress.hits(side, ply, key);
            if progress.answer_missed(side, ply, hit) || !progress.allows(side, ply, key, hit) {
                return false;
            }
            for i in hit.into_iter().flatten() {
                progress.found[side][i] = Some(ply);
                left -= 1;
            }
        }
        left == 0
    }
}

/// How far a game has come through a line's later moves.
struct Progress<'a> {
    line: &'a Line,
    /// For each side and later move, the ply it was played on.
    found: [[Option<usize>; MAX_LATER]; 2],
}

impl Progress<'_> {
    /// Whether later move `i` of `side` answers the other side's move of
    /// the ply before `ply`.
    fn due(&self, side: usize, i: usize, ply: usize) -> bool {
        let answers = self.line.later[side][i].answers;
        answers.is_some_and(|j| self.found[1 - side][j].is_some_and(|p| p + 1 == ply))
    }

    /// Whether later moves of `sequence` are looked for at `ply`.
    fn scanned(&self, side: usize, sequence: usize, ply: usize) -> bool {
        ply >= self.line.from[sequence][side]
    }

    /// Whether later move `i` of `side` may be played at `ply`: not played
    /// yet, looked for, after those of its sequence with a lower place, and
    /// right after the move it answers.
    fn ready(&self, side: usize, i: usize, ply: usize) -> bool {
        let steps = &self.line.later[side];
        let step = &steps[i];
        let before_done = (0..i).all(|j| {
            steps[j].sequence != step.sequence
                || steps[j].place >= step.place
                || self.found[side][j].is_some()
        });
        self.found[side][i].is_none()
            && self.scanned(side, step.sequence, ply)
            && before_done
            && (step.answers.is_none() || self.due(side, i, ply))
    }

    /// For each sequence, the later move of `side` that `key` plays at
    /// `ply`, if any.
    fn hits(&self, side: usize, ply: usize, key: &MoveKey) -> [Option<usize>; 2] {
        let steps = &self.line.later[side];
        [OPENING, OWN].map(|sequence| {
            (0..steps.len()).find(|&i| {
                steps[i].sequence == sequence && steps[i].moves.contains(key) && self.ready(side, i, ply)
            })
        })
    }

    /// Whether a move that had to answer the other side's last move is not
    /// the one played (`hit`).
    fn answer_missed(&self, side: usize, ply: usize, hit: [Option<usize>; 2]) -> bool {
        (0..self.line.later[side].len())
            .any(|i| self.found[side][i].is_none() && self.due(side, i, ply) && !hit.contains(&Some(i)))
    }

    /// Whether every later move of `side` still to come allows `key` before
    /// it: its list names it, or it plays a later move of its sequence
    /// (`hit`), or one played already (a pawn's next step), or, for the
    /// code's own moves, a move the subgroup's opening names.
    fn allows(&self, side: usize, ply: usize, key: &MoveKey, hit: [Option<usize>; 2]) -> bool {
        let steps = &self.line.later[side];
        let opening_move = || self.line.opening_plies.contains(&ply) || hit[OPENING].is_some();
        let again =
            || (0..steps.len()).any(|j| self.found[side][j].is_some() && steps[j].moves.contains(key));
        steps.iter().enumerate().all(|(i, step)| {
            self.found[side][i].is_some()
                || step.allowed.as_ref().is_none_or(|allowed| allowed.contains(key))
                || !self.scanned(side, step.sequence, ply)
                || hit[step.sequence].is_some()
                || (step.sequence == OWN && opening_move())
                || again()
        })
    }
}

/// Whether `played` holds the moves of `set` (at most [`MAX_LATER`] * 2),
/// as many times each.
fn same_multiset<'a>(mut played: impl Iterator<Item = &'a MoveKey>, set: &[MoveKey]) -> bool {
    let mut used = [false; 2 * MAX_LATER];
    played.all(|k| match (0..set.len()).find(|&i| !used[i] && set[i] == *k) {
        Some(i) => {
            used[i] = true;
            true
        }
        None => false,
    })
}
