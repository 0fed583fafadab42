//! Searches kept in an SQLite file: a position searched once by an engine
//! with a setup is never searched again by it, in this run or the next.
//! Openings repeat across a collection, so a collection costs far fewer
//! searches than it has positions.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::pool::{SearchStore, StoreTrouble};
use crate::Move;
use crate::analysis::annotate::{Line, Search};
use crate::record::eval::Score;

/// How long a lookup or a store waits for a cache that another program
/// holds locked before it counts as failed: long enough for another qipu
/// writing a row, short enough that a cache held for minutes costs seconds.
pub(crate) const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Failures in a row after which a run stops using its cache (and says so):
/// a cache locked or broken for good costs a few waits, not one a position.
pub const GIVE_UP_AFTER: usize = 3;

/// A cache of searches, keyed by the position (its placement and side to
/// move), the engine's name and its [setup](super::EngineConfig::setup).
/// Shared by the engines of a pool.
pub struct Cache {
    db: Mutex<Connection>,
    trouble: Mutex<Trouble>,
}

/// The failures of a run so far.
#[derive(Default)]
struct Trouble {
    seen: StoreTrouble,
    /// Lookups, then stores, failed in a row (a cache locked for writing
    /// still reads: its stores fail between lookups that do not).
    in_a_row: [usize; 2],
}

/// A cache that cannot be opened or written.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CacheError(#[from] rusqlite::Error);

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cache")
    }
}

impl Cache {
    /// Opens (or creates) the cache file at `path`.
    pub fn open(path: &Path) -> Result<Cache, CacheError> {
        Cache::with(Connection::open(path)?)
    }

    /// A cache in memory, gone at the end of the run.
    #[cfg(test)]
    pub(crate) fn in_memory() -> Result<Cache, CacheError> {
        Cache::with(Connection::open_in_memory()?)
    }

    fn with(db: Connection) -> Result<Cache, CacheError> {
        db.busy_timeout(BUSY_TIMEOUT)?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.execute_batch(
            "CREATE TABLE IF NOT EXISTS searches (
                position TEXT NOT NULL,
                engine TEXT NOT NULL,
                setup TEXT NOT NULL,
                lines TEXT NOT NULL,
                PRIMARY KEY (position, engine, setup)
            ) WITHOUT ROWID;",
        )?;
        Ok(Cache { db: Mutex::new(db), trouble: Mutex::new(Trouble::default()) })
    }

    /// The search kept for `position`, as [`get`](Cache::get), with a
    /// failure counted (and a miss) rather than returned; `None` at once
    /// once the run has given the cache up.
    pub fn lookup(&self, position: &str, engine: &str, setup: &str) -> Option<Search> {
        if self.given_up() {
            return None;
        }
        let found = self.get(position, engine, setup);
        self.count(0, found.as_ref().err(), |t| t.failed_lookups += 1);
        found.ok().flatten()
    }

    /// Keeps `search`, as [`put`](Cache::put), with a failure counted
    /// rather than returned; whether it was kept.
    pub fn keep(&self, position: &str, engine: &str, setup: &str, search: &Search) -> bool {
        if self.given_up() {
            return false;
        }
        let kept = self.put(position, engine, setup, search);
        self.count(1, kept.as_ref().err(), |t| t.failed_stores += 1);
        kept.is_ok()
    }

    /// The lookups and stores of [`lookup`](Cache::lookup) and
    /// [`keep`](Cache::keep) that failed so far, and why the first did.
    pub(crate) fn trouble(&self) -> StoreTrouble {
        self.trouble.lock().unwrap_or_else(|e| e.into_inner()).seen.clone()
    }

    fn given_up(&self) -> bool {
        self.trouble.lock().unwrap_or_else(|e| e.into_inner()).seen.given_up
    }

    fn count(&self, kind: usize, error: Option<&CacheError>, add: impl FnOnce(&mut StoreTrouble)) {
        let mut trouble = self.trouble.lock().unwrap_or_else(|e| e.into_inner());
        let Some(error) = error else {
            trouble.in_a_row[kind] = 0;
            return;
        };
        add(&mut trouble.seen);
        trouble.seen.first_error.get_or_insert_with(|| error.to_string());
        trouble.in_a_row[kind] += 1;
        if trouble.in_a_row[kind] >= GIVE_UP_AFTER {
            trouble.seen.given_up = true;
        }
    }

    /// The search kept for `position` (a FEN's placement and side), if any.
    pub fn get(&self, position: &str, engine: &str, setup: &str) -> Result<Option<Search>, CacheError> {
        let db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        let text: Option<String> = db
            .prepare_cached("SELECT lines FROM searches WHERE position = ?1 AND engine = ?2 AND setup = ?3")?
            .query_row(params![position, engine, setup], |row| row.get(0))
            .optional()?;
        // A row that does not read (written by something else) is a miss.
        Ok(text.and_then(|t| decode(&t)))
    }

    /// Keeps `search` for `position`.
    pub fn put(&self, position: &str, engine: &str, setup: &str, search: &Search) -> Result<(), CacheError> {
        let db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        db.prepare_cached(
            "INSERT OR REPLACE INTO searches (position, engine, setup, lines) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![position, engine, setup, encode(search)])?;
        Ok(())
    }
}

