//! The selection keyword arguments every batch function takes (the `qipu`
//! command's selection flags, `--has-comments` as `has_comments`), read
//! into the library's [`Options`] and the [`Chooser`] a pass asks.

use std::str::FromStr;
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use qipu::batch::{Batch, Input, Meta, Status};
use qipu::dedupe::{Keep, Kinds};
use qipu::formats::UnreadableReason;
use qipu::record::Visitor;
use qipu::record::replay::Termination;
use qipu::select::{self, Judged, MaterialAt, Options, PassEvent, ResultChoice, Selection};

/// The selection of a batch function's pass.
pub struct Chooser(select::Chooser);

impl Chooser {
    /// The chooser the keyword arguments `select` ask for.
    pub fn new(select: Option<&Bound<'_, PyDict>>) -> PyResult<Chooser> {
        let options = match select {
            Some(given) => options(given)?,
            None => Options::default(),
        };
        options.chooser().map(Chooser).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The criteria judged where each game is read.
    pub fn selection(&self) -> Arc<Selection> {
        self.0.selection().clone()
    }

    /// The library's chooser, for a pass that is told every event.
    pub fn into_inner(self) -> select::Chooser {
        self.0
    }
}

/// The words of an argument given as one text, a comma list in one text,
/// or a list of texts.
fn words(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if value.is_instance_of::<PyString>() {
        let text: String = value.extract()?;
        return Ok(text.split(',').map(|w| w.trim().to_string()).filter(|w| !w.is_empty()).collect());
    }
    value
        .try_iter()
        .and_then(|items| items.map(|item| item?.extract::<String>()).collect())
        .map_err(|_| PyTypeError::new_err(format!("{name}: expected a text or a list of texts")))
}

/// Each word of `name` read by `read`, which names what it expected.
fn each<T>(
    name: &str,
    value: &Bound<'_, PyAny>,
    expected: &str,
    read: impl Fn(&str) -> Option<T>,
) -> PyResult<Vec<T>> {
    words(name, value)?
        .iter()
        .map(|w| read(w).ok_or_else(|| PyValueError::new_err(format!("{name}={w:?}: expected {expected}"))))
        .collect()
}

/// A text argument read by its `FromStr`, or an int read as its digits
/// (`plies=40`, `games=3`).
fn parsed<T: FromStr>(name: &str, value: &Bound<'_, PyAny>) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    let text = match value.extract::<u64>() {
        Ok(n) => n.to_string(),
        Err(_) => {
            value.extract::<String>().map_err(|_| PyTypeError::new_err(format!("{name}: expected a text")))?
        }
    };
    text.parse::<T>().map_err(|e| PyValueError::new_err(format!("{name}={text:?}: {e}")))
}

