//! Raising the package's exceptions (defined in Python, in
//! `qipu/errors.py`), each with the fields of the CLI's reports as
//! attributes.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// An exception of class `class` (a name in `qipu.errors`) with `message`,
/// and each of `fields` as a keyword argument (the class makes them
/// attributes).
pub fn raise(py: Python<'_>, class: &str, message: &str, fields: Bound<'_, PyDict>) -> PyErr {
    let made = py
        .import("qipu.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call((message,), Some(&fields)));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// A dict of keyword arguments, from pairs.
#[macro_export]
macro_rules! kwargs {
    ($py:expr, $($k:literal => $v:expr),* $(,)?) => {{
        let d = pyo3::types::PyDict::new($py);
        $( let _ = d.set_item($k, $v); )*
        d
    }};
}
