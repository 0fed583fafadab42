//! The table of games: one row a game, built a row at a time
//! ([`GamesTable`]); its columns are in the [module docs](super).

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{
    Date32Builder, Int16Builder, Int32Builder, MapBuilder, MapFieldNames, StringBuilder, UInt32Builder,
    UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::column::{MoveLists, Runs};
use super::follow::MainLine;
use crate::Setup;
use crate::batch::{Checked, ErrorReport, Meta, Status};
use crate::record::GameResult;
use crate::record::date::PartialDate;

/// The tags that have a column of their own, in the order of the columns,
/// with how each is typed.
const TYPED_TAGS: [(&str, Typed); 12] = [
    ("Event", Typed::Text),
    ("Site", Typed::Text),
    ("Date", Typed::Date),
    ("Round", Typed::Text),
    ("Red", Typed::Text),
    ("Black", Typed::Text),
    ("RedTeam", Typed::Text),
    ("BlackTeam", Typed::Text),
    ("RedElo", Typed::Number),
    ("BlackElo", Typed::Number),
    ("Opening", Typed::Text),
    ("Variation", Typed::Text),
];

/// How many of [`TYPED_TAGS`] are text.
const TEXTS: usize = 9;

/// How a tag with a column is typed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Typed {
    Text,
    Date,
    Number,
}

/// The name of a tag's column.
fn column_name(tag: &str) -> &'static str {
    match tag {
        "Event" => "event",
        "Site" => "site",
        "Date" => "date",
        "Round" => "round",
        "Red" => "red",
        "Black" => "black",
        "RedTeam" => "red_team",
        "BlackTeam" => "black_team",
        "RedElo" => "red_elo",
        "BlackElo" => "black_elo",
        "Opening" => "opening",
        "Variation" => "variation",
        _ => "",
    }
}

/// The fields of the map of tags: its entries, keys and values.
fn tag_entries() -> (Arc<Field>, Arc<Field>, Arc<Field>) {
    let key = Arc::new(Field::new("key", DataType::Utf8, false));
    let value = Arc::new(Field::new("value", DataType::Utf8, false));
    let entries =
        Arc::new(Field::new("entries", DataType::Struct(vec![key.clone(), value.clone()].into()), false));
    (entries, key, value)
}

/// The schema of the table of games (see the [module docs](super)).
///
/// ```
/// let schema = qipu::table::games_schema();
/// assert_eq!(schema.field(0).name(), "source");
/// assert!(schema.field_with_name("moves").is_ok());
/// ```
pub fn games_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA.get_or_init(|| schema_of(false)).clone()
}

/// The schema of the batches of a table [for Parquet](GamesTable::for_parquet):
/// [`games_schema`] with `source` and the moves as dictionaries.
fn dictionary_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA.get_or_init(|| schema_of(true)).clone()
}

/// The schema of the table of games, with `source` and the moves as
/// dictionaries when `dictionary`.
fn schema_of(dictionary: bool) -> SchemaRef {
    let text = |name: &str, nullable: bool| Field::new(name, DataType::Utf8, nullable);
    let count = |name: &str, nullable: bool| Field::new(name, DataType::UInt32, nullable);
    let mut fields = vec![
        Field::new("source", Runs::data_type(dictionary), false),
        count("index", false),
        text("format", false),
        text("encoding", true),
        text("status", false),
        text("error_message", true),
        count("error_ply", true),
        text("error_move", true),
        count("error_line", true),
        count("error_column", true),
        count("error_offset", true),
        text("result", true),
        text("termination", true),
        text("result_conflict", true),
        text("rules", true),
        count("final_ruling", true),
        count("move_limit_at", true),
        count("dead_draw_at", true),
        count("plies", false),
        count("variation_plies", false),
        text("ecco", true),
        Field::new("line_key", DataType::UInt64, true),
        text("start_fen", true),
        Field::new("moves", DataType::List(MoveLists::item(dictionary)), false),
    ];
    for (tag, typed) in &TYPED_TAGS {
        let name = column_name(tag);
        fields.push(match typed {
            Typed::Text => text(name, true),
            Typed::Date => Field::new(name, DataType::Date32, true),
            Typed::Number => Field::new(name, DataType::Int32, true),
        });
        if *typed == Typed::Date {
            fields.push(Field::new("year", DataType::Int16, true));
        }
    }
    let (entries, _, _) = tag_entries();
    fields.push(Field::new("tags", DataType::Map(entries, false), false));
    Arc::new(Schema::new(fields))
}

