//! `qipu explore INDEX [FEN|startpos]`: the moves played from a position
//! in the games of an index, with how often, the results, Red's score,
//! the mean year and the best-known game of each.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use qipu::Position;
use qipu::index::{Explored, Index, Tally};

use super::index::failed;
use super::{Failure, explore_html};

/// How `explore` writes what it finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExploreFormat {
    /// A table: a line a move.
    Text,
    /// One JSON object: the position, its games and results, and each move's.
    Json,
    /// One self-contained HTML page: the position on a board and the tree of moves played from
    /// it, to click through (needs -o FILE or standard output redirected).
    Html,
}

/// Arguments of `qipu explore`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("notation", |a| a.help("How moves are written").default_value("chinese")))]
pub struct Args {
    /// The index (a folder NAME.qidx made by `qipu index build`).
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,
    /// The position: a FEN (its words, or quoted), or `startpos` (the default).
    #[arg(value_name = "FEN")]
    pub fen: Vec<String>,
    /// The position after these moves from the standard start (any notation, apart by spaces)
    /// instead of a FEN.
    #[arg(long, value_name = "MOVES", conflicts_with = "fen")]
    pub moves: Option<String>,
    /// Games that reached the position's left–right mirror count too (their moves mirrored).
    #[arg(long)]
    pub mirror: bool,
    /// How to write what is found.
    #[arg(long, value_enum, default_value_t = ExploreFormat::Text)]
    pub format: ExploreFormat,
    /// --format html: moves are listed down to this many plies after the position.
    #[arg(long, value_name = "N", default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// --format html: a move leads to a position of the page only when played in at least N
    /// games (fewer: its figures are shown, not the moves after it).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub min_games: u64,
    /// --format html: at most N positions in the page (each about 0.2 to 0.4 KB a move it
    /// lists), the most played moves expanded first.
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_nodes: u32,
    #[command(flatten)]
    pub notation: super::args::NotationArgs,
    #[command(flatten)]
    pub output: super::output::OutputArgs,
}

/// The position the arguments name.
fn position(args: &Args) -> Result<Position, Failure> {
    if let Some(moves) = &args.moves {
        return super::search::after_moves(moves);
    }
    if args.fen.is_empty() {
        return Ok(Position::start());
    }
    super::position_arg(&args.fen)
}

fn percent(score: Option<f64>) -> String {
    score.map_or_else(|| "-".to_string(), |s| format!("{:.1}%", s * 100.0))
}

fn year(tally: &Tally) -> String {
    tally.mean_year().map_or_else(|| "-".to_string(), |y| format!("{y:.0}"))
}

/// The files of the index: inputs, never written over.
fn index_files(dir: &std::path::Path) -> Vec<qipu::batch::Input> {
    let mut files = vec![qipu::batch::Input::File { path: dir.to_path_buf(), found: false, len: None }];
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            files.push(qipu::batch::Input::File { path: entry.path(), found: true, len: None });
        }
    }
    files
}

/// Runs `qipu explore`.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let wanted = args.output.output.as_deref().filter(|p| p.as_os_str() != "-");
    if args.format == ExploreFormat::Html && wanted.is_none() && std::io::stdout().is_terminal() {
        return Err(Failure::usage(
            "--format html writes a page: give -o FILE, or redirect standard output (> explore.html)",
        ));
    }
    let index = Index::open(&args.index).map_err(|e| failed(&args.index, e))?;
    let pos = position(args)?;
    let mut sink = args.output.open(&index_files(&args.index), stdout)?;
    let out = &mut sink;
    let explored = index.explore(pos.board(), pos.turn(), args.mirror).map_err(|e| failed(&args.index, e))?;
    let notation = args.notation.notation();
    let name = |m: qipu::Move| notation.write(&pos, m).unwrap_or_else(|_| m.to_string());
    match args.format {
        ExploreFormat::Text => write_text(out, &index, &explored, name)?,
        ExploreFormat::Json => {
            let value = json(&index, &pos, &explored, name).map_err(|e| failed(&args.index, e))?;
            writeln!(out, "{value}")?;
        }
        ExploreFormat::Html => {
            let limits = explore_html::Limits {
                depth: args.depth as usize,
                min_games: args.min_games,
                max_nodes: args.max_nodes as usize,
            };
            let notation_name = format!("{:?}", args.notation.notation).to_lowercase();
            let index_name = args.index.to_string_lossy();
            let data =
                explore_html::data(&index, &index_name, &pos, args.mirror, notation, &notation_name, &limits)
                    .map_err(|e| failed(&args.index, e))?;
            let title = format!("qipu explore {index_name}");
            out.write_all(explore_html::page(&data, &title).as_bytes())?;
        }
    }
    sink.commit()?;
    Ok(0)
}

