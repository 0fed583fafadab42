//! The words the Python API takes and gives: notations, sides, encodings.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qipu::notation::{Notation, chinese::Style};
use qipu::{Color, formats::encoding::Encoding};

/// A notation by name: `iccs` (`H2-E2`), `uci` (`h2e2`), `chinese`
/// (炮二平五), `chinese-traditional` (砲二平五) or `wxf` (`C2.5`).
pub fn notation(name: &str) -> PyResult<Notation> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "iccs" => Notation::Iccs,
        "uci" => Notation::Uci,
        "chinese" | "chinese-simplified" => Notation::Chinese(Style::Simplified),
        "chinese-traditional" => Notation::Chinese(Style::Traditional),
        "wxf" => Notation::Wxf,
        _ => {
            return Err(PyValueError::new_err(format!(
                "notation {name:?}: expected \"iccs\", \"uci\", \"chinese\", \"chinese-traditional\" or \"wxf\""
            )));
        }
    })
}

/// A text encoding by name, or detection when `None`.
pub fn encoding(name: Option<&str>) -> PyResult<Option<Encoding>> {
    name.map(|n| {
        n.parse::<Encoding>().map_err(|_| {
            PyValueError::new_err(format!("encoding {n:?}: expected utf-8, gbk, big5, utf-16le or utf-16be"))
        })
    })
    .transpose()
}

/// `red` or `black`.
pub fn side(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The number of threads a batch runs on: `jobs`, or every core.
pub fn jobs(jobs: Option<usize>) -> PyResult<usize> {
    match jobs {
        Some(0) => Err(PyValueError::new_err("jobs must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(qipu::batch::cores()),
    }
}

/// A library error (a move that cannot be written, a record no format
/// can hold) as a `ValueError`.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A rule book by its name (`asian` or `chinese`), for `rules=`.
pub fn rules(name: &str) -> PyResult<qipu::rules::judge::RuleSet> {
    name.parse().map_err(|e| PyValueError::new_err(format!("rules={name:?}: {e}")))
}