/// Builds the table of games a row at a time: [`push`](Self::push) a game
/// as a [`Checked`] with a [`TableFollower`](super::TableFollower)'s
/// [`MainLine`], or [`push_unreadable`](Self::push_unreadable) an input
/// that cannot be read, then [`finish`](Self::finish) the rows so far into
/// a [`RecordBatch`] (the builder is then empty, ready for more).
///
/// ```
/// use qipu::batch::{Checker, Meta};
/// use qipu::table::{GamesTable, TableFollower};
/// let text = "[Red \"许银川\"]\n[RedElo \"2650\"]\n[Date \"1990.05.12\"]\n[Mood \"calm\"]\n1. h2e2 h9g7 1-0\n";
/// let game = qipu::formats::pgn::read_with(text, &mut Checker::following(TableFollower::new(false)).keep_all_tags()).remove(0);
/// let meta = Meta { source: "a.pgn".into(), json_source: "a.pgn".into(), source_escaped: false, format: "pgn", encoding: Some("utf-8") };
/// let mut table = GamesTable::new();
/// table.push(&meta, 0, &game);
/// let batch = table.finish();
/// assert_eq!(batch.num_rows(), 1);
/// assert_eq!(batch.schema(), qipu::table::games_schema());
/// ```
#[derive(Debug)]
pub struct GamesTable {
    source: Runs,
    index: UInt32Builder,
    format: StringBuilder,
    encoding: StringBuilder,
    status: StringBuilder,
    error_message: StringBuilder,
    error_ply: UInt32Builder,
    error_move: StringBuilder,
    error_line: UInt32Builder,
    error_column: UInt32Builder,
    error_offset: UInt32Builder,
    result: StringBuilder,
    termination: StringBuilder,
    result_conflict: StringBuilder,
    rules: StringBuilder,
    final_ruling: UInt32Builder,
    move_limit_at: UInt32Builder,
    dead_draw_at: UInt32Builder,
    plies: UInt32Builder,
    variation_plies: UInt32Builder,
    ecco: StringBuilder,
    line_key: UInt64Builder,
    start_fen: StringBuilder,
    /// The moves, a list a game: about 75 items a row, built like the
    /// columns of positions.
    moves: MoveLists,
    /// The text tags' columns, in the order of [`TYPED_TAGS`] less the
    /// others.
    texts: Vec<StringBuilder>,
    date: Date32Builder,
    year: Int16Builder,
    red_elo: Int32Builder,
    black_elo: Int32Builder,
    tags: MapBuilder<StringBuilder, StringBuilder>,
    rows: usize,
    /// Whether `source` and the moves are finished as dictionaries.
    dictionary: bool,
}

impl Default for GamesTable {
    fn default() -> GamesTable {
        GamesTable::new()
    }
}

