//! `qipu validate PATH...`: replay every game and report each illegal or
//! unreadable one with where and why.

use std::io::Write;

use super::args::Opened;
use super::progress::{Outcome, Tally, summary_line};
use super::repeats::Repeats;
use super::{Failure, OutputFormat};
use qipu::batch::{ProblemLine, Report, Status};
use qipu::rules::judge::Verdict;
use qipu::select::PassEvent;

/// Arguments of `qipu validate`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("encoding", |a| a.help(
    "Read text in this encoding instead of detecting it (utf-8, gbk, big5, utf-16le, utf-16be)"
)))]
pub struct Args {
    /// `text` for people, `json` for programs (one object per game and line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

/// Validates every game of every input.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let Opened { inputs, mut sink, batch, mut chooser } = args.batch.open(stdout)?;
    let colored = !sink.is_file() && super::color::stdout();
    let out = &mut sink;
    // Every game is counted; only those selected are reported, here
    // rather than on standard error.
    let mut tally = Tally::new(inputs.len()).quiet();
    let mut repeats = Repeats::default();
    let selection = chooser.selection().clone();
    chooser.pass(
        &batch,
        &inputs,
        &mut tally,
        || selection.checker(()),
        |meta, event, tally| {
            let report = match event {
                PassEvent::Game { index, game, selected } => {
                    tally.game_as(Outcome::checked(&meta.source, index, &game, ""), selected);
                    // A text report tells nothing of a game without an
                    // error or a warning: none is made.
                    let quiet = matches!(args.format, OutputFormat::Text)
                        && game.replayed.error.is_none()
                        && game.replayed.result_conflict.is_none()
                        && game.warnings.is_empty()
                        && game.replayed.rulings.iter().all(|r| r.verdict == Verdict::Draw);
                    if !selected || quiet {
                        return Ok(());
                    }
                    Report::game(meta, index, &game)
                }
                PassEvent::Unreadable { reason, selected: true } => {
                    Report::input(meta, reason.to_string(), Some(Status::Unreadable))
                }
                PassEvent::NoRecord { reason, selected: true } => {
                    Report::input(meta, reason.to_string(), None)
                }
                _ => return Ok(()),
            };
            match args.format {
                OutputFormat::Json => {
                    super::write_json(&mut *out, &report)?;
                    writeln!(out)?;
                }
                OutputFormat::Text => write_text(&report, colored, &mut repeats, out)?,
            }
            Ok(())
        },
    )?;
    // Every input counts, read or not (`--limit`).
    let (games, valid, illegal, unreadable) = (tally.games, tally.valid, tally.illegal, tally.unreadable);
    let line =
        summary_line(games, valid, illegal, unreadable, inputs.len(), tally.no_record) + &chooser.summary();
    match args.format {
        // The summary ends the text report; written into a file, it is told
        // on standard error too.
        OutputFormat::Text => {
            for untold in repeats.untold() {
                writeln!(out, "{}", super::color::problem_if(colored, &super::progress::escaped(&untold)))?;
            }
            writeln!(out, "{line}")?;
            if sink.is_file() {
                eprintln!("{line}");
            }
        }
        OutputFormat::Json => eprintln!("{line}"),
    }
    sink.commit()?;
    Ok(tally.code())
}

/// Writes the text report of a game, its problems as every command tells
/// them ([`ProblemLine`]): each line escaped, so that the text of a record (a
/// move, a tag) cannot break a line or forge one; their severity coloured
/// when `colored`. A warning of a message told [`SHOWN`](super::repeats::SHOWN)
/// times already is counted in `repeats`, not told.
fn write_text(r: &Report, colored: bool, repeats: &mut Repeats, out: &mut impl Write) -> std::io::Result<()> {
    for problem in ProblemLine::of_report(r) {
        if !repeats.tell(&problem) {
            continue;
        }
        let text = problem.to_string();
        let line = super::progress::escaped(&text);
        writeln!(out, "{}", super::color::problem_if(colored, &line))?;
    }
    Ok(())
}
