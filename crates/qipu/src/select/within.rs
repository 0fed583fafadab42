//! The games a pass looks at, by input and number ([`Within`]): those an
//! index found, say, so that a pass over their inputs tells them alone.

use std::collections::{HashMap, HashSet};

/// Games named by their input and their number in it (from 0). The input
/// is named as [`Meta::json_source`](crate::batch::Meta::json_source)
/// names it, as a position index names its sources.
///
/// ```
/// use qipu::select::Within;
/// let mut within = Within::default();
/// within.add("a.pgn", 3);
/// assert!(within.holds("a.pgn", 3));
/// assert!(!within.holds("a.pgn", 2) && !within.holds("b.pgn", 3));
/// assert_eq!(within.games(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Within {
    by_input: HashMap<String, HashSet<usize>>,
}

impl Within {
    /// Names game `index` (from 0) of the input `source`.
    pub fn add(&mut self, source: &str, index: usize) {
        self.by_input.entry(source.to_string()).or_default().insert(index);
    }

    /// Whether game `index` (from 0) of the input `source` is named.
    pub fn holds(&self, source: &str, index: usize) -> bool {
        self.by_input.get(source).is_some_and(|games| games.contains(&index))
    }

    /// How many games are named.
    pub fn games(&self) -> usize {
        self.by_input.values().map(HashSet::len).sum()
    }
}
