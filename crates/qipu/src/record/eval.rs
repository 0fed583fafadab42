//! Engine evaluations as comments hold them: `{+0.38/19}` or `{[%eval 0.38,19]}`.
//!
//! An [`Evaluation`] is a [`Score`] from Red's side and the depth the
//! engine searched, if known. It is written into a comment in one of two
//! styles ([`EvalStyle`]) and read back from any comment that holds one
//! ([`Evaluation::find`]); the comment itself stays as written, this is a
//! view of it.
//!
//! # Forms written
//!
//! | score | [`EvalStyle::Plain`] | [`EvalStyle::Lichess`] |
//! |---|---|---|
//! | 38 centipawns, depth 19 | `+0.38/19` | `[%eval 0.38,19]` |
//! | -120 centipawns | `-1.20` | `[%eval -1.20]` |
//! | 0 centipawns | `0.00` | `[%eval 0.00]` |
//! | Red mates in 5, depth 19 | `#5/19` | `[%eval #5,19]` |
//! | Black mates in 3 | `#-3` | `[%eval #-3]` |
//!
//! # Forms read
//!
//! 1. A `[%eval X]` or `[%eval X,D]` anywhere in the comment, `X` a number
//!    of pawns (sign and decimals optional: `0.38`, `-1.2`, `+3`) or a mate
//!    (`#5`, `#-3`, `#+5`), `D` the depth; spaces inside the brackets are
//!    allowed. The first such tag that reads is taken.
//! 2. Otherwise the first, else the last, whitespace-separated word of the
//!    comment (so also a comment that is only the evaluation), in the plain
//!    grammar, each form with an optional `/DEPTH`:
//!    - `+0.38`, `-1.20`: a sign, digits, and optionally a point and digits;
//!    - `0.38`, `12.50`: without a sign the point is needed (`1` or `35` is
//!      not an evaluation), and with more than two digits before the point
//!      so is the depth: `2019.05` is a date, not an evaluation, while
//!      `+2019.05` and `123.45/20` are evaluations;
//!    - `#5`, `#-3`, `#+5`: mates.
//!
//!    A word with anything else in it (`1.`, `2-1`, `a/b`, `1.2s`,
//!    `(+0.38)`) is not one.
//!
//! Pawns are rounded to the nearest centipawn (halves away from zero).
//! Absurd values are refused, not wrapped: more than six digits before the
//! point (or in a mate count) or a depth over 999.
//!
//! ```
//! use qipu::record::{EvalStyle, Evaluation, Score};
//! let eval = Evaluation::find("好棋 +0.38/19").unwrap();
//! assert_eq!(eval, Evaluation { score: Score::Centipawns(38), depth: Some(19) });
//! assert_eq!(eval.write(EvalStyle::Lichess), "[%eval 0.38,19]");
//! assert_eq!(Evaluation::find("黑方 [%eval #-3] 胜定").unwrap().to_string(), "#-3");
//! assert_eq!(Evaluation::find("1. 炮二平五"), None);
//! assert_eq!(Evaluation::find("2019.05 北京"), None);
//! ```

use std::fmt;

/// An engine's score of a position: for a side (Red in comments; the side to move as engines say).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// In centipawns (100 = one pawn/soldier).
    Centipawns(i32),
    /// Mate in this many moves (full moves) by the side the score is for; negative: that side
    /// is mated in -n moves.
    Mate(i32),
}

impl Score {
    /// The same score for the other side (Centipawns(-c), Mate(-n)).
    pub(crate) fn negated(self) -> Score {
        match self {
            Score::Centipawns(c) => Score::Centipawns(c.saturating_neg()),
            Score::Mate(n) => Score::Mate(n.saturating_neg()),
        }
    }
}

/// An evaluation as comments hold it: a score from Red's side and the depth searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score, from Red's side.
    pub score: Score,
    /// The depth the engine searched, if known.
    pub depth: Option<u32>,
}

/// How an evaluation is written into a comment.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalStyle {
    /// `+0.38/19`, `#-3`.
    #[default]
    Plain,
    /// `[%eval 0.38,19]`, `[%eval #-3]`, as lichess writes it.
    Lichess,
}

/// The most digits read before the point of a number of pawns, or in a mate count.
const MAX_INTEGER_DIGITS: usize = 6;
/// The deepest depth read.
const MAX_DEPTH: u32 = 999;

