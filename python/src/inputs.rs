//! How every function that reads games understands its inputs argument,
//! in one place: a path (`str` or `os.PathLike`; a folder is searched
//! recursively), the bytes of a file (`bytes`, `bytearray`,
//! `memoryview`), a file object (anything with `.read()`, binary or
//! text), or a list (any iterable) of these.
//!
//! A path that does not exist is a `FileNotFoundError`, as Python's own
//! `open` raises it; a file that exists but cannot be read as a record is
//! an unreadable game, and the others are still read.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyFileNotFoundError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};
use qipu::batch::{self, Input};

/// What every inputs argument accepts, for the `TypeError`s.
pub const ACCEPTED: &str = "a path (str or os.PathLike), bytes, bytearray, memoryview, \
                            a file object (binary or text), or a list of these";

/// One input as given.
enum Item {
    /// A file or a folder.
    Path(PathBuf),
    /// The bytes of a file, and the name reports give them.
    Data { name: String, bytes: Vec<u8> },
}

/// The inputs of `arg`, in order: paths expanded (folders into their
/// files, as the `qipu` command expands them), bytes and file objects
/// read into memory (a text file object's text as UTF-8).
///
/// # Errors
///
/// `FileNotFoundError` for a path that does not exist; `TypeError` for
/// an object that is none of the accepted ones (see [`ACCEPTED`]); the
/// error a file object's `.read()` raises.
pub fn inputs(arg: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
    inputs_within(arg).map(|(inputs, _)| inputs)
}

/// The inputs of `arg` as [`inputs`] gives them, with each one's place
/// below the folder it was found in ([`batch::Expanded::within`]; `None`
/// for a path named itself and for bytes), in the same order.
pub fn inputs_within(arg: &Bound<'_, PyAny>) -> PyResult<(Vec<Input>, Vec<Option<PathBuf>>)> {
    let items = match item(arg)? {
        Some(one) => vec![one],
        None => {
            let Ok(iter) = arg.try_iter() else {
                return Err(not_accepted(arg, ""));
            };
            let mut items = Vec::new();
            for each in iter {
                let each = each?;
                items.push(item(&each)?.ok_or_else(|| not_accepted(&each, " in the list"))?);
            }
            items
        }
    };
    let mut out = Vec::new();
    let mut within = Vec::new();
    // Paths next to each other are expanded together: a folder or a file
    // named twice (or through a link) is read once, as the command reads
    // it, and told in a `UserWarning`.
    let mut paths: Vec<PathBuf> = Vec::new();
    let py = arg.py();
    for item in items {
        match item {
            Item::Path(path) => paths.push(path),
            Item::Data { name, bytes } => {
                let (inputs, places) = expand(py, &std::mem::take(&mut paths))?;
                out.extend(inputs);
                within.extend(places);
                // A zip archive's bytes are its members, as a file's are.
                let members = Input::of_bytes(name, Arc::<[u8]>::from(bytes));
                within.extend(members.iter().map(|_| None));
                out.extend(members);
            }
        }
    }
    let (inputs, places) = expand(py, &paths)?;
    out.extend(inputs);
    within.extend(places);
    Ok((out, within))
}

/// The inputs of `paths`, each file named again told in a `UserWarning`
/// (`game.pgn: note: named again; read once`).
fn expand(py: Python<'_>, paths: &[PathBuf]) -> PyResult<(Vec<Input>, Vec<Option<PathBuf>>)> {
    let expanded = batch::expand(paths);
    for unread in &expanded.unread {
        let note = std::ffi::CString::new(unread.note().to_string().replace('\0', "\\0")).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &note, 1)?;
    }
    let mut within = expanded.within;
    within.resize(expanded.inputs.len(), None);
    Ok((expanded.inputs, within))
}

