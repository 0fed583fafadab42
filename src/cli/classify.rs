//! `qipu classify PATH...`: the ECCO code, opening and variation of each
//! game, beside the `[ECCO]` tag the record carries.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::batch::{Event, Meta, each_input};
use super::input::expand;
use super::progress::Progress;
use super::{Failure, OutputFormat};
use crate::analysis::ecco::{self, Ecco};
use crate::formats::encoding::Encoding;
use crate::record::Record;

/// Arguments of `qipu classify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// `text` (tab-separated: source, game, ECCO, opening, variation, tag)
    /// or `json` (one object per game).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Read text in this encoding instead of detecting it.
    #[arg(long)]
    pub encoding: Option<Encoding>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// One game's line of output.
#[derive(Serialize)]
struct Classified<'a> {
    source: &'a str,
    /// The game's index in its input, from 0.
    index: usize,
    /// `null` for games that do not start from the standard position.
    ecco: Option<&'static str>,
    opening: Option<&'static str>,
    variation: Option<&'static str>,
    /// The `[ECCO]` tag of the record, if any.
    tagged: Option<String>,
}

/// What one game gives: its index, its code and its `[ECCO]` tag.
type Found = (usize, Option<Ecco>, Option<String>);

/// Classifies every game and prints one line for each.
pub fn run(args: &Args, out: &mut impl Write) -> Result<i32, Failure> {
    let inputs = expand(&args.paths)?;
    let pool = super::thread_pool(args.jobs)?;
    let mut progress = Progress::new(inputs.len());
    let (mut games, mut classified, mut tagged, mut agreeing, mut unreadable) = (0, 0, 0, 0, 0);
    let work = |_: &Meta, index: usize, record: &Record| -> Found {
        (
            index,
            ecco::classify_record(record),
            record.tag("ecco").map(str::trim).filter(|t| !t.is_empty()).map(str::to_string),
        )
    };
    each_input(&inputs, args.encoding, &pool, work, |meta, event| {
        match event {
            Event::Results(found) => {
                progress.games(found.len());
                for (index, code, tag) in found {
                    games += 1;
                    classified += usize::from(code.is_some());
                    if let Some(t) = &tag {
                        tagged += 1;
                        agreeing += usize::from(code.is_some_and(|c| c.code == t));
                    }
                    write(out, args.format, &meta.source, index, code, tag)?;
                }
            }
            Event::Unreadable(reason) => {
                unreadable += 1;
                eprintln!("{}: unreadable: {reason}", meta.source);
            }
            Event::Done => progress.input_done(),
        }
        Ok(())
    })?;
    progress.finish();
    eprintln!(
        "{games} game(s): {classified} from the standard start classified; {tagged} carry an ECCO tag, \
         {agreeing} of them agree{}",
        if unreadable > 0 { format!("; {unreadable} input(s) unreadable") } else { String::new() }
    );
    Ok(if unreadable > 0 { 1 } else { 0 })
}

fn write(
    out: &mut impl Write,
    format: OutputFormat,
    source: &str,
    index: usize,
    code: Option<Ecco>,
    tagged: Option<String>,
) -> Result<(), Failure> {
    match format {
        OutputFormat::Json => {
            let line = Classified {
                source,
                index,
                ecco: code.map(|c| c.code),
                opening: code.map(|c| c.opening),
                variation: code.map(|c| c.variation),
                tagged,
            };
            serde_json::to_writer(&mut *out, &line).map_err(|e| Failure::usage(e.to_string()))?;
            writeln!(out)?;
        }
        OutputFormat::Text => {
            let (c, o, v) = code.map_or(("-", "", ""), |c| (c.code, c.opening, c.variation));
            writeln!(out, "{source}\t{}\t{c}\t{o}\t{v}\t{}", index + 1, tagged.as_deref().unwrap_or(""))?;
        }
    }
    Ok(())
}