fn write_text(
    out: &mut impl Write,
    index: &Index,
    explored: &Explored,
    name: impl Fn(qipu::Move) -> String,
) -> Result<(), Failure> {
    let total = &explored.total;
    writeln!(
        out,
        "{} game(s): Red won {}, drew {}, lost {} (Red's score {}); {} end here",
        total.games,
        total.red_wins,
        total.draws,
        total.black_wins,
        percent(total.red_score()),
        explored.ended.games
    )?;
    if explored.moves.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "{:<10} {:>7} {:>7} {:>6} {:>7} {:>7} {:>5}  best-known game",
        "move", "games", "1-0", "draws", "0-1", "Red", "year"
    )?;
    for c in &explored.moves {
        let t = &c.tally;
        let best = index.game(&c.best);
        writeln!(
            out,
            "{} {:>7} {:>7} {:>6} {:>7} {:>7} {:>5}  {} game {} (ply {})",
            padded(&name(c.mv), 10),
            t.games,
            t.red_wins,
            t.draws,
            t.black_wins,
            percent(t.red_score()),
            year(t),
            best.source,
            best.index + 1,
            c.best.ply
        )?;
    }
    Ok(())
}

/// `text` padded with spaces to `width` columns of a terminal (a Chinese
/// character takes two).
fn padded(text: &str, width: usize) -> String {
    let wide = |c: char| matches!(c, '\u{1100}'..='\u{115f}' | '\u{2e80}'..='\u{a4cf}' | '\u{ac00}'..='\u{d7a3}' | '\u{f900}'..='\u{faff}' | '\u{fe30}'..='\u{fe4f}' | '\u{ff00}'..='\u{ff60}' | '\u{ffe0}'..='\u{ffe6}');
    let used: usize = text.chars().map(|c| if wide(c) { 2 } else { 1 }).sum();
    format!("{text}{}", " ".repeat(width.saturating_sub(used)))
}

fn tally_json(t: &Tally) -> serde_json::Value {
    serde_json::json!({
        "games": t.games,
        "red_wins": t.red_wins,
        "draws": t.draws,
        "black_wins": t.black_wins,
        "red_score": t.red_score(),
        "mean_year": t.mean_year(),
    })
}

fn json(
    index: &Index,
    pos: &Position,
    explored: &Explored,
    name: impl Fn(qipu::Move) -> String,
) -> std::io::Result<serde_json::Value> {
    let mut moves = Vec::new();
    for c in &explored.moves {
        let best = index.game(&c.best);
        let tags = index.tags(&c.best)?;
        let tag = |n: &str| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.clone());
        let mut value = tally_json(&c.tally);
        value["move"] = name(c.mv).into();
        value["iccs"] = c.mv.to_string().into();
        value["best"] = serde_json::json!({
            "source": best.source,
            "index": best.index,
            "ply": c.best.ply,
            "red": tag("Red"),
            "black": tag("Black"),
            "event": tag("Event"),
            "date": tag("Date"),
            "result": best.result.as_str(),
        });
        moves.push(value);
    }
    let mut value = tally_json(&explored.total);
    value["fen"] = pos.fen().into();
    value["ended"] = explored.ended.games.into();
    value["moves"] = moves.into();
    Ok(value)
}
