//! Copies found over a whole batch before a command's own pass over it:
//! what leaving copies out needs when the copy kept is not simply the
//! first one met, when truncated copies are looked for, or when matches
//! of several kinds join groups.

use std::convert::Infallible;
use std::sync::Arc;

use super::{Judged, Selection, Selector};
use crate::batch::{Batch, Checked, Event, Input, Status};
use crate::dedupe::{
    Annotations, Collection, Dedupe, Entry, GameKey, Groups, Keep, Keyer, Kinds, Lead, Prefix, Truncation,
};
use crate::record::Visitor;
use crate::record::visit::Map;

/// What [`copies`] tells as it reads, for a progress line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// So many more games read.
    Games(usize),
    /// One more input read to its end.
    InputDone,
    /// The second pass, for truncated copies, begins: it reads again so
    /// many of the inputs (those that may hold one).
    SecondPass(usize),
}

/// The groups of copies among the games of `inputs` that `selection` and
/// `selector` make candidates (they match, and are named, or with
/// `invert` the others), by `kinds`, each keeping the game `keep` says: a
/// plan for [`Selector::planned`] in a second pass over the same inputs
/// with the same selection. The games are numbered as a selector is told
/// them: every game read, and each input that cannot be read at all
/// (one unreadable game); an input that holds no record is none.
///
/// The inputs are read once, or twice for truncated copies (the prefixes
/// of every line looked up among the whole lines); standard input must
/// be kept in a file first ([`Input::KeptStdin`]). `skip` and `limit` are
/// not applied: they count the games left after the copies. `progress`
/// is told what is read (on each pass).
///
/// ```
/// use std::sync::Arc;
/// use qipu::batch::{Batch, Input};
/// use qipu::dedupe::{Keep, Kinds, Verdict};
/// use qipu::select::{copies, Selection, Selector};
/// let dir = std::env::temp_dir().join(format!("qipu-copies-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let line = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9";
/// let path = dir.join("games.pgn");
/// std::fs::write(&path, format!("[Red \"a\"]\n{line} *\n\n[Red \"b\"]\n{{a note}} {line} *\n")).unwrap();
/// let inputs = [Input::File { path, found: false, len: None }];
/// let selector = Selector::default();
/// let selection = Arc::new(Selection::default());
/// let groups = copies(&Batch::new(), &inputs, &selection, &selector, Kinds::default(), Keep::MostAnnotated, |_| ());
/// assert_eq!(groups.verdict(0), Verdict::Copy { group: 0, kept: 1 }); // the second has a comment
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn copies(
    batch: &Batch,
    inputs: &[Input],
    selection: &Arc<Selection>,
    selector: &Selector,
    kinds: Kinds,
    keep: Keep,
    mut progress: impl FnMut(Reading),
) -> Groups {
    let mut finder = CopyFinder::new(kinds);
    let read = batch.run(
        inputs,
        || CopyFinder::visitor(selection, kinds),
        |_, event| {
            match event {
                Event::Games { first, games } => {
                    progress(Reading::Games(games.len()));
                    for (k, judged) in games.into_iter().enumerate() {
                        finder.game(&judged.game, selector.is_candidate(first + k, judged.matches));
                    }
                }
                Event::Unreadable(_) => finder.unreadable(),
                Event::Done => {
                    finder.input_done();
                    progress(Reading::InputDone);
                }
                Event::NoRecord(_) => {}
            }
            Ok::<(), Infallible>(())
        },
    );
    let Ok(()) = read;
    finder.find_truncated(batch, inputs, progress);
    finder.groups(keep)
}

/// What the first pass of a [`CopyFinder`] makes of a game
/// ([`CopyFinder::visitor`]): its check, following its main line's key
/// and its lead and mirrored lead (see [`Lead`]), and how annotated it is
/// (see [`Annotations`]).
pub type Keyed = (Checked<(Option<GameKey>, Option<(u32, u32)>)>, u32);

/// Where each input's games stand in a batch's numbering of its games:
/// every game read, and each input that cannot be read (further) as one
/// more, in input order, from 0.
#[derive(Clone, Debug, Default)]
pub struct Numbering {
    /// For each input done: the number of games before the next input.
    ends: Vec<u32>,
}

