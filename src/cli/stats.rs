//! `qipu stats PATH...`: statistics of a collection, as a table for people,
//! one JSON object for programs, or an HTML page of charts.

use std::io::Write;

use super::Failure;
use super::args::Opened;
use super::progress::{Outcome, Tally};
use qipu::analysis::stats::{ANNOTATION_TAGS, GameFacts, MainLine, SideTotals, Stats};
use qipu::analysis::stats_html;
use qipu::select::PassEvent;

/// Arguments of `qipu stats`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `text` for people, `json` for programs (one object), `html` for a
    /// page with charts (self-contained: inline CSS and SVG).
    #[arg(long, value_enum, default_value_t = StatsFormat::Text)]
    pub format: StatsFormat,
    /// How many first moves, players and events to list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

/// What `qipu stats` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// Lines for people.
    Text,
    /// One JSON object (`jsonl` is accepted too).
    #[value(alias = "jsonl")]
    Json,
    /// One HTML page: the summary as tables, charts as inline SVG.
    Html,
}

/// Counts every game of every input and prints the statistics; each
/// illegal or unreadable game is told on standard error, and the summary
/// line counts them as `validate` does.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let Opened { inputs, mut sink, batch, mut chooser } = args.batch.open(stdout)?;
    let out = &mut sink;
    let mut stats = Stats::default();
    let mut tally = Tally::new(inputs.len());
    let selection = chooser.selection().clone();
    let make = || selection.checker_keeping(MainLine::default(), &ANNOTATION_TAGS);
    chooser.pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
        match event {
            PassEvent::Game { index, game, selected } => {
                if selected {
                    stats.add(&GameFacts::of_checked(&game, meta.format, meta.encoding));
                }
                tally.game_as(Outcome::checked(&meta.source, index, &game, ""), selected);
            }
            PassEvent::Unreadable { selected: true, .. } => stats.add(&GameFacts::unreadable(meta.format)),
            _ => {}
        }
        Ok(())
    })?;
    stats.finish();
    match args.format {
        StatsFormat::Json => {
            let json = stats.to_json(args.top);
            super::write_json(&mut *out, &json)?;
            writeln!(out)?;
        }
        StatsFormat::Text => text(&stats, args.top, out)?,
        StatsFormat::Html => {
            let paths: Vec<String> =
                args.batch.read.paths.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            out.write_all(stats_html::page(&stats, &paths.join(" "), args.top).as_bytes())?;
        }
    }
    sink.commit()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    Ok(tally.code())
}

