//! Every way of selecting games in one plain struct ([`Options`]), as the
//! batch commands' selection flags give it, turned into the [`Chooser`]
//! that a pass over a batch asks game by game.

use std::sync::Arc;

use super::{
    CountRange, CriterionError, DateRange, EccoSet, GameNumbers, Looks, MaterialAt, MaterialPattern, Reading,
    ResultChoice, Selection, Selector, TagRule, Target, Within,
};
use crate::FromFenError;
use crate::batch::{Batch, Input, Status};
use crate::dedupe::{Dedupe, GameKey, Keep, Kinds};
use crate::record::replay::Termination;
use crate::rules::judge::RuleSet;

/// Which games to select, each option left out (`None`, empty, `false`,
/// 0) by default: the default selects every game. These are the batch
/// commands' selection flags (`--red` is `red`, `--dedupe=KINDS` is
/// `dedupe`), read into their values; [`Options::chooser`] checks them
/// together and makes the [`Chooser`] a pass asks.
///
/// ```
/// use qipu::batch::{self, Batch, Event};
/// use qipu::select::Options;
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
/// let inputs = batch::expand(&[path.into()]).inputs;
/// let options = Options { plies: Some("100..".parse()?), skip: 2, limit: Some(5), ..Options::default() };
/// let mut chooser = options.chooser()?;
/// chooser.plan(&Batch::new(), &inputs, |_| ()); // nothing to plan without `dedupe`
/// let selection = chooser.selection().clone();
/// let mut plies = Vec::new();
/// Batch::new().run(&inputs, || selection.checker(()), |_, event| {
///     if let Event::Games { first, games } = event {
///         for (k, judged) in games.into_iter().enumerate() {
///             if chooser.take(first + k, judged.matches, judged.key.as_ref()) {
///                 plies.push(judged.game.replayed.plies);
///             }
///         }
///     }
///     // Stop reading once `limit` games are taken.
///     if chooser.is_full() { Err(()) } else { Ok(()) }
/// }).ok();
/// assert_eq!(plies.len(), 5);
/// assert!(plies.iter().all(|&n| n >= 100));
/// assert!(chooser.summary().starts_with("; 5 selected, "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Tag rules (`--tag NAME=REGEX`), all of which must hold; see
    /// [`Options::tag_rules`].
    pub tags: Vec<TagRule>,
    /// A regular expression Red's or Black's name matches.
    pub player: Option<String>,
    /// A regular expression Red's name matches.
    pub red: Option<String>,
    /// A regular expression Black's name matches.
    pub black: Option<String>,
    /// A regular expression the `Event` tag matches.
    pub event: Option<String>,
    /// A regular expression the `Site` tag matches.
    pub site: Option<String>,
    /// The `Date` tag lies in this range.
    pub date: Option<DateRange>,
    /// The stated result is one of these.
    pub results: Vec<ResultChoice>,
    /// The main line ends so (`None`: otherwise, or it does not replay to
    /// its end).
    pub terminations: Vec<Option<Termination>>,
    /// The status is one of these.
    pub statuses: Vec<Status>,
    /// The ECCO code (by the moves from the standard start, else the
    /// `ECCO` tag) is in the set.
    pub ecco: Option<EccoSet>,
    /// The opening is called so (see [`Selection::opening`]).
    pub opening: Option<String>,
    /// The main line has this many plies (those that replay).
    pub plies: Option<CountRange>,
    /// The game has a comment.
    pub has_comments: bool,
    /// The game has a variation.
    pub has_variations: bool,
    /// A FEN whose placement the main line reaches (the side to move
    /// counts when the FEN gives it).
    pub position: Option<String>,
    /// Move sequences, each from the standard start in any notation (see
    /// [`Target::after_moves`]): the game reaches the position after one
    /// of them, by any order of moves (not with `position`).
    pub moves: Vec<String>,
    /// With `position` or `moves`: look in variations too.
    pub in_variations: bool,
    /// With `position` or `moves`: its left–right mirror matches too (an
    /// error without either).
    pub mirror: bool,
    /// A material signature, and where it must hold.
    pub material: Option<(MaterialPattern, MaterialAt)>,
    /// The games with these numbers in their input (from 1).
    pub games: Option<GameNumbers>,
    /// Select the games that do not match the criteria above instead
    /// (before `skip` and `limit`).
    pub invert: bool,
    /// Leave out the first so many games selected.
    pub skip: u64,
    /// Select at most so many games.
    pub limit: Option<u64>,
    /// Leave out copies of these kinds (`None`: none are looked for).
    /// Neither `end` nor `truncated` means the same line, mirrored too
    /// with `mirror`. After `invert`, before `skip` and `limit`.
    pub dedupe: Option<Kinds>,
    /// Which game of each group of copies is kept (with `dedupe`).
    pub keep: Keep,
    /// A reference collection (files, folders, archives): leave out each
    /// game that is a copy of one of its games, by the kinds of `dedupe`
    /// (the same main line from the same start when `dedupe` is not given;
    /// a line of at least one ply; truncated copies are not looked for).
    /// After `invert`, before `dedupe`'s copies, `skip` and `limit`; read
    /// by [`Chooser::read_known`].
    pub not_in: Vec<std::path::PathBuf>,
    /// The rule book games are judged by (`--rules`): how repetitions,
    /// the natural move limit and so `terminations` are judged.
    pub rules: RuleSet,
}