/// The library's options from the keyword arguments.
fn options(given: &Bound<'_, PyDict>) -> PyResult<Options> {
    let mut o = Options::default();
    let text = |name: &str, v: &Bound<'_, PyAny>| {
        v.extract::<String>().map_err(|_| PyTypeError::new_err(format!("{name}: expected a text")))
    };
    let flag = |name: &str, v: &Bound<'_, PyAny>| {
        v.extract::<bool>().map_err(|_| PyTypeError::new_err(format!("{name}: expected True or False")))
    };
    let count = |name: &str, v: &Bound<'_, PyAny>| {
        v.extract::<u64>()
            .map_err(|_| PyTypeError::new_err(format!("{name}: expected a count (an int, 0 or more)")))
    };
    let mut dedupe: Option<Vec<String>> = None;
    let mut material_at = None;
    for (key, value) in given.iter() {
        let name: String = key.extract()?;
        let v = &value;
        match name.as_str() {
            "tag" => {
                let rules: Vec<String> = match v.cast::<PyDict>() {
                    Ok(d) => d
                        .iter()
                        .map(|(k, p)| Ok(format!("{}={}", k.extract::<String>()?, p.extract::<String>()?)))
                        .collect::<PyResult<_>>()?,
                    Err(_) if v.is_instance_of::<PyString>() => vec![text("tag", v)?],
                    Err(_) => words("tag", v)?,
                };
                o.tags = Options::tag_rules(&rules).map_err(|e| PyValueError::new_err(e.to_string()))?;
            }
            "player" => o.player = Some(text(&name, v)?),
            "red" => o.red = Some(text(&name, v)?),
            "black" => o.black = Some(text(&name, v)?),
            "event" => o.event = Some(text(&name, v)?),
            "site" => o.site = Some(text(&name, v)?),
            "opening" => o.opening = Some(text(&name, v)?),
            "position" => o.position = Some(text(&name, v)?),
            "moves" => {
                o.moves = if v.is_instance_of::<PyString>() {
                    vec![text(&name, v)?]
                } else {
                    v.try_iter()
                        .and_then(|items| items.map(|item| item?.extract::<String>()).collect())
                        .map_err(|_| PyTypeError::new_err("moves: expected a text or a list of texts"))?
                }
            }
            "not_in" => {
                let paths: Vec<Bound<'_, PyAny>> =
                    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
                        v.try_iter()?.collect::<PyResult<_>>()?
                    } else {
                        vec![v.clone()]
                    };
                for p in &paths {
                    let path: std::path::PathBuf = p.extract().map_err(|_| {
                        PyTypeError::new_err(
                            "not_in: expected a path (str or os.PathLike) or a list of paths",
                        )
                    })?;
                    crate::inputs::must_exist(p, &path)?;
                    o.not_in.push(path);
                }
            }
            "date" => o.date = Some(parsed("date", v)?),
            "ecco" => o.ecco = Some(parsed("ecco", v)?),
            "plies" => o.plies = Some(parsed("plies", v)?),
            "games" => o.games = Some(parsed("games", v)?),
            "rules" => o.rules = parsed("rules", v)?,
            "material" => o.material = Some((parsed("material", v)?, MaterialAt::End)),
            "material_at" => {
                material_at = Some(match text(&name, v)?.as_str() {
                    "end" => MaterialAt::End,
                    "any" => MaterialAt::Any,
                    other => {
                        return Err(PyValueError::new_err(format!(
                            "material_at={other:?}: expected \"end\" or \"any\""
                        )));
                    }
                })
            }
            "result" => {
                o.results = each(&name, v, "1-0, 0-1, draw or unknown", |w| match w {
                    "1-0" => Some(ResultChoice::RedWins),
                    "0-1" => Some(ResultChoice::BlackWins),
                    "draw" | "1/2-1/2" => Some(ResultChoice::Draw),
                    "unknown" | "*" => Some(ResultChoice::Unknown),
                    _ => None,
                })?;
            }
            "termination" => {
                let expected = "checkmate, stalemate, move-limit, repetition, perpetual-check, perpetual-chase, \
                                check-chase, perpetual-mate-threat, mate-threat-mixed, dead-draw or none";
                o.terminations = each(&name, v, expected, |w| match w.replace('_', "-").as_str() {
                    "checkmate" => Some(Some(Termination::Checkmate)),
                    "stalemate" => Some(Some(Termination::Stalemate)),
                    "move-limit" => Some(Some(Termination::MoveLimit)),
                    "repetition" => Some(Some(Termination::Repetition)),
                    "perpetual-check" => Some(Some(Termination::PerpetualCheck)),
                    "perpetual-chase" => Some(Some(Termination::PerpetualChase)),
                    "check-chase" => Some(Some(Termination::CheckChase)),
                    "perpetual-mate-threat" => Some(Some(Termination::PerpetualMateThreat)),
                    "mate-threat-mixed" => Some(Some(Termination::MateThreatMixed)),
                    "dead-draw" => Some(Some(Termination::DeadDraw)),
                    "none" => Some(None),
                    _ => None,
                })?;
            }
            "status" => {
                o.statuses = each(&name, v, "valid, illegal or unreadable", |w| match w {
                    "valid" | "ok" => Some(Status::Valid),
                    "illegal" => Some(Status::Illegal),
                    "unreadable" => Some(Status::Unreadable),
                    _ => None,
                })?;
            }
            "has_comments" => o.has_comments = flag(&name, v)?,
            "has_variations" => o.has_variations = flag(&name, v)?,
            "in_variations" => o.in_variations = flag(&name, v)?,
            "mirror" => o.mirror = flag(&name, v)?,
            "invert" => o.invert = flag(&name, v)?,
            "skip" => o.skip = count(&name, v)?,
            "limit" => o.limit = if v.is_none() { None } else { Some(count(&name, v)?) },
            "dedupe" => {
                dedupe = match v.extract::<bool>() {
                    Ok(false) => None,
                    Ok(true) => Some(vec!["line".into()]),
                    Err(_) => Some(words(&name, v)?),
                }
            }
            "keep" => {
                o.keep = match text(&name, v)?.as_str() {
                    "first" => Keep::First,
                    "longest" => Keep::Longest,
                    "most-annotated" | "most_annotated" => Keep::MostAnnotated,
                    other => {
                        return Err(PyValueError::new_err(format!(
                            "keep={other:?}: expected \"first\", \"longest\" or \"most-annotated\""
                        )));
                    }
                };
                if !given.contains("dedupe")? {
                    return Err(PyValueError::new_err("keep needs dedupe"));
                }
            }
            _ => return Err(PyTypeError::new_err(format!("unexpected keyword argument {name:?}"))),
        }
    }
    if o.in_variations && o.position.is_none() && o.moves.is_empty() {
        return Err(PyValueError::new_err("in_variations needs position or moves"));
    }
    if let Some(at) = material_at {
        match &mut o.material {
            Some(m) => m.1 = at,
            None => return Err(PyValueError::new_err("material_at needs material")),
        }
    }
    if let Some(kinds) = dedupe {
        for k in &kinds {
            if !["line", "final", "truncated", "mirror"].contains(&k.as_str()) {
                return Err(PyValueError::new_err(format!(
                    "dedupe={k:?}: expected line, final, truncated or mirror"
                )));
            }
        }
        let has = |k: &str| kinds.iter().any(|w| w == k);
        o.dedupe = Some(Kinds {
            line: has("line"),
            end: has("final"),
            truncated: has("truncated"),
            mirror: has("mirror"),
            ..Kinds::default()
        });
    }
    Ok(o)
}

