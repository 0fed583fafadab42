//! The tables as Parquet files (feature `parquet`): zstd, dictionaries for
//! the columns that repeat, row groups of a bounded size written as the
//! games come.
//!
//! ```
//! use qipu::batch::{self, Batch};
//! use qipu::table::{Batches, Table, parquet};
//! let inputs = batch::expand(&["fixtures/pgn".into()]).inputs;
//! let mut writer = parquet::writer(Vec::new(), Table::Games).unwrap();
//! for batch in Batches::new(Batch::new(), inputs, Table::Games).for_parquet() {
//!     writer.write(&batch.unwrap()).unwrap();
//! }
//! let bytes = writer.into_inner().unwrap();
//! assert_eq!(&bytes[..4], b"PAR1");
//! ```

use std::io::Write;

pub use ::parquet::arrow::ArrowWriter;
use ::parquet::basic::{Compression, Encoding, ZstdLevel};
pub use ::parquet::errors::ParquetError;
use ::parquet::file::properties::EnabledStatistics;
pub use ::parquet::file::properties::WriterProperties;
use ::parquet::schema::types::ColumnPath;

use super::Table;

/// The zstd level of a table: for games 3 (7 % smaller than 1, and as
/// fast to read); for positions 1, which makes their FENs 2 % smaller than
/// 3 does, and is written faster.
fn level(table: Table) -> i32 {
    match table {
        Table::Games => 3,
        Table::Positions => 1,
    }
}

/// How a table is written: zstd, row groups of at most `rows` rows
/// ([`row_group_rows`] unless told), the FENs of positions as they are
/// (`PLAIN`, zstd finds what they share) rather than in a dictionary: by
/// their shared beginnings (`DELTA_BYTE_ARRAY`) the file was 5 % larger
/// and took more than twice as long to write. Statistics (each row
/// group's and page's least and greatest value, which let a reader skip
/// them) are kept for the columns a query filters on, and left out for
/// texts in no order (see `unsorted_texts`): writing the games of 100 MB
/// of PGN took a fifth less time without them.
pub fn properties(table: Table, rows: Option<usize>) -> WriterProperties {
    let level = ZstdLevel::try_new(level(table)).unwrap_or_default();
    let rows = rows.unwrap_or(row_group_rows(table)).max(1);
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(Some(rows))
        .set_created_by(format!("qipu {}", env!("CARGO_PKG_VERSION")));
    if table == Table::Positions {
        let fen = ColumnPath::from("fen");
        props =
            props.set_column_dictionary_enabled(fen.clone(), false).set_column_encoding(fen, Encoding::PLAIN);
    }
    for column in unsorted_texts(table) {
        let path = ColumnPath::new(column.iter().map(|name| name.to_string()).collect());
        props = props.set_column_statistics_enabled(path, EnabledStatistics::None);
    }
    props.build()
}

/// The columns of `table` written without statistics, by their paths in
/// the file: texts long or many to a row (moves, tags, FENs), or that
/// come in no order (names, messages), whose least and greatest values
/// in a row group of thousands of games span nearly everything, so that
/// no reader skips a group by them, while comparing each value cost a
/// fifth of the time of writing the table of games.
fn unsorted_texts(table: Table) -> &'static [&'static [&'static str]] {
    match table {
        Table::Games => &[
            &["moves", "list", "item"],
            &["tags", "entries", "key"],
            &["tags", "entries", "value"],
            &["start_fen"],
            &["error_message"],
            &["error_move"],
            &["result_conflict"],
            &["site"],
            &["round"],
            &["red"],
            &["black"],
            &["red_team"],
            &["black_team"],
            &["opening"],
            &["variation"],
        ],
        Table::Positions => &[&["fen"], &["move"]],
    }
}

/// The rows of a row group unless told: 32,768 games, 65,536 positions.
/// A writer holds a row group in memory until it is complete (its pages
/// and its encoders' buffers): groups of 65,536 games and 524,288
/// positions made the files 6 % (games) and 0.3 % smaller, and took an
/// export of 1 GB of PGN with both tables to about 200 MB at its peak.
pub fn row_group_rows(table: Table) -> usize {
    match table {
        Table::Games => 32_768,
        Table::Positions => 65_536,
    }
}

/// A Parquet writer of `table` into `out`, with [`properties`].
pub fn writer<W: Write + Send>(out: W, table: Table) -> Result<ArrowWriter<W>, ParquetError> {
    ArrowWriter::try_new(out, table.schema(), Some(properties(table, None)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{self, Batch};
    use crate::table::Batches;
    use ::parquet::file::reader::{FileReader, SerializedFileReader};

    /// The table `table` of the games of `inputs` as a Parquet file, made
    /// from batches [for Parquet](Batches::for_parquet) or not.
    fn bytes(table: Table, inputs: &str, for_parquet: bool) -> Vec<u8> {
        let mut out = writer(Vec::new(), table).unwrap();
        let batches = Batches::new(Batch::new(), batch::expand(&[inputs.into()]).inputs, table).rows(100);
        let batches = if for_parquet { batches.for_parquet() } else { batches };
        for batch in batches {
            out.write(&batch.unwrap()).unwrap();
        }
        out.into_inner().unwrap()
    }

    /// The games of the PGN fixtures as a Parquet file of `table`, read
    /// back.
    fn written(table: Table) -> SerializedFileReader<std::fs::File> {
        let path =
            std::env::temp_dir().join(format!("qipu-stats-{}-{}.parquet", table.name(), std::process::id()));
        std::fs::write(&path, bytes(table, "../../fixtures/pgn", true)).unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();
        reader
    }

    #[test]
    fn batches_for_parquet_make_the_same_file() {
        // Every fixture: games of every format, illegal and unreadable
        // ones, variations, evaluations, games from other starts.
        for table in [Table::Games, Table::Positions] {
            let plain = bytes(table, "../../fixtures", false);
            let dictionaries = bytes(table, "../../fixtures", true);
            assert!(plain.len() > 10_000, "{}: {} bytes", table.name(), plain.len());
            assert!(plain == dictionaries, "{}: the files differ", table.name());
        }
    }

    #[test]
    fn statistics_are_kept_for_the_columns_filtered_on_and_left_out_for_unsorted_texts() {
        for table in [Table::Games, Table::Positions] {
            let file = written(table);
            let group = file.metadata().row_group(0);
            assert!(group.num_rows() > 0);
            let unsorted: Vec<String> = unsorted_texts(table).iter().map(|path| path.join(".")).collect();
            let columns: Vec<String> = group.columns().iter().map(|c| c.column_path().string()).collect();
            for path in &unsorted {
                assert!(columns.contains(path), "{}: no column {path} in {columns:?}", table.name());
            }
            for column in group.columns() {
                let path = column.column_path().string();
                let kept = column.statistics().is_some();
                assert_eq!(kept, !unsorted.contains(&path), "{}: statistics of {path}", table.name());
            }
        }
    }
}
