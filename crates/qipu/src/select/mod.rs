//! Selecting games: by tags, date, outcome, status, opening, length,
//! content, position reached and material, by number, and the rest —
//! one set of criteria that every batch command can use.
//!
//! A selection has two parts. What can be judged of each game alone (its
//! tags, its replay, what a [`Probe`] found in its moves) is a
//! [`Selection`], judged where the game is read, on any thread. What
//! depends on the games' order (numbers within an input, `skip` and
//! `limit` over the stream, `invert`) is a [`Selector`], told each game's
//! verdict in input order. [`Options`] holds every option of both, as
//! the batch commands' selection flags give them, and makes the
//! [`Chooser`] that holds the two together (and plans the copies to leave
//! out when that needs a pass of its own); [`Chooser::pass`] is the pass
//! every command runs: each game in input order with whether it is
//! selected ([`PassEvent`]), stopping by itself at the limit.
//!
//! ```
//! use std::sync::Arc;
//! use qipu::select::{Selection, Selector, TagRule};
//! let text = "[Red \"许银川\"]\n1. h2e2 h9g7 *\n\n[Red \"胡荣华\"]\n1. h2e2 *\n\n[Red \"许银川\"]\n1. b2e2 *\n";
//! let selection = Arc::new(Selection { tags: vec![TagRule::new(&["Red"], "许").unwrap()], ..Selection::default() });
//! let games = qipu::formats::pgn::read_with(text, &mut selection.checker(()));
//! let mut selector = Selector::default();
//! let kept: Vec<bool> = games.iter().enumerate().map(|(k, g)| selector.take(k, g.matches)).collect();
//! assert_eq!(kept, [true, false, true]);
//! assert_eq!((selector.read(), selector.selected()), (3, 2));
//! ```

mod copies;
mod criteria;
mod options;
mod order;
mod pass;
mod probe;
mod within;

use std::borrow::Cow;
use std::sync::Arc;

pub use copies::{CopyFinder, Keyed, Known, Numbering, Reading, copies, known};
pub use criteria::{
    CountRange, CriterionError, DateRange, EccoSet, GameNumbers, Imbalance, Material, MaterialPattern,
    PartialDate,
};
pub use options::{Chooser, OptionError, OptionErrorKind, Options};
pub use order::Selector;
pub use pass::{PassEvent, PassSummary};
pub use probe::{Looks, MaterialAt, Probe, Probed, Target};
pub use within::Within;

use crate::batch::{Checked, Checker, Status};
use crate::record::replay::{Follow, Termination};
use crate::record::visit::Map;
use crate::record::{GameResult, Record, Span as Place, Visitor, Warning};
use crate::rules::judge::RuleSet;
use crate::text::{fold, fold_char};

/// A tag criterion: the value of one of `names` (case-insensitive; the
/// first such tag of the game) matches the pattern. A game without any of
/// the tags does not match. The value and the pattern's characters are
/// matched whatever their script and width ([`fold`]): `許銀川` matches
/// `许银川`, `Ｈｕ` matches `Hu`; a full-width `（` in the pattern stays a
/// literal bracket.
///
/// ```
/// use qipu::select::TagRule;
/// let rule = TagRule::new(&["Red", "Black"], "^胡").unwrap();
/// assert!(rule.matches(|name| (name == "Black").then_some("胡荣华")));
/// assert!(!rule.matches(|_| None));
/// let rule = TagRule::new(&["Red"], "^许银川$").unwrap();
/// assert!(rule.matches(|_| Some("許銀川")));
/// assert!(TagRule::parse("Event=全国.*赛").is_ok());
/// assert!(TagRule::parse("Event").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct TagRule {
    names: Vec<String>,
    pattern: regex::Regex,
}

impl TagRule {
    /// A rule on the tags `names`, whose value must match the regular
    /// expression `pattern` (anywhere in it: anchor with `^` and `$`).
    ///
    /// # Errors
    ///
    /// Why `pattern` is no regular expression.
    pub fn new(names: &[&str], pattern: &str) -> Result<TagRule, CriterionError> {
        let folded = fold_pattern(pattern);
        let built =
            regex::RegexBuilder::new(&folded).size_limit(1 << 20).build().map_err(|e| CriterionError {
                what: "regular expression",
                text: pattern.to_string(),
                why: e.to_string().lines().last().unwrap_or("does not read").trim().to_string(),
            })?;
        Ok(TagRule { names: names.iter().map(|n| n.to_string()).collect(), pattern: built })
    }

