//! The part of a selection that depends on the games' order: numbers
//! within an input, `--invert`, and `--skip` / `--limit` over the stream.

use super::GameNumbers;
use crate::dedupe::{Dedupe, GameKey, Groups, Verdict};

/// How a selector finds the copies it leaves out.
#[derive(Clone, Debug)]
enum Copies {
    /// As the games come, the first of each group kept.
    Stream(Dedupe),
    /// By a plan made over all the games before (game `n`: the `n`-th
    /// game told).
    Planned(Groups),
}

/// Decides, game by game in input order, which games are selected: a
/// game is a candidate when it matches the criteria and its number in its
/// input is named (`games`); `invert` turns that round; of the
/// candidates, the first `skip` are left out and at most `limit` taken.
/// It counts the games read and selected.
#[derive(Clone, Debug, Default)]
pub struct Selector {
    games: Option<GameNumbers>,
    invert: bool,
    skip: u64,
    limit: Option<u64>,
    dedupe: Option<Copies>,
    copies: u64,
    /// The games of a reference collection: a game that is a copy of one
    /// is left out.
    known: Option<Dedupe>,
    /// Games left out as copies of the reference collection's.
    known_copies: u64,
    read: u64,
    candidates: u64,
    selected: u64,
}

impl Selector {
    /// A selector of the games numbered `games` in their inputs (all when
    /// `None`), or with `invert` of the others, leaving out the first `skip`
    /// candidates and taking at most `limit`.
    pub fn new(games: Option<GameNumbers>, invert: bool, skip: u64, limit: Option<u64>) -> Selector {
        Selector { games, invert, skip, limit, ..Selector::default() }
    }

    /// Leaves out each game that is a copy of one selected before it (by
    /// `dedupe`), after `invert` and before `skip` and `limit`.
    pub fn dedupe(mut self, dedupe: Dedupe) -> Selector {
        self.dedupe = Some(Copies::Stream(dedupe));
        self
    }

    /// Leaves out each game that is a copy of one `known` has taken in (a
    /// reference collection's games, by its kinds), after `invert` and
    /// before the copies among the games told and `skip` and `limit`.
    ///
    /// ```
    /// use qipu::dedupe::{Dedupe, GameKey, Kinds};
    /// use qipu::select::Selector;
    /// let key = |line| GameKey { line, plies: 20, ..GameKey::default() };
    /// let mut known = Dedupe::new(Kinds::default());
    /// known.next(Some(&key(7)));
    /// let mut selector = Selector::default().known(known);
    /// assert!(!selector.take_keyed(0, true, Some(&key(7))));
    /// assert!(selector.take_keyed(1, true, Some(&key(8))));
    /// assert!(selector.take_keyed(2, true, Some(&key(8)))); // no --dedupe: copies among them stay
    /// assert_eq!((selector.known_copies(), selector.selected()), (1, 2));
    /// ```
    pub fn known(mut self, known: Dedupe) -> Selector {
        self.known = Some(known);
        self
    }

    /// Leaves out each game that `groups` says is a copy, after `invert`
    /// and before `skip` and `limit`; the games are numbered from 0 in the
    /// order they are told, as in a [`copies`](super::copies) plan made
    /// with this selector. Keys told are then not looked at.
    pub fn planned(mut self, groups: Groups) -> Selector {
        self.dedupe = Some(Copies::Planned(groups));
        self
    }

    /// Whether the game numbered `index` (0-based) in its input, which
    /// `matches` the criteria or not, is a candidate: selected unless it
    /// is a copy or `skip` and `limit` leave it out.
    pub(crate) fn is_candidate(&self, index: usize, matches: bool) -> bool {
        let named = self.games.as_ref().is_none_or(|g| g.contains(index as u64 + 1));
        (matches && named) != self.invert
    }

    /// Whether the game numbered `index` (0-based) in its input, which
    /// `matches` the criteria or not, is selected.
    pub fn take(&mut self, index: usize, matches: bool) -> bool {
        self.take_keyed(index, matches, None)
    }

