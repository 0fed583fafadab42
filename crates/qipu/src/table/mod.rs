//! A collection as two Arrow tables, for data tools (DuckDB, Polars,
//! pandas): **games**, one row a game, and **positions**, one row a
//! position of a game's main line (features `arrow`, and `parquet` for
//! [`parquet`] files).
//!
//! Games are replayed on worker threads, each by a
//! [`Checker`] following a [`TableFollower`] (made
//! per job) that gathers a small [`MainLine`] of the game; the thread that
//! consumes them appends each to a [`GamesTable`] and a [`PositionsTable`]
//! and cuts a [`RecordBatch`] every so many rows. [`Batches`] does all of
//! that over any inputs, as an Arrow [`RecordBatchReader`].
//!
//! # Games
//!
//! [`games_schema`]: one row a game, and one for each input that cannot be
//! read, in input order: as many rows as `qipu validate` counts games
//! (valid, illegal and unreadable), the same `index` and `status` as
//! `qipu validate --format json` gives each. An input found in a folder
//! that holds no record is not a game and has no row.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `source` | Utf8 | the input's name (as validate's JSON gives it) |
//! | `index` | UInt32 | the game's number in its input, from 0 |
//! | `format` | Utf8 | the input's format (`pgn`, `xqf`, …) |
//! | `encoding` | Utf8? | the text encoding, for text formats |
//! | `status` | Utf8 | `valid`, `illegal` or `unreadable` |
//! | `error_message`, `error_ply`, `error_move`, `error_line`, `error_column`, `error_offset` | Utf8?, UInt32?, Utf8?, UInt32?, UInt32?, UInt32? | where and why the game fails: validate's `error` object (`message`, `ply`, `move`, `line`, `column`, `offset`); null when it does not |
//! | `result` | Utf8? | the result the game states (`1-0`, `0-1`, `1/2-1/2`, `*`) |
//! | `termination` | Utf8? | how the main line ends by its final position (`checkmate`, …) |
//! | `result_conflict` | Utf8? | the stated result the final position contradicts, in words |
//! | `rules` | Utf8? | the rule book it was judged by (`asian`, `chinese`) |
//! | `final_ruling` | UInt32? | the index of the repetition ruling the game ends in, as validate's JSON |
//! | `move_limit_at`, `dead_draw_at` | UInt32? | the first ply of the natural move limit, of a dead draw |
//! | `plies`, `variation_plies` | UInt32 | main-line and variation plies that replayed |
//! | `ecco` | Utf8? | the ECCO code of the opening, computed from the moves (null for a game from another start) |
//! | `line_key` | UInt64? | the hash of the start and main line ([`GameKey::line`](crate::dedupe::GameKey::line)): copies share it (null when the start is no legal position) |
//! | `start_fen` | Utf8? | the start position's FEN; null for the standard start |
//! | `moves` | List&lt;Utf8&gt; | the main line's moves that replayed, lower-case ICCS (`h2e2`) |
//! | `event`, `site` | Utf8? | the `Event` and `Site` tags |
//! | `date` | Date32? | the `Date` tag, when it is a whole date |
//! | `year` | Int16? | the year of the `Date` tag, when it has one |
//! | `round`, `red`, `black`, `red_team`, `black_team` | Utf8? | the `Round`, `Red`, `Black`, `RedTeam`, `BlackTeam` tags |
//! | `red_elo`, `black_elo` | Int32? | the `RedElo` and `BlackElo` tags, when they are numbers |
//! | `opening`, `variation` | Utf8? | the `Opening` and `Variation` tags |
//! | `tags` | Map&lt;Utf8, Utf8&gt; | every other tag (`Result`, `FEN`, `ECCO`, …), a second tag of a name, and each typed tag its column does not hold whole (a date not written `YYYY.MM.DD`, an Elo that is not a number), raw: no tag is lost |
//!
//! (`?`: may be null.) Tags are named as qipu's readers name them, whatever
//! the format (XQF, DhtmlXQ and the others map theirs to these names).
//!
//! # Positions
//!
//! [`positions_schema`]: one row a position of a game's main line, in game
//! order: the start as read (ply 0, legal or not), then the position after
//! each move that replayed. An illegal game gives its positions up to the
//! wrong move; an unreadable game gives none.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `source`, `index` | Utf8, UInt32 | the game, as in the table of games (they join) |
//! | `ply` | UInt32 | plies from the start (0 = the start position) |
//! | `fen` | Utf8 | the position's FEN, with its clocks |
//! | `move` | Utf8? | the move **played from** this position, lower-case ICCS; null at the game's last position (unlike `qipu fen`'s `move`, the move that led there) |
//! | `side` | Utf8 | the side to move: `red` or `black` (as `qipu fen`'s `side`) |
//! | `result` | Utf8 | the game's result (`*` when it states none) |
//! | `eval` | Int32? | the evaluation the record gives the position in centipawns, from Red's side: the one the comment of the move that led here holds, as `qipu fen --format json` finds it ([`Evaluation`](crate::record::Evaluation)); null when none, or when it is a mate |
//! | `mate` | Int32? | a mate score instead: mate in this many moves, positive when Red mates, negative when Red is mated |
//!
//! ```
//! use qipu::batch::{self, Batch};
//! use qipu::table::{Batches, Table};
//! let inputs = batch::expand(&["fixtures/pgn".into()]).inputs;
//! let mut rows = 0;
//! for batch in Batches::new(Batch::new(), inputs, Table::Games) {
//!     let batch = batch.unwrap();
//!     assert_eq!(batch.schema(), qipu::table::games_schema());
//!     rows += batch.num_rows();
//! }
//! assert_eq!(rows, 1391); // as many as `qipu validate fixtures/pgn` counts
//! ```

