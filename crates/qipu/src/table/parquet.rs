//! The tables as Parquet files (feature `parquet`): zstd, dictionaries for
//! the columns that repeat, row groups of a bounded size written as the
//! games come.
//!
//! ```
//! use qipu::batch::{self, Batch};
//! use qipu::table::{Batches, Table, parquet};
//! let inputs = batch::expand(&["fixtures/pgn".into()]).inputs;
//! let mut writer = parquet::writer(Vec::new(), Table::Games).unwrap();
//! for batch in Batches::new(Batch::new(), inputs, Table::Games) {
//!     writer.write(&batch.unwrap()).unwrap();
//! }
//! let bytes = writer.into_inner().unwrap();
//! assert_eq!(&bytes[..4], b"PAR1");
//! ```

use std::io::Write;

pub use ::parquet::arrow::ArrowWriter;
use ::parquet::basic::{Compression, Encoding, ZstdLevel};
pub use ::parquet::errors::ParquetError;
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
/// and took more than twice as long to write.
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
    props.build()
}

/// The rows of a row group unless told: 32,768 games, 65,536 positions.
/// A writer holds a row group in memory until it is complete (its pages
/// and its encoders' buffers): groups of 65,536 games and 524,288
/// positions made the files 6 % (games) and 0.3 % smaller, and took an
/// export of 1 GB of PGN with both tables to about 200 MB at its peak.
pub fn row_group_rows(table: Table) -> usize {
    table.batch_rows()
        * match table {
            Table::Games => 4,
            Table::Positions => 2,
        }
}

/// A Parquet writer of `table` into `out`, with [`properties`].
pub fn writer<W: Write + Send>(out: W, table: Table) -> Result<ArrowWriter<W>, ParquetError> {
    ArrowWriter::try_new(out, table.schema(), Some(properties(table, None)))
}
