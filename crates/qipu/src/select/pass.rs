//! A command's pass over the games of a batch: the games in input order,
//! each with whether the [`Chooser`] selects it, the inputs that cannot
//! be read or hold no record, and a stop of its own at the limit.

use crate::batch::{Batch, Games, Input, Item, Meta};
use crate::formats::UnreadableReason;
use crate::record::Visitor;

use super::{Chooser, Judged};

/// What a [pass](Chooser::pass) tells of an input, in input order: its
/// games, one by one with whether each is selected, or why it gives no
/// more, then that it is done.
#[derive(Debug)]
pub enum PassEvent<T> {
    /// Game `index` of the input (from 0): what the visitor made of it,
    /// and whether it is selected.
    Game {
        /// The game's number in its input, from 0.
        index: usize,
        /// What the visitor made of the game.
        game: T,
        /// Whether the chooser selects it.
        selected: bool,
    },
    /// No more game can be read from the input, and why: counted as one
    /// unreadable game, selected or not.
    Unreadable {
        /// Why.
        reason: UnreadableReason,
        /// Whether the chooser selects it.
        selected: bool,
    },
    /// The input was found while walking a folder and holds no record
    /// (not a game, never counted as one), and why; `selected` when
    /// nothing selects, so that it may be told.
    NoRecord {
        /// Why.
        reason: UnreadableReason,
        /// Whether nothing selects.
        selected: bool,
    },
    /// The input is finished (not told of the input where the pass stops
    /// at the limit).
    Done,
}

/// How a [pass](Chooser::pass) went: the games told and selected, and
/// whether it stopped at the limit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PassSummary {
    /// Games told, selected or not (an input that cannot be read counts
    /// as one).
    pub games: u64,
    /// Games selected.
    pub selected: u64,
    /// The limit was reached: the pass stopped right after the game that
    /// reached it, and read no further.
    pub at_limit: bool,
}

/// Why the batch under a pass stopped.
enum Stop<E> {
    /// The limit is reached.
    Full,
    /// The caller's error.
    Caller(E),
}

