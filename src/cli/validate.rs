//! `qipu validate PATH...`: replay every game and report each illegal or
//! unreadable one with where and why.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::{Failure, OutputFormat};
use qipu::batch::{Checked, Event, Meta, Status};
use qipu::formats::encoding::Encoding;
use qipu::record::Span;
use qipu::record::replay::ReplayError;

/// Arguments of `qipu validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// `text` for people, `json` for programs (one object per game and line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Read text in this encoding instead of detecting it (utf-8, gbk, big5, utf-16le, utf-16be).
    #[arg(long)]
    pub encoding: Option<Encoding>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub output: super::output::OutputArgs,
    /// Which games to report.
    #[command(flatten)]
    pub select: super::select::SelectArgs,
}

/// The report of one game, as written in JSON.
#[derive(Debug, Serialize)]
struct Report {
    /// The input's name, exact when it is UTF-8.
    source: String,
    /// Present, and true, when `source` is escaped: the name is not UTF-8,
    /// and each byte that is not is written `\xHH` (a backslash `\\`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    source_escaped: bool,
    /// The name as text reports print it.
    #[serde(skip)]
    shown: String,
    index: usize,
    /// The game's status; `None` (`no-record`) for an input that holds no
    /// record.
    #[serde(serialize_with = "status_text")]
    status: Option<Status>,
    format: &'static str,
    encoding: Option<&'static str>,
    plies: usize,
    variation_plies: usize,
    result: Option<&'static str>,
    termination: Option<&'static str>,
    error: Option<ErrorJson>,
    warnings: Vec<String>,
    result_conflict: Option<String>,
    /// The whole input is unreadable (not one record of it).
    #[serde(skip)]
    whole_input: bool,
    /// The problem as the text report tells it (as every command does).
    #[serde(skip)]
    told: Option<String>,
}

/// Where and why a game failed, as JSON output gives it.
#[derive(Debug, Serialize)]
pub(super) struct ErrorJson {
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
    /// 1-based line, or 0 in a binary file.
    line: u32,
    /// 1-based column in characters, or the byte offset in a binary file.
    column: u32,
    /// The byte offset, in a binary file (null for text).
    offset: Option<u32>,
    message: String,
}

impl ErrorJson {
    /// The error of a game replayed, `unreadable` or not, whose start
    /// position's place is known or not.
    pub(super) fn of(e: &ReplayError, unreadable: bool, start_at_known: bool) -> ErrorJson {
        ErrorJson {
            ply: e.ply,
            mv: e.text.clone(),
            line: e.at.line,
            column: e.at.column,
            offset: (e.at.line == 0 && (e.ply > 0 || unreadable || start_at_known)).then_some(e.at.column),
            message: match &e.variation {
                Some(v) => format!("in {v}: {}", e.message()),
                None => e.message(),
            },
        }
    }

    /// An input that cannot be read at all, and why.
    pub(super) fn whole_input(message: String) -> ErrorJson {
        ErrorJson { ply: 0, mv: String::new(), line: 0, column: 0, offset: None, message }
    }
}

/// Counts for the summary line.
#[derive(Debug, Default)]
struct Summary {
    games: usize,
    ok: usize,
    illegal: usize,
    unreadable: usize,
    no_record: usize,
    /// Selected games that are illegal or unreadable.
    bad_selected: usize,
}

