//! `qipu search INDEX`: the games of an index (made by `qipu index
//! build`) that reach a position, a sub-position, a material balance or a
//! run of moves.

use std::io::Write;
use std::path::PathBuf;

use qipu::index::{Hit, Index, Pieces, Scan};
use qipu::record::GameResult;
use qipu::select::MaterialPattern;
use qipu::{Color, Move, Position};

use super::Failure;
use super::index::failed;
use super::select::ResultArg;

/// How `search` writes what it finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchFormat {
    /// A line a game: source, game (from 1), ply, the move played next (- at the end), result;
    /// apart by tabs. From an index of all lines, then the line: main, or the variation's number
    /// in the game (in the order the record gives them).
    Text,
    /// A JSON object a line: source, index (from 0), ply, next, result, year, red_elo,
    /// black_elo, tags; from an index of all lines, line (0 the main line, else the variation's
    /// number).
    Json,
}

/// The side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SideArg {
    /// Red to move.
    Red,
    /// Black to move.
    Black,
}

/// Arguments of `qipu search`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The index (a folder NAME.qidx made by `qipu index build`).
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,
    /// Games that reach this position: a FEN (with its side to move, or without: either side);
    /// every time they reach it. Looked up by key.
    #[arg(long, value_name = "FEN", conflicts_with_all = ["moves", "pieces", "material", "sequence"])]
    pub fen: Option<String>,
    /// Games that reach the position after these moves from the standard start (any notation,
    /// apart by spaces), by any order of moves.
    #[arg(long, value_name = "MOVES", conflicts_with_all = ["pieces", "material", "sequence"])]
    pub moves: Option<String>,
    /// Games that reach a sub-position: pieces on points, `R@e4 c@e7 k@e9` (FEN letters, upper
    /// case Red; `?` leaves the file or rank open: `C@e?`; points apart by commas: `P@c3,c4`;
    /// `!` first: the piece on none of them). The first position of each game where it holds.
    #[arg(long, value_name = "PIECES")]
    pub pieces: Option<Pieces>,
    /// With --pieces, --material or --sequence: the side to move there.
    #[arg(long, value_enum)]
    pub side: Option<SideArg>,
    /// Games that reach this material (as the selection flag: `RCP* vs RA`).
    #[arg(long, value_name = "SIGNATURE")]
    pub material: Option<MaterialPattern>,
    /// Games whose main line plays these moves one after another (ICCS, `h2e2 h9g7`), from a
    /// position where the other criteria hold.
    #[arg(long, value_name = "MOVES")]
    pub sequence: Option<String>,
    /// The left–right mirror matches too.
    #[arg(long)]
    pub mirror: bool,
    /// Only games with this result (again for several).
    #[arg(long, value_enum, value_name = "RESULT")]
    pub result: Vec<ResultArg>,
    /// Print the number of games and positions found, not the games.
    #[arg(long)]
    pub count: bool,
    /// At most N lines.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// How to write what is found.
    #[arg(long, value_enum, default_value_t = SearchFormat::Text)]
    pub format: SearchFormat,
    /// Threads replaying games for --pieces, --material and --sequence (default: every core).
    #[arg(short, long)]
    pub jobs: Option<usize>,
}

/// The position after `text`'s moves from the standard start.
pub(super) fn after_moves(text: &str) -> Result<Position, Failure> {
    let mut pos = Position::start();
    for (k, word) in text.split_whitespace().filter(|w| !w.ends_with('.')).enumerate() {
        let m = qipu::notation::resolve_any(&pos, word)
            .map_err(|e| Failure::usage(format!("--moves: move {} {word:?}: {e}", k + 1)))?;
        let _ = pos.play_unchecked(m);
    }
    Ok(pos)
}

/// The moves of `--sequence`: `h2e2`, `H2-E2`.
fn sequence(text: &str) -> Result<Vec<Move>, Failure> {
    text.split_whitespace()
        .map(|word| {
            word.replace('-', "").parse::<Move>().map_err(|_| {
                Failure::usage(format!("--sequence: {word:?} is not a move in coordinates (h2e2)"))
            })
        })
        .collect()
}

