//! The pieces a selection is made of, each read from the text a user
//! writes on a command line: ranges of plies and game numbers, partial
//! dates, ECCO codes and ranges, and material signatures.

use std::fmt;
use std::str::FromStr;

pub use crate::record::date::PartialDate;
use crate::{Board, Color, Role};

/// Why a criterion's text does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} {text:?}: {why}")]
pub struct CriterionError {
    /// What was read: `plies`, `date`, `ECCO code`, `material`, ….
    pub what: &'static str,
    /// The text given.
    pub text: String,
    /// Why it does not read, and what would.
    pub why: String,
}

impl CriterionError {
    fn new(what: &'static str, text: &str, why: impl Into<String>) -> CriterionError {
        CriterionError { what, text: text.to_string(), why: why.into() }
    }
}

/// An inclusive range of counts, `MIN..MAX`, `MIN..`, `..MAX` or `N`.
///
/// ```
/// use qipu::select::CountRange;
/// let span: CountRange = "10..".parse().unwrap();
/// assert!(span.contains(10) && span.contains(500) && !span.contains(9));
/// let exact: CountRange = "40".parse().unwrap();
/// assert!(exact.contains(40) && !exact.contains(41));
/// assert!("9..3".parse::<CountRange>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CountRange {
    /// The least count, inclusive.
    pub min: u64,
    /// The greatest count, inclusive.
    pub max: u64,
}

impl CountRange {
    /// Whether `n` is in the range.
    pub fn contains(&self, n: u64) -> bool {
        (self.min..=self.max).contains(&n)
    }
}

impl FromStr for CountRange {
    type Err = CriterionError;

    fn from_str(text: &str) -> Result<CountRange, CriterionError> {
        let number = |s: &str, empty: u64| -> Result<u64, CriterionError> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(empty);
            }
            s.parse().map_err(|_| {
                CriterionError::new("range", text, "write MIN..MAX, MIN.., ..MAX or N (whole numbers)")
            })
        };
        let span = match text.split_once("..") {
            Some((lo, hi)) => CountRange { min: number(lo, 0)?, max: number(hi, u64::MAX)? },
            None => {
                let n = number(text, u64::MAX).and_then(|n| {
                    if text.trim().is_empty() {
                        Err(CriterionError::new("range", text, "empty"))
                    } else {
                        Ok(n)
                    }
                })?;
                CountRange { min: n, max: n }
            }
        };
        if span.min > span.max {
            return Err(CriterionError::new("range", text, "the first number is larger than the second"));
        }
        Ok(span)
    }
}

/// Game numbers, 1-based, as `1,5,10-20` (also `10..20`, and `30-` for
/// 30 on).
///
/// ```
/// use qipu::select::GameNumbers;
/// let numbers: GameNumbers = "1,5,10-20".parse().unwrap();
/// assert!(numbers.contains(1) && numbers.contains(15) && !numbers.contains(2) && !numbers.contains(21));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNumbers(Vec<CountRange>);

impl GameNumbers {
    /// Whether game `n` (1-based) is named.
    pub fn contains(&self, n: u64) -> bool {
        self.0.iter().any(|s| s.contains(n))
    }
}

impl FromStr for GameNumbers {
    type Err = CriterionError;

    fn from_str(text: &str) -> Result<GameNumbers, CriterionError> {
        let bad =
            || CriterionError::new("game numbers", text, "write numbers and ranges from 1, as 1,5,10-20");
        let spans = text
            .split(',')
            .map(|part| {
                let part = part.trim();
                let span: CountRange = match part.split_once('-') {
                    Some((lo, hi)) => format!("{lo}..{hi}").parse().map_err(|_| bad())?,
                    None => part.parse().map_err(|_| bad())?,
                };
                if span.min == 0 { Err(bad()) } else { Ok(span) }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GameNumbers(spans))
    }
}

/// The first and last day the date may be, as `yyyymmdd` numbers.
fn bounds(date: &PartialDate) -> (u32, u32) {
    let y = u32::from(date.year) * 10_000;
    match (date.month, date.day) {
        (Some(m), Some(d)) => {
            let day = y + u32::from(m) * 100 + u32::from(d);
            (day, day)
        }
        (Some(m), None) => (y + u32::from(m) * 100 + 1, y + u32::from(m) * 100 + 31),
        _ => (y + 101, y + 1231),
    }
}

/// Dates `FROM..TO` (either may be left out, and each may be partial:
/// `1990..1995.06`), or one partial date (`1990.05`: that month). A game
/// is in the range when every day its date may be is: a game dated only
/// `1990` is not in `1990.05`.
///
/// ```
/// use qipu::select::{DateRange, PartialDate};
/// let range: DateRange = "1990..1995.06".parse().unwrap();
/// assert!(range.contains(&PartialDate::read("1995.06.30").unwrap()));
/// assert!(!range.contains(&PartialDate::read("1995.07.01").unwrap()));
/// assert!(range.contains(&PartialDate::read("1992").unwrap()));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DateRange {
    from: u32,
    to: u32,
}