impl Numbering {
    /// The input that holds game `game` (the number of inputs told if
    /// none does).
    pub fn input_of(&self, game: u32) -> usize {
        self.ends.partition_point(|&end| end <= game)
    }

    /// The number of the first game of input `input`.
    pub fn first(&self, input: usize) -> u32 {
        match input.checked_sub(1) {
            Some(before) => self.ends.get(before).copied().unwrap_or_else(|| self.games()),
            None => 0,
        }
    }

    /// Game `game` as its input (the last told, for a game past the end)
    /// and its index there, from 0.
    pub fn place(&self, game: u32) -> (usize, usize) {
        let input = self.input_of(game).min(self.ends.len().saturating_sub(1));
        (input, game.saturating_sub(self.first(input)) as usize)
    }

    /// How many games the inputs told hold.
    pub fn games(&self) -> u32 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The inputs that hold any of `games`, in input order.
    pub fn holding(&self, games: impl IntoIterator<Item = u32>) -> Vec<usize> {
        let mut inputs: Vec<usize> =
            games.into_iter().map(|g| self.input_of(g)).filter(|&i| i < self.ends.len()).collect();
        inputs.sort_unstable();
        inputs.dedup();
        inputs
    }

    /// Reads again, with visitors from `make`, the inputs that hold any of
    /// `games` (in input order), and tells `each` every game of them with
    /// its number, and `progress` what is read; the inputs must be those
    /// numbered, read the same way. It stops at the first error `each`
    /// returns.
    ///
    /// # Errors
    ///
    /// The first error `each` returns.
    pub fn reread<V, E>(
        &self,
        batch: &Batch,
        inputs: &[Input],
        games: impl IntoIterator<Item = u32>,
        make: impl Fn() -> V + Sync,
        mut each: impl FnMut(u32, V::Output) -> Result<(), E>,
        mut progress: impl FnMut(Reading),
    ) -> Result<(), E>
    where
        V: Visitor,
        V::Output: Send,
    {
        let read: Vec<usize> = self.holding(games).into_iter().filter(|&i| i < inputs.len()).collect();
        let Some(&last) = read.last() else { return Ok(()) };
        let subset: Vec<Input> = read.iter().map(|&i| inputs[i].clone()).collect();
        let mut done = 0;
        batch.run(&subset, make, |_, event| {
            let first_game = self.first(read.get(done).copied().unwrap_or(last));
            match event {
                Event::Games { first, games } => {
                    progress(Reading::Games(games.len()));
                    for (k, game) in games.into_iter().enumerate() {
                        each(first_game.saturating_add((first + k) as u32), game)?;
                    }
                }
                Event::Done => {
                    done += 1;
                    progress(Reading::InputDone);
                }
                Event::Unreadable(_) | Event::NoRecord(_) => {}
            }
            Ok(())
        })
    }
}

/// The groups of copies of a batch in the making: the first pass over
/// the batch tells each game's [`Keyed`] (read with
/// [`visitor`](CopyFinder::visitor)) to [`game`](CopyFinder::game), and
/// each input that cannot be read and each input's end; then
/// [`find_truncated`](CopyFinder::find_truncated) reads again what
/// truncated copies need, and [`groups`](CopyFinder::groups) gives the
/// groups. [`copies`] is the whole; a command that tells each game as it
/// is read runs the first pass itself.
///
/// ```
/// use std::sync::Arc;
/// use qipu::batch::Batch;
/// use qipu::dedupe::{Keep, Kinds, Verdict};
/// use qipu::select::{CopyFinder, Selection};
/// let line = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9";
/// let text = format!("{line} *\n\n1. h2e2 *\n\n{line} *\n");
/// let (kinds, selection) = (Kinds::default(), Arc::new(Selection::default()));
/// let mut finder = CopyFinder::new(kinds);
/// for judged in qipu::formats::pgn::read_with(&text, &mut CopyFinder::visitor(&selection, kinds)) {
///     finder.game(&judged.game, true);
/// }
/// finder.input_done();
/// finder.find_truncated(&Batch::new(), &[], |_| ()); // not looked for: nothing read
/// let groups = finder.groups(Keep::First);
/// assert_eq!(groups.verdict(2), Verdict::Copy { group: 0, kept: 0 });
/// assert_eq!((finder.keyed(), finder.numbering().place(2)), (2, (0, 2)));
/// ```
#[derive(Debug)]
pub struct CopyFinder {
    kinds: Kinds,
    collection: Collection,
    /// With truncated: each game's lead and mirrored lead (see [`Truncation`]).
    leads: Vec<(u32, u32)>,
    numbering: Numbering,
    keyed: u64,
}