fn result_arg(result: GameResult) -> ResultArg {
    match result {
        GameResult::RedWins => ResultArg::RedWins,
        GameResult::BlackWins => ResultArg::BlackWins,
        GameResult::Draw => ResultArg::Draw,
        GameResult::Unknown => ResultArg::Unknown,
    }
}

/// Runs `qipu search`.
pub fn run(args: &Args, out: &mut impl Write) -> Result<i32, Failure> {
    let started = std::time::Instant::now();
    let index = Index::open(&args.index).map_err(|e| failed(&args.index, e))?;
    let side = args.side.map(|s| if s == SideArg::Red { Color::Red } else { Color::Black });
    let hits: Vec<Hit> = if let Some(fen) = &args.fen {
        let setup = qipu::Setup::from_fen(fen.trim())
            .map_err(|e| Failure::usage(format!("--fen {fen:?}: invalid FEN: {e}")))?;
        let turn = fen.split_whitespace().nth(1).map(|_| setup.turn).or(side);
        index.find(&setup.board, turn, args.mirror).map_err(|e| failed(&args.index, e))?
    } else if let Some(moves) = &args.moves {
        let pos = after_moves(moves)?;
        index.find(pos.board(), Some(pos.turn()), args.mirror).map_err(|e| failed(&args.index, e))?
    } else {
        if args.pieces.is_none() && args.material.is_none() && args.sequence.is_none() {
            return Err(Failure::usage(
                "search needs a question: --fen, --moves, --pieces, --material or --sequence",
            ));
        }
        let scan = Scan {
            pieces: args.pieces.clone(),
            material: args.material,
            turn: side,
            sequence: args.sequence.as_deref().map(sequence).transpose()?.unwrap_or_default(),
            mirror: args.mirror,
        };
        let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        index.scan(&scan, jobs).map_err(|e| failed(&args.index, e))?
    };
    let hits: Vec<Hit> = hits
        .into_iter()
        .filter(|h| args.result.is_empty() || args.result.contains(&result_arg(index.game(h).result)))
        .collect();
    let mut games: Vec<(usize, usize)> = hits.iter().map(|h| (h.segment, h.game)).collect();
    games.dedup();
    if args.count {
        writeln!(out, "{} game(s), {} position(s)", games.len(), hits.len())?;
    } else {
        for hit in hits.iter().take(args.limit.map_or(usize::MAX, |n| n as usize)) {
            write_hit(out, &index, hit, args.format).map_err(|e| match e {
                Written::Io(e) => Failure::from(e),
                Written::Index(e) => failed(&args.index, e),
            })?;
        }
    }
    eprintln!(
        "{} game(s), {} position(s) found among {} game(s) in {:.3} s",
        games.len(),
        hits.len(),
        index.games(),
        started.elapsed().as_secs_f64()
    );
    Ok(0)
}

/// Why a line was not written: the output, or the index.
enum Written {
    Io(std::io::Error),
    Index(std::io::Error),
}

fn write_hit(out: &mut impl Write, index: &Index, hit: &Hit, format: SearchFormat) -> Result<(), Written> {
    let game = index.game(hit);
    let moves = index.moves(hit).map_err(Written::Index)?;
    let next = moves.get(hit.ply as usize).map(|m| m.to_string());
    // The line, told by an index of all lines only.
    let line = index.all_lines().then_some(hit.line);
    match format {
        SearchFormat::Text => writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}{}",
            game.source,
            game.index + 1,
            hit.ply,
            next.as_deref().unwrap_or("-"),
            game.result.as_str(),
            line.map_or_else(String::new, |n| if n == 0 { "\tmain".into() } else { format!("\t{n}") })
        )
        .map_err(Written::Io),
        SearchFormat::Json => {
            let tags: serde_json::Map<String, serde_json::Value> = index
                .tags(hit)
                .map_err(Written::Index)?
                .into_iter()
                .map(|(k, v)| (k, serde_json::Value::String(v)))
                .collect();
            let mut value = serde_json::json!({
                "source": game.source,
                "index": game.index,
                "ply": hit.ply,
                "next": next,
                "result": game.result.as_str(),
                "valid": game.valid,
                "year": game.year,
                "red_elo": game.elo[0],
                "black_elo": game.elo[1],
                "tags": tags,
            });
            if let Some(line) = line {
                value["line"] = line.into();
            }
            writeln!(out, "{value}").map_err(Written::Io)
        }
    }
}