fn text(stats: &Stats, top: usize, out: &mut impl Write) -> std::io::Result<()> {
    let share = |n: usize| if stats.games == 0 { 0.0 } else { 100.0 * n as f64 / stats.games as f64 };
    writeln!(out, "games: {}", stats.games)?;
    let section = |out: &mut dyn Write, title: &str, rows: &mut dyn Iterator<Item = (String, String)>| {
        writeln!(out, "\n{title}")?;
        for (k, v) in rows {
            // Names from records, escaped; Chinese characters take two columns.
            let k = super::progress::escaped(&k);
            let pad = 32usize.saturating_sub(k.chars().map(|c| if c >= '\u{2E80}' { 2 } else { 1 }).sum());
            writeln!(out, "  {k}{:pad$} {v}", "")?;
        }
        Ok::<(), std::io::Error>(())
    };
    let counted = |v: usize| format!("{v:>8}  {:5.1}%", share(v));
    let counts = |m: &std::collections::BTreeMap<String, usize>| {
        m.iter().map(|(k, &v)| (k.clone(), format!("{v:>8}  {:5.1}%", share(v)))).collect::<Vec<_>>()
    };
    section(out, "format and encoding", &mut counts(&stats.by_format).into_iter())?;
    section(out, "status", &mut counts(&stats.by_status).into_iter())?;
    section(out, "result (as recorded)", &mut counts(&stats.by_result).into_iter())?;
    section(
        out,
        "result recorded / termination computed",
        &mut counts(&stats.result_vs_termination).into_iter(),
    )?;
    let r = &stats.repetition_rulings;
    let mut rulings: Vec<(String, String)> =
        r.by_kind.iter().map(|(k, &v)| (k.clone(), format!("{v:>8}"))).collect();
    rulings.extend([
        ("rulings in all".to_string(), format!("{:>8}", r.rulings)),
        ("games with a ruling".to_string(), counted(r.games_with_rulings)),
        ("games ending in a ruling".to_string(), counted(r.games_ending_in_ruling)),
        ("games in a forbidden repetition".to_string(), counted(r.games_with_forbidden_repetition)),
        ("games reaching the move limit".to_string(), counted(r.move_limit_reached)),
        ("games reaching a dead draw".to_string(), counted(r.dead_draws)),
    ]);
    section(out, "repetition rulings", &mut rulings.into_iter())?;
    let mut lengths =
        stats.length_distribution().into_iter().map(|(k, v)| (format!("{k} plies"), format!("{v:>8}")));
    section(out, "main-line length", &mut lengths)?;
    if let (Some(mean), Some(median)) = (stats.mean_plies(), stats.median_plies()) {
        writeln!(out, "  {:<32} {mean:.1} / {median:.1}", "mean / median")?;
    }
    for (title, list) in [
        ("Red's first moves (games, Red's score)", &stats.first_moves_red),
        ("Black's first moves (games, Black's score)", &stats.first_moves_black),
    ] {
        let mut rows = list.iter().take(top).map(|(mv, s)| {
            let score = s.score().map_or("-".into(), |score| format!("{:5.1}%", 100.0 * score));
            (mv.clone(), format!("{:>8}  {score:>6} ({} decided, {} drawn)", s.games, s.decided, s.draws))
        });
        section(out, title, &mut rows)?;
    }
    let mut captures = stats.captures.iter().map(|(k, v)| (k.clone(), format!("{v:>8}")));
    section(out, "captures in main lines", &mut captures)?;
    section(out, "material at the end (Red minus Black)", &mut counts(&stats.material_balance).into_iter())?;
    if let Some(mean) = stats.mean_material() {
        writeln!(out, "  {:<32} {mean:+.2}", "mean")?;
    }
    let mut players = stats.top_players(top).into_iter().map(|(k, v)| (k, format!("{v:>8}")));
    section(out, "players with the most games", &mut players)?;
    let mut events = stats.top_events(top).into_iter().map(|(k, v)| (k, format!("{v:>8}")));
    section(out, "events with the most games", &mut events)?;
    writeln!(out)?;
    writeln!(out, "games with comments: {} ({:.1}%)", stats.with_comments, share(stats.with_comments))?;
    writeln!(out, "games with variations: {} ({:.1}%)", stats.with_variations, share(stats.with_variations))?;
    if stats.has_analysis() {
        analysis(stats, top, out)?;
    }
    Ok(())
}

/// The engine analysis section of the text: the annotated games, the
/// moves with an evaluation, each side's figures and the annotators.
fn analysis(stats: &Stats, top: usize, out: &mut impl Write) -> std::io::Result<()> {
    let (red, black) = (&stats.red_analysis, &stats.black_analysis);
    let both = |figure: &dyn Fn(&SideTotals) -> String| format!("{:>8} / {}", figure(red), figure(black));
    let mean = |value: Option<f64>, unit: &str| value.map_or("-".to_string(), |v| format!("{v:.1}{unit}"));
    writeln!(out, "\nengine analysis (Red / Black)")?;
    let rows = [
        ("games annotated", format!("{:>8}", stats.annotated)),
        ("main-line moves with an evaluation", format!("{:>8}", stats.evaluated_moves)),
        ("mean ACPL", both(&|t| mean(t.mean_acpl(), ""))),
        ("mean accuracy", both(&|t| mean(t.mean_accuracy(), "%"))),
        ("inaccuracies", both(&|t| t.inaccuracies.to_string())),
        ("mistakes", both(&|t| t.mistakes.to_string())),
        ("blunders", both(&|t| t.blunders.to_string())),
    ];
    for (k, v) in rows {
        writeln!(out, "  {k:<34} {v}")?;
    }
    let annotators = stats.top_annotators(top);
    if !annotators.is_empty() {
        writeln!(out, "\nannotators (engine and limit)")?;
        for (name, games) in annotators {
            let name = super::progress::escaped(&name);
            let pad = 34usize.saturating_sub(name.chars().map(|c| if c >= '\u{2E80}' { 2 } else { 1 }).sum());
            writeln!(out, "  {name}{:pad$} {games:>8}", "")?;
        }
    }
    Ok(())
}