    /// A rule written `NAME=REGEX`.
    ///
    /// # Errors
    ///
    /// When there is no `=` or no name, or the pattern does not read.
    pub fn parse(text: &str) -> Result<TagRule, CriterionError> {
        match text.split_once('=') {
            Some((name, pattern)) if !name.trim().is_empty() => TagRule::new(&[name.trim()], pattern),
            _ => Err(CriterionError {
                what: "tag",
                text: text.to_string(),
                why: "write NAME=REGEX, as Event=全国".to_string(),
            }),
        }
    }

    /// Whether the value `tag` gives for one of the rule's names matches.
    pub fn matches<'a>(&self, tag: impl Fn(&str) -> Option<&'a str>) -> bool {
        self.names.iter().any(|name| tag(name).is_some_and(|value| self.pattern.is_match(&fold(value))))
    }
}

/// A regular expression's characters folded as [`fold`] folds text, its
/// meaning kept: a character that folds to ASCII punctuation or a space
/// (`（` to `(`) is written as the escape of that character (`\x{28}`), a
/// literal, and a character after a backslash is left as written.
fn fold_pattern(pattern: &str) -> Cow<'_, str> {
    if matches!(fold(pattern), Cow::Borrowed(_)) {
        return Cow::Borrowed(pattern);
    }
    let mut folded = String::with_capacity(pattern.len() + 8);
    let mut escaped = false;
    for c in pattern.chars() {
        match fold_char(c) {
            Some(f) if !escaped && f.is_ascii() && !f.is_ascii_alphanumeric() => {
                folded.push_str(&format!("\\x{{{:x}}}", u32::from(f)));
            }
            Some(f) if !escaped => folded.push(f),
            _ => folded.push(c),
        }
        escaped = !escaped && c == '\\';
    }
    Cow::Owned(folded)
}

/// The outcomes `--result` names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResultChoice {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// A draw.
    Draw,
    /// `*`, or no result stated.
    Unknown,
}

impl ResultChoice {
    fn matches(self, result: Option<GameResult>) -> bool {
        matches!(
            (self, result),
            (ResultChoice::RedWins, Some(GameResult::RedWins))
                | (ResultChoice::BlackWins, Some(GameResult::BlackWins))
                | (ResultChoice::Draw, Some(GameResult::Draw))
                | (ResultChoice::Unknown, Some(GameResult::Unknown) | None)
        )
    }
}

/// What a game is judged by, each criterion holding (all must) unless it
/// is left out (`None`, empty, `false`): the default selects every game.
/// See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Tag rules, all of which must hold.
    pub tags: Vec<TagRule>,
    /// The `Date` tag lies in this range (a game without a date that reads
    /// does not).
    pub date: Option<DateRange>,
    /// The stated result is one of these.
    pub results: Vec<ResultChoice>,
    /// The main line ends so (`None` in the list: it ends otherwise, or
    /// does not replay to its end).
    pub terminations: Vec<Option<Termination>>,
    /// The status is one of these.
    pub statuses: Vec<Status>,
    /// The ECCO code by the moves (games from the standard start), else the
    /// `ECCO` tag, is in the set.
    pub ecco: Option<EccoSet>,
    /// The opening is called so: one of its traditional names is this, or
    /// its ECCO name holds it (games from another start: their `Opening`
    /// and `Variation` tags hold it), whatever the script and width of
    /// either ([`fold`]: `中砲` is `中炮`).
    pub opening: Option<String>,
    /// The main line has this many plies (those that replayed).
    pub plies: Option<CountRange>,
    /// The game has a comment.
    pub has_comments: bool,
    /// The game has a variation.
    pub has_variations: bool,
    /// What must be found in the moves: a position, material.
    pub looks: Arc<Looks>,
    /// The rule book games are judged by (repetitions, the natural move
    /// limit, results: see [`RuleSet`]); not a criterion, so it does not
    /// make a selection non-empty.
    pub rules: RuleSet,
}

/// A game with whether it [matches](Selection::matches) a selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged<T> {
    /// The game matches the selection's criteria.
    pub matches: bool,
    /// Its main line's key, when the selection looks for copies.
    pub key: Option<crate::dedupe::GameKey>,
    /// What was made of the game.
    pub game: T,
}

