//! The table of positions: one row a main-line position of a game, built
//! a game at a time ([`PositionsTable`]); its columns are in the [module
//! docs](super).

use std::sync::{Arc, OnceLock};

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::column::{Counts, Ints, Keyed, Runs, Texts};
use super::follow::{Fens, MainLine};
use crate::Color;
use crate::analysis::trail::{side_name, start_step};
use crate::batch::{Checked, Meta, Status};
use crate::record::{GameResult, Score};

/// The schema of the table of positions (see the [module docs](super)).
///
/// ```
/// let schema = qipu::table::positions_schema();
/// let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
/// assert_eq!(names, ["source", "index", "ply", "fen", "move", "side", "result", "eval", "mate"]);
/// ```
pub fn positions_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA.get_or_init(|| schema_of(false)).clone()
}

/// The schema of the batches of a table [for Parquet](PositionsTable::for_parquet):
/// [`positions_schema`] with `source`, `move`, `side` and `result` as
/// dictionaries.
fn dictionary_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA.get_or_init(|| schema_of(true)).clone()
}

/// The schema of the table of positions, with the columns of few texts
/// as dictionaries when `dictionary`.
fn schema_of(dictionary: bool) -> SchemaRef {
    let keyed = Keyed::data_type(dictionary);
    Arc::new(Schema::new(vec![
        Field::new("source", Runs::data_type(dictionary), false),
        Field::new("index", DataType::UInt32, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("fen", DataType::Utf8, false),
        Field::new("move", keyed.clone(), true),
        Field::new("side", keyed.clone(), false),
        Field::new("result", keyed, false),
        Field::new("eval", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
    ]))
}

/// The sides, each at its place in the column `side`.
const SIDES: [Color; 2] = [Color::Red, Color::Black];

/// The results, each at its place in the column `result`.
const RESULTS: [GameResult; 4] =
    [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw, GameResult::Unknown];

/// The place of `value` in `values`.
fn key_of<T: PartialEq>(values: &[T], value: T) -> u16 {
    // Every value is in its list, of a few.
    values.iter().position(|v| *v == value).unwrap_or(0) as u16
}

/// Builds the table of positions a game at a time: [`push`](Self::push)
/// each game's positions, then [`finish`](Self::finish) the rows so far
/// into a [`RecordBatch`].
///
/// ```
/// use qipu::batch::{Checker, Meta};
/// use qipu::table::{PositionsTable, TableFollower};
/// let game = qipu::formats::pgn::read_with("1. h2e2 {+0.30} h9g7 1-0", &mut Checker::following(TableFollower::new(true))).remove(0);
/// let meta = Meta { source: "a.pgn".into(), json_source: "a.pgn".into(), source_escaped: false, format: "pgn", encoding: None };
/// let mut table = PositionsTable::new();
/// table.push(&meta, 0, &game);
/// assert_eq!(table.len(), 3); // plies 0, 1 and 2
/// let batch = table.finish();
/// assert_eq!(batch.num_rows(), 3);
/// ```
///
/// A game's rows are appended column by column, many at a time, each
/// column kept at the size of the batch before.
#[derive(Debug)]
pub struct PositionsTable {
    source: Runs,
    index: Counts,
    ply: Counts,
    fen: Texts,
    mv: Keyed,
    side: Keyed,
    result: Keyed,
    eval: Ints,
    mate: Ints,
    rows: usize,
    /// Whether the columns of few texts are finished as dictionaries.
    dictionary: bool,
}

impl Default for PositionsTable {
    fn default() -> PositionsTable {
        PositionsTable::new()
    }
}

impl PositionsTable {
    /// An empty table.
    pub fn new() -> PositionsTable {
        PositionsTable {
            source: Runs::default(),
            index: Counts::default(),
            ply: Counts::default(),
            fen: Texts::default(),
            mv: Keyed::moves(),
            side: Keyed::of_texts(&SIDES.map(side_name)),
            result: Keyed::of_texts(&RESULTS.map(GameResult::as_str)),
            eval: Ints::default(),
            mate: Ints::default(),
            rows: 0,
            dictionary: false,
        }
    }

    /// An empty table whose batches are made for a Parquet writer of
    /// [`positions_schema`], such as
    /// [`parquet::writer`](super::parquet::writer): the same rows,
    /// `source`, `move`, `side` and `result` as Arrow dictionaries, which
    /// the writer takes as they are and encodes without hashing the text
    /// of each row (a seventh less time writing the positions of 100 MB
    /// of PGN, for the same rows read back).
    pub fn for_parquet() -> PositionsTable {
        PositionsTable { dictionary: true, ..PositionsTable::new() }
    }

    /// The rows pushed since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was pushed since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The main-line positions of game `index` (from 0) of the input `meta`
    /// tells of, as checked by a [`Checker`](crate::batch::Checker)
    /// following a [`TableFollower`](super::TableFollower) made to gather
    /// positions (`TableFollower::new(true)`; without them, only the start
    /// is pushed): the start as read (ply 0, legal or not), then the
    /// position after each move that replayed, up to the wrong move of an
    /// illegal game. An unreadable game, or one whose start cannot be read,
    /// gives none.
    pub fn push(&mut self, meta: &Meta, index: usize, game: &Checked<MainLine>) {
        let Some(setup) = &game.replayed.resolution.setup else { return };
        if game.status == Status::Unreadable {
            return;
        }
        let result = key_of(&RESULTS, game.result.unwrap_or(GameResult::Unknown));
        let line = &game.followed;
        let mut start = Fens::default();
        start_step(setup, false, &mut start);
        let empty = Fens::default();
        let after = line.positions.as_ref().unwrap_or(&empty);
        let n = 1 + after.len();
        self.source.push_n(&meta.json_source, n);
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        self.index.0.resize(self.index.0.len() + n, index);
        self.ply.0.extend((0..n).map(|ply| u32::try_from(ply).unwrap_or(u32::MAX)));
        self.fen.push_all(&start.text, &start.ends);
        self.fen.push_all(&after.text, &after.ends);
        for ply in 0..n {
            match line.moves.get(ply) {
                Some(&m) => self.mv.push_move(m),
                None => self.mv.push_null(),
            }
        }
        self.side.push_n(key_of(&SIDES, start.turn(0)), 1);
        for &turn in &after.turns {
            self.side.push_n(key_of(&SIDES, turn), 1);
        }
        self.result.push_n(result, n);
        self.push_evaluations(after);
        self.rows += n;
    }

    /// The `eval` and `mate` of a game's positions: none at the start, then
    /// those the comments give (few positions have one).
    fn push_evaluations(&mut self, after: &Fens) {
        let mut next = 0;
        for &(at, eval) in &after.evals {
            // Ply `at + 1`: the start is ply 0.
            let nulls = at + 1 - next;
            self.eval.push_nulls(nulls);
            self.mate.push_nulls(nulls);
            let (eval, mate) = match eval.score {
                Score::Centipawns(c) => (Some(c), None),
                Score::Mate(n) => (None, Some(n)),
            };
            self.eval.push(eval);
            self.mate.push(mate);
            next = at + 2;
        }
        let nulls = 1 + after.len() - next;
        self.eval.push_nulls(nulls);
        self.mate.push_nulls(nulls);
    }

    /// The rows pushed so far as a record batch of [`positions_schema`]
    /// (with dictionaries [for Parquet](Self::for_parquet)); the table is
    /// then empty.
    pub fn finish(&mut self) -> RecordBatch {
        let dictionary = self.dictionary;
        let columns: Vec<ArrayRef> = vec![
            self.source.finish(dictionary),
            Arc::new(self.index.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.fen.finish()),
            self.mv.finish(dictionary),
            self.side.finish(dictionary),
            self.result.finish(dictionary),
            Arc::new(self.eval.finish()),
            Arc::new(self.mate.finish()),
        ];
        self.rows = 0;
        let schema = if dictionary { dictionary_schema() } else { positions_schema() };
        RecordBatch::try_new(schema, columns).expect("the builders make the schema's columns")
    }
}
