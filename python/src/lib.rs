//! qipu for Python: the `qipu._qipu` extension module, the Rust half of the
//! `qipu` package (`python/qipu/__init__.py` is the Python half).
//!
//! Games are read and replayed by the qipu library; batch functions
//! release the GIL and run on several threads.

use pyo3::prelude::*;

mod arrow;
mod batch;
mod errors;
mod game;
mod index;
mod inputs;
mod names;
mod position;
mod reader;
mod select;
mod tree;

/// The extension module.
#[pymodule]
fn _qipu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::Position>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::GameError>()?;
    m.add_class::<tree::Node>()?;
    m.add_class::<reader::Reader>()?;
    m.add_function(wrap_pyfunction!(reader::read, m)?)?;
    m.add_function(wrap_pyfunction!(batch::validate, m)?)?;
    m.add_function(wrap_pyfunction!(batch::stats, m)?)?;
    m.add_function(wrap_pyfunction!(batch::fen_columns, m)?)?;
    m.add_function(wrap_pyfunction!(batch::convert, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::read_arrow, m)?)?;
    m.add_class::<arrow::ArrowStream>()?;
    m.add_class::<index::Index>()?;
    m.add_function(wrap_pyfunction!(index::build_index, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