/// A count as a column holds it.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl GamesTable {
    /// An empty table.
    pub fn new() -> GamesTable {
        let (_, key, value) = tag_entries();
        let names = MapFieldNames { entry: "entries".into(), key: "key".into(), value: "value".into() };
        GamesTable {
            source: Runs::default(),
            index: UInt32Builder::new(),
            format: StringBuilder::new(),
            encoding: StringBuilder::new(),
            status: StringBuilder::new(),
            error_message: StringBuilder::new(),
            error_ply: UInt32Builder::new(),
            error_move: StringBuilder::new(),
            error_line: UInt32Builder::new(),
            error_column: UInt32Builder::new(),
            error_offset: UInt32Builder::new(),
            result: StringBuilder::new(),
            termination: StringBuilder::new(),
            result_conflict: StringBuilder::new(),
            rules: StringBuilder::new(),
            final_ruling: UInt32Builder::new(),
            move_limit_at: UInt32Builder::new(),
            dead_draw_at: UInt32Builder::new(),
            plies: UInt32Builder::new(),
            variation_plies: UInt32Builder::new(),
            ecco: StringBuilder::new(),
            line_key: UInt64Builder::new(),
            start_fen: StringBuilder::new(),
            moves: MoveLists::default(),
            texts: (0..TEXTS).map(|_| StringBuilder::new()).collect(),
            date: Date32Builder::new(),
            year: Int16Builder::new(),
            red_elo: Int32Builder::new(),
            black_elo: Int32Builder::new(),
            tags: MapBuilder::new(Some(names), StringBuilder::new(), StringBuilder::new())
                .with_keys_field(key)
                .with_values_field(value),
            rows: 0,
            dictionary: false,
        }
    }

    /// An empty table whose batches are made for a Parquet writer of
    /// [`games_schema`], such as [`parquet::writer`](super::parquet::writer):
    /// the same rows, `source` and the moves as Arrow dictionaries, which
    /// the writer takes as they are and encodes without hashing the text
    /// of each row (a quarter less time writing the games of 100 MB of
    /// PGN, for the same rows read back).
    ///
    /// ```
    /// use qipu::batch::{Checker, Meta};
    /// use qipu::table::{GamesTable, TableFollower};
    /// let game = qipu::formats::pgn::read_with("1. h2e2 h9g7 1-0", &mut Checker::following(TableFollower::new(false))).remove(0);
    /// let meta = Meta { source: "a.pgn".into(), json_source: "a.pgn".into(), source_escaped: false, format: "pgn", encoding: None };
    /// let mut table = GamesTable::for_parquet();
    /// table.push(&meta, 0, &game);
    /// let batch = table.finish();
    /// assert_eq!(batch.schema().field(0).data_type().to_string(), "Dictionary(Int32, Utf8)");
    /// ```
    pub fn for_parquet() -> GamesTable {
        GamesTable { dictionary: true, ..GamesTable::new() }
    }

    /// The rows pushed since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was pushed since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Game `index` (from 0) of the input `meta` tells of, as checked by a
    /// [`Checker`](crate::batch::Checker) following a
    /// [`TableFollower`](super::TableFollower) and keeping every tag
    /// ([`Checker::keep_all_tags`](crate::batch::Checker::keep_all_tags):
    /// tags not kept are not in the row).
    pub fn push(&mut self, meta: &Meta, index: usize, game: &Checked<MainLine>) {
        let replayed = &game.replayed;
        self.source.push_n(&meta.json_source, 1);
        self.index.append_value(count(index));
        self.format.append_value(meta.format);
        self.encoding.append_option(meta.encoding);
        self.status.append_value(game.status.as_str());
        let error = replayed
            .error
            .as_ref()
            .map(|e| ErrorReport::of(e, game.unreadable.is_some(), game.start_at.is_some()));
        self.push_error(error.as_ref());
        self.result.append_option(game.result.map(GameResult::as_str));
        self.termination.append_option(replayed.termination.map(|t| t.as_str()));
        self.result_conflict.append_option(replayed.result_conflict.as_deref());
        self.rules.append_value(replayed.rules.as_str());
        self.final_ruling.append_option(replayed.final_ruling().map(|_| count(replayed.rulings.len() - 1)));
        self.move_limit_at.append_option(replayed.move_limit_at.map(count));
        self.dead_draw_at.append_option(replayed.dead_draw_at.map(count));
        self.plies.append_value(count(replayed.plies));
        self.variation_plies.append_value(count(replayed.variation_plies));
        let line = &game.followed;
        self.ecco.append_option(line.ecco);
        self.line_key.append_option(line.line_key);
        let setup = replayed.resolution.setup.as_ref();
        self.start_fen.append_option(setup.filter(|s| **s != Setup::start()).map(Setup::to_fen));
        self.moves.push(&line.moves);
        self.push_tags(&game.tags);
        self.rows += 1;
    }

    /// An input that gives no (more) games, and why (`reason`): a row of
    /// status `unreadable` with the reason as its error, as `qipu validate
    /// --format json` reports it. (An input that holds no record, found in
    /// a folder, is no game: it has no row.)
    pub fn push_unreadable(&mut self, meta: &Meta, reason: &str) {
        self.source.push_n(&meta.json_source, 1);
        self.index.append_value(0);
        self.format.append_value(meta.format);
        self.encoding.append_option(meta.encoding);
        self.status.append_value(Status::Unreadable.as_str());
        self.push_error(Some(&ErrorReport::whole_input(reason.to_string())));
        for text in [&mut self.result, &mut self.termination, &mut self.result_conflict, &mut self.rules] {
            text.append_null();
        }
        for n in [&mut self.final_ruling, &mut self.move_limit_at, &mut self.dead_draw_at] {
            n.append_null();
        }
        self.plies.append_value(0);
        self.variation_plies.append_value(0);
        self.ecco.append_null();
        self.line_key.append_null();
        self.start_fen.append_null();
        self.moves.push(&[]);
        self.push_tags(&[]);
        self.rows += 1;
    }

    fn push_error(&mut self, error: Option<&ErrorReport>) {
        self.error_message.append_option(error.map(|e| e.message.as_str()));
        self.error_ply.append_option(error.map(|e| count(e.ply)));
        self.error_move.append_option(error.map(|e| e.mv.as_str()));
        self.error_line.append_option(error.map(|e| e.line));
        self.error_column.append_option(error.map(|e| e.column));
        self.error_offset.append_option(error.and_then(|e| e.offset));
    }

    /// The typed tags' columns and the map of the others.
    fn push_tags(&mut self, tags: &[(String, String)]) {
        // The first of each typed tag that its type reads goes into its
        // column; the rest, raw, into the map.
        let mut texts: [Option<&str>; TEXTS] = [None; TEXTS];
        let (mut date, mut year, mut red_elo, mut black_elo) = (None, None, None, None);
        let mut seen = [false; TYPED_TAGS.len()];
        for (name, value) in tags {
            let at = TYPED_TAGS.iter().position(|(tag, _)| tag.eq_ignore_ascii_case(name));
            let typed_in = match at {
                Some(k) if !seen[k] => {
                    seen[k] = true;
                    match TYPED_TAGS[k] {
                        (_, Typed::Text) => {
                            let slot = TYPED_TAGS[..k].iter().filter(|(_, t)| *t == Typed::Text).count();
                            texts[slot] = Some(value.as_str());
                            true
                        }
                        (_, Typed::Date) => {
                            let read = PartialDate::read(value);
                            year = read.map(|d| d.year as i16);
                            date = read.and_then(days);
                            date.is_some() && plain_date(value)
                        }
                        ("RedElo", _) => {
                            red_elo = number(value);
                            red_elo.is_some()
                        }
                        _ => {
                            black_elo = number(value);
                            black_elo.is_some()
                        }
                    }
                }
                _ => false,
            };
            if !typed_in {
                self.tags.keys().append_value(name);
                self.tags.values().append_value(value);
            }
        }
        // Never fails: keys and values are appended in pairs.
        let _ = self.tags.append(true);
        for (builder, text) in self.texts.iter_mut().zip(texts) {
            builder.append_option(text);
        }
        self.date.append_option(date);
        self.year.append_option(year);
        self.red_elo.append_option(red_elo);
        self.black_elo.append_option(black_elo);
    }

    /// The rows pushed so far as a record batch of [`games_schema`] (with
    /// dictionaries [for Parquet](Self::for_parquet)); the table is then
    /// empty.
    pub fn finish(&mut self) -> RecordBatch {
        let dictionary = self.dictionary;
        let mut columns: Vec<ArrayRef> = vec![
            self.source.finish(dictionary),
            Arc::new(self.index.finish()),
            Arc::new(self.format.finish()),
            Arc::new(self.encoding.finish()),
            Arc::new(self.status.finish()),
            Arc::new(self.error_message.finish()),
            Arc::new(self.error_ply.finish()),
            Arc::new(self.error_move.finish()),
            Arc::new(self.error_line.finish()),
            Arc::new(self.error_column.finish()),
            Arc::new(self.error_offset.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.termination.finish()),
            Arc::new(self.result_conflict.finish()),
            Arc::new(self.rules.finish()),
            Arc::new(self.final_ruling.finish()),
            Arc::new(self.move_limit_at.finish()),
            Arc::new(self.dead_draw_at.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.variation_plies.finish()),
            Arc::new(self.ecco.finish()),
            Arc::new(self.line_key.finish()),
            Arc::new(self.start_fen.finish()),
            Arc::new(self.moves.finish(dictionary)),
        ];
        let mut texts = self.texts.iter_mut();
        for (tag, typed) in &TYPED_TAGS {
            match (*tag, typed) {
                (_, Typed::Text) => {
                    columns.push(Arc::new(texts.next().expect("a builder a text tag").finish()))
                }
                (_, Typed::Date) => {
                    columns.push(Arc::new(self.date.finish()));
                    columns.push(Arc::new(self.year.finish()));
                }
                ("RedElo", _) => columns.push(Arc::new(self.red_elo.finish())),
                _ => columns.push(Arc::new(self.black_elo.finish())),
            }
        }
        columns.push(Arc::new(self.tags.finish()));
        self.rows = 0;
        let schema = if dictionary { dictionary_schema() } else { games_schema() };
        RecordBatch::try_new(schema, columns).expect("the builders make the schema's columns")
    }
}

/// A number as an Elo tag holds it (`2650`, ` 2650 `), or `None`.
fn number(text: &str) -> Option<i32> {
    let text = text.trim();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Whether a date is written as the `date` column gives it back, whole:
/// `YYYY.MM.DD`, `YYYY-MM-DD` or `YYYY/MM/DD` (any other form stays in the
/// map of tags too, raw).
fn plain_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.iter()
            .enumerate()
            .all(|(k, c)| if k == 4 || k == 7 { matches!(c, b'.' | b'-' | b'/') } else { c.is_ascii_digit() })
        && b[4] == b[7]
}

/// The days since 1970-01-01 of a complete date (year, month and a day the
/// month has), as a `Date32` column holds it.
pub(crate) fn days(date: PartialDate) -> Option<i32> {
    let (y, m, d) = (i64::from(date.year), i64::from(date.month?), i64::from(date.day?));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&m) || d < 1 || d > month_days[(m - 1) as usize] {
        return None;
    }
    // Days from the civil date (March-based years).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    i32::try_from(era * 146_097 + doe - 719_468).ok()
}