    /// [`Selector::take`] for a game with its main line's `key` (for
    /// [`Selector::dedupe`]; a game without one is never a copy).
    pub fn take_keyed(&mut self, index: usize, matches: bool, key: Option<&GameKey>) -> bool {
        let game = self.read;
        self.read += 1;
        if !self.is_candidate(index, matches) {
            return false;
        }
        if self.known.as_ref().is_some_and(|known| known.find(key).is_some()) {
            self.known_copies += 1;
            return false;
        }
        let copy = match &mut self.dedupe {
            None => false,
            Some(Copies::Stream(dedupe)) => dedupe.next(key).is_some(),
            Some(Copies::Planned(groups)) => {
                u32::try_from(game).is_ok_and(|g| groups.verdict(g) != Verdict::Keep)
            }
        };
        if copy {
            self.copies += 1;
            return false;
        }
        self.take_candidate()
    }

    /// Games left out as copies so far (not counting those of the
    /// reference collection).
    pub fn copies(&self) -> u64 {
        self.copies
    }

    /// Games left out so far as copies of the reference collection's
    /// ([`Selector::known`]).
    pub fn known_copies(&self) -> u64 {
        self.known_copies
    }

    /// Whether a game that is a candidate (it matched, and is no copy to
    /// leave out) is selected, by `skip` and `limit`.
    fn take_candidate(&mut self) -> bool {
        self.candidates += 1;
        if self.candidates <= self.skip || self.limit.is_some_and(|l| self.selected >= l) {
            return false;
        }
        self.selected += 1;
        true
    }

    /// Whether the limit is reached: no later game can be selected.
    pub fn is_full(&self) -> bool {
        self.limit.is_some_and(|l| self.selected >= l)
    }

    /// Whether it selects every game whatever the criteria say.
    pub fn is_empty(&self) -> bool {
        self.games.is_none()
            && !self.invert
            && self.skip == 0
            && self.limit.is_none()
            && self.dedupe.is_none()
            && self.known.is_none()
    }

    /// Games told so far.
    pub fn read(&self) -> u64 {
        self.read
    }

    /// Games selected so far.
    pub fn selected(&self) -> u64 {
        self.selected
    }

    /// Games left out so far.
    pub fn left_out(&self) -> u64 {
        self.read - self.selected
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_invert_skip_limit() {
        let run = |mut s: Selector, matches: &[bool]| -> Vec<usize> {
            (0..matches.len()).filter(|&k| s.take(k, matches[k])).collect()
        };
        let all = [true; 8];
        assert_eq!(run(Selector::default(), &all), [0, 1, 2, 3, 4, 5, 6, 7]);
        let games = Some("2,4-5".parse().unwrap());
        assert_eq!(run(Selector::new(games.clone(), false, 0, None), &all), [1, 3, 4]);
        assert_eq!(run(Selector::new(games, true, 0, None), &all), [0, 2, 5, 6, 7]);
        let some = [true, false, true, true, false, true, true, true];
        assert_eq!(run(Selector::new(None, false, 1, Some(3)), &some), [2, 3, 5]);
        assert_eq!(run(Selector::new(None, true, 0, None), &some), [1, 4]);
        let mut s = Selector::new(None, false, 0, Some(1));
        assert!(s.take(0, true) && s.is_full() && !s.take(1, true));
        assert_eq!((s.read(), s.selected(), s.left_out()), (2, 1, 1));
    }

    #[test]
    fn a_planned_selector_leaves_out_the_copies_by_the_number_of_the_game_told() {
        use crate::dedupe::{Collection, Entry, Keep, Kinds};
        let entry = |line, plies| Entry { key: GameKey { line, plies, ..GameKey::default() }, annotation: 0 };
        let mut collection = Collection::new(Kinds::default());
        // Game 1 is no candidate (it gets no key); 2 and 4 are copies of 0, 5 of 3.
        for e in [entry(7, 20), Entry::default(), entry(7, 20), entry(8, 30), entry(7, 20), entry(8, 30)] {
            collection.push(e);
        }
        let groups = collection.groups(Keep::First);
        let mut s = Selector::new(None, false, 1, None).planned(groups);
        let matches = [true, false, true, true, true, true];
        let taken: Vec<usize> = (0..6).filter(|&k| s.take_keyed(k, matches[k], None)).collect();
        // Game 0 is skipped (--skip 1 counts the games left after the copies).
        assert_eq!(taken, [3]);
        assert_eq!((s.read(), s.selected(), s.copies()), (6, 1, 3));
        assert!(s.is_candidate(0, true) && !s.is_candidate(1, false));
    }
}