mod column;
mod follow;
mod games;
pub mod hive;
#[cfg(feature = "parquet")]
pub mod parquet;
mod positions;

pub use arrow_array::{RecordBatch, RecordBatchReader};
pub use arrow_schema::{ArrowError, SchemaRef};
pub use follow::{Fens, MainLine, TableFollower};
pub use games::{GamesTable, games_schema};
pub use positions::{PositionsTable, positions_schema};

use crate::batch::{Batch, Checked, Checker, Games, Input, Item};

/// Arrow IPC streams of the tables: written by a [`StreamWriter`](ipc::StreamWriter), read
/// back by a [`StreamReader`](ipc::StreamReader).
pub mod ipc {
    pub use arrow_ipc::reader::StreamReader;
    pub use arrow_ipc::writer::StreamWriter;
}

/// Which of the two tables (see the [module docs](self)).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    /// One row a game.
    Games,
    /// One row a main-line position.
    Positions,
}

impl Table {
    /// The table's schema.
    pub fn schema(self) -> SchemaRef {
        match self {
            Table::Games => games_schema(),
            Table::Positions => positions_schema(),
        }
    }

    /// The table's name: `games` or `positions`.
    pub fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Positions => "positions",
        }
    }

    /// The follower that gathers what this table alone needs of each
    /// game: for games its moves, key and ECCO code, for positions its
    /// moves and FENs.
    pub fn follower(self) -> TableFollower {
        match self {
            Table::Games => TableFollower::new(false),
            Table::Positions => TableFollower::new(true).without_games(),
        }
    }

    /// The rows of a record batch [`Batches`] cuts unless told: a few
    /// megabytes of memory. A writer encodes the last batch only after the
    /// last game: batches of 2,048 games rather than 8,192 took the export
    /// of the corpus' games (14,551) from 0.56 to 0.50 s, and the peak of
    /// an export of 1 GB of PGN's games from 120 to 86 MB, in the same
    /// time.
    pub fn batch_rows(self) -> usize {
        match self {
            Table::Games => 2048,
            Table::Positions => 32_768,
        }
    }
}

/// The rows of both tables, as the games come: what the consuming thread
/// keeps between record batches.
#[derive(Debug, Default)]
pub struct Tables {
    /// The rows of the table of games.
    pub games: GamesTable,
    /// The rows of the table of positions.
    pub positions: PositionsTable,
}

impl Tables {
    /// Both tables, empty.
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Both tables, empty, their batches made for Parquet writers
    /// ([`GamesTable::for_parquet`], [`PositionsTable::for_parquet`]).
    pub fn for_parquet() -> Tables {
        Tables { games: GamesTable::for_parquet(), positions: PositionsTable::for_parquet() }
    }

    /// The rows `table` holds.
    pub fn len(&self, table: Table) -> usize {
        match table {
            Table::Games => self.games.len(),
            Table::Positions => self.positions.len(),
        }
    }

    /// The rows `table` holds, as a record batch; that table is then empty.
    pub fn finish(&mut self, table: Table) -> RecordBatch {
        match table {
            Table::Games => self.games.finish(),
            Table::Positions => self.positions.finish(),
        }
    }
}

/// The visitor a batch job reads games with for the tables: a
/// [`Checker`] following a [`TableFollower`] (gathering positions when
/// `positions`), keeping every tag.
pub fn checker(positions: bool) -> Checker<TableFollower> {
    Checker::following(TableFollower::new(positions)).keep_all_tags()
}

/// The record batches of one table of the games of any inputs, read on
/// every core in bounded memory ([`Games`]): an Arrow
/// [`RecordBatchReader`], which a binding hands out through the Arrow C
/// stream interface. Each batch holds about [`Table::batch_rows`] rows
/// (or [`Batches::rows`]), the last fewer.
pub struct Batches {
    games: Games<Checked<MainLine>>,
    table: Table,
    rows: usize,
    tables: Tables,
    ended: bool,
}

impl Batches {
    /// The table `table` of the games of `inputs`, read by `batch`.
    pub fn new(batch: Batch, inputs: Vec<Input>, table: Table) -> Batches {
        Batches {
            games: Games::new(batch, inputs, move || Checker::following(table.follower()).keep_all_tags()),
            table,
            rows: table.batch_rows(),
            tables: Tables::new(),
            ended: false,
        }
    }

    /// Cuts a record batch every `rows` rows (at least 1) rather than
    /// [`Table::batch_rows`]; a game's positions are never cut apart.
    pub fn rows(mut self, rows: usize) -> Batches {
        self.rows = rows.max(1);
        self
    }

    /// Makes the batches for a Parquet writer ([`Tables::for_parquet`]):
    /// the same rows, a few columns as Arrow dictionaries.
    pub fn for_parquet(mut self) -> Batches {
        self.tables = Tables::for_parquet();
        self
    }
}

impl std::fmt::Debug for Batches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batches").field("table", &self.table).field("rows", &self.rows).finish()
    }
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ended {
            return None;
        }
        loop {
            match self.games.next() {
                Some(Item::Game { meta, index, game }) => match self.table {
                    Table::Games => self.tables.games.push(&meta, index, &game),
                    Table::Positions => self.tables.positions.push(&meta, index, &game),
                },
                Some(Item::Unreadable { meta, reason }) => {
                    if self.table == Table::Games {
                        self.tables.games.push_unreadable(&meta, &reason.to_string());
                    }
                }
                Some(_) => continue,
                None => {
                    self.ended = true;
                    return (self.tables.len(self.table) > 0).then(|| Ok(self.tables.finish(self.table)));
                }
            }
            if self.tables.len(self.table) >= self.rows {
                return Some(Ok(self.tables.finish(self.table)));
            }
        }
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        self.table.schema()
    }
}

#[cfg(test)]
mod tests;