/// `obj` as one input, or `None` when it is no path, bytes nor file
/// object (a list, or something not accepted).
fn item(obj: &Bound<'_, PyAny>) -> PyResult<Option<Item>> {
    let py = obj.py();
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return Ok(Some(Item::Data { name: "<bytes>".into(), bytes: bytes.as_bytes().to_vec() }));
    }
    if let Ok(bytes) = obj.cast::<PyByteArray>() {
        return Ok(Some(Item::Data { name: "<bytes>".into(), bytes: bytes.to_vec() }));
    }
    if obj.is_instance_of::<PyMemoryView>() {
        let bytes = py.get_type::<PyBytes>().call1((obj,))?;
        let bytes = bytes.cast::<PyBytes>()?.as_bytes().to_vec();
        return Ok(Some(Item::Data { name: "<bytes>".into(), bytes }));
    }
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        let path: PathBuf = obj.extract().map_err(|_| not_accepted(obj, ""))?;
        must_exist(obj, &path)?;
        return Ok(Some(Item::Path(path)));
    }
    if obj.getattr("read").is_ok_and(|read| read.is_callable()) {
        return read_stream(obj).map(Some);
    }
    Ok(None)
}

/// The bytes of a file object, read whole, named by its `.name` when
/// that is a text (a file opened by path), else `<stream>`.
fn read_stream(obj: &Bound<'_, PyAny>) -> PyResult<Item> {
    let name = match obj.getattr("name") {
        Ok(name) if name.is_instance_of::<PyString>() => name.extract::<String>()?,
        _ => "<stream>".to_string(),
    };
    let got = obj.call_method0("read")?;
    let bytes = if let Ok(text) = got.cast::<PyString>() {
        text.to_cow()?.as_bytes().to_vec()
    } else if let Ok(bytes) = got.cast::<PyBytes>() {
        bytes.as_bytes().to_vec()
    } else if let Ok(bytes) = got.cast::<PyByteArray>() {
        bytes.to_vec()
    } else {
        return Err(PyTypeError::new_err(format!(
            "{name}: read() gave {}: expected bytes or str",
            type_name(&got)
        )));
    };
    Ok(Item::Data { name, bytes })
}

/// A `FileNotFoundError` for `path` when it does not exist (`-`, standard
/// input, is not looked for), told as Python tells it, with `.filename`.
pub fn must_exist(obj: &Bound<'_, PyAny>, path: &std::path::Path) -> PyResult<()> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let py = obj.py();
            let os = py.import("os")?;
            let errno = e.raw_os_error().unwrap_or(2);
            let strerror = os.call_method1("strerror", (errno,))?;
            let filename = os.call_method1("fspath", (obj,))?;
            Err(PyFileNotFoundError::new_err((errno, strerror.unbind(), filename.unbind())))
        }
        _ => Ok(()),
    }
}

/// The `TypeError` of an object that is no input (`where` says where it
/// was met).
fn not_accepted(obj: &Bound<'_, PyAny>, place: &str) -> PyErr {
    PyTypeError::new_err(format!("expected {ACCEPTED}; got {}{place}", type_name(obj)))
}

/// The name of `obj`'s type, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "an object".into())
}

/// The part of the inputs a batch function's `shard` keyword asks for, taken
/// out of its keyword arguments: `(k, n)` or `"k/n"`, part `k` (from 0) of
/// `n` (see [`batch::Shard`]); `None` when not given.
///
/// # Errors
///
/// `TypeError` for another kind of value, `ValueError` for a part that is
/// not one of `n`.
pub fn take_shard(select: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Option<batch::Shard>> {
    let Some(value) = select.map(|s| s.get_item("shard")).transpose()?.flatten() else { return Ok(None) };
    select.expect("given").del_item("shard")?;
    if value.is_none() {
        return Ok(None);
    }
    let invalid = |e: batch::ShardError| pyo3::exceptions::PyValueError::new_err(format!("shard: {e}"));
    if let Ok(text) = value.extract::<String>() {
        return text.parse().map(Some).map_err(invalid);
    }
    let (k, n) = value.extract::<(usize, usize)>().map_err(|_| {
        PyTypeError::new_err("shard: expected (k, n), part k (from 0) of n, or the text \"k/n\"")
    })?;
    batch::Shard::new(k, n).map(Some).map_err(invalid)
}

/// `inputs` and their places within their folders, only those of `shard`
/// when one is given.
pub fn sharded(
    (inputs, within): (Vec<Input>, Vec<Option<PathBuf>>),
    shard: Option<batch::Shard>,
) -> (Vec<Input>, Vec<Option<PathBuf>>) {
    match shard {
        None => (inputs, within),
        Some(shard) => {
            let expanded = batch::Expanded { inputs, loops: Vec::new(), unread: Vec::new(), within };
            let part = shard.of_expanded(expanded);
            (part.inputs, part.within)
        }
    }
}