impl SearchStore for Cache {
    fn get(&self, position: &str, engine: &str, setup: &str) -> Option<Search> {
        self.lookup(position, engine, setup)
    }

    fn put(&self, position: &str, engine: &str, setup: &str, search: &Search) -> bool {
        self.keep(position, engine, setup, search)
    }

    fn trouble(&self) -> StoreTrouble {
        Cache::trouble(self)
    }
}

/// A search as one text: a line per line, `cp X` or `mate N`, the depth,
/// then the moves.
fn encode(search: &Search) -> String {
    let mut out = String::new();
    for line in &search.lines {
        if !out.is_empty() {
            out.push('\n');
        }
        match line.score {
            Score::Centipawns(c) => out += &format!("cp {c} {}", line.depth),
            Score::Mate(n) => out += &format!("mate {n} {}", line.depth),
        }
        for m in &line.pv {
            out += &format!(" {m}");
        }
    }
    out
}

fn decode(text: &str) -> Option<Search> {
    let mut lines = Vec::new();
    for row in text.lines() {
        let mut words = row.split(' ');
        let kind = words.next()?;
        let value: i32 = words.next()?.parse().ok()?;
        let score = match kind {
            "cp" => Score::Centipawns(value),
            "mate" => Score::Mate(value),
            _ => return None,
        };
        let depth = words.next()?.parse().ok()?;
        let pv = words.map(|w| w.parse::<Move>().ok()).collect::<Option<Vec<Move>>>()?;
        lines.push(Line { score, depth, pv });
    }
    (!lines.is_empty()).then_some(Search { lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_come_back_as_kept() {
        let cache = Cache::in_memory().unwrap();
        let search = Search {
            lines: vec![
                Line {
                    score: Score::Centipawns(-38),
                    depth: 12,
                    pv: vec!["h2e2".parse().unwrap(), "h9g7".parse().unwrap()],
                },
                Line { score: Score::Mate(-3), depth: 9, pv: vec![] },
            ],
        };
        let key = super::super::pool::position_key(&crate::Position::start().fen());
        assert_eq!(key, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        assert_eq!(cache.get(&key, "e", "depth 12").unwrap(), None);
        cache.put(&key, "e", "depth 12", &search).unwrap();
        assert_eq!(cache.get(&key, "e", "depth 12").unwrap(), Some(search.clone()));
        assert_eq!(cache.get(&key, "e", "depth 13").unwrap(), None);
        assert_eq!(cache.get(&key, "f", "depth 12").unwrap(), None);
        assert_eq!(decode("cp x 1"), None);
        assert_eq!(decode("cp 1 2 zz"), None);
    }
}
