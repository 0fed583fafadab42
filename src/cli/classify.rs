//! `qipu classify PATH...`: the ECCO code, opening and variation of each
//! game, beside the `[ECCO]` tag the record carries.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::batch::{Event, Meta, each_input};
use super::input::expand;
use super::progress::Progress;
use super::{Failure, OutputFormat};
use crate::analysis::ecco::{self, OpeningName};
use crate::formats::encoding::Encoding;
use crate::record::Record;

/// Arguments of `qipu classify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// `text` (tab-separated: source, game, ECCO, opening, variation, tag,
    /// traditional names) or `json` (one object per game).
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
    /// The traditional names of the opening (中炮, 屏风马 …).
    opening_terms: Vec<&'static str>,
}

/// What one game gives: its index, its opening's names and its `[ECCO]` tag.
type Found = (usize, Option<OpeningName>, Option<String>);

/// Classifies every game and prints one line for each.
pub fn run(args: &Args, out: &mut impl Write) -> Result<i32, Failure> {
    let inputs = expand(&args.paths)?;
    let pool = super::thread_pool(args.jobs)?;
    let mut progress = Progress::new(inputs.len());
    let (mut games, mut classified, mut tagged, mut agreeing, mut unreadable) = (0, 0, 0, 0, 0);
    let work = |_: &Meta, index: usize, record: &Record| -> Found {
        (
            index,
            ecco::name_record(record),
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
                        agreeing += usize::from(code.as_ref().is_some_and(|c| c.ecco.code == t));
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
    name: Option<OpeningName>,
    tagged: Option<String>,
) -> Result<(), Failure> {
    let code = name.as_ref().map(|n| n.ecco);
    let terms = name.map(|n| n.terms).unwrap_or_default();
    match format {
        OutputFormat::Json => {
            let line = Classified {
                source,
                index,
                ecco: code.map(|c| c.code),
                opening: code.map(|c| c.opening),
                variation: code.map(|c| c.variation),
                tagged,
                opening_terms: terms,
            };
            serde_json::to_writer(&mut *out, &line).map_err(|e| Failure::usage(e.to_string()))?;
            writeln!(out)?;
        }
        OutputFormat::Text => {
            let (c, o, v) = code.map_or(("-", "", ""), |c| (c.code, c.opening, c.variation));
            let (t, terms) = (tagged.as_deref().unwrap_or(""), terms.join(" "));
            writeln!(out, "{source}\t{}\t{c}\t{o}\t{v}\t{t}\t{terms}", index + 1)?;
        }
    }
    Ok(())
}