impl DateRange {
    /// Whether every day `date` may be lies in the range.
    pub fn contains(&self, date: &PartialDate) -> bool {
        let (first, last) = bounds(date);
        self.from <= first && last <= self.to
    }
}

impl FromStr for DateRange {
    type Err = CriterionError;

    fn from_str(text: &str) -> Result<DateRange, CriterionError> {
        let date = |s: &str| {
            PartialDate::read(s).ok_or_else(|| {
                CriterionError::new(
                    "date",
                    text,
                    "write a year, year.month or year.month.day, or a range FROM..TO",
                )
            })
        };
        let (from, to) = match text.split_once("..") {
            Some((lo, hi)) => {
                let from = if lo.trim().is_empty() { 0 } else { bounds(&date(lo)?).0 };
                let to = if hi.trim().is_empty() { u32::MAX } else { bounds(&date(hi)?).1 };
                (from, to)
            }
            None => bounds(&date(text)?),
        };
        if from > to {
            return Err(CriterionError::new("date", text, "the first date is after the second"));
        }
        Ok(DateRange { from, to })
    }
}

/// ECCO codes: `B10`, ranges `B10..B14` (or `B10-B14`), a volume `B`, or
/// ten codes `B1` (`B10` to `B19`), separated by commas.
///
/// ```
/// use qipu::select::EccoSet;
/// let codes: EccoSet = "B10..B14,C".parse().unwrap();
/// assert!(codes.contains("B12") && codes.contains("C98") && !codes.contains("B15"));
/// assert!("Z10".parse::<EccoSet>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EccoSet(Vec<(u16, u16)>);

impl EccoSet {
    /// Whether `code` (`A00` … `E99`) is in the set.
    pub fn contains(&self, code: &str) -> bool {
        ecco_number(code).is_some_and(|n| self.0.iter().any(|&(lo, hi)| (lo..=hi).contains(&n)))
    }
}

/// `A00` → 0, `E99` → 499; partial codes `B` and `B1` give their first and
/// last codes.
fn ecco_bounds(code: &str) -> Option<(u16, u16)> {
    let code = code.trim();
    let mut chars = code.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !('A'..='E').contains(&letter) {
        return None;
    }
    let volume = (letter as u16 - 'A' as u16) * 100;
    let digits = chars.as_str();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    match digits.len() {
        0 => Some((volume, volume + 99)),
        1 => {
            let tens = digits.parse::<u16>().ok()? * 10;
            Some((volume + tens, volume + tens + 9))
        }
        2 => {
            let n = volume + digits.parse::<u16>().ok()?;
            Some((n, n))
        }
        _ => None,
    }
}

fn ecco_number(code: &str) -> Option<u16> {
    let code = code.trim();
    (code.len() == 3).then(|| ecco_bounds(code)).flatten().map(|(n, _)| n)
}

impl FromStr for EccoSet {
    type Err = CriterionError;

