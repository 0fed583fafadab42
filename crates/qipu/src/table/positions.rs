//! The table of positions: one row a main-line position of a game, built
//! a game at a time ([`PositionsTable`]); its columns are in the [module
//! docs](super).

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{Int32Builder, StringBuilder, UInt32Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::follow::{Fens, MainLine};
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
    SCHEMA
        .get_or_init(|| {
            Arc::new(Schema::new(vec![
                Field::new("source", DataType::Utf8, false),
                Field::new("index", DataType::UInt32, false),
                Field::new("ply", DataType::UInt32, false),
                Field::new("fen", DataType::Utf8, false),
                Field::new("move", DataType::Utf8, true),
                Field::new("side", DataType::Utf8, false),
                Field::new("result", DataType::Utf8, false),
                Field::new("eval", DataType::Int32, true),
                Field::new("mate", DataType::Int32, true),
            ]))
        })
        .clone()
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
#[derive(Debug)]
pub struct PositionsTable {
    source: StringBuilder,
    index: UInt32Builder,
    ply: UInt32Builder,
    fen: StringBuilder,
    mv: StringBuilder,
    side: StringBuilder,
    result: StringBuilder,
    eval: Int32Builder,
    mate: Int32Builder,
    rows: usize,
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
            source: StringBuilder::new(),
            index: UInt32Builder::new(),
            ply: UInt32Builder::new(),
            fen: StringBuilder::new(),
            mv: StringBuilder::new(),
            side: StringBuilder::new(),
            result: StringBuilder::new(),
            eval: Int32Builder::new(),
            mate: Int32Builder::new(),
            rows: 0,
        }
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
        let result = game.result.unwrap_or(GameResult::Unknown).as_str();
        let line = &game.followed;
        let mut start = Fens::default();
        start_step(setup, false, &mut start);
        let empty = Fens::default();
        let after = line.positions.as_ref().unwrap_or(&empty);
        let positions = std::iter::once((start.fen(0), start.turn(0), None))
            .chain((0..after.len()).map(|k| (after.fen(k), after.turn(k), after.evaluation(k))));
        for (ply, (fen, turn, eval)) in positions.enumerate() {
            self.source.append_value(&meta.json_source);
            self.index.append_value(u32::try_from(index).unwrap_or(u32::MAX));
            self.ply.append_value(u32::try_from(ply).unwrap_or(u32::MAX));
            self.fen.append_value(fen);
            match line.moves.get(ply) {
                Some(&m) => super::append_move(&mut self.mv, m),
                None => self.mv.append_null(),
            }
            self.side.append_value(side_name(turn));
            self.result.append_value(result);
            let score = eval.map(|e| e.score);
            self.eval.append_option(match score {
                Some(Score::Centipawns(c)) => Some(c),
                _ => None,
            });
            self.mate.append_option(match score {
                Some(Score::Mate(n)) => Some(n),
                _ => None,
            });
            self.rows += 1;
        }
    }

    /// The rows pushed so far as a record batch of [`positions_schema`];
    /// the table is then empty.
    pub fn finish(&mut self) -> RecordBatch {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.source.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.fen.finish()),
            Arc::new(self.mv.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.eval.finish()),
            Arc::new(self.mate.finish()),
        ];
        self.rows = 0;
        RecordBatch::try_new(positions_schema(), columns).expect("the builders make the schema's columns")
    }
}
