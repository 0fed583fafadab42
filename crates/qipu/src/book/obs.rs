//! OOBS, the Open Opening Book Standard (`.obs.db3`, MIT): an SQLite
//! database, read and written through SQLite built into qipu.
//!
//! The layout, as its reference tool (nguyenpham/oobs, `src/bookmaker.cpp`
//! and `README.md`) makes it:
//!
//! - `Book(ID INTEGER PRIMARY KEY AUTOINCREMENT, EPD TEXT NOT NULL, Move
//!   TEXT, Active INTEGER DEFAULT 1, Win INTEGER, Draw INTEGER, Loss
//!   INTEGER, Comment TEXT)`: one row for each position and move;
//! - `EPD` is the position's FEN without its two counters and with no
//!   opcode; for Xiangqi qipu writes the placement, the side to move (`w`
//!   or `b`) and `- -`, as its EPD lines do (`rnbakabnr/9/… w - -`), and
//!   reads rows whose EPD lacks the `- -` too;
//! - `Move` is a coordinate move (`h2e2`);
//! - `Win`, `Draw`, `Loss` count the games won by the first player (Red,
//!   `1-0`), drawn, and won by the second (Black, `0-1`); the reference
//!   tool's Polyglot export swaps Win and Loss when the second player is
//!   to move, so they are not counted for the side to move. Games without
//!   a result have no column: they are left out of the counts;
//! - `Active` is 1 for a move in use (only its lowest bit has a meaning);
//! - `Info(Name TEXT UNIQUE NOT NULL, Value TEXT)` holds `Data Structure
//!   Version` (`0.1`), `Variant`, `ItemCount` (the rows of `Book`) and
//!   `Description`.
//!
//! ```
//! use qipu::Position;
//! use qipu::book::obs::{self, Row};
//! let start = Position::start();
//! let row = Row { epd: obs::epd(&start), m: "h2e2".parse().unwrap(), active: true, win: 3, draw: 1, loss: 2 };
//! let bytes = obs::write(&[row.clone()], "example").unwrap();
//! let path = std::env::temp_dir().join(format!("qipu-doc-{}.obs.db3", std::process::id()));
//! std::fs::write(&path, &bytes).unwrap();
//! let rows = obs::probe(&path, &start).unwrap();
//! std::fs::remove_file(&path).unwrap();
//! assert_eq!(rows, vec![row]);
//! ```

use std::path::Path;

use rusqlite::{Connection, OpenFlags, params};

use crate::{Move, Position};

/// One row of the `Book` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The position's EPD text.
    pub epd: String,
    /// The move.
    pub m: Move,
    /// Whether the move is in use (the lowest bit of `Active`).
    pub active: bool,
    /// Games won by Red.
    pub win: u32,
    /// Drawn games.
    pub draw: u32,
    /// Games won by Black.
    pub loss: u32,
}

/// A book that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ObsError {
    /// SQLite failed (not a database, no `Book` table, …).
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// The EPD text of `pos`, as qipu writes it in a book.
pub fn epd(pos: &Position) -> String {
    let mut out = String::with_capacity(96);
    crate::formats::epd::push_position(&mut out, pos.board(), pos.turn());
    out
}

/// A whole book holding `rows` (in that order), as the bytes of its
/// SQLite file, with an index on `EPD`.
///
/// # Errors
///
/// When SQLite fails (out of memory).
pub fn write(rows: &[Row], description: &str) -> Result<Vec<u8>, ObsError> {
    let mut db = Connection::open_in_memory()?;
    db.execute_batch(
        "CREATE TABLE Info (Name TEXT UNIQUE NOT NULL, Value TEXT);
         CREATE TABLE Book (ID INTEGER PRIMARY KEY AUTOINCREMENT, EPD TEXT NOT NULL, Move TEXT,
           Active INTEGER DEFAULT 1, Win INTEGER, Draw INTEGER, Loss INTEGER, Comment TEXT);",
    )?;
    let tx = db.transaction()?;
    {
        let mut insert = tx.prepare(
            "INSERT INTO Book (EPD, Move, Active, Win, Draw, Loss) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut text = String::with_capacity(4);
        for row in rows {
            text.clear();
            use std::fmt::Write;
            let _ = write!(text, "{}", row.m);
            insert.execute(params![row.epd, text, i64::from(row.active), row.win, row.draw, row.loss])?;
        }
        let mut info = tx.prepare("INSERT INTO Info (Name, Value) VALUES (?1, ?2)")?;
        for (name, value) in [
            ("Data Structure Version", "0.1".to_string()),
            ("Variant", "xiangqi".to_string()),
            ("ItemCount", rows.len().to_string()),
            ("Description", description.to_string()),
        ] {
            info.execute(params![name, value])?;
        }
    }
    tx.execute_batch("CREATE INDEX EPDIndex ON Book (EPD);")?;
    tx.commit()?;
    Ok(db.serialize(rusqlite::MAIN_DB)?.to_vec())
}

/// The rows of the book at `path` for `pos`, in the book's order (of
/// `ID`); rows whose move is no coordinate move or is not legal in `pos`
/// are left out. The file is opened read-only.
///
/// # Errors
///
/// When the file is no SQLite database or has no `Book` table of the
/// columns above.
pub fn probe(path: &Path, pos: &Position) -> Result<Vec<Row>, ObsError> {
    let db = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let epd = epd(pos);
    let short = epd.strip_suffix(" - -").unwrap_or(&epd).to_string();
    let mut query =
        db.prepare("SELECT Move, Active, Win, Draw, Loss FROM Book WHERE EPD = ?1 OR EPD = ?2 ORDER BY ID")?;
    let mut rows = query.query(params![epd, short])?;
    let mut out: Vec<Row> = Vec::new();
    while let Some(row) = rows.next()? {
        let text: Option<String> = row.get(0)?;
        let Some(m) = text.and_then(|t| t.trim().parse::<Move>().ok()).filter(|&m| pos.is_legal(m)) else {
            continue;
        };
        let count = |k: usize| -> rusqlite::Result<u32> {
            let n: Option<i64> = row.get(k)?;
            Ok(n.unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32)
        };
        let active: Option<i64> = row.get(1)?;
        out.push(Row {
            epd: epd.clone(),
            m,
            active: active.is_none_or(|a| a & 1 == 1),
            win: count(2)?,
            draw: count(3)?,
            loss: count(4)?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_a_database_is_an_error() {
        let path = std::env::temp_dir().join(format!("qipu-obs-bad-{}.obs.db3", std::process::id()));
        std::fs::write(&path, b"this is no database, only text that goes on for a while").unwrap();
        let err = probe(&path, &Position::start()).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(!err.to_string().is_empty());
    }
}
