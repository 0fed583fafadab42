//! Copies found over a whole batch before a command's own pass over it:
//! what leaving copies out needs when the copy kept is not simply the
//! first one met, when truncated copies are looked for, or when matches
//! of several kinds join groups.

use std::convert::Infallible;
use std::sync::Arc;

use super::{Selection, Selector};
use crate::batch::{Batch, Event, Input, Status};
use crate::dedupe::{Annotations, Collection, Dedupe, Entry, Groups, Keep, Keyer, Kinds, Lead, Truncation};

/// What [`copies`] tells as it reads, for a progress line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// So many more games read.
    Games(usize),
    /// One more input read to its end.
    InputDone,
    /// The second pass, for truncated copies, begins.
    SecondPass,
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
    let mut collection = Collection::new(kinds);
    // With truncated: each game's lead and mirrored lead (see `Truncation`).
    let mut leads: Vec<(u32, u32)> = Vec::new();
    let read = batch.run(
        inputs,
        || Annotations::new(selection.checker((Keyer::default(), Lead::new(kinds.min_plies)))),
        |_, event| {
            match event {
                Event::Games { first, games } => {
                    progress(Reading::Games(games.len()));
                    for (k, (judged, annotation)) in games.into_iter().enumerate() {
                        let checked = judged.game;
                        let keyed = selector.is_candidate(first + k, judged.matches)
                            && checked.status != Status::Unreadable;
                        let (key, lead) = checked.followed;
                        collection.push(Entry { key: key.filter(|_| keyed).unwrap_or_default(), annotation });
                        if kinds.truncated {
                            leads.push(lead.unwrap_or_default());
                        }
                    }
                }
                Event::Unreadable(_) => {
                    collection.push(Entry::default());
                    if kinds.truncated {
                        leads.push((0, 0));
                    }
                }
                Event::Done => progress(Reading::InputDone),
                Event::NoRecord(_) => {}
            }
            Ok::<(), Infallible>(())
        },
    );
    let Ok(()) = read;
    if kinds.truncated {
        let plan = Truncation::plan(&collection, &leads, kinds);
        drop(leads);
        let mut game = 0u32;
        progress(Reading::SecondPass);
        let read = batch.run(
            inputs,
            || plan.scan(),
            |_, event| {
                match event {
                    Event::Games { games, .. } => {
                        progress(Reading::Games(games.len()));
                        for found in games {
                            // A game that is no candidate, or unreadable,
                            // has no key: its entry is too short to
                            // contain another.
                            collection.prefixes(game, &found);
                            game = game.saturating_add(1);
                        }
                    }
                    Event::Unreadable(_) => game = game.saturating_add(1),
                    Event::Done => progress(Reading::InputDone),
                    Event::NoRecord(_) => {}
                }
                Ok::<(), Infallible>(())
            },
        );
        let Ok(()) = read;
    }
    collection.groups(keep)
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