/// Why [`Options`] do not make a [`Chooser`]: the option (`mirror`,
/// `player`, `position`, `tag`, …) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct OptionError {
    /// The option, named as [`Options`] names it (`tag` for `tags`).
    pub option: &'static str,
    /// What is wrong.
    pub kind: OptionErrorKind,
}

/// What is wrong with an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionErrorKind {
    /// It is given without the option it goes with (`mirror` without
    /// `position` or `moves`).
    Needs(&'static str),
    /// It is given with an option it cannot go with (`moves` with
    /// `position`).
    Excludes(&'static str),
    /// Its text does not read: a regular expression, or a tag rule not
    /// written `NAME=REGEX`.
    Criterion(CriterionError),
    /// Its FEN does not read.
    Fen {
        /// The FEN given.
        fen: String,
        /// Why it does not read.
        error: FromFenError,
    },
}

impl OptionError {
    fn message(&self) -> String {
        let option = self.option;
        match &self.kind {
            OptionErrorKind::Needs(other) => format!("{option} needs {other}"),
            OptionErrorKind::Excludes(other) => format!("{option} cannot be given with {other}"),
            OptionErrorKind::Criterion(why) => format!("{option}: {why}"),
            OptionErrorKind::Fen { fen, error } => format!("{option} {fen:?}: {error}"),
        }
    }
}

/// How copies are found: as games come (the first kept, one kind of
/// sameness), or by a plan made over every input first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Copies {
    /// In one pass.
    AsTheyCome(Kinds),
    /// Planned over the inputs first.
    Planned(Kinds, Keep),
}

impl Options {
    /// Tag rules from their texts, each `NAME=REGEX`, for
    /// [`tags`](Options::tags).
    ///
    /// # Errors
    ///
    /// The first text that does not read, as an error of the `tag` option.
    pub fn tag_rules<S: AsRef<str>>(texts: &[S]) -> Result<Vec<TagRule>, OptionError> {
        texts
            .iter()
            .map(|t| TagRule::parse(t.as_ref()))
            .collect::<Result<_, _>>()
            .map_err(|e| OptionError { option: "tag", kind: OptionErrorKind::Criterion(e) })
    }

    /// How `dedupe` and `keep` find copies, if asked.
    fn copies(&self) -> Option<Copies> {
        let mut kinds = self.dedupe?;
        // Mirror alone: mirrored lines.
        kinds.line |= !kinds.end && !kinds.truncated;
        let keep = self.keep;
        // Matching by line and by final position together joins groups
        // that a single pass would not: it is planned too.
        let one_pass = keep == Keep::First && !kinds.truncated && !(kinds.line && kinds.end);
        Some(if one_pass { Copies::AsTheyCome(kinds) } else { Copies::Planned(kinds, keep) })
    }

    /// The regular expressions of `player`, `red`, `black`, `event` and
    /// `site` as tag rules, after `tags`.
    fn all_tag_rules(&self) -> Result<Vec<TagRule>, OptionError> {
        let mut tags = self.tags.clone();
        for (option, names, pattern) in [
            ("player", &["Red", "Black"][..], &self.player),
            ("red", &["Red"][..], &self.red),
            ("black", &["Black"][..], &self.black),
            ("event", &["Event"][..], &self.event),
            ("site", &["Site"][..], &self.site),
        ] {
            if let Some(p) = pattern {
                let rule = TagRule::new(names, p)
                    .map_err(|e| OptionError { option, kind: OptionErrorKind::Criterion(e) })?;
                tags.push(rule);
            }
        }
        Ok(tags)
    }