impl Evaluation {
    /// The evaluation a comment holds, if any (the rules are in the
    /// [module docs](self)).
    pub fn find(comment: &str) -> Option<Evaluation> {
        find_tag(comment).or_else(|| {
            let mut words = comment.split_whitespace();
            let first = words.next()?;
            plain(first).or_else(|| words.next_back().and_then(plain))
        })
    }

    /// The evaluation as written into a comment in `style`.
    ///
    /// ```
    /// use qipu::record::{EvalStyle, Evaluation, Score};
    /// let eval = Evaluation { score: Score::Centipawns(-120), depth: None };
    /// assert_eq!(eval.write(EvalStyle::Plain), "-1.20");
    /// assert_eq!(eval.write(EvalStyle::Lichess), "[%eval -1.20]");
    /// ```
    pub fn write(&self, style: EvalStyle) -> String {
        match style {
            EvalStyle::Plain => self.to_string(),
            EvalStyle::Lichess => {
                let score = match self.score {
                    Score::Centipawns(c) => pawns(c, false),
                    Score::Mate(n) => format!("#{n}"),
                };
                match self.depth {
                    Some(depth) => format!("[%eval {score},{depth}]"),
                    None => format!("[%eval {score}]"),
                }
            }
        }
    }
}

impl Evaluation {
    /// The fields of the JSON object qipu writes for the evaluation, in
    /// order: `("cp", 38)` or `("mate", -3)`, then `("depth", 19)` when the
    /// depth is known. [`Evaluation::json`], the `serde` form and Python's
    /// dicts are all written from these.
    ///
    /// ```
    /// use qipu::record::{Evaluation, Score};
    /// let eval = Evaluation { score: Score::Centipawns(38), depth: Some(19) };
    /// assert_eq!(eval.json_fields().collect::<Vec<_>>(), [("cp", 38), ("depth", 19)]);
    /// ```
    pub fn json_fields(&self) -> impl Iterator<Item = (&'static str, i64)> + use<> {
        let score = match self.score {
            Score::Centipawns(c) => ("cp", i64::from(c)),
            Score::Mate(n) => ("mate", i64::from(n)),
        };
        std::iter::once(score).chain(self.depth.map(|depth| ("depth", i64::from(depth))))
    }

    /// The evaluation as the JSON object qipu writes for it (JSON records,
    /// `qipu fen --format json`, `qipu analyse --report`'s scores without
    /// a depth): `{"cp":38,"depth":19}`, `{"mate":-3}`, from Red's side,
    /// the depth left out when unknown (the fields of
    /// [`Evaluation::json_fields`]).
    ///
    /// ```
    /// use qipu::record::{Evaluation, Score};
    /// assert_eq!(Evaluation { score: Score::Centipawns(38), depth: Some(19) }.json(), r#"{"cp":38,"depth":19}"#);
    /// assert_eq!(Evaluation { score: Score::Mate(-3), depth: None }.json(), r#"{"mate":-3}"#);
    /// ```
    pub fn json(&self) -> String {
        let mut out = String::with_capacity(24);
        out.push('{');
        for (k, (key, value)) in self.json_fields().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push('"');
            out.push_str(key);
            out.push_str("\":");
            out.push_str(&value.to_string());
        }
        out.push('}');
        out
    }
}

/// The JSON object of [`Evaluation::json`], as a map of
/// [`Evaluation::json_fields`].
#[cfg(feature = "serde")]
impl serde::Serialize for Evaluation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.json_fields())
    }
}

impl fmt::Display for Evaluation {
    /// The plain form: `+0.38/19`, `-1.20`, `0.00`, `#5/19`, `#-3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Centipawns(c) => f.write_str(&pawns(c, true))?,
            Score::Mate(n) => write!(f, "#{n}")?,
        }
        match self.depth {
            Some(depth) => write!(f, "/{depth}"),
            None => Ok(()),
        }
    }
}