    fn from_str(text: &str) -> Result<EccoSet, CriterionError> {
        let bad = || {
            CriterionError::new(
                "ECCO codes",
                text,
                "write codes A00…E99, ranges B10..B14, or B / B1 for all codes that begin so",
            )
        };
        let ranges = text
            .split(',')
            .map(|part| {
                let (lo, hi) = match part.split_once("..").or_else(|| part.split_once('-')) {
                    Some((lo, hi)) => {
                        (ecco_bounds(lo).ok_or_else(bad)?.0, ecco_bounds(hi).ok_or_else(bad)?.1)
                    }
                    None => ecco_bounds(part).ok_or_else(bad)?,
                };
                if lo > hi { Err(bad()) } else { Ok((lo, hi)) }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(EccoSet(ranges))
    }
}

/// The pieces each side has, as counts by kind (king, advisor, elephant,
/// horse, rook, cannon, pawn).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Material(pub [[u8; 7]; 2]);

impl Material {
    /// The pieces on `board`.
    pub fn of(board: &Board) -> Material {
        let mut m = Material::default();
        for (_, piece) in board.pieces() {
            let side = &mut m.0[usize::from(piece.color == Color::Black)];
            side[piece.role.index()] = side[piece.role.index()].saturating_add(1);
        }
        m
    }

    /// One piece of `color` and `role` less (a capture).
    pub fn take(&mut self, color: Color, role: Role) {
        let n = &mut self.0[usize::from(color == Color::Black)][role.index()];
        *n = n.saturating_sub(1);
    }
}

/// What one side of a [`MaterialPattern`] asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct SidePattern {
    counts: [u8; 7],
    /// Other pieces may be there too (`*`): the counts are least counts.
    more: bool,
}

impl SidePattern {
    fn matches(&self, side: &[u8; 7]) -> bool {
        // Kings are not written: every side has one.
        (1..7).all(|k| if self.more { side[k] >= self.counts[k] } else { side[k] == self.counts[k] })
    }
}

/// A material signature: `RRCNP vs RCNNPP` — Red's pieces, then Black's,
/// each a string of FEN letters (`R` rook, `N`/`H` horse, `B`/`E`
/// elephant, `A` advisor, `C` cannon, `P` pawn; either case; `K` may be
/// written and is ignored, every side has its king), a letter may be
/// followed by a count (`R2C` is `RRC`), and a side that ends in `*` may
/// hold other pieces too (`R*`: at least a rook). A side written `K` or
/// `-` holds the king alone. The sides are separated by `vs`, `v` or `/`.
///
/// ```
/// use qipu::select::{Material, MaterialPattern};
/// let pattern: MaterialPattern = "R2CNP5AABB vs RRCCNNPPPPPAABB".parse().unwrap();
/// assert!(!pattern.matches(&Material::of(qipu::Position::start().board())));
/// let pattern: MaterialPattern = "RRNNCCAABBPPPPP vs r2n2c2a2b2p5".parse().unwrap();
/// assert!(pattern.matches(&Material::of(qipu::Position::start().board())));
/// let endgame: MaterialPattern = "RP* vs K".parse().unwrap();
/// assert_eq!(endgame.to_string(), "RP* vs K");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MaterialPattern([SidePattern; 2]);

impl MaterialPattern {
    /// Whether `material` has the pieces the pattern asks for.
    pub fn matches(&self, material: &Material) -> bool {
        self.0[0].matches(&material.0[0]) && self.0[1].matches(&material.0[1])
    }
}

impl FromStr for MaterialPattern {
    type Err = CriterionError;

    fn from_str(text: &str) -> Result<MaterialPattern, CriterionError> {
        let (red, black) = two_sides("material", text)?;
        Ok(MaterialPattern([side_pattern("material", text, &red)?, side_pattern("material", text, &black)?]))
    }
}

/// Red's and Black's parts of a material text, `RRC vs RHC` (lower case).
fn two_sides(what: &'static str, text: &str) -> Result<(String, String), CriterionError> {
    let lower = text.to_ascii_lowercase();
    let (red, black) =
        [" vs ", " v ", "/", "vs", " "].iter().find_map(|sep| lower.split_once(sep)).ok_or_else(|| {
            CriterionError::new(what, text, "write Red's pieces, `vs`, then Black's, as RRCNP vs RCNNPP")
        })?;
    Ok((red.to_string(), black.to_string()))
}

/// One side of a material text: FEN letters, each with an optional count,
/// and an optional `*` at the end.
fn side_pattern(what: &'static str, text: &str, side: &str) -> Result<SidePattern, CriterionError> {
    let bad = |why: &str| CriterionError::new(what, text, why.to_string());
    let s = side.trim();
    let (s, more) = match s.strip_suffix('*') {
        Some(rest) => (rest, true),
        None => (s, false),
    };
    let mut counts = [0u8; 7];
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '-' && s.len() == 1 {
            continue;
        }
        let role = Role::from_char(c).ok_or_else(|| bad("piece letters are K A B N R C P (E and H also)"))?;
        let mut count = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            count.push(*d);
            chars.next();
        }
        let n: u8 =
            if count.is_empty() { 1 } else { count.parse().map_err(|_| bad("a count is too large"))? };
        if role != Role::King {
            counts[role.index()] = counts[role.index()].saturating_add(n);
            if usize::from(counts[role.index()]) > role.max_count() {
                return Err(bad(&format!("a side has at most {} {}s", role.max_count(), role.name())));
            }
        }
    }
    Ok(SidePattern { counts, more })
}