    /// The chooser these options make: the criteria checked where each
    /// game is read ([`Chooser::selection`]) and the in-order part.
    ///
    /// # Errors
    ///
    /// `mirror` without `position` or `moves`, both of these, a regular
    /// expression, a FEN or moves that do not read.
    pub fn chooser(&self) -> Result<Chooser, OptionError> {
        let targets = self.position.is_some() || !self.moves.is_empty();
        if self.mirror && !targets {
            return Err(OptionError { option: "mirror", kind: OptionErrorKind::Needs("position or moves") });
        }
        if self.in_variations && !targets {
            return Err(OptionError {
                option: "in_variations",
                kind: OptionErrorKind::Needs("position or moves"),
            });
        }
        if self.position.is_some() && !self.moves.is_empty() {
            return Err(OptionError { option: "moves", kind: OptionErrorKind::Excludes("position") });
        }
        let tags = self.all_tag_rules()?;
        let mut position = match &self.position {
            Some(fen) => Some(Target::from_fen(fen, self.mirror).map_err(|error| OptionError {
                option: "position",
                kind: OptionErrorKind::Fen { fen: fen.clone(), error },
            })?),
            None => None,
        };
        for moves in &self.moves {
            let target = Target::after_moves(moves, self.mirror)
                .map_err(|e| OptionError { option: "moves", kind: OptionErrorKind::Criterion(e) })?;
            position = Some(match position {
                Some(before) => before.or(target),
                None => target,
            });
        }
        let copies = self.copies();
        let looks = Looks {
            position,
            in_variations: self.in_variations,
            material: self.material,
            opening: self.ecco.is_some() || self.opening.is_some(),
            key: matches!(copies, Some(Copies::AsTheyCome(_))) || !self.not_in.is_empty(),
        };
        let selection = Selection {
            tags,
            date: self.date,
            results: self.results.clone(),
            terminations: self.terminations.clone(),
            statuses: self.statuses.clone(),
            ecco: self.ecco.clone(),
            opening: self.opening.clone(),
            plies: self.plies,
            has_comments: self.has_comments,
            has_variations: self.has_variations,
            looks: Arc::new(looks),
            rules: self.rules,
        };
        let mut selector = Selector::new(self.games.clone(), self.invert, self.skip, self.limit);
        let mut planned = None;
        match copies {
            Some(Copies::AsTheyCome(kinds)) => selector = selector.dedupe(Dedupe::new(kinds)),
            Some(Copies::Planned(kinds, keep)) => planned = Some((kinds, keep)),
            None => {}
        }
        let active =
            !selection.is_empty() || !selector.is_empty() || self.dedupe.is_some() || !self.not_in.is_empty();
        let known = (!self.not_in.is_empty()).then(|| {
            let kinds = self.dedupe.map_or(Kinds::default(), |kinds| Kinds {
                line: kinds.line || !kinds.end,
                truncated: false,
                ..kinds
            });
            (crate::batch::expand(&self.not_in).inputs, Kinds { min_plies: 1, ..kinds })
        });
        Ok(Chooser {
            selector,
            selection: Arc::new(selection),
            active,
            planned,
            known,
            known_games: None,
            within: None,
        })
    }
}

/// A pass's selection, made by [`Options::chooser`]: the criteria each
/// game is judged by where it is read ([`selection`](Chooser::selection),
/// whose [`checker`](Selection::checker) reads the games), and the part
/// told each game's verdict in input order ([`take`](Chooser::take)),
/// with the counts a summary gives.
#[derive(Debug)]
pub struct Chooser {
    /// The in-order part.
    selector: Selector,
    /// The criteria.
    selection: Arc<Selection>,
    /// Whether any option selects.
    active: bool,
    /// Copies to find over every input before the pass, until found.
    planned: Option<(Kinds, Keep)>,
    /// The reference collection's inputs and the kinds of copies of its
    /// games to leave out, until read.
    known: Option<(Vec<Input>, Kinds)>,
    /// Of the reference collection: the games read, and those of them
    /// that could not be read or have no key.
    known_games: Option<(u64, u64)>,
    /// The only games a pass looks at, when not every game.
    within: Option<Within>,
}

impl Default for Chooser {
    /// The chooser of no option: every game is taken.
    fn default() -> Chooser {
        Chooser {
            selector: Selector::default(),
            selection: Arc::default(),
            active: false,
            planned: None,
            known: None,
            known_games: None,
            within: None,
        }
    }
}

