//! `qipu index build PATH... -o NAME.qidx`: a position index of a
//! collection (see [`qipu::index`]), made or brought up to date; `qipu
//! index info NAME.qidx`: what one holds.

use std::io::Write;
use std::path::PathBuf;

use qipu::index::{Builder, Index, IndexOptions, Plan};
use qipu::select::PassEvent;

use super::Failure;
use super::progress::{Outcome, Tally};

/// `qipu index` commands.
#[derive(Debug, clap::Subcommand)]
pub enum IndexCommand {
    /// Make a position index of the games of PATH... (files, folders, archives), or bring one up
    /// to date: inputs the index holds unchanged (same size and modification time, or the same
    /// bytes) are not read again, new ones are added, changed ones replace what it held of them.
    ///
    /// Every position of every game's main line is indexed by its Zobrist key (placement and
    /// side to move), with the game's source and number, the ply, the move played next, the
    /// result, year, Elo and tags. An illegal game's positions stop before its wrong move; a
    /// game whose start is no legal position has none. With --all-lines, the positions of every
    /// variation too (search tells which line). The index is a folder: NAME.qidx/.
    #[command(
        after_help = "Examples:\n  qipu index build collection/ -o games.qidx\n  qipu index build new-games.pgn -o games.qidx      # added to it\n  qipu index build collection/ -o games.qidx --merge-mirrors   # a position and its mirror found together\n  qipu index build annotated/ -o lines.qidx --all-lines        # variations searched too"
    )]
    Build(Box<BuildArgs>),
    /// What an index holds: its games, positions, inputs and size on disk.
    Info(InfoArgs),
}

/// Arguments of `qipu index build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub read: super::args::ReadArgs,
    /// The index: a folder NAME.qidx (made when not there; updated when it is).
    #[arg(short, long, value_name = "NAME.qidx")]
    pub output: PathBuf,
    /// Merge each position with its left–right mirror (a new index; an index keeps what it was
    /// made with).
    #[arg(long)]
    pub merge_mirrors: bool,
    /// Index the positions of every variation too, not only the main lines': each variation is
    /// one more line of its game (a new index; an index keeps what it was made with). At most
    /// 65,535 variations a game and 1,048,576 plies in all of them (each counted from the start
    /// of the game); those past it are left out and counted.
    #[arg(long)]
    pub all_lines: bool,
    /// Drop the inputs the index holds whose files are gone.
    #[arg(long)]
    pub prune: bool,
    #[command(flatten)]
    pub select: super::select::SelectArgs,
}

/// Arguments of `qipu index info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// The index (a folder NAME.qidx).
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,
    /// List its inputs with their games.
    #[arg(long)]
    pub inputs: bool,
}

/// Runs `qipu index ...`.
pub fn run(command: &IndexCommand, stdout: &mut impl Write) -> Result<i32, Failure> {
    match command {
        IndexCommand::Build(args) => build(args),
        IndexCommand::Info(args) => info(args, stdout),
    }
}

/// An error of the index `path` (also `search`'s and `explore`'s).
pub(super) fn failed(path: &std::path::Path, e: std::io::Error) -> Failure {
    Failure::usage(format!("{}: {e}", path.display()))
}

fn build(args: &BuildArgs) -> Result<i32, Failure> {
    let dir = &args.output;
    let mut inputs = args.read.inputs(&[Some(dir.as_path())]);
    if inputs.iter().any(|i| i.path().is_none()) {
        return Err(Failure::usage("index build reads files: not standard input"));
    }
    let batch = args.read.batch()?;
    let options = IndexOptions { mirror: args.merge_mirrors, all_lines: args.all_lines };
    let mut builder = Builder::open_with(dir, options).map_err(|e| Failure::usage(e.to_string()))?;
    // Inputs the index holds as they are now are not read.
    let mut read = Vec::new();
    for input in inputs.drain(..) {
        let Some(path) = input.path() else { continue };
        let name = input.json_name().0;
        match builder.plan(&name, path) {
            Ok(Plan::Unchanged) => {}
            Ok(Plan::Read) => read.push(input),
            // An input that cannot be opened is told by the pass.
            Err(_) => read.push(input),
        }
    }
    if args.prune {
        for name in builder.drop_missing(|name| std::path::Path::new(name).exists() || archive_exists(name)) {
            eprintln!("{name}: gone: its games are dropped from the index");
        }
    }
    let mut tally = Tally::new(read.len());
    let mut chooser = super::select::Chooser::new(&args.select)?;
    chooser.plan(&mut read, &batch)?;
    let selection = chooser.selection().clone();
    let made = builder.follower();
    let follower = || selection.checker_keeping_all(made.clone());
    chooser.pass(&batch, &read, &mut tally, follower, |meta, event, tally| {
        builder.start_source(&meta.json_source, None).map_err(|e| failed(dir, e))?;
        if let PassEvent::Game { index, game, selected } = event {
            // The positions of the line holding the wrong move stop there,
            // when the index holds that line.
            let held = |e: &qipu::record::replay::ReplayError| !e.in_variation() || builder.all_lines();
            let stops = if game.replayed.error.as_ref().is_some_and(held) {
                " (its positions stop there)"
            } else {
                ""
            };
            tally.game_as(Outcome::checked(&meta.source, index, &game, stops), selected);
            if selected {
                builder.add(index, &game).map_err(|e| failed(dir, e))?;
            }
        }
        Ok(())
    })?;
    let builder_all_lines = builder.all_lines();
    let summary = builder.finish().map_err(|e| failed(dir, e))?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    eprintln!(
        "{}: {} game(s) and {} position(s) added from {} input(s); {} input(s) unchanged, {} replaced, {} dropped; \
         the index holds {} game(s), {} position(s)",
        dir.display(),
        summary.games,
        summary.positions,
        summary.inputs_read,
        summary.inputs_unchanged,
        summary.inputs_replaced,
        summary.inputs_dropped.len(),
        summary.total_games,
        summary.total_positions
    );
    if builder_all_lines {
        eprintln!(
            "{}: {} variation(s) added, {} of the positions in them; {} left out (over a game's bounds); the index holds {} variation(s)",
            dir.display(),
            summary.variations,
            summary.variation_positions,
            summary.variations_left_out,
            summary.total_variations
        );
    }
    Ok(tally.code())
}

/// Whether the archive of a member's name (`games.zip:a.pgn`) exists.
fn archive_exists(name: &str) -> bool {
    name.match_indices(':').any(|(at, _)| std::path::Path::new(&name[..at]).is_file())
}

fn info(args: &InfoArgs, out: &mut impl Write) -> Result<i32, Failure> {
    let index = Index::open(&args.index).map_err(|e| failed(&args.index, e))?;
    let bytes: u64 = std::fs::read_dir(&args.index)
        .map_err(|e| failed(&args.index, e))?
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    let (games, positions) = (index.games(), index.positions());
    writeln!(out, "games: {games}")?;
    writeln!(out, "positions: {positions}")?;
    writeln!(out, "inputs: {}", index.sources().count())?;
    writeln!(out, "mirrors merged: {}", if index.mirror() { "yes" } else { "no" })?;
    if index.all_lines() {
        writeln!(
            out,
            "all lines: yes ({} variation(s), {} of the positions in them)",
            index.variations(),
            index.variation_positions()
        )?;
    }
    let per = if positions > 0 { bytes as f64 / positions as f64 } else { 0.0 };
    writeln!(out, "size: {bytes} bytes ({per:.2} a position)")?;
    if args.inputs {
        for (name, games) in index.sources() {
            writeln!(out, "{games}\t{name}")?;
        }
    }
    Ok(0)
}