/// A material imbalance: what one side has that the other has not, kind by
/// kind, whatever else both have. `R vs HC` holds where Red has one rook
/// more than Black, and Black one horse and one cannon more than Red, with
/// the same number of advisors, elephants and pawns on both sides (as
/// scoutfish's `imbalance` question). It is written as a
/// [`MaterialPattern`] (`K` or `-` for a side with nothing more), without
/// `*`; `P vs -` is a pawn up for Red.
///
/// ```
/// use qipu::select::{Imbalance, Material};
/// let even: Imbalance = "- vs -".parse().unwrap();
/// assert!(even.matches(&Material::of(qipu::Position::start().board())));
/// let pawn_up: Imbalance = "P vs K".parse().unwrap();
/// let after = qipu::Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p2/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
/// assert!(pawn_up.matches(&Material::of(after.board())));
/// assert_eq!(pawn_up.to_string(), "P vs K");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Imbalance([[u8; 7]; 2]);

impl Imbalance {
    /// Whether `material` shows this imbalance.
    pub fn matches(&self, material: &Material) -> bool {
        let [red, black] = &material.0;
        (1..7).all(|k| {
            let (more_red, more_black) = (red[k].saturating_sub(black[k]), black[k].saturating_sub(red[k]));
            more_red == self.0[0][k] && more_black == self.0[1][k]
        })
    }
}

impl FromStr for Imbalance {
    type Err = CriterionError;

    fn from_str(text: &str) -> Result<Imbalance, CriterionError> {
        let (red, black) = two_sides("imbalance", text)?;
        let (red, black) = (side_pattern("imbalance", text, &red)?, side_pattern("imbalance", text, &black)?);
        if red.more || black.more {
            return Err(CriterionError::new("imbalance", text, "an imbalance is exact: no `*`"));
        }
        if (1..7).any(|k| red.counts[k] > 0 && black.counts[k] > 0) {
            return Err(CriterionError::new(
                "imbalance",
                text,
                "a kind of piece is more on one side only: write `R vs H`, not `RR vs RH`",
            ));
        }
        Ok(Imbalance([red.counts, black.counts]))
    }
}

impl fmt::Display for Imbalance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sides = self.0.map(|counts| SidePattern { counts, more: false });
        MaterialPattern(sides).fmt(f)
    }
}