impl CopyFinder {
    /// A finder of copies by `kinds`, before the first pass.
    pub fn new(kinds: Kinds) -> CopyFinder {
        let kinds = Kinds { min_plies: kinds.min_plies.max(1), ..kinds };
        CopyFinder {
            kinds,
            collection: Collection::new(kinds),
            leads: Vec::new(),
            numbering: Numbering::default(),
            keyed: 0,
        }
    }

    /// The visitor the first pass reads each game with: the game judged
    /// by `selection`, its main line keyed and its lead followed (of
    /// `kinds.min_plies` plies), its annotations counted.
    pub fn visitor(selection: &Arc<Selection>, kinds: Kinds) -> impl Visitor<Output = Judged<Keyed>> + use<> {
        let follow = (Keyer::default(), Lead::new(kinds.min_plies.max(1)));
        let keyed = Annotations::new(selection.checker_keeping(follow, &[]));
        Map::new(keyed, |(judged, annotation): (Judged<_>, u32)| Judged {
            matches: judged.matches,
            key: judged.key,
            game: (judged.game, annotation),
        })
    }

    /// Takes in the first pass's next game: a copy or the copied only if
    /// it is a `candidate` (and readable), else numbered only.
    pub fn game(&mut self, (checked, annotation): &Keyed, candidate: bool) {
        let (key, lead) = checked.followed;
        let key = key.filter(|_| candidate && checked.status != Status::Unreadable);
        self.keyed += u64::from(key.is_some_and(|k| k.plies >= self.kinds.min_plies));
        self.collection.push(Entry { key: key.unwrap_or_default(), annotation: *annotation });
        if self.kinds.truncated {
            self.leads.push(lead.unwrap_or_default());
        }
    }

    /// Takes in an input that cannot be read (further): one more game,
    /// never a copy.
    pub fn unreadable(&mut self) {
        self.collection.push(Entry::default());
        if self.kinds.truncated {
            self.leads.push((0, 0));
        }
    }

    /// The first pass is done with an input.
    pub fn input_done(&mut self) {
        self.numbering.ends.push(self.collection.len() as u32);
    }

    /// The pass for truncated copies, once the first is done (nothing if
    /// they are not looked for): the inputs that hold a game whose lead
    /// another game shares (or its mirrored lead) are read again with
    /// `batch`, and each game's prefixes looked up among the whole lines
    /// (only as long as that may find one). `inputs` are the first
    /// pass's; `progress` is told [`Reading::SecondPass`] first, then what
    /// is read.
    pub fn find_truncated(&mut self, batch: &Batch, inputs: &[Input], mut progress: impl FnMut(Reading)) {
        if !self.kinds.truncated {
            return;
        }
        let plan = Truncation::plan(&self.collection, &self.leads, self.kinds);
        self.leads = Vec::new();
        progress(Reading::SecondPass(self.numbering.holding(plan.holders().iter().copied()).len()));
        let collection = &mut self.collection;
        let found = |game: u32, prefixes: Vec<Prefix>| {
            collection.prefixes(game, &prefixes);
            Ok::<(), Infallible>(())
        };
        let read = self.numbering.reread(
            batch,
            inputs,
            plan.holders().iter().copied(),
            || plan.scan(),
            found,
            progress,
        );
        let Ok(()) = read;
    }

    /// The groups found, each keeping the game `keep` says.
    pub fn groups(&self, keep: Keep) -> Groups {
        self.collection.groups(keep)
    }

    /// The main line's plies of `game` as keyed (0 for a game without a
    /// key, or not a candidate).
    pub fn plies(&self, game: u32) -> u32 {
        self.collection.plies(game)
    }

    /// How many games taken in are candidates with a key long enough
    /// to match (`kinds.min_plies` plies or more).
    pub fn keyed(&self) -> u64 {
        self.keyed
    }

    /// Where each input's games stand.
    pub fn numbering(&self) -> &Numbering {
        &self.numbering
    }

