//! `qipu classify PATH...`: the ECCO code, opening and variation of each
//! game, beside the `[ECCO]` tag the record carries.

use std::io::Write;

use serde::Serialize;

use super::args::Opened;
use super::progress::{Outcome, Tally};
use super::{Failure, OutputFormat};
use qipu::analysis::ecco::{self, OpeningName};
use qipu::batch::ErrorReport;
use qipu::batch::Meta;
use qipu::select::PassEvent;

/// Arguments of `qipu classify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `text` (tab-separated: source, game, ECCO, opening, variation, tag,
    /// traditional names) or `json` (one object per game).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

/// One game's line of output.
#[derive(Serialize)]
struct Classified<'a> {
    source: &'a str,
    /// As in `validate`: present when `source` is escaped.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    source_escaped: bool,
    /// The game's index in its input, from 0.
    index: usize,
    /// `null` for games that do not start from the standard position.
    ecco: Option<&'static str>,
    opening: Option<&'static str>,
    variation: Option<&'static str>,
    /// The `[ECCO]` tag of the record, if any.
    tagged: Option<&'a str>,
    /// The traditional names of the opening (中炮, 屏风马 …).
    opening_terms: &'a [&'static str],
    /// `ok`, `illegal` or `unreadable`, as `validate` says.
    status: &'static str,
    /// Where and why the game failed, as `validate` says.
    error: Option<&'a ErrorReport>,
}

/// What one game gives.
struct Found {
    index: usize,
    /// Its opening's names (from the moves before the first wrong one).
    name: Option<OpeningName>,
    /// Its `[ECCO]` tag.
    tag: Option<String>,
    /// How its replay fared.
    outcome: Outcome,
    error: Option<ErrorReport>,
}

/// Classifies every game and prints one line for each. Every game is
/// replayed to its end, so the summary counts valid, illegal and unreadable
/// games as `validate` does; a game with an illegal move is classified by
/// the moves before it.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let Opened { inputs, mut sink, batch, mut chooser } = args.batch.open(stdout)?;
    let out = &mut sink;
    let mut tally = Tally::new(inputs.len());
    let (mut classified, mut tagged, mut agreeing) = (0, 0, 0);
    let selection = chooser.selection().clone();
    let make = || selection.checker(ecco::OpeningReader::default());
    chooser.pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
        let (outcome, reason) = match event {
            PassEvent::Game { index, game: checked, selected } => {
                let outcome = Outcome::checked(&meta.source, index, &checked, "");
                if !selected {
                    tally.game_as(outcome, false);
                    return Ok(());
                }
                let unreadable = checked.unreadable.is_some();
                let error = checked.replayed.error.as_ref();
                let game = Found {
                    index,
                    name: checked.followed,
                    tag: checked.ecco.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_string),
                    outcome,
                    error: error.map(|e| ErrorReport::of(e, unreadable, checked.start_at.is_some())),
                };
                classified += usize::from(game.name.is_some());
                if let Some(t) = &game.tag {
                    tagged += 1;
                    agreeing += usize::from(game.name.as_ref().is_some_and(|c| c.ecco.code == t));
                }
                write(out, args.format, meta, &game)?;
                tally.game(game.outcome);
                return Ok(());
            }
            PassEvent::Unreadable { reason, selected: true } => (Outcome::Unreadable(String::new()), reason),
            PassEvent::NoRecord { reason, selected: true } => (Outcome::NoRecord(String::new()), reason),
            _ => return Ok(()),
        };
        // JSON has a line for every game, and for every input that holds none.
        if args.format == OutputFormat::Json {
            let error = Some(ErrorReport::whole_input(reason.to_string()));
            write(out, args.format, meta, &Found { index: 0, name: None, tag: None, outcome, error })?;
        }
        Ok(())
    })?;
    sink.commit()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    super::quiet::info!(
        "{classified} from the standard start classified; {tagged} carry an ECCO tag, {agreeing} of them agree"
    );
    Ok(tally.code())
}

fn write(out: &mut impl Write, format: OutputFormat, meta: &Meta, game: &Found) -> Result<(), Failure> {
    let code = game.name.as_ref().map(|n| n.ecco);
    let terms = game.name.as_ref().map_or(&[][..], |n| &n.terms[..]);
    match format {
        OutputFormat::Json => {
            let line = Classified {
                source: &meta.json_source,
                source_escaped: meta.source_escaped,
                index: game.index,
                ecco: code.map(|c| c.code),
                opening: code.map(|c| c.opening),
                variation: code.map(|c| c.variation),
                tagged: game.tag.as_deref(),
                opening_terms: terms,
                status: game.outcome.status().map_or("no-record", qipu::batch::Status::as_str),
                error: game.error.as_ref(),
            };
            super::write_json(&mut *out, &line)?;
            writeln!(out)?;
        }
        OutputFormat::Text => {
            let (c, o, v) = code.map_or(("-", "", ""), |c| (c.code, c.opening, c.variation));
            let (t, terms) = (game.tag.as_deref().unwrap_or(""), terms.join(" "));
            // Each field escaped, not the row: its tabs are the separators.
            let number = (game.index + 1).to_string();
            let fields = [meta.source.as_str(), &number, c, o, v, t, &terms];
            let row: Vec<_> = fields.iter().map(|f| super::progress::escaped(f)).collect();
            writeln!(out, "{}", row.join("\t"))?;
        }
    }
    Ok(())
}