impl Chooser {
    /// Reads every game of `inputs` with visitors from `make` (which judge
    /// each game, as [`Selection::checker`](super::Selection::checker)
    /// does, with this chooser's [`selection`](Chooser::selection)) and
    /// tells `each` what is read, in input order, with whether each game is
    /// selected (see [`PassEvent`]). The pass stops by itself once the
    /// limit is reached, and at the first error `each` returns (a closed
    /// output): the jobs under way end and no other starts.
    ///
    /// When copies must be found first and [`plan`](Chooser::plan) was not
    /// called, the pass plans them first (standard input must then be kept
    /// in a file already: [`Input::KeptStdin`]); so is a reference
    /// collection read ([`read_known`](Chooser::read_known)) that was not.
    ///
    /// # Errors
    ///
    /// The first error `each` returns.
    ///
    /// ```
    /// use qipu::batch::{self, Batch};
    /// use qipu::select::{Options, PassEvent};
    /// let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
    /// let inputs = batch::expand(&[pgn.into(), "no/such.pgn".into()]).inputs;
    /// let mut chooser = Options { skip: 1, limit: Some(2), ..Options::default() }.chooser().unwrap();
    /// let selection = chooser.selection().clone();
    /// let mut told = Vec::new();
    /// let summary = chooser.pass(&Batch::new(), &inputs, || selection.checker(()), |_, event| {
    ///     if let PassEvent::Game { index, selected, .. } = event {
    ///         told.push((index, selected));
    ///     }
    ///     Ok::<(), ()>(())
    /// })?;
    /// // Game 0 is skipped, games 1 and 2 selected; then the pass stops.
    /// assert_eq!(told, [(0, false), (1, true), (2, true)]);
    /// assert!(summary.at_limit && summary.games == 3 && summary.selected == 2);
    /// # Ok::<(), ()>(())
    /// ```
    pub fn pass<V, T, E>(
        &mut self,
        batch: &Batch,
        inputs: &[Input],
        make: impl Fn() -> V + Sync,
        mut each: impl FnMut(&Meta, PassEvent<T>) -> Result<(), E>,
    ) -> Result<PassSummary, E>
    where
        V: Visitor<Output = Judged<T>>,
        T: Send,
    {
        self.read_known(batch, |_| ());
        self.plan(batch, inputs, |_| ());
        // After a game or an unreadable input, the pass stops once the
        // limit is reached (with a limit of 0, at the first).
        let mut summary = PassSummary::default();
        let mut tell = |chooser: &Chooser, meta: &Meta, event: PassEvent<T>| {
            let counted = match event {
                PassEvent::Game { selected, .. } | PassEvent::Unreadable { selected, .. } => Some(selected),
                PassEvent::NoRecord { .. } | PassEvent::Done => None,
            };
            each(meta, event).map_err(Stop::Caller)?;
            let Some(selected) = counted else { return Ok(()) };
            summary.games += 1;
            summary.selected += u64::from(selected);
            if chooser.is_full() { Err(Stop::Full) } else { Ok(()) }
        };
        // A loop over the games as they are read: stopping it (the limit,
        // the caller's error) drops the iterator, which stops the reading.
        let run = Games::scoped(batch, inputs, make, |games| {
            games.into_iter().try_for_each(|item| match item {
                // A game outside `within` is passed over.
                Item::Game { meta, index, .. } if !self.looks_at(&meta.json_source, index) => Ok(()),
                Item::Game { meta, index, game: judged } => {
                    let selected = self.take(index, judged.matches, judged.key.as_ref());
                    tell(self, &meta, PassEvent::Game { index, game: judged.game, selected })
                }
                Item::Unreadable { meta, reason } => {
                    let selected = self.take_unreadable();
                    tell(self, &meta, PassEvent::Unreadable { reason, selected })
                }
                Item::NoRecord { meta, reason } => {
                    tell(self, &meta, PassEvent::NoRecord { reason, selected: !self.is_active() })
                }
                Item::Done(meta) => tell(self, &meta, PassEvent::Done),
            })
        });
        summary.at_limit = match run {
            Ok(()) => false,
            Err(Stop::Full) => true,
            Err(Stop::Caller(e)) => return Err(e),
        };
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::Options;

    /// A folder of its own for a test, holding four inputs: two games
    /// and a copy of the first, an empty record, prose, one game.
    fn folder(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("qipu-pass-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn inputs(dir: &std::path::Path) -> Vec<Input> {
        let line = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9";
        std::fs::write(dir.join("a.pgn"), format!("{line} *\n\n1. h2e2 *\n\n{line} *\n")).unwrap();
        std::fs::write(dir.join("b.pgn"), "").unwrap();
        std::fs::write(dir.join("c.txt"), "prose, no game\n").unwrap();
        std::fs::write(dir.join("d.pgn"), "1. b2e2 *\n").unwrap();
        crate::batch::expand(&[dir.to_path_buf()]).inputs
    }

    /// Each event told, in words.
    fn told(options: Options, inputs: &[Input]) -> (Vec<String>, PassSummary) {
        let mut chooser = options.chooser().unwrap();
        let selection = chooser.selection().clone();
        let mut told = Vec::new();
        let summary = chooser
            .pass(
                &Batch::new().threads(2),
                inputs,
                || selection.checker(()),
                |meta, event| {
                    let name = meta.source.rsplit('/').next().unwrap_or_default().to_string();
                    told.push(match event {
                        PassEvent::Game { index, selected, .. } => format!("{name} {index} {selected}"),
                        PassEvent::Unreadable { selected, .. } => format!("{name} unreadable {selected}"),
                        PassEvent::NoRecord { selected, .. } => format!("{name} no record {selected}"),
                        PassEvent::Done => format!("{name} done"),
                    });
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
        (told, summary)
    }

    #[test]
    fn every_game_in_order_with_whether_it_is_selected() {
        let dir = folder("order");
        let inputs = inputs(&dir);
        let (all, summary) = told(Options::default(), &inputs);
        assert_eq!(
            all,
            [
                "a.pgn 0 true",
                "a.pgn 1 true",
                "a.pgn 2 true",
                "a.pgn done",
                "b.pgn unreadable true",
                "b.pgn done",
                "c.txt no record true",
                "c.txt done",
                "d.pgn 0 true",
                "d.pgn done"
            ]
        );
        assert_eq!(summary, PassSummary { games: 5, selected: 5, at_limit: false });
        // Copies left out, and an input that holds no record is not
        // selected when something selects.
        let dedupe = Options { dedupe: Some(Default::default()), ..Options::default() };
        let (some, summary) = told(dedupe, &inputs);
        assert_eq!(&some[..3], ["a.pgn 0 true", "a.pgn 1 true", "a.pgn 2 false"]);
        assert_eq!(some[6], "c.txt no record false");
        assert_eq!((summary.games, summary.selected, summary.at_limit), (5, 4, false));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stops_at_the_limit_and_at_the_callers_error() {
        let dir = folder("limit");
        let inputs = inputs(&dir);
        let limited = Options { skip: 1, limit: Some(2), ..Options::default() };
        let (some, summary) = told(limited, &inputs);
        // Nothing is told after the second game selected.
        assert_eq!(some, ["a.pgn 0 false", "a.pgn 1 true", "a.pgn 2 true"]);
        assert_eq!(summary, PassSummary { games: 3, selected: 2, at_limit: true });
        let mut chooser = Options::default().chooser().unwrap();
        let selection = chooser.selection().clone();
        let mut n = 0;
        let stopped = chooser.pass(
            &Batch::new(),
            &inputs,
            || selection.checker(()),
            |_, _| {
                n += 1;
                if n == 2 { Err("closed") } else { Ok(()) }
            },
        );
        assert_eq!((stopped, n), (Err("closed"), 2));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn within_passes_over_the_other_games() {
        let dir = folder("within");
        let inputs = inputs(&dir);
        let a = dir.join("a.pgn").to_string_lossy().into_owned();
        let mut within = crate::select::Within::default();
        within.add(&a, 1);
        within.add(&a, 2);
        // The first game looked at is skipped: game 2 alone is selected.
        let mut chooser = Options { skip: 1, ..Options::default() }.chooser().unwrap().within(within);
        let selection = chooser.selection().clone();
        let mut told = Vec::new();
        let summary = chooser
            .pass(
                &Batch::new(),
                &inputs,
                || selection.checker(()),
                |_, event| {
                    if let PassEvent::Game { index, selected, .. } = event {
                        told.push((index, selected));
                    }
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
        assert_eq!(told, [(1, false), (2, true)]);
        // The empty input b.pgn is told as ever: one game, selected.
        assert_eq!((summary.games, summary.selected), (3, 2));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
