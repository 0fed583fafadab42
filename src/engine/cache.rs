//! Searches kept in an SQLite file: a position searched once by an engine
//! with a setup is never searched again by it, in this run or the next.
//! Openings repeat across a collection, so a collection costs far fewer
//! searches than it has positions.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use crate::Move;
use crate::analysis::annotate::{Line, Search};
use crate::record::eval::Score;

/// A cache of searches, keyed by the position (its placement and side to
/// move), the engine's name and its [setup](super::EngineConfig::setup).
/// Shared by the engines of a pool.
pub struct Cache {
    db: Mutex<Connection>,
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
    pub fn in_memory() -> Result<Cache, CacheError> {
        Cache::with(Connection::open_in_memory()?)
    }

    fn with(db: Connection) -> Result<Cache, CacheError> {
        db.busy_timeout(std::time::Duration::from_secs(30))?;
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
        Ok(Cache { db: Mutex::new(db) })
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
        let key = super::super::position_key(&crate::Position::start().fen());
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
