//! Checking a game as it is read: its replay, the problems its reader met,
//! and one status.

use std::ops::ControlFlow;

use crate::record::replay::{Follow, Replayed, Replayer};
use crate::record::{GameResult, Record, RecordedMove, Resolution, Skip, Span, Visitor, Warning};

/// What became of a game: it replayed to its end, a move (or its start
/// position) is wrong, or it could not be read.
///
/// ```
/// use qipu::batch::{Checker, Status};
/// let text = "1. h2e2 *\n\n1. h2e9 *\n\n[FEN \"9/9/9/9/9/9/9/9/9/9 w\"]\n*\n";
/// let statuses: Vec<Status> = qipu::formats::pgn::read_with(text, &mut Checker::default()).iter().map(|c| c.status).collect();
/// assert_eq!(statuses, [Status::Valid, Status::Illegal, Status::Illegal]); // the last has no king
/// assert_eq!(Status::Illegal.as_str(), "illegal");
/// assert_eq!(Status::Valid.as_str(), "valid");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Every move of it replayed.
    Valid,
    /// A move, or the start position, is no legal one.
    Illegal,
    /// The game could not be read.
    Unreadable,
}

impl Status {
    /// `valid`, `illegal` or `unreadable`: the `status` of JSON output,
    /// the words `--status` takes.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Illegal => "illegal",
            Status::Unreadable => "unreadable",
        }
    }

    /// The status of a game read (`unreadable` when it could not be) and
    /// replayed.
    pub fn of(unreadable: bool, replayed: &Replayed) -> Status {
        Status::judged(unreadable, !replayed.is_valid())
    }

    /// The status of a game that could not be read (`unreadable`), or
    /// whose replay met an error (`failed`): the one rule every command
    /// counts games by.
    ///
    /// ```
    /// use qipu::batch::Status;
    /// assert_eq!(Status::judged(false, false), Status::Valid);
    /// assert_eq!(Status::judged(false, true), Status::Illegal);
    /// assert_eq!(Status::judged(true, true), Status::Unreadable);
    /// ```
    pub fn judged(unreadable: bool, failed: bool) -> Status {
        match (unreadable, failed) {
            (true, _) => Status::Unreadable,
            (false, false) => Status::Valid,
            (false, true) => Status::Illegal,
        }
    }
}

