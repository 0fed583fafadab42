//! `qipu.read_arrow`: the table of games or of positions of any inputs
//! ([`qipu::table`]) as an Arrow stream handed out through the Arrow
//! PyCapsule interface (`__arrow_c_stream__`), which pyarrow, Polars and
//! DuckDB take without a copy and without qipu depending on them.
//!
//! The games are read and selected by a pass on a thread of its own (every
//! core, as the other batch functions read), which hands record batches
//! over a bounded channel: memory stays bounded however large the inputs.
//! The consumer's reads wait for the pass without the GIL.

use std::ffi::CString;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, sync_channel};
use std::thread::JoinHandle;

use arrow_array::ffi::FFI_ArrowSchema;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};
use qipu::table::{ArrowError, RecordBatch, RecordBatchReader, SchemaRef, Table, Tables};

use crate::batch::Run;
use crate::select::Taken;

/// Record batches sent ahead of the consumer, at most.
const AHEAD: usize = 2;

/// Reads the games of `paths` (files, folders searched recursively, bytes,
/// file objects) and returns their table as an Arrow stream: the table of
/// games, one row a game (and one for each input that cannot be read, with
/// its status and error, as `validate` counts them), or with `positions`
/// the table of positions, one row a main-line position. The columns are
/// those of `qipu export` (see the user guide). Takes the selection
/// keyword arguments of the other batch functions, and `shard`.
///
/// The stream is read once, by any consumer of the Arrow PyCapsule
/// interface: `pyarrow.table(stream)`, `polars.DataFrame(stream)`,
/// `duckdb.sql("SELECT … FROM stream")`.
#[pyfunction]
#[pyo3(signature = (paths, *, positions = false, jobs = None, encoding = None, **select))]
pub fn read_arrow(
    paths: &Bound<'_, PyAny>,
    positions: bool,
    jobs: Option<usize>,
    encoding: Option<&str>,
    select: Option<&Bound<'_, PyDict>>,
) -> PyResult<ArrowStream> {
    let Run { inputs, batch, mut chooser } = Run::new(paths, jobs, encoding, select)?;
    let table = if positions { Table::Positions } else { Table::Games };
    let (send, batches) = sync_channel(AHEAD);
    let thread = std::thread::spawn(move || {
        let selection = chooser.selection();
        let mut tables = Tables::new();
        let rows = table.batch_rows();
        let closed = || std::io::Error::other("the stream was dropped");
        let make = || selection.checker_keeping_all(table.follower());
        let _ = chooser.pass(&batch, &inputs, make, |meta, taken| {
            match taken {
                Taken::Game { index, game } => match table {
                    Table::Games => tables.games.push(meta, index, &game),
                    Table::Positions => tables.positions.push(meta, index, &game),
                },
                Taken::Unreadable(why) if table == Table::Games => {
                    tables.games.push_unreadable(meta, &why.to_string());
                }
                Taken::Unreadable(_) | Taken::NoRecord(_) => {}
            }
            if tables.len(table) >= rows {
                send.send(tables.finish(table)).map_err(|_| closed())?;
            }
            Ok(())
        });
        if tables.len(table) > 0 {
            let _ = send.send(tables.finish(table));
        }
    });
    let reader = Received { schema: table.schema(), batches, thread: Some(thread) };
    Ok(ArrowStream { table, reader: Mutex::new(Some(reader)) })
}

/// The record batches a pass sends, as an Arrow reader.
struct Received {
    schema: SchemaRef,
    batches: Receiver<RecordBatch>,
    thread: Option<JoinHandle<()>>,
}

impl Iterator for Received {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Ok(batch) = self.batches.recv() {
            return Some(Ok(batch));
        }
        // The pass has ended: a panic of it is an error, not a short table.
        let panic = self.thread.take()?.join().err()?;
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Some(Err(ArrowError::ExternalError(format!("qipu: reading stopped: {why}").into())))
    }
}

impl RecordBatchReader for Received {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The table of games or of positions `read_arrow` reads, as an Arrow
/// stream: hand it to pyarrow, Polars or DuckDB (it has
/// `__arrow_c_stream__`). It can be consumed once.
#[pyclass(module = "qipu")]
pub struct ArrowStream {
    table: Table,
    /// Taken by the first consumer (in a lock: a Python object may be
    /// used from any thread).
    reader: Mutex<Option<Received>>,
}

#[pymethods]
impl ArrowStream {
    /// The stream as an Arrow C stream in a capsule (the Arrow PyCapsule
    /// interface). `requested_schema` is not used: the table has the
    /// schema it has.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader =
            self.reader.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take().ok_or_else(
                || PyValueError::new_err("this Arrow stream was read already: call read_arrow again"),
            )?;
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new(py, stream, Some(CString::new("arrow_array_stream").expect("no NUL")))
    }

    /// The table's schema as an Arrow C schema in a capsule (the Arrow
    /// PyCapsule interface): a consumer may ask for it before, and without,
    /// reading the stream.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.table.schema().as_ref())
            .map_err(|e| PyValueError::new_err(format!("the table's schema cannot be exported: {e}")))?;
        PyCapsule::new(py, schema, Some(CString::new("arrow_schema").expect("no NUL")))
    }

    /// Which table it is: `"games"` or `"positions"`.
    #[getter]
    fn table(&self) -> &'static str {
        self.table.name()
    }

    fn __repr__(&self) -> String {
        let unread = self.reader.lock().map(|r| r.is_some()).unwrap_or(false);
        let state = if unread { "unread" } else { "read" };
        format!("<qipu.ArrowStream of {}, {state}>", self.table.name())
    }
}
