//! `qipu openings PATH...`: the opening tree of a collection, as an
//! indented tree for people, JSON lines for programs, or a PGN with
//! variations (an opening book other programs load).

use std::io::Write;

use serde::Serialize;

use super::args::Opened;
use super::progress::{Outcome, Tally};
use super::suite;
use super::{Failure, OutputFormat};
use qipu::analysis::ecco;
use qipu::analysis::openings::{Edge, OpeningTree};
use qipu::notation::Notation;
use qipu::record::replay::FirstMoves;
use qipu::select::PassEvent;
use qipu::{Move, Position};

/// What `--to` writes instead of the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Book {
    /// The tree: one PGN game whose main line is the most played line and whose variations are
    /// the others, with counts in comments. With --suite: one game per position, its moves from
    /// the start, its counts in tags (Games, RedWins, Draws, BlackWins, Score, ECCO).
    Pgn,
    /// With --suite (its default): one EPD line per position, with the opcodes games,
    /// red_wins, draws, black_wins, score (Red's, when a game has a result), ecco and ply.
    Epd,
}

/// Arguments of `qipu openings`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("notation", |a| a.help("Notation of the moves").default_value("chinese")))]
pub struct Args {
    /// How many plies from the start the tree holds.
    #[arg(long, default_value_t = 10)]
    pub depth: usize,
    /// Leave out moves played in fewer games than this.
    #[arg(long, default_value_t = 1)]
    pub min_games: u32,
    /// `text` (an indented tree) or `json` (one object per position).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Write the tree as a PGN with variations instead; with --suite, the suite as EPD (the
    /// default) or PGN.
    #[arg(long, value_enum)]
    pub to: Option<Book>,
    /// The opening suite's arguments.
    #[command(flatten)]
    pub suite: super::suite::SuiteArgs,
    #[command(flatten)]
    pub notation: super::args::NotationArgs,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

/// Builds the tree of every input's games and writes it. Every game is
/// replayed to its end, so the summary counts valid, illegal and unreadable
/// games as `validate` does; a game with an illegal move adds the moves
/// before it to the tree.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    if args.suite.suite {
        let form = match args.to.unwrap_or(Book::Epd) {
            Book::Epd => suite::Form::Epd,
            Book::Pgn => suite::Form::Pgn(args.notation.notation()),
        };
        let inputs = suite::Inputs {
            read: &args.batch.read,
            min_games: args.min_games,
            output: &args.batch.output,
            select: &args.batch.select,
        };
        return suite::run(&args.suite, &inputs, form, stdout);
    }
    if args.to == Some(Book::Epd) {
        return Err(Failure::usage("--to epd writes an opening suite: give --suite"));
    }
    if args.depth == 0 {
        return Err(Failure::usage("--depth must be at least 1"));
    }
    // `--plies N` was the tree's depth before it became a selection flag.
    if let Some(span) = args.batch.select.plies.filter(|s| s.min == s.max) {
        eprintln!(
            "{}",
            super::warning_line(format!(
                "--plies {} selects the games of {} plies; the depth of the tree is --depth (now {})",
                span.min, span.min, args.depth
            ))
        );
    }
    let Opened { inputs, mut sink, batch, mut chooser } = args.batch.open(stdout)?;
    let out = &mut sink;
    let mut tally = Tally::new(inputs.len());
    let mut tree = OpeningTree::new(args.depth);
    let plies = args.depth.max(ecco::PLIES);
    let selection = chooser.selection().clone();
    let make = || selection.checker(FirstMoves::new(plies));
    chooser.pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
        if let PassEvent::Game { index, game, selected } = event {
            if let Some((start, moves)) = game.followed.as_ref().filter(|_| selected) {
                let code = ecco::classify(start, moves).map(|e| e.code);
                tree.add(start, moves, game.result, code);
            }
            tally.game_as(Outcome::checked(&meta.source, index, &game, ""), selected);
        }
        Ok(())
    })?;
    let notation = args.notation.notation();
    match (args.to, args.format) {
        (Some(Book::Pgn | Book::Epd), _) => {
            out.write_all(qipu::formats::pgn::write(&tree.book(args.min_games), notation).as_bytes())?
        }
        (None, OutputFormat::Json) => json(&tree, args.min_games, notation, out)?,
        (None, OutputFormat::Text) => text(&tree, args.min_games, notation, out)?,
    }
    sink.commit()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    super::quiet::info!(
        "{} from the standard start in the tree of {} plies ({} positions)",
        tree.node(0).games,
        args.depth,
        tree.nodes().len(),
    );
    Ok(tally.code())
}