/// What a [`Checker`] makes of a game.
///
/// ```
/// use qipu::batch::{Checker, Status};
/// use qipu::record::GameResult;
/// let text = "[Red \"许银川\"]\n[Result \"1-0\"]\n1. 炮二平五 {中炮} 马８进７ (1... 象３进５) 2. 马二进三 *\n";
/// let checked = &qipu::formats::pgn::read_with(text, &mut Checker::default())[0];
/// assert_eq!(checked.status, Status::Valid);
/// assert_eq!(checked.red.as_deref(), Some("许银川"));
/// assert_eq!(checked.result, Some(GameResult::Unknown)); // written after the moves, before the tag
/// assert!(checked.has_comments && checked.has_variations);
/// assert_eq!((checked.replayed.plies, checked.replayed.variation_plies), (3, 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked<T = ()> {
    /// Valid, illegal or unreadable.
    pub status: Status,
    /// The replay (without the main line's moves: see
    /// [`Replayer::keep_moves`]), boxed: what a checker makes of a game stays
    /// small to hand on.
    pub replayed: Box<Replayed>,
    /// The problems the reader met and worked around, then those the replay
    /// met (at most `MAX_WARNINGS`).
    pub warnings: Vec<Warning>,
    /// Why the game could not be read, when it could not.
    pub unreadable: Option<Warning>,
    /// The result the game states: written after the moves, else its
    /// `Result` tag.
    pub result: Option<GameResult>,
    /// The game has a comment.
    pub has_comments: bool,
    /// The game has a variation.
    pub has_variations: bool,
    /// The game's `Red` tag (and below, its `Black`, `Event`, `ECCO` and
    /// `Date` tags).
    pub red: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Event` tag.
    pub event: Option<String>,
    /// The `ECCO` tag.
    pub ecco: Option<String>,
    /// The `Date` tag.
    pub date: Option<String>,
    /// Where the start position (the `FEN` tag, an XQF header) is written,
    /// when the reader knows.
    pub start_at: Option<Span>,
    /// The tags the checker was told to keep ([`Checker::keep_tags`]), in
    /// the order read; else empty.
    pub tags: Vec<(String, String)>,
    /// What the follower of the main line made of it.
    pub followed: T,
}

impl<T> Checked<T> {
    /// The same check, what the follower made of it made into something
    /// else (like [`Option::map`]).
    pub(crate) fn map_followed<U>(self, f: impl FnOnce(T) -> U) -> Checked<U> {
        let Checked {
            status,
            replayed,
            warnings,
            unreadable,
            result,
            has_comments,
            has_variations,
            red,
            black,
            event,
            ecco,
            date,
            start_at,
            tags,
            followed,
        } = self;
        Checked {
            status,
            replayed,
            warnings,
            unreadable,
            result,
            has_comments,
            has_variations,
            red,
            black,
            event,
            ecco,
            date,
            start_at,
            tags,
            followed: f(followed),
        }
    }

    /// The value of the first tag `name` (case-insensitive) among the tags
    /// kept.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

impl<T> Checked<T> {
    /// The check of a record read whole, from the replay it keeps
    /// ([`Record::replayed`]) rather than a replay of its own: the same as
    /// a [`Checker`] told the record's events makes of it (when every node
    /// of its tree holds a move, as readers make them), with the tags
    /// named `keep` kept (see [`Checker::keep_tags`]) and `followed` for
    /// what a follower made of it.
    ///
    /// ```
    /// use qipu::batch::{Checked, Checker, Status};
    /// let record = &qipu::formats::pgn::read("[Red \"许银川\"]\n1. h2e2 {c} h9g7 (1... b9c7) *")[0];
    /// let checked = Checked::of_record(record, &["Red"], ());
    /// assert_eq!(checked, record.visit(&mut Checker::default().keep_tags(&["Red"])));
    /// assert_eq!((checked.status, checked.replayed.plies), (Status::Valid, 2));
    /// ```
    pub fn of_record(record: &Record, keep: &[&str], followed: T) -> Checked<T> {
        let full = record.replayed();
        // As a checker keeps it: without the main line's moves.
        let replayed = Box::new(Replayed {
            resolution: Resolution {
                setup: full.resolution.setup.clone(),
                start: full.resolution.start.clone(),
                moves: Vec::new(),
            },
            moves: Vec::new(),
            plies: full.plies,
            variation_plies: full.variation_plies,
            error: full.error.clone(),
            termination: full.termination,
            result_conflict: full.result_conflict.clone(),
            rules: full.rules,
            rulings: full.rulings.clone(),
            ends_in_ruling: full.ends_in_ruling,
            move_limit_at: full.move_limit_at,
            dead_draw_at: full.dead_draw_at,
            warnings: Vec::new(),
        });
        let mut warnings: Vec<Warning> = record.warnings().iter().take(MAX_WARNINGS).cloned().collect();
        warnings.extend(full.warnings.iter().cloned());
        let unreadable = record.unreadable().cloned();
        let tree = record.tree();
        let has_comments = tree.node(tree.root()).comment().is_some()
            || tree.depth_first().skip(1).any(|id| {
                let node = tree.node(id);
                node.mv.is_some() && (node.comment().is_some() || node.comment_before().is_some())
            });
        let tag = |name: &str| record.tag(name).map(str::to_string);
        Checked {
            status: Status::of(unreadable.is_some(), full),
            replayed,
            warnings,
            unreadable,
            result: record.result(),
            has_comments,
            has_variations: tree.variation_count() > 0,
            red: tag("Red"),
            black: tag("Black"),
            event: tag("Event"),
            ecco: tag("ECCO"),
            date: tag("Date"),
            start_at: record.start_at(),
            tags: record
                .tags()
                .iter()
                .filter(|(name, _)| keep.iter().any(|k| k.eq_ignore_ascii_case(name)))
                .cloned()
                .collect(),
            followed,
        }
    }
}

/// Warnings a [`Checker`] keeps of a game: readers list at most 20 and
/// count the rest, and a game can hold no more than this.
pub(crate) const MAX_WARNINGS: usize = 1000;

/// The visitor that checks each game without building it: its replay, the
/// problems met, and what a [`Follow`]er of the main line gathers (a FEN
/// trail, the first moves).
///
/// ```
/// use qipu::batch::{Checker, Status};
/// use qipu::formats::pgn;
/// let checked = pgn::read_with("1. h2e2 h9g7 2. h0g2 *\n\n1. h2e9 *", &mut Checker::default());
/// assert_eq!((checked[0].status, checked[1].status), (Status::Valid, Status::Illegal));
/// ```
#[derive(Debug)]
pub struct Checker<F: Follow = ()> {
    replayer: Replayer<F>,
    warnings: Vec<Warning>,
    unreadable: Option<Warning>,
    result: Option<GameResult>,
    result_tag: Option<Option<GameResult>>,
    has_comments: bool,
    has_variations: bool,
    tags: [Option<String>; 5],
    start_at: Option<Span>,
    /// The names of the tags to keep (none when empty, unless `keep_all`),
    /// and those kept.
    keep: Vec<String>,
    keep_all: bool,
    kept: Vec<(String, String)>,
}

impl Default for Checker<()> {
    fn default() -> Checker<()> {
        Checker::following(())
    }
}

impl<F: Follow> Checker<F> {
    /// A checker whose replay tells `follow` of the main line.
    pub fn following(follow: F) -> Checker<F> {
        Checker {
            replayer: Replayer::following(follow).keep_moves(false),
            warnings: Vec::new(),
            unreadable: None,
            result: None,
            result_tag: None,
            has_comments: false,
            has_variations: false,
            tags: Default::default(),
            start_at: None,
            keep: Vec::new(),
            keep_all: false,
            kept: Vec::new(),
        }
    }