/// Centipawns as pawns with two decimals, a `-` when negative and, when
/// `plus`, a `+` when positive.
fn pawns(centipawns: i32, plus: bool) -> String {
    let abs = centipawns.unsigned_abs();
    let sign = match centipawns.signum() {
        -1 => "-",
        1 if plus => "+",
        _ => "",
    };
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// The first `[%eval …]` of a comment that reads.
fn find_tag(comment: &str) -> Option<Evaluation> {
    const OPEN: &str = "[%eval";
    let mut rest = comment;
    while let Some(at) = rest.find(OPEN) {
        rest = &rest[at + OPEN.len()..];
        let Some(close) = rest.find(']') else { break };
        let inside = &rest[..close];
        // `[%evaluation …]` or `[%eval0.3]` is not the tag.
        if inside.starts_with(char::is_whitespace)
            && let Some(eval) = tag_value(inside.trim())
        {
            return Some(eval);
        }
    }
    None
}

/// `X` or `X,D` of a `[%eval X,D]` tag.
fn tag_value(text: &str) -> Option<Evaluation> {
    let (score, depth) = match text.split_once(',') {
        Some((score, depth)) => (score.trim_end(), Some(depth.trim_start())),
        None => (text, None),
    };
    let depth = match depth {
        Some(depth) => Some(parse_depth(depth)?),
        None => None,
    };
    let score = match score.strip_prefix('#') {
        Some(mate) => parse_mate(mate)?,
        None => {
            let (negative, digits) = strip_sign(score);
            parse_pawns(digits, negative)?.0
        }
    };
    Some(Evaluation { score, depth })
}

/// A word in the plain grammar.
fn plain(word: &str) -> Option<Evaluation> {
    let (score, depth) = match word.split_once('/') {
        Some((score, depth)) => (score, Some(parse_depth(depth)?)),
        None => (word, None),
    };
    let score = match score.strip_prefix('#') {
        Some(mate) => parse_mate(mate)?,
        None => {
            let (negative, digits) = strip_sign(score);
            let signed = digits.len() < score.len();
            let (score, integer_digits, point) = parse_pawns(digits, negative)?;
            // Unsigned: the point is needed, and beyond two digits the depth too
            // (`35` is a number, `2019.05` a date).
            if !signed && (!point || (integer_digits > 2 && depth.is_none())) {
                return None;
            }
            score
        }
    };
    Some(Evaluation { score, depth })
}

/// A leading `+` or `-` taken off: whether it was `-`, and the rest.
fn strip_sign(text: &str) -> (bool, &str) {
    if let Some(rest) = text.strip_prefix('-') {
        (true, rest)
    } else {
        (false, text.strip_prefix('+').unwrap_or(text))
    }
}

/// Whether `text` is one or more ASCII digits.
fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `DIGITS` or `DIGITS.DIGITS` pawns as centipawns (rounded, halves away
/// from zero), with the count of digits before the point and whether there
/// is a point; `None` when not that form or more than six digits before
/// the point.
fn parse_pawns(text: &str, negative: bool) -> Option<(Score, usize, bool)> {
    let (integer, fraction) = match text.split_once('.') {
        Some((integer, fraction)) => (integer, Some(fraction)),
        None => (text, None),
    };
    if !all_digits(integer) || integer.len() > MAX_INTEGER_DIGITS {
        return None;
    }
    let mut centipawns: i32 = integer.parse::<i32>().ok()? * 100;
    if let Some(fraction) = fraction {
        if !all_digits(fraction) {
            return None;
        }
        let digit = |i: usize| fraction.as_bytes().get(i).map_or(0, |b| i32::from(b - b'0'));
        centipawns += digit(0) * 10 + digit(1) + i32::from(digit(2) >= 5);
    }
    let centipawns = if negative { -centipawns } else { centipawns };
    Some((Score::Centipawns(centipawns), integer.len(), fraction.is_some()))
}

/// The count of a mate after its `#`: `5`, `-3`, `+5`.
fn parse_mate(text: &str) -> Option<Score> {
    let (negative, digits) = strip_sign(text);
    if !all_digits(digits) || digits.len() > MAX_INTEGER_DIGITS {
        return None;
    }
    let n: i32 = digits.parse().ok()?;
    Some(Score::Mate(if negative { -n } else { n }))
}

/// A depth: digits, at most [`MAX_DEPTH`].
fn parse_depth(text: &str) -> Option<u32> {
    if !all_digits(text) || text.len() > 4 {
        return None;
    }
    text.parse().ok().filter(|&d| d <= MAX_DEPTH)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cp(c: i32, depth: Option<u32>) -> Option<Evaluation> {
        Some(Evaluation { score: Score::Centipawns(c), depth })
    }

    fn mate(n: i32, depth: Option<u32>) -> Option<Evaluation> {
        Some(Evaluation { score: Score::Mate(n), depth })
    }

    #[test]
    fn negated_as_its_docs_showed() {
        use crate::record::Score;
        assert_eq!(Score::Centipawns(38).negated(), Score::Centipawns(-38));
        assert_eq!(Score::Mate(-3).negated(), Score::Mate(3));
    }

    #[test]
    fn writes_plain() {
        let plain = |score, depth| Evaluation { score, depth }.write(EvalStyle::Plain);
        assert_eq!(plain(Score::Centipawns(38), Some(19)), "+0.38/19");
        assert_eq!(plain(Score::Centipawns(-120), None), "-1.20");
        assert_eq!(plain(Score::Centipawns(0), None), "0.00");
        assert_eq!(plain(Score::Centipawns(-5), Some(3)), "-0.05/3");
        assert_eq!(plain(Score::Centipawns(1234), None), "+12.34");
        assert_eq!(plain(Score::Mate(5), Some(19)), "#5/19");
        assert_eq!(plain(Score::Mate(-3), None), "#-3");
        assert_eq!(plain(Score::Centipawns(i32::MIN), None), "-21474836.48");
    }

    #[test]
    fn writes_lichess() {
        let lichess = |score, depth| Evaluation { score, depth }.write(EvalStyle::Lichess);
        assert_eq!(lichess(Score::Centipawns(38), None), "[%eval 0.38]");
        assert_eq!(lichess(Score::Centipawns(-120), Some(19)), "[%eval -1.20,19]");
        assert_eq!(lichess(Score::Centipawns(0), None), "[%eval 0.00]");
        assert_eq!(lichess(Score::Mate(5), Some(19)), "[%eval #5,19]");
        assert_eq!(lichess(Score::Mate(-3), None), "[%eval #-3]");
    }

    #[test]
    fn reads_plain_words() {
        assert_eq!(Evaluation::find("+0.38/19"), cp(38, Some(19)));
        assert_eq!(Evaluation::find("  -1.20  "), cp(-120, None));
        assert_eq!(Evaluation::find("0.00"), cp(0, None));
        assert_eq!(Evaluation::find("-0.00"), cp(0, None));
        assert_eq!(Evaluation::find("+3"), cp(300, None));
        assert_eq!(Evaluation::find("-2/12"), cp(-200, Some(12)));
        assert_eq!(Evaluation::find("0.5"), cp(50, None));
        assert_eq!(Evaluation::find("12.50"), cp(1250, None));
        assert_eq!(Evaluation::find("123.45/20"), cp(12345, Some(20)));
        assert_eq!(Evaluation::find("+2019.05"), cp(201905, None));
        assert_eq!(Evaluation::find("#5"), mate(5, None));
        assert_eq!(Evaluation::find("#+5/30"), mate(5, Some(30)));
        assert_eq!(Evaluation::find("#-3/7"), mate(-3, Some(7)));
        assert_eq!(Evaluation::find("#0"), mate(0, None));
        assert_eq!(Evaluation::find("+0.38/0"), cp(38, Some(0)));
    }

    #[test]
    fn rounds_to_the_nearest_centipawn() {
        assert_eq!(Evaluation::find("+0.384"), cp(38, None));
        assert_eq!(Evaluation::find("+0.385"), cp(39, None));
        assert_eq!(Evaluation::find("-0.385"), cp(-39, None));
        assert_eq!(Evaluation::find("+0.9999999999999999999"), cp(100, None));
        assert_eq!(Evaluation::find("-1.5"), cp(-150, None));
        assert_eq!(Evaluation::find("+1."), None);
        assert_eq!(Evaluation::find("+.5"), None);
    }

    #[test]
    fn reads_text_around_it() {
        assert_eq!(Evaluation::find("好棋 +0.38/19"), cp(38, Some(19)));
        assert_eq!(Evaluation::find("+0.38/19 1.2s"), cp(38, Some(19)));
        assert_eq!(Evaluation::find("红方优势 黑方难以应付 -1.05"), cp(-105, None));
        assert_eq!(Evaluation::find("#-3 黑胜"), mate(-3, None));
        // The first word before the last.
        assert_eq!(Evaluation::find("+0.10 中间 -0.20"), cp(10, None));
        // Full-width spaces separate words too.
        assert_eq!(Evaluation::find("好棋\u{3000}+0.38/19"), cp(38, Some(19)));
        // A word in the middle is not read.
        assert_eq!(Evaluation::find("红方 +0.38 优势"), None);
    }

    #[test]
    fn reads_lichess_tags() {
        assert_eq!(Evaluation::find("[%eval 0.38]"), cp(38, None));
        assert_eq!(Evaluation::find("[%eval -1.20,19]"), cp(-120, Some(19)));
        assert_eq!(Evaluation::find("[%eval #5,19]"), mate(5, Some(19)));
        assert_eq!(Evaluation::find("[%eval #-3]"), mate(-3, None));
        assert_eq!(Evaluation::find("[%eval 2]"), cp(200, None));
        assert_eq!(Evaluation::find("[%eval  +0.5 , 12 ]"), cp(50, Some(12)));
        assert_eq!(Evaluation::find("好棋 [%eval 0.38,19] [%clk 0:01:00] 中局"), cp(38, Some(19)));
        // The tag comes before a plain word.
        assert_eq!(Evaluation::find("+9.99 [%eval 0.38]"), cp(38, None));
        // The first tag that reads.
        assert_eq!(Evaluation::find("[%eval x] [%eval -0.1]"), cp(-10, None));
        // Not tags: a plain word is read instead, or nothing.
        assert_eq!(Evaluation::find("[%evaluation 0.3] -0.4"), cp(-40, None));
        assert_eq!(Evaluation::find("[%eval 0.38 未完"), None);
        assert_eq!(Evaluation::find("[%eval ]"), None);
        assert_eq!(Evaluation::find("[%eval 0.38,]"), None);
        assert_eq!(Evaluation::find("[%eval 0.38,1000]"), None);
        assert_eq!(Evaluation::find("[%eval 1234567]"), None);
        assert_eq!(Evaluation::find("[%eval #]"), None);
    }

    #[test]
    fn refuses_what_is_not_an_evaluation() {
        for comment in [
            "",
            "   ",
            "1. 炮二平五",
            "35",
            "1",
            "2-1",
            "1-0",
            "a/b",
            "2019.05",
            "2019.05 北京",
            "对局于 1999.12",
            "1.2s",
            "(+0.38)",
            "+0.38/",
            "+0.38/x",
            "/19",
            "+",
            "-",
            "#",
            "#-",
            "#5.0",
            "+-1",
            "0.38.1",
            "+0.38/19/2",
            "1/2-1/2",
            "½-½",
            "+１.5",
            "好棋",
        ] {
            assert_eq!(Evaluation::find(comment), None, "{comment:?}");
        }
    }

    #[test]
    fn refuses_absurd_values() {
        assert_eq!(Evaluation::find("+999999.99"), cp(99_999_999, None));
        assert_eq!(Evaluation::find("+1000000.00"), None);
        assert_eq!(Evaluation::find("-99999999999999999999999"), None);
        assert_eq!(Evaluation::find("#9999999"), None);
        assert_eq!(Evaluation::find("#-999999"), mate(-999_999, None));
        assert_eq!(Evaluation::find("+0.38/999"), cp(38, Some(999)));
        assert_eq!(Evaluation::find("+0.38/1000"), None);
        assert_eq!(Evaluation::find("+0.38/99999999999999999999"), None);
    }

    #[test]
    fn the_node_holds_its_comments_evaluation() {
        let record = &crate::formats::pgn::read("1. h2e2 {好棋 +0.38/19} h9g7 {中局} 2. h0g2 *")[0];
        let tree = record.tree();
        let evals: Vec<_> = tree.main_line().map(|id| tree.node(id).evaluation()).collect();
        assert_eq!(evals, [cp(38, Some(19)), None, None]);
    }

    proptest! {
        #[test]
        fn written_evaluations_read_back(
            centipawns in -99_999_999i32..=99_999_999,
            mate_in in -999_999i32..=999_999,
            is_mate: bool,
            depth in proptest::option::of(0u32..=999),
            lichess: bool,
            before in "[a-z好棋 ]{0,6}",
            after in "[a-z中局 ]{0,6}",
        ) {
            let score = if is_mate { Score::Mate(mate_in) } else { Score::Centipawns(centipawns) };
            let eval = Evaluation { score, depth };
            let style = if lichess { EvalStyle::Lichess } else { EvalStyle::Plain };
            let written = eval.write(style);
            prop_assert_eq!(Evaluation::find(&written), Some(eval), "{}", written);
            // Text around it: a tag anywhere, a plain word first or last.
            let comment = if lichess {
                format!("{before}{written}{after}")
            } else {
                format!("{before} {written}")
            };
            prop_assert_eq!(Evaluation::find(&comment), Some(eval), "{}", comment);
            prop_assert_eq!(Evaluation::find(&format!("{written} {after}")), Some(eval));
        }

        #[test]
        fn any_text_is_read_without_panic(comment in "\\PC{0,40}") {
            let _ = Evaluation::find(&comment);
        }

        #[test]
        fn number_like_text_is_read_without_panic(comment in "[-+#0-9./,\\[%eval \\]]{0,30}") {
            if let Some(eval) = Evaluation::find(&comment) {
                prop_assert!(eval.depth.is_none_or(|d| d <= MAX_DEPTH));
            }
        }
    }
}