    /// The numbering, the games' entries let go.
    pub fn into_numbering(self) -> Numbering {
        self.numbering
    }
}

/// A reference collection's games, taken in to find copies of them
/// ([`Selector::known`]): every game of `inputs` with a key (its start a
/// legal position; its main line up to a wrong move, if any), by `kinds`
/// (truncated copies are not looked for), and how many games were read
/// and how many could not be.
#[derive(Clone, Debug)]
pub struct Known {
    /// The games' keys.
    pub games: Dedupe,
    /// Games read (an input that cannot be read counts as one).
    pub read: u64,
    /// Of these, the games that could not be read or have no key.
    pub unkeyed: u64,
}

/// Reads the reference collection `inputs` (see [`Known`]), telling
/// `progress` what is read.
///
/// ```
/// use qipu::batch::{Batch, Input};
/// use qipu::dedupe::Kinds;
/// let dir = std::env::temp_dir().join(format!("qipu-known-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("reference.pgn");
/// std::fs::write(&path, "1. h2e2 h9g7 2. h0g2 *\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n").unwrap();
/// let inputs = [Input::File { path, found: false, len: None }];
/// let known = qipu::select::known(&Batch::new(), &inputs, Kinds::default(), |_| ());
/// assert_eq!((known.read, known.unkeyed), (2, 0));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn known(batch: &Batch, inputs: &[Input], kinds: Kinds, mut progress: impl FnMut(Reading)) -> Known {
    let mut known = Known { games: Dedupe::new(kinds), read: 0, unkeyed: 0 };
    let read = batch.run(
        inputs,
        || crate::batch::Checker::following(Keyer::default()),
        |_, event| {
            match event {
                Event::Games { games, .. } => {
                    progress(Reading::Games(games.len()));
                    for checked in games {
                        known.read += 1;
                        match checked.followed.filter(|_| checked.status != Status::Unreadable) {
                            // A copy within the reference is taken in once.
                            Some(key) => {
                                known.games.next(Some(&key));
                            }
                            None => known.unkeyed += 1,
                        }
                    }
                }
                Event::Unreadable(_) => {
                    known.read += 1;
                    known.unkeyed += 1;
                }
                Event::Done => progress(Reading::InputDone),
                Event::NoRecord(_) => {}
            }
            Ok::<(), Infallible>(())
        },
    );
    let Ok(()) = read;
    known
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dedupe::{Verdict, Why};

    #[test]
    fn truncated_copies_are_found_in_the_inputs_that_hold_them_only() {
        let dir = std::env::temp_dir().join(format!("qipu-copies-truncated-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let line = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9";
        let longer = format!("{line} 6. g6g7 b9b5 *");
        // a: a short game and a line; b: unreadable; c: nothing alike;
        // d: the line made longer, behind another game.
        std::fs::write(dir.join("a.pgn"), format!("1. h2e2 *\n\n{line} *\n")).unwrap();
        std::fs::write(dir.join("b.xqf"), "not a record").unwrap();
        std::fs::write(dir.join("c.pgn"), "1. b2e2 b9c7 2. b0c2 *\n").unwrap();
        std::fs::write(dir.join("d.pgn"), format!("1. c3c4 *\n\n{longer}\n")).unwrap();
        let inputs = crate::batch::expand(std::slice::from_ref(&dir)).inputs;
        let kinds = Kinds { line: true, truncated: true, ..Kinds::default() };
        let mut told = Vec::new();
        let groups = copies(
            &Batch::new(),
            &inputs,
            &Arc::new(Selection::default()),
            &Selector::default(),
            kinds,
            Keep::First,
            |r| told.push(r),
        );
        // Games: a 0, a 1, b (one), c 0, d 0, d 1; a and d only, which
        // hold the two games of the same lead, are read again.
        assert_eq!(groups.verdict(1), Verdict::Copy { group: 0, kept: 5 });
        assert_eq!(groups.groups()[0].members.iter().map(|m| m.game).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(groups.groups()[0].members[0].link.map(|l| l.why), Some(Why::Truncated));
        let second = told.iter().position(|r| *r == Reading::SecondPass(2)).unwrap();
        assert_eq!(told[second + 1..].iter().filter(|&&r| r == Reading::InputDone).count(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