    /// Keeps the tags of each game named `names` (case-insensitive) in
    /// [`Checked::tags`], as a selection by tags needs.
    ///
    /// ```
    /// use qipu::batch::Checker;
    /// let text = "[Site \"北京\"]\n[Date \"1990\"]\n[Round \"3\"]\n*\n";
    /// let checked = qipu::formats::pgn::read_with(text, &mut Checker::default().keep_tags(&["date", "Site"]));
    /// assert_eq!(checked[0].tags, [("Site".to_string(), "北京".to_string()), ("Date".to_string(), "1990".to_string())]);
    /// assert_eq!(checked[0].tag("DATE"), Some("1990"));
    /// ```
    pub fn keep_tags(mut self, names: &[&str]) -> Checker<F> {
        self.keep = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// Keeps every tag of each game in [`Checked::tags`], in the order
    /// read, as a table of games needs.
    ///
    /// ```
    /// use qipu::batch::Checker;
    /// let text = "[Site \"北京\"]\n[Round \"3\"]\n*\n";
    /// let checked = qipu::formats::pgn::read_with(text, &mut Checker::default().keep_all_tags());
    /// assert_eq!(checked[0].tags.len(), 2);
    /// ```
    pub fn keep_all_tags(mut self) -> Checker<F> {
        self.keep_all = true;
        self
    }

    /// Judges each game's repetitions, natural move limit and result by
    /// `rules` (the Asian rules unless told: see [`Replayer::rules`]).
    ///
    /// ```
    /// use qipu::batch::Checker;
    /// use qipu::rules::judge::RuleSet;
    /// let checked = &qipu::formats::pgn::read_with("1. h2e2 *", &mut Checker::default().rules(RuleSet::Chinese))[0];
    /// assert_eq!(checked.replayed.rules, RuleSet::Chinese);
    /// ```
    pub fn rules(mut self, rules: crate::rules::judge::RuleSet) -> Checker<F> {
        self.replayer.set_rules(rules);
        self
    }

    /// The follower, to read what it gathers as the game goes on.
    pub fn follower(&self) -> &F {
        self.replayer.follower()
    }
}

/// The tags a [`Checker`] keeps, in the order of [`Checker::tags`].
const KEPT_TAGS: [&str; 5] = ["Red", "Black", "Event", "ECCO", "Date"];

impl<F: Follow> Visitor for Checker<F> {
    type Output = Checked<F::Output>;

    fn begin_game(&mut self, at: Span) {
        self.replayer.begin_game(at);
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        if name.eq_ignore_ascii_case("Result") && self.result_tag.is_none() {
            self.result_tag = Some(GameResult::parse(value));
        }
        if let Some(k) = KEPT_TAGS.iter().position(|t| t.eq_ignore_ascii_case(name))
            && self.tags[k].is_none()
        {
            self.tags[k] = Some(value.to_string());
        }
        if name.eq_ignore_ascii_case("FEN") && at != Span::default() && self.start_at.is_none() {
            self.start_at = Some(at);
        }
        if self.keep_all || self.keep.iter().any(|k| k.eq_ignore_ascii_case(name)) {
            self.kept.push((name.to_string(), value.to_string()));
        }
        self.replayer.tag(name, value, at);
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        self.replayer.mv(mv)
    }

    fn move_text(&mut self, text: &str, at: Span) -> ControlFlow<()> {
        self.replayer.move_text(text, at)
    }

    fn comment(&mut self, text: &str) {
        self.has_comments = true;
        self.replayer.comment(text);
    }

    fn comment_before(&mut self, text: &str) {
        self.has_comments = true;
        self.replayer.comment_before(text);
    }

    fn begin_variation(&mut self) -> Skip {
        self.has_variations = true;
        self.replayer.begin_variation()
    }

    fn end_variation(&mut self) {
        self.replayer.end_variation();
    }

    fn result(&mut self, result: GameResult) {
        self.result = Some(result);
        self.replayer.result(result);
    }

    fn warning(&mut self, warning: Warning) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(warning);
        }
    }

    fn unreadable(&mut self, why: Warning) {
        if self.unreadable.is_none() {
            self.unreadable = Some(why.clone());
        }
        self.replayer.unreadable(why);
    }

    fn end_game(&mut self) -> Checked<F::Output> {
        let mut replayed = Box::new(self.replayer.end_game());
        let mut warnings = std::mem::take(&mut self.warnings);
        warnings.append(&mut replayed.warnings);
        let unreadable = self.unreadable.take();
        let [red, black, event, ecco, date] = std::mem::take(&mut self.tags);
        let checked = Checked {
            status: Status::of(unreadable.is_some(), &replayed),
            replayed,
            warnings,
            unreadable,
            result: self.result.take().or(self.result_tag.take().flatten()),
            has_comments: std::mem::take(&mut self.has_comments),
            has_variations: std::mem::take(&mut self.has_variations),
            red,
            black,
            event,
            ecco,
            date,
            start_at: self.start_at.take(),
            tags: std::mem::take(&mut self.kept),
            followed: self.replayer.follower_mut().end(),
        };
        self.result_tag = None;
        checked
    }
}