/// The text of a move of the tree: its moves were played, so each is
/// legal and has a piece on its origin (coordinates otherwise).
fn move_text(notation: Notation, pos: &Position, m: Move) -> String {
    notation.write(pos, m).unwrap_or_else(|_| m.to_string())
}

/// The label of a move at `ply` (from 1): `3. 车一平二` or `3... 马８进７`.
fn label(ply: usize, text: &str) -> String {
    let number = ply.div_ceil(2);
    if ply % 2 == 1 { format!("{number}. {text}") } else { format!("{number}... {text}") }
}

fn text(tree: &OpeningTree, min_games: u32, notation: Notation, out: &mut impl Write) -> Result<(), Failure> {
    writeln!(out, "start position: {}", tree.node(0).summary())?;
    let mut expanded = vec![false; tree.nodes().len()];
    expanded[0] = true;
    print_children(tree, 0, &Position::start(), 0, min_games, notation, &mut expanded, out)
}

#[allow(clippy::too_many_arguments)]
fn print_children(
    tree: &OpeningTree,
    id: usize,
    pos: &Position,
    ply: usize,
    min_games: u32,
    notation: Notation,
    expanded: &mut [bool],
    out: &mut impl Write,
) -> Result<(), Failure> {
    if ply >= tree.plies() {
        return Ok(());
    }
    for edge in tree.children(id, min_games) {
        let (m, child) = (edge.m, edge.node);
        let indent = "  ".repeat(ply);
        let mv = label(ply + 1, &move_text(notation, pos, m));
        if expanded[child] {
            writeln!(out, "{indent}{mv}  {}  (transposes to a position above)", tree.edge_summary(edge))?;
            continue;
        }
        expanded[child] = true;
        writeln!(out, "{indent}{mv}  {}", tree.edge_summary(edge))?;
        let mut after = pos.clone();
        let _ = after.play_unchecked(m);
        print_children(tree, child, &after, ply + 1, min_games, notation, expanded, out)?;
    }
    Ok(())
}

/// One position of the tree, as a JSON line.
#[derive(Serialize)]
struct JsonNode {
    id: usize,
    /// The position it was reached from on this line (`null` for the start).
    parent: Option<usize>,
    ply: usize,
    /// Games that reached it by this move from `parent` (`games` counts
    /// every move order).
    path_games: u32,
    /// The move that leads here, in `--notation`.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// The same move as coordinates (`h2e2`).
    iccs: Option<String>,
    fen: String,
    games: u32,
    red_wins: u32,
    draws: u32,
    black_wins: u32,
    score: Option<f64>,
    ecco: Option<&'static str>,
    /// The position was reached before by another move order: its moves
    /// are listed there.
    transposition: bool,
}

fn json(tree: &OpeningTree, min_games: u32, notation: Notation, out: &mut impl Write) -> Result<(), Failure> {
    let mut line = |edge: Edge,
                    parent: Option<usize>,
                    ply: usize,
                    mv: Option<(String, Move)>,
                    pos: &Position,
                    transposition: bool| {
        let id = edge.node;
        let node = tree.node(id);
        let row = JsonNode {
            id,
            parent,
            ply,
            path_games: edge.games,
            iccs: mv.as_ref().map(|(_, m)| m.to_string()),
            mv: mv.map(|(text, _)| text),
            fen: pos.fen(),
            games: node.games,
            red_wins: node.red_wins,
            draws: node.draws,
            black_wins: node.black_wins,
            score: node.score(),
            ecco: node.main_ecco(),
            transposition,
        };
        super::write_json(&mut *out, &row)?;
        writeln!(out)?;
        Ok::<(), Failure>(())
    };
    let root = Edge { m: Move::new(qipu::Square::A0, qipu::Square::A0), node: 0, games: tree.node(0).games };
    line(root, None, 0, None, &Position::start(), false)?;
    tree.walk(min_games, 0, |&parent, visit| {
        let (edge, pos) = (visit.edge, visit.before);
        let mv = Some((move_text(notation, pos, edge.m), edge.m));
        line(edge, Some(parent), visit.ply, mv, visit.after, visit.transposition)?;
        Ok(edge.node)
    })
}