/// Validates every game of every input.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let mut inputs = super::inputs(&args.paths);
    let mut sink = args.output.open(&inputs, stdout)?;
    let out = &mut sink;
    let batch = super::batch(args.jobs, args.encoding)?;
    let mut summary = Summary::default();
    let mut progress = super::progress::Progress::new(inputs.len());
    let mut chooser = super::select::Chooser::new(&args.select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection.clone();
    // Every game is counted; only those selected are reported.
    let mut emit = |r: &Report, selected: bool, out: &mut dyn Write| -> Result<(), Failure> {
        match r.status {
            Some(Status::Valid) => summary.ok += 1,
            Some(Status::Illegal) => summary.illegal += 1,
            Some(Status::Unreadable) => summary.unreadable += 1,
            None => summary.no_record += 1,
        }
        summary.games += usize::from(r.status.is_some());
        if !selected {
            return Ok(());
        }
        summary.bad_selected += usize::from(matches!(r.status, Some(Status::Illegal | Status::Unreadable)));
        match args.format {
            OutputFormat::Json => {
                super::write_json(&mut *out, r)?;
                writeln!(out)?;
            }
            OutputFormat::Text => write_text(r, out)?,
        }
        Ok(())
    };
    super::select::finished(batch.run(
        &inputs,
        || selection.checker(()),
        |meta, event| match event {
            Event::Games { first, games } => {
                progress.games(games.len());
                games.iter().enumerate().try_for_each(|(k, judged)| {
                    let selected = chooser.take(first + k, judged.matches, judged.key.as_ref());
                    emit(&report(meta, first + k, &judged.game), selected, out)?;
                    chooser.go_on()
                })
            }
            Event::Unreadable(why) => {
                let selected = chooser.take_unreadable();
                emit(&unreadable(meta, why.to_string(), Some(Status::Unreadable)), selected, out)?;
                chooser.go_on()
            }
            Event::NoRecord(why) => emit(&unreadable(meta, why.to_string(), None), !chooser.active, out),
            Event::Done => {
                progress.input_done();
                Ok(())
            }
        },
    ))?;
    progress.finish();
    let line = super::progress::summary_line(
        summary.games,
        summary.ok,
        summary.illegal,
        summary.unreadable,
        inputs.len(),
        summary.no_record,
    ) + &chooser.summary();
    match args.format {
        // The summary ends the text report; written into a file, it is told
        // on standard error too.
        OutputFormat::Text => {
            writeln!(out, "{line}")?;
            if sink.is_file() {
                eprintln!("{line}");
            }
        }
        OutputFormat::Json => eprintln!("{line}"),
    }
    sink.commit()?;
    Ok(if summary.bad_selected > 0 { 1 } else { 0 })
}

/// The report of an input that gives no game: `unreadable`, or
/// `no-record` for one found in a folder that holds no record.
fn unreadable(meta: &Meta, message: String, status: Option<Status>) -> Report {
    Report {
        source: meta.json_source.clone(),
        source_escaped: meta.source_escaped,
        shown: meta.source.clone(),
        index: 0,
        status,
        format: meta.format,
        encoding: meta.encoding,
        plies: 0,
        variation_plies: 0,
        result: None,
        termination: None,
        error: Some(ErrorJson::whole_input(message)),
        warnings: Vec::new(),
        result_conflict: None,
        whole_input: true,
        told: None,
    }
}

fn report(meta: &Meta, index: usize, checked: &Checked) -> Report {
    let replayed = &checked.replayed;
    let unreadable = checked.unreadable.is_some();
    let error = replayed.error.as_ref().map(|e| ErrorJson::of(e, unreadable, checked.start_at.is_some()));
    Report {
        source: meta.json_source.clone(),
        source_escaped: meta.source_escaped,
        shown: meta.source.clone(),
        index,
        status: Some(checked.status),
        format: meta.format,
        encoding: meta.encoding,
        plies: replayed.plies,
        variation_plies: replayed.variation_plies,
        result: checked.result.map(|r| r.as_str()),
        termination: replayed.termination.map(|t| t.as_str()),
        error,
        warnings: checked.warnings.iter().map(|w| format!("{}: {}", w.at, w.message)).collect(),
        result_conflict: replayed.result_conflict.clone(),
        whole_input: false,
        told: replayed.error.as_ref().filter(|_| !unreadable).map(|e| e.to_string()),
    }
}

/// A status as JSON output writes it: `ok`, `illegal`, `unreadable`, or
/// `no-record`.
fn status_text<S: serde::Serializer>(status: &Option<Status>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(status.map_or("no-record", Status::as_str))
}

/// Writes the text report of a game: each line escaped, so that the text of
/// a record (a move, a tag) cannot break a line or forge one.
fn write_text(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let mut line = |text: String| writeln!(out, "{}", super::progress::escaped(&text));
    if let Some(e) = &r.error {
        if r.whole_input && r.status.is_none() {
            line(super::progress::no_record_line(&r.shown, &e.message))?;
        } else if r.whole_input {
            line(format!("{}: unreadable: {}", r.shown, e.message))?;
        } else if r.status == Some(Status::Unreadable) {
            let at = Span { line: e.line, column: e.column };
            line(format!("{}: game {} ({at}): {}", r.shown, r.index + 1, e.message))?;
        } else if let Some(told) = &r.told {
            line(format!("{}: game {}: {told}", r.shown, r.index + 1))?;
        }
    }
    if let Some(c) = &r.result_conflict {
        line(format!("{}: game {}: warning: {c}", r.shown, r.index + 1))?;
    }
    for w in &r.warnings {
        line(format!("{}: game {}: warning: {w}", r.shown, r.index + 1))?;
    }
    Ok(())
}