impl Chooser {
    /// This chooser, its pass looking at the games of `within` only: any
    /// other game read is passed over, as if its input did not hold it
    /// (not told, not counted, never selected), so that the criteria,
    /// `skip`, `limit` and the copies found as they come apply to the
    /// games of `within` alone. Copies found by a [plan](Chooser::plan)
    /// are found among every game read: a command should not plan them
    /// with `within` ([`needs_plan`](Chooser::needs_plan) tells).
    pub fn within(mut self, within: Within) -> Chooser {
        self.within = Some(within);
        self
    }

    /// Whether the pass looks at game `index` (from 0) of the input named
    /// `source` ([`Chooser::within`]).
    pub(crate) fn looks_at(&self, source: &str, index: usize) -> bool {
        self.within.as_ref().is_none_or(|within| within.holds(source, index))
    }

    /// The criteria judged where each game is read.
    pub fn selection(&self) -> &Arc<Selection> {
        &self.selection
    }

    /// The part judged in input order, with its counts.
    pub fn selector(&self) -> &Selector {
        &self.selector
    }

    /// Whether any option selects: if not, every game is taken and
    /// [`summary`](Chooser::summary) says nothing.
    pub(crate) fn is_active(&self) -> bool {
        self.active
    }

    /// Whether [`plan`](Chooser::plan) has copies to find before the pass
    /// (`dedupe` with a `keep` other than the first, truncated copies, or
    /// lines and final positions together): the inputs are then read once
    /// or twice more, so standard input must be kept in a file first
    /// ([`Input::KeptStdin`]).
    pub fn needs_plan(&self) -> bool {
        self.planned.is_some()
    }

    /// Finds the copies to leave out over all of `inputs`, when
    /// [`needs_plan`](Chooser::needs_plan) (else does nothing), telling
    /// `progress` what is read. Call it once before the pass, with the
    /// batch and inputs the pass reads (see [`copies`](super::copies)).
    pub fn plan(&mut self, batch: &Batch, inputs: &[Input], progress: impl FnMut(Reading)) {
        let Some((kinds, keep)) = self.planned.take() else { return };
        let groups = super::copies(batch, inputs, &self.selection, &self.selector, kinds, keep, progress);
        self.selector = std::mem::take(&mut self.selector).planned(groups);
    }

    /// The inputs of the reference collection (`not_in`) still to be read
    /// by [`read_known`](Chooser::read_known), if any: a problem input
    /// among them ([`Input::Problem`]) is one that cannot be read.
    pub fn known_inputs(&self) -> &[Input] {
        self.known.as_ref().map_or(&[], |(inputs, _)| inputs)
    }

    /// Reads the reference collection of `not_in`, if any and not read
    /// yet (else does nothing), telling `progress` what is read. Call it
    /// once before the pass (and before [`plan`](Chooser::plan)); `batch`
    /// is the one the pass reads with.
    pub fn read_known(&mut self, batch: &Batch, progress: impl FnMut(Reading)) {
        let Some((inputs, kinds)) = self.known.take() else { return };
        let known = super::known(batch, &inputs, kinds, progress);
        self.known_games = Some((known.read, known.unkeyed));
        self.selector = std::mem::take(&mut self.selector).known(known.games);
    }

    /// Whether game `index` of its input (0-based), which `matches` the
    /// criteria or not, with its main line's `key` (the judged game's), is
    /// selected. Games are told in input order.
    pub fn take(&mut self, index: usize, matches: bool, key: Option<&GameKey>) -> bool {
        !self.active || self.selector.take_keyed(index, matches, key)
    }

    /// Whether a whole input that cannot be read (counted as one
    /// unreadable game) is selected.
    pub(crate) fn take_unreadable(&mut self) -> bool {
        !self.active || self.selector.take(0, self.selection.matches_unreadable())
    }

    /// Whether `limit` games are selected: no later game can be, and the
    /// pass may stop reading.
    pub fn is_full(&self) -> bool {
        self.selector.is_full()
    }