impl Selection {
    /// Whether it selects every game.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
            && self.date.is_none()
            && self.results.is_empty()
            && self.terminations.is_empty()
            && self.statuses.is_empty()
            && self.ecco.is_none()
            && self.opening.is_none()
            && self.plies.is_none()
            && !self.has_comments
            && !self.has_variations
            && self.looks.is_empty()
    }

    /// The tags judging needs kept.
    pub fn tag_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> =
            self.tags.iter().flat_map(|rule| rule.names.iter().map(String::as_str)).collect();
        if self.date.is_some() {
            names.push("Date");
        }
        if self.opening.is_some() {
            names.extend(["Opening", "Variation"]);
        }
        names
    }

    /// A probe for what this selection looks for in the moves.
    pub fn probe(&self) -> Probe {
        Probe::new(self.looks.clone())
    }

    /// Whether a game checked with this selection's [`Probe`] matches.
    pub fn matches<T>(&self, checked: &Checked<T>, probed: &Probed) -> bool {
        let tag = |name: &str| checked.tag(name);
        self.tags.iter().all(|rule| rule.matches(tag))
            && self.date.is_none_or(|range| {
                checked.tag("Date").and_then(PartialDate::read).is_some_and(|d| range.contains(&d))
            })
            && (self.results.is_empty() || self.results.iter().any(|r| r.matches(checked.result)))
            && (self.terminations.is_empty() || self.terminations.contains(&ended(checked)))
            && (self.statuses.is_empty() || self.statuses.contains(&checked.status))
            && self.ecco.as_ref().is_none_or(|set| {
                probed
                    .opening
                    .as_ref()
                    .map(|o| o.ecco.code)
                    .or(checked.ecco.as_deref())
                    .is_some_and(|c| set.contains(c))
            })
            && self.opening.as_deref().is_none_or(|name| {
                let name = &*fold(name);
                match &probed.opening {
                    Some(o) => {
                        o.terms.iter().any(|term| fold(term) == name) || fold(o.ecco.name).contains(name)
                    }
                    None => ["Opening", "Variation"]
                        .iter()
                        .any(|t| checked.tag(t).is_some_and(|v| fold(v).contains(name))),
                }
            })
            && self.plies.is_none_or(|span| span.contains(checked.replayed.plies as u64))
            && (!self.has_comments || checked.has_comments)
            && (!self.has_variations || checked.has_variations)
            && (self.looks.position.is_none() || probed.reached)
            && (self.looks.material.is_none() || probed.material)
    }

    /// A [`Checker`] that follows the main line with `follow` (as
    /// [`Checker::following`]) and judges each game by this selection.
    pub fn checker<F: Follow>(
        self: &Arc<Self>,
        follow: F,
    ) -> impl Visitor<Output = Judged<Checked<F::Output>>> {
        self.checker_keeping(follow, &[])
    }

    /// [`Selection::checker`], the game's tags named in `keep` kept too
    /// (in [`Checked::tags`], beside those the selection needs).
    pub fn checker_keeping<F: Follow>(
        self: &Arc<Self>,
        follow: F,
        keep: &[&str],
    ) -> impl Visitor<Output = Judged<Checked<F::Output>>> + use<F> {
        let selection = self.clone();
        let mut names = self.tag_names();
        names.extend_from_slice(keep);
        let checker = Checker::following((self.probe(), follow)).keep_tags(&names).rules(self.rules);
        Map::new(checker, move |checked: Checked<(Probed, F::Output)>| {
            let matches = selection.is_empty() || selection.matches(&checked, &checked.followed.0);
            let key = checked.followed.0.key;
            Judged { matches, key, game: checked.map_followed(|(_, followed)| followed) }
        })
    }

    /// [`Selection::checker`], every tag of each game kept (in
    /// [`Checked::tags`], in the order read: see [`Checker::keep_all_tags`]).
    pub fn checker_keeping_all<F: Follow>(
        self: &Arc<Self>,
        follow: F,
    ) -> impl Visitor<Output = Judged<Checked<F::Output>>> + use<F> {
        let selection = self.clone();
        let checker = Checker::following((self.probe(), follow)).keep_all_tags().rules(self.rules);
        Map::new(checker, move |checked: Checked<(Probed, F::Output)>| {
            let matches = selection.is_empty() || selection.matches(&checked, &checked.followed.0);
            let key = checked.followed.0.key;
            Judged { matches, key, game: checked.map_followed(|(_, followed)| followed) }
        })
    }

    /// A record built whole, judged by the replay it keeps
    /// ([`Record::replayed`]): no move is resolved again. The same verdict
    /// as [`Selection::checker`] gives of the record's events.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use qipu::select::{Selection, CountRange};
    /// let selection = Arc::new(Selection { plies: Some(CountRange { min: 2, max: u64::MAX }), ..Selection::default() });
    /// let games = qipu::formats::pgn::read("1. h2e2 h9g7 *\n\n1. h2e2 *\n");
    /// let judged: Vec<bool> = games.iter().map(|g| selection.judge_record(g).matches).collect();
    /// assert_eq!(judged, [true, false]);
    /// ```
    pub fn judge_record(self: &Arc<Self>, record: &Record) -> Judged<()> {
        if self.is_empty() {
            return Judged { matches: true, key: None, game: () };
        }
        if record.unreadable().is_some() || record.replayed().rules != self.rules {
            // No move of it replays, but its start may be set up: its events
            // are checked again, which resolves no move. A record judged by
            // other rules than its replay was is replayed again by them.
            let judged = record.visit(&mut self.checker(()));
            return Judged { matches: judged.matches, key: judged.key, game: () };
        }
        let checked = Checked::of_record(record, &self.tag_names(), ());
        let probed = self.probe().probe_record(record);
        Judged { matches: self.matches(&checked, &probed), key: probed.key, game: () }
    }

    /// Whether an input that cannot be read at all, and so counts as one
    /// unreadable game without tags or moves, matches.
    pub(crate) fn matches_unreadable(&self) -> bool {
        let mut checker = Checker::following(self.probe()).keep_tags(&self.tag_names()).rules(self.rules);
        checker.begin_game(Place::default());
        checker.unreadable(Warning { at: Place::default(), message: String::new() });
        let checked = checker.end_game();
        self.is_empty() || self.matches(&checked, &checked.followed)
    }
}

