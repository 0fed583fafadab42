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

/// The zstd level: a little smaller than the default 1, and as fast to
/// read.
const LEVEL: i32 = 3;

/// How a table is written: zstd, row groups of at most `rows` rows (a
/// table's [`Table::batch_rows`] times 8 unless told), the FENs of
/// positions by their shared beginnings (`DELTA_BYTE_ARRAY`) rather than
/// a dictionary.
pub fn properties(table: Table, rows: Option<usize>) -> WriterProperties {
    let level = ZstdLevel::try_new(LEVEL).unwrap_or_default();
    let rows = rows.unwrap_or(table.batch_rows() * 8).max(1);
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(Some(rows))
        .set_created_by(format!("qipu {}", env!("CARGO_PKG_VERSION")));
    if table == Table::Positions {
        let fen = ColumnPath::from("fen");
        props = props
            .set_column_dictionary_enabled(fen.clone(), false)
            .set_column_encoding(fen, Encoding::DELTA_BYTE_ARRAY);
    }
    props.build()
}

/// A Parquet writer of `table` into `out`, with [`properties`].
pub fn writer<W: Write + Send>(out: W, table: Table) -> Result<ArrowWriter<W>, ParquetError> {
    ArrowWriter::try_new(out, table.schema(), Some(properties(table, None)))
}
