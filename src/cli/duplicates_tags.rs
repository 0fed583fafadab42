//! What `qipu duplicates` reports of each member of a group: its plies and
//! its tags (Red, Black, Event, Date), kept for the members only and the
//! tags in one text: a few bytes a member beside the values themselves.

/// The names of the tags kept, in order.
pub const TAGS: [&str; 4] = ["Red", "Black", "Event", "Date"];

/// A game's tags as read: each value, if it has it.
pub type Tags = [Option<String>; 4];

/// A length that says the tag is missing.
const MISSING: u16 = u16::MAX;

/// The tags of a known set of games.
#[derive(Debug, Default)]
pub struct TagTable {
    /// The games, sorted.
    games: Vec<u32>,
    /// For each game: where its values begin in `text`, and their lengths.
    spans: Vec<(usize, [u16; 4])>,
    /// For each game: its main line's plies.
    plies: Vec<u32>,
    text: String,
}

impl TagTable {
    /// A table for `games` (sorted, without repeats) of `plies(game)`
    /// plies, no tags read yet.
    pub fn new(games: Vec<u32>, plies: impl Fn(u32) -> u32) -> TagTable {
        let spans = vec![(0, [MISSING; 4]); games.len()];
        let plies = games.iter().map(|&g| plies(g)).collect();
        TagTable { games, spans, plies, text: String::new() }
    }

    /// The plies of `game` (0 if it is not one of the table's).
    pub fn plies(&self, game: u32) -> u32 {
        self.games.binary_search(&game).map_or(0, |i| self.plies[i])
    }

    /// Whether `game` is one of the table's.
    pub fn has(&self, game: u32) -> bool {
        self.games.binary_search(&game).is_ok()
    }

    /// Keeps the tags of `game` (if it is one of the table's); values are
    /// cut at 200 characters.
    pub fn set(&mut self, game: u32, tags: &Tags) {
        let Ok(i) = self.games.binary_search(&game) else { return };
        let start = self.text.len();
        let mut lengths = [MISSING; 4];
        for (k, value) in tags.iter().enumerate() {
            if let Some(v) = value {
                let before = self.text.len();
                self.text.extend(v.chars().take(200));
                lengths[k] = (self.text.len() - before) as u16;
            }
        }
        self.spans[i] = (start, lengths);
    }

    /// The `k`-th tag of `game` ([`TAGS`]), if read and present.
    pub fn get(&self, game: u32, k: usize) -> Option<&str> {
        let i = self.games.binary_search(&game).ok()?;
        let (start, lengths) = self.spans[i];
        let length = *lengths.get(k)?;
        if length == MISSING {
            return None;
        }
        let from = start + lengths[..k].iter().filter(|&&l| l != MISSING).map(|&l| l as usize).sum::<usize>();
        self.text.get(from..from + length as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_by_game_and_tag() {
        let mut table = TagTable::new(vec![3, 8, 20], |g| g * 2);
        assert_eq!((table.plies(8), table.plies(5)), (16, 0));
        table.set(8, &[Some("胡荣华".into()), None, Some(String::new()), Some("1960".into())]);
        table.set(5, &[Some("x".into()), None, None, None]);
        table.set(20, &[None, Some("y".repeat(300)), None, None]);
        assert_eq!(table.get(8, 0), Some("胡荣华"));
        assert_eq!(table.get(8, 1), None);
        assert_eq!(table.get(8, 2), Some(""));
        assert_eq!(table.get(8, 3), Some("1960"));
        assert_eq!(table.get(20, 1).map(str::len), Some(200));
        assert_eq!(table.get(3, 0), None); // not read
        assert_eq!(table.get(5, 0), None); // not one of the table's
        assert!(table.has(3) && !table.has(5));
    }
}
