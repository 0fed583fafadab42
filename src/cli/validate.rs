//! `qipu validate PATH...`: replay every game and report each illegal or
//! unreadable one with where and why.

use std::io::Write;
use std::path::PathBuf;

use super::{Failure, OutputFormat};
use qipu::batch::{Event, Report, Status};
use qipu::formats::encoding::Encoding;
use qipu::record::Span;

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
    let selection = chooser.selection().clone();
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
                    emit(&Report::game(meta, first + k, &judged.game), selected, out)?;
                    chooser.go_on()
                })
            }
            Event::Unreadable(why) => {
                let selected = chooser.take_unreadable();
                emit(&Report::input(meta, why.to_string(), Some(Status::Unreadable)), selected, out)?;
                chooser.go_on()
            }
            Event::NoRecord(why) => emit(&Report::input(meta, why.to_string(), None), !chooser.active(), out),
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