/// How a checked game's main line ends, as `--termination` names it.
fn ended<T>(checked: &Checked<T>) -> Option<Termination> {
    if checked.replayed.error.is_some() { None } else { checked.replayed.termination }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_rules_match_whatever_the_script_and_width() {
        let rule = |p: &str| TagRule::new(&["Red"], p).unwrap();
        let value = |v: &'static str| move |_: &str| Some(v);
        assert!(rule("许银川").matches(value("許銀川")));
        assert!(rule("許銀川").matches(value("许银川")));
        assert!(TagRule::parse("Event=全国").unwrap().matches(value("全國個人賽")));
        assert!(rule("^Ｈｕ").matches(value("Hu Ronghua")));
        assert!(rule("^Hu Ronghua$").matches(value("Ｈｕ\u{3000}Ronghua")));
        assert!(!rule("^Hu$").matches(value("Ｈｕｒ")));
    }

    #[test]
    fn a_pattern_folded_keeps_its_meaning() {
        assert_eq!(fold_pattern("^许.*川$"), "^许.*川$");
        assert!(matches!(fold_pattern("^许.*川$"), Cow::Borrowed(_)));
        assert_eq!(fold_pattern("^許（銀）+川$"), "^许\\x{28}银\\x{29}+川$");
        assert_eq!(fold_pattern("Ｈｕ\u{3000}Ｒ［１］"), "Hu\\x{20}R\\x{5b}1\\x{5d}");
        // After a backslash a character is left as written (the pattern's own error).
        assert_eq!(fold_pattern("\\（\\\\（"), "\\（\\\\\\x{28}");
        assert!(TagRule::new(&["Red"], "\\（").is_err());
        // `（` is a literal bracket, not a group: `（a）+` is `(a` and one or more `)`.
        let rule = TagRule::new(&["Event"], "^x（a）+$").unwrap();
        assert!(rule.matches(|_| Some("x(a))")) && rule.matches(|_| Some("x（a））")));
        assert!(!rule.matches(|_| Some("xaa")) && !rule.matches(|_| Some("xa")));
        // Full-width punctuation stays literal inside a class too.
        let rule = TagRule::new(&["Event"], "^[（－）]$").unwrap();
        assert!(rule.matches(|_| Some("-")) && rule.matches(|_| Some("）")));
        assert!(!rule.matches(|_| Some("*")));
        let rule = TagRule::new(&["Event"], "．").unwrap();
        assert!(rule.matches(|_| Some("a.b")) && !rule.matches(|_| Some("ab")));
    }

    #[test]
    fn openings_are_named_whatever_the_script() {
        let record = |text: &str| crate::formats::pgn::read(text).remove(0);
        let looks = Arc::new(Looks { opening: true, ..Looks::default() });
        let opening = |name: &str| {
            Arc::new(Selection { opening: Some(name.into()), looks: looks.clone(), ..Selection::default() })
        };
        let central = record("1. h2e2 h9g7 2. h0g2 i9h9 *");
        assert!(opening("中炮").judge_record(&central).matches);
        assert!(opening("中砲").judge_record(&central).matches);
        let tagged = record("[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n[Opening \"中砲對屏風馬\"]\n1. b1b9 *");
        assert!(opening("屏风马").judge_record(&tagged).matches);
        assert!(opening("屏風馬").judge_record(&tagged).matches);
        assert!(!opening("仙人指路").judge_record(&tagged).matches);
    }

    #[test]
    fn wxf_and_plain_text_are_validated_counted_and_traced_building_no_record() {
        use crate::analysis::stats::MainLine;
        use crate::analysis::trail::{Positions, Trail};
        use crate::formats::stream::read_stream_with;
        use crate::record::counting::built;
        let wxf =
            "FORMAT WXF\nRED a\nnote\nSTART{ 1. C2.5 h8+7 2. H2+3 }END\nFORMAT WXF\nSTART{ 1. P7+1 }END\n";
        let plain = "甲 红先胜 乙\n说明\n1. 炮二平五 马8进7 1-0\n1. 相三进五 象３进５ *\n对局结束\n";
        let selection = Arc::new(Selection::default());
        for (text, format) in [(wxf, "wxf"), (plain, "text")] {
            let bytes = text.as_bytes();
            let before = built();
            let mut valid = Vec::new();
            let read = crate::formats::read_with(bytes, None, &mut selection.checker(()), |judged| {
                valid.push(judged.game.replayed.is_valid())
            });
            assert_eq!(read.unwrap().format.name(), format);
            let read = read_stream_with(bytes, None, &mut selection.checker(()), |judged| {
                valid.push(judged.game.replayed.is_valid())
            });
            assert_eq!(read.unwrap().format.name(), format);
            let mut plies = Vec::new();
            crate::formats::read_with(bytes, None, &mut selection.checker(MainLine::default()), |judged| {
                plies.push(judged.game.replayed.plies)
            })
            .unwrap();
            let mut positions = Vec::new();
            let trail = Trail::new(crate::notation::Notation::Wxf, Positions::default());
            crate::formats::read_with(bytes, None, &mut selection.checker(trail), |judged| {
                positions.push(judged.game.followed.positions.len())
            })
            .unwrap();
            assert_eq!(built() - before, 0, "{format}: no record built");
            assert_eq!(valid, [true; 4], "{format}");
            assert_eq!(plies.len(), 2, "{format}");
            assert_eq!(positions, plies, "{format}");
            // A reader of records builds one a game.
            let before = built();
            assert_eq!(crate::formats::read(bytes, None).unwrap().records.len(), 2);
            assert_eq!(built() - before, 2, "{format}");
        }
    }

    #[test]
    fn a_record_is_judged_by_its_replay_as_by_its_events() {
        let fixture = include_str!("../../fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
        let texts = [
            fixture,
            "1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. h2h9)) 2. h0g2 {c} i9h9 3. h2h9 *\n\n\
             [FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n1. b1b9 1-0\n\n[FEN \"bad\"]\n1. h2e2 *\n",
        ];
        let after = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR";
        for in_variations in [false, true] {
            for (at, material) in [(MaterialAt::Any, "RRCC* vs RRNN*"), (MaterialAt::End, "RR* vs R*")] {
                let looks = Looks {
                    position: Some(Target::from_fen(after, true).unwrap()),
                    in_variations,
                    material: Some((material.parse().unwrap(), at)),
                    opening: true,
                    key: true,
                };
                let selection = Arc::new(Selection {
                    plies: Some(CountRange { min: 10, max: u64::MAX }),
                    has_comments: in_variations,
                    looks: Arc::new(looks),
                    ..Selection::default()
                });
                for text in texts {
                    for record in crate::formats::pgn::read(text) {
                        let judged = selection.judge_record(&record);
                        let told = record.visit(&mut selection.checker(()));
                        assert_eq!((judged.matches, &judged.key), (told.matches, &told.key));
                        let checked = Checked::of_record(&record, &selection.tag_names(), ());
                        assert_eq!(
                            checked,
                            record.visit(&mut Checker::default().keep_tags(&selection.tag_names()))
                        );
                    }
                }
            }
        }
    }
}