/// What a pass hands on, in input order: a selected game (what the
/// visitor made of it), a selected input that cannot be read, or — when
/// nothing selects — an input found in a folder that holds no record.
pub enum Taken<'a, T> {
    /// Game `index` of its input.
    Game {
        /// Its number in its input, from 0.
        index: usize,
        /// What the visitor made of it.
        game: T,
    },
    /// An input that cannot be read, and why.
    Unreadable(&'a UnreadableReason),
    /// An input that holds no record, and why.
    NoRecord(&'a UnreadableReason),
}

impl Chooser {
    /// Reads `inputs` with visitors from `make` (which judge each game:
    /// [`Selection::checker`]) in the library's pass, first finding the
    /// copies to leave out when asked, and hands `each` what is taken;
    /// stops once `limit` games are taken, or at the first error `each`
    /// returns.
    pub fn pass<T, V>(
        &mut self,
        batch: &Batch,
        inputs: &[Input],
        make: impl Fn() -> V + Sync,
        mut each: impl FnMut(&Meta, Taken<'_, T>) -> std::io::Result<()>,
    ) -> std::io::Result<()>
    where
        V: Visitor<Output = Judged<T>>,
        T: Send,
    {
        self.pass_all(
            batch,
            inputs,
            make,
            |meta, taken, selected| if selected { each(meta, taken) } else { Ok(()) },
        )
    }

    /// As [`Chooser::pass`], handing on the games left out too, each with
    /// whether it is selected (inputs left out are not handed on).
    pub fn pass_all<T, V>(
        &mut self,
        batch: &Batch,
        inputs: &[Input],
        make: impl Fn() -> V + Sync,
        mut each: impl FnMut(&Meta, Taken<'_, T>, bool) -> std::io::Result<()>,
    ) -> std::io::Result<()>
    where
        V: Visitor<Output = Judged<T>>,
        T: Send,
    {
        self.0.pass(batch, inputs, make, |meta, event| match event {
            PassEvent::Game { index, game, selected } => each(meta, Taken::Game { index, game }, selected),
            PassEvent::Unreadable { reason, selected: true } => each(meta, Taken::Unreadable(&reason), true),
            PassEvent::NoRecord { reason, selected: true } => each(meta, Taken::NoRecord(&reason), true),
            _ => Ok(()),
        })?;
        Ok(())
    }
}