impl fmt::Display for MaterialPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, side) in self.0.iter().enumerate() {
            if k == 1 {
                f.write_str(" vs ")?;
            }
            let mut any = false;
            for role in [Role::Rook, Role::Horse, Role::Cannon, Role::Advisor, Role::Elephant, Role::Pawn] {
                for _ in 0..side.counts[role.index()] {
                    write!(f, "{}", role.char().to_ascii_uppercase())?;
                    any = true;
                }
            }
            if side.more {
                f.write_str("*")?;
            } else if !any {
                f.write_str("K")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imbalances_read_and_refuse() {
        let i = |s: &str| s.parse::<Imbalance>().map(|i| i.to_string());
        assert_eq!(i("h vs c").as_deref(), Ok("N vs C"));
        assert_eq!(i("RP2 / -").as_deref(), Ok("RPP vs K"));
        assert!(i("RR vs RH").unwrap_err().why.contains("one side only"));
        assert!(i("R* vs H").unwrap_err().why.contains("no `*`"));
        assert!(i("R").is_err());
        // Kind by kind: two rooks and a horse against a rook and a horse.
        let fen = "rnbakab2/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w";
        let material = Material::of(crate::Position::from_fen(fen).unwrap().board());
        let holds = |s: &str| s.parse::<Imbalance>().unwrap().matches(&material);
        assert!(holds("R vs -"));
        assert!(!holds("RH vs -"));
        assert!(!holds("H vs -"));
        assert!(!holds("- vs -"));
    }

    #[test]
    fn dates_in_the_forms_records_write() {
        let d = |s: &str| PartialDate::read(s).map(|d| d.to_string());
        assert_eq!(d("1990.05.12").as_deref(), Some("1990.05.12"));
        assert_eq!(d("1990-5-12").as_deref(), Some("1990.05.12"));
        assert_eq!(d("1990/5/12 ").as_deref(), Some("1990.05.12"));
        assert_eq!(d("19900512").as_deref(), Some("1990.05.12"));
        assert_eq!(d("199005").as_deref(), Some("1990.05"));
        assert_eq!(d("1990.??.??").as_deref(), Some("1990"));
        assert_eq!(d("2005-03-01 14:3").as_deref(), Some("2005.03.01"));
        assert_eq!(d("01-2-1    ").as_deref(), Some("2001.02.01"));
        assert_eq!(d("17-6-2009").as_deref(), Some("2009.06.17"));
        assert_eq!(d("6-17-2009").as_deref(), Some("2009.06.17"));
        assert_eq!(d("6-6-2009").as_deref(), Some("2009"));
        assert_eq!(d("１９９０年５月").as_deref(), Some("1990.05"));
        assert_eq!(d("５月 2001").as_deref(), Some("2001"));
        assert_eq!(d("90.05.12").as_deref(), Some("1990.05.12"));
        assert_eq!(d("1990.13.40").as_deref(), Some("1990"));
        for none in ["", "  ", "&nbsp;", "????", "12", "0012.1.1", "abc"] {
            assert_eq!(d(none), None, "{none:?}");
        }
    }

    #[test]
    fn date_ranges() {
        let r = |s: &str| s.parse::<DateRange>().unwrap();
        let d = |s: &str| PartialDate::read(s).unwrap();
        assert!(r("1990").contains(&d("1990.12.31")));
        assert!(!r("1990.05").contains(&d("1990")));
        assert!(r("..1990").contains(&d("1850")));
        assert!(r("2000..").contains(&d("2024.1.1")));
        assert!(!r("2000..").contains(&d("1999.12.31")));
        assert!("1995..1990".parse::<DateRange>().is_err());
        assert!("soon".parse::<DateRange>().is_err());
    }

    #[test]
    fn spans_and_numbers() {
        assert_eq!("3..7".parse::<CountRange>().unwrap(), CountRange { min: 3, max: 7 });
        assert_eq!("..7".parse::<CountRange>().unwrap(), CountRange { min: 0, max: 7 });
        assert!("".parse::<CountRange>().is_err() && "x".parse::<CountRange>().is_err());
        let n: GameNumbers = "2, 30-".parse().unwrap();
        assert!(n.contains(2) && n.contains(1000) && !n.contains(29));
        assert!("0".parse::<GameNumbers>().is_err() && "1,,2".parse::<GameNumbers>().is_err());
    }

    #[test]
    fn ecco_sets() {
        let s: EccoSet = "a0, C50-C59 ,E4".parse().unwrap();
        assert!(s.contains("A05") && s.contains("C55") && s.contains("E48") && !s.contains("A10"));
        assert!(!s.contains("C5") && !s.contains(""));
        for bad in ["", "F00", "B100", "B14..B10", "B1x"] {
            assert!(bad.parse::<EccoSet>().is_err(), "{bad}");
        }
    }

    #[test]
    fn material_patterns() {
        let start = Material::of(crate::Position::start().board());
        let p = |s: &str| s.parse::<MaterialPattern>().unwrap();
        assert!(p("RRNNCCAABBPPPPP vs RRNNCCAABBPPPPP").matches(&start));
        assert!(p("R* vs R*").matches(&start));
        assert!(!p("R vs R*").matches(&start));
        assert!(p("kr2h2c2a2e2p5 / r2n2c2a2b2p5").matches(&start));
        let mut m = start;
        m.take(Color::Black, Role::Rook);
        assert!(p("R2* vs R*").matches(&m) && !p("R2* vs R2*").matches(&m));
        assert_eq!(p("K vs -").to_string(), "K vs K");
        for bad in ["RRR vs K", "R", "RX vs K", "P6 vs K"] {
            assert!(bad.parse::<MaterialPattern>().is_err(), "{bad}");
        }
    }
}
