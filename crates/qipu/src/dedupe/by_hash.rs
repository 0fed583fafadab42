//! Games sorted by a 64-bit hash, 8 bytes a game: the hash's high 32 bits
//! and the game's number packed in one `u64`, sorted, then each run of
//! equal high bits sorted by the whole hash, a tie-break and the game
//! (looked up by the caller's functions). The order is that of
//! `(hash, tie, game)`; runs of equal `(hash, tie)` are games that match.

/// Games in the order of `(hash, tie, game)`.
#[derive(Clone, Debug, Default)]
pub(super) struct ByHash {
    keys: Vec<u64>,
}

/// The game packed in `key`.
fn game(key: u64) -> u32 {
    key as u32
}

/// A run of games that match, in input order (never empty).
#[derive(Copy, Clone, Debug)]
pub(super) struct Run<'a>(&'a [u64]);

impl Run<'_> {
    /// The first game.
    pub(super) fn first(&self) -> u32 {
        game(self.0[0])
    }

    /// The games.
    pub(super) fn games(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().map(|&k| game(k))
    }
}

impl ByHash {
    /// `games` sorted by `(hash(g), tie(g), g)` (counted first, so that
    /// the sorted vector is made at its size).
    pub(super) fn new(
        games: impl Iterator<Item = u32> + Clone,
        hash: impl Fn(u32) -> u64,
        tie: impl Fn(u32) -> u32,
    ) -> ByHash {
        let mut keys: Vec<u64> = Vec::with_capacity(games.clone().count());
        keys.extend(games.map(|g| (hash(g) >> 32) << 32 | u64::from(g)));
        keys.sort_unstable();
        let mut start = 0;
        while start < keys.len() {
            let high = keys[start] >> 32;
            let end = start + keys[start..].iter().take_while(|&&k| k >> 32 == high).count();
            if end - start > 1 {
                keys[start..end].sort_unstable_by_key(|&k| (hash(game(k)), tie(game(k)), game(k)));
            }
            start = end;
        }
        ByHash { keys }
    }

    /// The games in order.
    pub(super) fn games(&self) -> impl Iterator<Item = u32> + Clone + '_ {
        self.keys.iter().map(|&k| game(k))
    }

    /// The runs of games of equal `(hash, tie)` (as [`ByHash::new`] was
    /// given them), each in input order.
    pub(super) fn runs<'a>(
        &'a self,
        hash: impl Fn(u32) -> u64 + 'a,
        tie: impl Fn(u32) -> u32 + 'a,
    ) -> impl Iterator<Item = Run<'a>> + 'a {
        self.keys
            .chunk_by(move |&a, &b| {
                a >> 32 == b >> 32 && (hash(game(a)), tie(game(a))) == (hash(game(b)), tie(game(b)))
            })
            .map(Run)
    }

    /// The first game (in input order) of `(hash, tie)` equal to `(h, t)`.
    pub(super) fn first(
        &self,
        h: u64,
        t: u32,
        hash: impl Fn(u32) -> u64,
        tie: impl Fn(u32) -> u32,
    ) -> Option<u32> {
        let from = self.keys.partition_point(|&k| k >> 32 < h >> 32);
        let bucket = &self.keys[from..];
        let len = bucket.iter().take_while(|&&k| k >> 32 == h >> 32).count();
        let bucket = &bucket[..len];
        let i = bucket.partition_point(|&k| (hash(game(k)), tie(game(k))) < (h, t));
        bucket.get(i).map(|&k| game(k)).filter(|&g| (hash(g), tie(g)) == (h, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_in_the_order_of_hash_tie_and_game() {
        // Games 0..6 with hashes sharing high bits and not.
        let hashes = [5u64 << 32 | 9, 1, 5u64 << 32 | 2, 1, 5u64 << 32 | 9, 7];
        let ties = [0, 3, 0, 2, 0, 0];
        let (hash, tie) = (|g: u32| hashes[g as usize], |g: u32| ties[g as usize]);
        let by = ByHash::new(0..6, hash, tie);
        assert_eq!(by.games().collect::<Vec<_>>(), [3, 1, 5, 2, 0, 4]);
        let runs: Vec<Vec<u32>> = by.runs(hash, tie).map(|r| r.games().collect()).collect();
        assert_eq!(runs, [vec![3], vec![1], vec![5], vec![2], vec![0, 4]]);
        assert_eq!(by.first(5u64 << 32 | 9, 0, hash, tie), Some(0));
        assert_eq!(by.first(1, 3, hash, tie), Some(1));
        assert_eq!(by.first(1, 4, hash, tie), None);
        assert_eq!(by.first(5u64 << 32 | 3, 0, hash, tie), None);
        assert_eq!(by.first(8, 0, hash, tie), None);
    }
}
