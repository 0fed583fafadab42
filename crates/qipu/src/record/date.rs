//! The date a record's `Date` tag gives, as far as it is known.

use std::fmt;

/// A date as far as it is known: a year, perhaps a month, perhaps a day.
///
/// Read from the forms records write: `1990.05.12`, `1990-5-12`,
/// `1990/5/12`, `1990年5月12日`, `19900512`, `1990.??.??`, `1990`,
/// `96-12-18` (two-digit years: 50…99 are 19xx, 00…49 are 20xx), and
/// `17-6-2009` or `20/12/2001` (day first when the day is over 12; when
/// day and month cannot be told apart, only the year is read).
///
/// ```
/// use qipu::record::date::PartialDate;
/// let date = PartialDate::read("1990年5月12日").unwrap();
/// assert_eq!((date.year, date.month, date.day), (1990, Some(5), Some(12)));
/// assert_eq!(PartialDate::read("11/12/2001").unwrap().month, None); // November or December?
/// assert_eq!(PartialDate::read("96-12-18").unwrap().year, 1996);
/// assert_eq!(PartialDate::read("????.??.??"), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PartialDate {
    /// The year.
    pub year: u16,
    /// The month, 1…12, when known.
    pub month: Option<u8>,
    /// The day, 1…31, when known (only with a month).
    pub day: Option<u8>,
}

impl PartialDate {
    /// The date a `Date` tag (or a date on the command line) gives, if it
    /// gives a year.
    pub fn read(text: &str) -> Option<PartialDate> {
        // Runs of digits (ASCII or full-width), and whether unknown parts
        // (`??`) come between them.
        let mut groups: Vec<String> = Vec::new();
        let mut current = String::new();
        for c in text.chars().take(64) {
            let digit = match c {
                '0'..='9' => Some(c),
                '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
                _ => None,
            };
            match digit {
                Some(d) => current.push(d),
                None if !current.is_empty() => groups.push(std::mem::take(&mut current)),
                None if c == '?' && groups.is_empty() => return None,
                None => {}
            }
            if groups.len() == 3 {
                break;
            }
        }
        if !current.is_empty() && groups.len() < 3 {
            groups.push(current);
        }
        let num = |s: &str| s.parse::<u32>().ok();
        let first = groups.first()?;
        let (year, month, day) = match (first.len(), groups.len()) {
            (8, _) => (num(&first[..4])?, num(&first[4..6]), num(&first[6..])),
            (6, _) => (num(&first[..4])?, num(&first[4..]), None),
            (4, _) => (num(first)?, groups.get(1).and_then(|g| num(g)), groups.get(2).and_then(|g| num(g))),
            (1 | 2, 3) if groups[2].len() == 4 => {
                // Day and month first, year last: the order only when one
                // of them cannot be a month.
                let (a, b) = (num(&groups[0])?, num(&groups[1])?);
                let year = num(&groups[2])?;
                match (a > 12, b > 12) {
                    (true, false) => (year, Some(b), Some(a)),
                    (false, true) => (year, Some(a), Some(b)),
                    _ => (year, None, None),
                }
            }
            (2, 3) => {
                let yy = num(first)?;
                (if yy >= 50 { 1900 + yy } else { 2000 + yy }, num(&groups[1]), num(&groups[2]))
            }
            // Else a four-digit group is the year, and no more is known.
            _ => (num(groups.iter().find(|g| g.len() == 4)?)?, None, None),
        };
        if !(1000..=2999).contains(&year) {
            return None;
        }
        let month = month.filter(|m| (1..=12).contains(m)).map(|m| m as u8);
        let day = day.filter(|d| month.is_some() && (1..=31).contains(d)).map(|d| d as u8);
        Some(PartialDate { year: year as u16, month, day })
    }
}

impl fmt::Display for PartialDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, ".{m:02}")?;
            if let Some(d) = self.day {
                write!(f, ".{d:02}")?;
            }
        }
        Ok(())
    }
}