    /// `; S selected, L left out` (with ` (N as copies)` when copies were
    /// left out) for a summary line, when any option selects; else empty.
    pub fn summary(&self) -> String {
        if !self.active {
            return String::new();
        }
        let mut why = Vec::new();
        if self.selector.copies() > 0 {
            why.push(format!("{} as copies", self.selector.copies()));
        }
        if let Some((read, unkeyed)) = self.known_games {
            let not_read = match unkeyed {
                0 => String::new(),
                n => format!(", {n} of them not read or with no legal start"),
            };
            why.push(format!(
                "{} in the reference collection of {read} game{}{not_read}",
                self.selector.known_copies(),
                if read == 1 { "" } else { "s" }
            ));
        }
        let copies = if why.is_empty() { String::new() } else { format!(" ({})", why.join(", ")) };
        format!("; {} selected, {} left out{copies}", self.selector.selected(), self.selector.left_out())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(options: Options) -> OptionError {
        options.chooser().unwrap_err()
    }

    #[test]
    fn mirror_needs_position() {
        let e = error(Options { mirror: true, ..Options::default() });
        assert_eq!((e.option, &e.kind), ("mirror", &OptionErrorKind::Needs("position or moves")));
        assert_eq!(e.to_string(), "mirror needs position or moves");
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let options = Options { mirror: true, position: Some(start.into()), ..Options::default() };
        assert!(options.chooser().unwrap().is_active());
    }

    #[test]
    fn each_pattern_names_its_option() {
        for (option, options) in [
            ("player", Options { player: Some("(".into()), ..Options::default() }),
            ("red", Options { red: Some("(".into()), ..Options::default() }),
            ("black", Options { black: Some("(".into()), ..Options::default() }),
            ("event", Options { event: Some("(".into()), ..Options::default() }),
            ("site", Options { site: Some("(".into()), ..Options::default() }),
        ] {
            let e = error(options);
            assert_eq!(e.option, option);
            let OptionErrorKind::Criterion(why) = &e.kind else { panic!("{e:?}") };
            assert_eq!(why.what, "regular expression");
            assert_eq!(e.to_string(), format!("{option}: regular expression \"(\": error: unclosed group"));
        }
    }

    #[test]
    fn tag_rules_read_or_name_the_tag_option() {
        assert_eq!(Options::tag_rules(&["Event=全国", "Red=^胡"]).unwrap().len(), 2);
        let e = Options::tag_rules(&["Event"]).unwrap_err();
        assert_eq!(e.option, "tag");
        assert_eq!(e.to_string(), "tag: tag \"Event\": write NAME=REGEX, as Event=全国");
        let e = Options::tag_rules(&["Event=("]).unwrap_err();
        assert_eq!(e.to_string(), "tag: regular expression \"(\": error: unclosed group");
    }

    #[test]
    fn a_bad_position_names_its_fen() {
        let e = error(Options { position: Some("xx".into()), ..Options::default() });
        assert_eq!(e.option, "position");
        assert!(matches!(&e.kind, OptionErrorKind::Fen { fen, .. } if fen == "xx"));
        assert_eq!(
            e.to_string(),
            "position \"xx\": FEN placement field: expected 10 ranks separated by '/', found 1"
        );
    }

    #[test]
    fn copies_in_one_pass_or_planned() {
        let chooser = |dedupe: Option<Kinds>, keep: Keep| {
            Options { dedupe, keep, ..Options::default() }.chooser().unwrap()
        };
        let none = chooser(None, Keep::Longest);
        assert!(!none.is_active() && !none.needs_plan() && none.summary().is_empty());
        let line = chooser(Some(Kinds::default()), Keep::First);
        assert!(line.is_active() && !line.needs_plan() && line.selection().looks.key);
        assert_eq!(line.summary(), "; 0 selected, 0 left out");
        // Mirror alone is mirrored lines, in one pass.
        let mirror = Kinds { line: false, mirror: true, ..Kinds::default() };
        assert!(!chooser(Some(mirror), Keep::First).needs_plan());
        for planned in [
            chooser(Some(Kinds::default()), Keep::Longest),
            chooser(Some(Kinds { truncated: true, ..Kinds::default() }), Keep::First),
            chooser(Some(Kinds { end: true, ..Kinds::default() }), Keep::First),
        ] {
            assert!(planned.needs_plan() && !planned.selection().looks.key);
        }
        assert!(
            !chooser(Some(Kinds { line: false, end: true, ..Kinds::default() }), Keep::First).needs_plan()
        );
    }

    #[test]
    fn default_takes_every_game() {
        let mut chooser = Options::default().chooser().unwrap();
        assert!(!chooser.is_active() && chooser.selection().is_empty());
        assert!(chooser.take(0, false, None) && chooser.take_unreadable() && !chooser.is_full());
        let mut limited = Options { limit: Some(1), ..Options::default() }.chooser().unwrap();
        assert!(limited.take(0, true, None) && limited.is_full() && !limited.take(1, true, None));
        assert_eq!(limited.summary(), "; 1 selected, 1 left out");
    }
}
