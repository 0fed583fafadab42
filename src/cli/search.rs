//! `qipu search INDEX`: the games of an index (made by `qipu index
//! build`) that reach a position, a sub-position, a material balance or a
//! run of moves; of them, those the selection flags of the other commands
//! select (answered by the index where it can, else by reading the games
//! found again from their inputs); as lines, counts, or the games
//! themselves written as `qipu convert` writes them (`--to`).

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use qipu::batch::Expanded;
use qipu::formats::encoding::Encoding;
use qipu::index::{Hit, Index, Pieces, Scan, unchanged};
use qipu::record::GameResult;
use qipu::select::{Imbalance, PassEvent, Within};
use qipu::{Color, Move, Position};

use super::Failure;
use super::args::ReadArgs;
use super::convert::{Args as ConvertArgs, Target, WriteArgs};
use super::index::failed;
use super::progress::{Outcome, Tally};
use super::select::{Chooser, MaterialAtArg, ResultArg, SelectArgs};
use super::shape::ShapeArgs;

/// How `search` writes what it finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchFormat {
    /// A line a game: source, game (from 1), ply, the move played next (- at the end), result;
    /// apart by tabs. From an index of all lines, then the line: main, or the variation's number
    /// in the game (in the order the record gives them).
    Text,
    /// A JSON object a line: source, index (from 0), ply, next, result, year, red_elo,
    /// black_elo, termination (how the rules judge the main line's end, or null), tags; from an
    /// index of all lines, line (0 the main line, else the variation's number).
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
///
/// The selection flags are those of the other commands. Five of them are the search's questions
/// too, as their help says: --moves, --material (at any position by default here), --mirror,
/// --result and --limit.
#[derive(Debug, clap::Args)]
#[command(mut_arg("moves", |a| a.conflicts_with_all(["fen", "pieces", "imbalance", "sequence"]).help(
    "Games that reach the position after these moves from the standard start (any notation, apart \
     by spaces or commas, move numbers left out), by any order of moves, side to move included; \
     looked up by key, as --fen (the question of the search). Repeatable: a game that reaches any \
     of them"
)))]
#[command(mut_arg("moves_file", |a| a.conflicts_with_all(["fen", "pieces", "imbalance", "sequence"])))]
#[command(mut_arg("mirror", |a| a.help(
    "The left–right mirror of the question (--fen, --moves, --pieces, --sequence) matches too, \
     and of --position"
)))]
#[command(mut_arg("material", |a| a.help(
    "Games with this material (`RCP* vs RA`: see `qipu validate --help`): at some position of the \
     main line (here the default of --material-at), looked for in the index as a question of its \
     own or with --pieces and --sequence; with --fen or --moves, or with --material-at end, \
     judged by reading the games"
)))]
#[command(mut_arg("material_at", |a| a.default_value("any")))]
#[command(mut_arg("result", |a| a.help(
    "Games with this stated result (comma list: `1-0,draw`; repeatable); answered by the index"
)))]
#[command(mut_arg("limit", |a| a.help(
    "At most N games (with every position of each found): the first N selected, in the index's \
     order"
)))]
pub struct Args {
    /// The index (a folder NAME.qidx made by `qipu index build`).
    #[arg(value_name = "INDEX")]
    pub index: PathBuf,
    /// Games that reach this position: a FEN (with its side to move, or without: either side);
    /// every time they reach it. Looked up by key.
    #[arg(long, value_name = "FEN", conflicts_with_all = ["pieces", "imbalance", "sequence"])]
    pub fen: Option<String>,
    /// Games that reach a sub-position: pieces on points, `R@e4 c@e7 k@e9` (FEN letters, upper
    /// case Red; `?` leaves the file or rank open: `C@e?`; points apart by commas: `P@c3,c4`;
    /// `!` first: the piece on none of them). The first position of each game where it holds.
    #[arg(long, value_name = "PIECES")]
    pub pieces: Option<Pieces>,
    /// With --pieces, --material, --imbalance or --sequence: the side to move there.
    #[arg(long, value_enum)]
    pub side: Option<SideArg>,
    /// Games that reach this imbalance: what Red has more than Black, then what Black has more
    /// than Red, kind by kind, whatever else both have (`R vs HC`: a rook for a horse and a
    /// cannon; `P vs -`: Red a pawn up).
    #[arg(long, value_name = "SIGNATURE")]
    pub imbalance: Option<Imbalance>,
    /// Games whose main line plays these moves one after another (ICCS, `h2e2 h9g7`), from a
    /// position where the other criteria hold.
    #[arg(long, value_name = "MOVES")]
    pub sequence: Option<String>,
    /// Print the number of games and positions found, not the games.
    #[arg(long, conflicts_with = "to")]
    pub count: bool,
    /// How to write the positions found (not with --to, which writes the games).
    #[arg(long, value_enum, default_value_t = SearchFormat::Text, conflicts_with = "to")]
    pub format: SearchFormat,
    /// Write the games found themselves, read again from the inputs indexed, in this format, as
    /// `qipu convert --to` writes them (into -o FILE|DIR, or standard output where convert
    /// writes there), in the index's order. An input changed or gone since it was indexed is
    /// named and not read: its games are not written.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: Option<Target>,
    /// Threads replaying games for --pieces, --material, --imbalance and --sequence, and reading
    /// the inputs (default: every core).
    #[arg(short, long)]
    pub jobs: Option<usize>,
    /// Read the inputs again (for --to and the selection flags the index cannot answer) in this
    /// encoding instead of detecting it: the one given to `qipu index build`, if any.
    #[arg(long)]
    pub encoding: Option<Encoding>,
    /// How the games are written with --to (as convert's flags).
    #[command(flatten, next_help_heading = "Writing the games (with --to)")]
    pub write: WriteArgs,
    /// Which of the games found are answered (as the other commands' flags). Flags the index
    /// cannot answer (tags, dates, ECCO, termination, ...) are judged by reading the games from
    /// the inputs indexed, as --to does.
    #[command(flatten)]
    pub select: SelectArgs,
    /// How each game is shaped before it is written (with --to).
    #[command(flatten)]
    pub shape: ShapeArgs,
}

/// The position after `text`'s moves from the standard start.
pub(super) fn after_moves(text: &str) -> Result<Position, Failure> {
    let mut pos = Position::start();
    let words = text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty());
    for (k, word) in words.filter(|w| !w.ends_with('.')).enumerate() {
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

/// The `--result` value of a game's result.
fn result_arg(result: GameResult) -> ResultArg {
    match result {
        GameResult::RedWins => ResultArg::RedWins,
        GameResult::BlackWins => ResultArg::BlackWins,
        GameResult::Draw => ResultArg::Draw,
        GameResult::Unknown => ResultArg::Unknown,
    }
}

/// Whether `--material` is a question the index answers (a scan at any
/// position, without --fen or --moves) rather than a selection flag.
fn material_is_scanned(args: &Args) -> bool {
    args.fen.is_none()
        && args.select.moves.is_empty()
        && args.select.moves_file.is_none()
        && args.select.material_at == MaterialAtArg::Any
}

/// The positions that answer the question: --fen, --moves (and
/// --moves-file) by key, else --pieces, --material and --sequence by
/// replaying every game; in the index's order.
fn question(args: &Args, index: &Index) -> Result<Vec<Hit>, Failure> {
    let side = args.side.map(|s| if s == SideArg::Red { Color::Red } else { Color::Black });
    let moves = args.select.all_moves().map_err(|e| Failure::usage(format!("--{e}")))?;
    let mut hits = if let Some(fen) = &args.fen {
        let setup = qipu::Setup::from_fen(fen.trim())
            .map_err(|e| Failure::usage(format!("--fen {fen:?}: invalid FEN: {e}")))?;
        let turn = fen.split_whitespace().nth(1).map(|_| setup.turn).or(side);
        index.find(&setup.board, turn, args.select.mirror).map_err(|e| failed(&args.index, e))?
    } else if !moves.is_empty() {
        let mut hits = Vec::new();
        for line in &moves {
            let pos = after_moves(line)?;
            hits.extend(
                index
                    .find(pos.board(), Some(pos.turn()), args.select.mirror)
                    .map_err(|e| failed(&args.index, e))?,
            );
        }
        hits
    } else {
        let material = args.select.material.filter(|_| material_is_scanned(args));
        if args.pieces.is_none() && material.is_none() && args.imbalance.is_none() && args.sequence.is_none()
        {
            return Err(Failure::usage(
                "search needs a question: --fen, --moves, --pieces, --material, --imbalance or --sequence",
            ));
        }
        let scan = Scan {
            pieces: args.pieces.clone(),
            material,
            imbalance: args.imbalance,
            turn: side,
            sequence: args.sequence.as_deref().map(sequence).transpose()?.unwrap_or_default(),
            mirror: args.select.mirror,
        };
        index.scan(&scan, jobs(args)).map_err(|e| failed(&args.index, e))?
    };
    hits.sort();
    hits.dedup();
    Ok(hits)
}

/// The threads of `--jobs`.
fn jobs(args: &Args) -> usize {
    args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The selection flags left once the question has taken its own: without
/// --moves (answered by key), --material when scanned, and --mirror
/// unless --position is given too.
fn selection_left(args: &Args) -> SelectArgs {
    let mut select = args.select.clone();
    select.moves.clear();
    select.moves_file = None;
    if material_is_scanned(args) {
        select.material = None;
    }
    if select.position.is_none() {
        select.mirror = false;
    }
    select
}

/// Whether a selection flag needs the games themselves, read from their
/// inputs: anything but --result, --games, --skip and --limit, which the
/// index answers.
fn needs_the_games(s: &SelectArgs) -> bool {
    !s.tag.is_empty()
        || s.player.is_some()
        || s.red.is_some()
        || s.black.is_some()
        || s.event.is_some()
        || s.site.is_some()
        || s.date.is_some()
        || !s.termination.is_empty()
        || !s.status.is_empty()
        || s.ecco.is_some()
        || s.opening.is_some()
        || s.plies.is_some()
        || s.has_comments
        || s.has_variations
        || s.position.is_some()
        || s.in_variations
        || s.material.is_some()
        || s.invert
        || s.dedupe.is_some()
        || !s.not_in.is_empty()
}

/// Whether a selection flag the index answers is given: --result,
/// --games, --skip or --limit.
fn by_index(s: &SelectArgs) -> bool {
    !s.result.is_empty() || s.games.is_some() || s.skip > 0 || s.limit.is_some()
}

/// The hits of the games the index itself selects, by --result and
/// --games, then --skip and --limit over the games.
fn selected_by_index(index: &Index, hits: Vec<Hit>, select: &SelectArgs) -> Vec<Hit> {
    let (mut candidates, mut taken) = (0u64, 0u64);
    let mut last: Option<(usize, usize)> = None;
    let mut keep = false;
    let mut kept = Vec::new();
    for hit in hits {
        if last != Some((hit.segment, hit.game)) {
            last = Some((hit.segment, hit.game));
            let game = index.game(&hit);
            let by_result = select.result.is_empty() || select.result.contains(&result_arg(game.result));
            let by_number = select.games.as_ref().is_none_or(|g| g.contains(u64::from(game.index) + 1));
            keep = by_result && by_number;
            if keep {
                candidates += 1;
                keep = candidates > select.skip && select.limit.is_none_or(|l| taken < l);
                taken += u64::from(keep);
            }
        }
        if keep {
            kept.push(hit);
        }
    }
    kept
}

/// The games found, to be read again from their inputs: those of the
/// inputs as the index read them, by input and number, and the files (or
/// archives) to read.
struct Found {
    /// The games found in inputs unchanged since they were indexed.
    within: Within,
    /// The names of those inputs.
    sources: HashSet<String>,
    /// The files to read them from (an archive for its members), each
    /// once, in the index's order.
    files: Vec<PathBuf>,
    /// The games found.
    games: usize,
    /// The games found in inputs changed or gone, not read.
    not_read: usize,
    /// The inputs changed or gone.
    inputs_not_read: usize,
}

/// The games of `hits`, by input, each input checked against what the
/// index read (size and time, or size and bytes); an input changed since,
/// or gone, is told on standard error and left out.
fn gather(index: &Index, hits: &[Hit]) -> Found {
    // By input, in the order first found (a map to each input's place:
    // hits from many inputs are not compared with every input).
    let mut by_source: Vec<(String, Vec<usize>)> = Vec::new();
    let mut place: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut last = None;
    for hit in hits {
        if last == Some((hit.segment, hit.game)) {
            continue;
        }
        last = Some((hit.segment, hit.game));
        let game = index.game(hit);
        let at = *place.entry(game.source.clone()).or_insert_with(|| {
            by_source.push((game.source, Vec::new()));
            by_source.len() - 1
        });
        by_source[at].1.push(game.index as usize);
    }
    let mut found = Found {
        within: Within::default(),
        sources: HashSet::new(),
        files: Vec::new(),
        games: 0,
        not_read: 0,
        inputs_not_read: 0,
    };
    // The files already to be read (an archive for several inputs).
    let mut files: HashSet<PathBuf> = HashSet::new();
    for (name, games) in by_source {
        found.games += games.len();
        let why = match (index.stamp_of(&name), source_file(&name)) {
            (Some(held), Some(file)) => match unchanged(&held, &file) {
                Ok(true) => {
                    games.iter().for_each(|&g| found.within.add(&name, g));
                    found.sources.insert(name);
                    if files.insert(file.clone()) {
                        found.files.push(file);
                    }
                    continue;
                }
                Ok(false) => "changed since it was indexed (build the index again)".to_string(),
                Err(e) => format!("cannot be read: {}", super::output::told(&e)),
            },
            (_, None) => "not found (gone since it was indexed, or named from another folder: the index \
                          names each input as `qipu index build` was given it)"
                .to_string(),
            (None, Some(_)) => "not in the index's manifest".to_string(),
        };
        eprintln!(
            "{}: {why}: its {} game(s) found are not read",
            qipu::batch::escaped_name(Path::new(&name)),
            games.len()
        );
        found.not_read += games.len();
        found.inputs_not_read += 1;
    }
    found
}

/// The file the games of the source `name` are read from: the file it
/// names, or the archive holding the member it names (`games.zip:a.pgn`).
fn source_file(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    name.match_indices(':').map(|(at, _)| Path::new(&name[..at])).find(|p| p.is_file()).map(Path::to_path_buf)
}

/// The inputs of `found`'s files that hold games found (an archive's other
/// members left out), but for the files written (`written`).
fn inputs_of(found: &Found, written: &[&Path]) -> Expanded {
    let mut expanded = super::expanded(&found.files, written);
    let kept: Vec<bool> = expanded.inputs.iter().map(|i| found.sources.contains(&i.json_name().0)).collect();
    let mut keep = kept.iter().copied();
    expanded.inputs.retain(|_| keep.next().unwrap_or(false));
    let mut keep = kept.iter().copied();
    expanded.within.retain(|_| keep.next().unwrap_or(false));
    expanded
}

/// `; N game(s) in K input(s) changed or gone, not read`, when any.
fn not_read(found: &Found) -> String {
    match found.not_read {
        0 => String::new(),
        n => format!("; {n} game(s) in {} input(s) changed or gone, not read", found.inputs_not_read),
    }
}

/// Runs `qipu search`.
pub fn run(args: &Args, out: &mut impl Write) -> Result<i32, Failure> {
    let started = std::time::Instant::now();
    let index = Index::open(&args.index).map_err(|e| failed(&args.index, e))?;
    let select = selection_left(args);
    // The flags are checked before anything is looked up.
    Chooser::new(&select)?;
    let hits = question(args, &index)?;
    let found_games = games_of(&hits);
    eprintln!(
        "{} game(s), {} position(s) found among {} game(s) in {:.3} s",
        found_games,
        hits.len(),
        index.games(),
        started.elapsed().as_secs_f64()
    );
    if let Some(to) = args.to {
        return write_games(args, to, &index, &hits, select);
    }
    let hits = if needs_the_games(&select) {
        let found = gather(&index, &hits);
        let chosen = read_selected(args, &select, &found)?;
        hits.into_iter().filter(|h| chosen.contains(&game_key(&index, h))).collect()
    } else if by_index(&select) {
        let hits = selected_by_index(&index, hits, &select);
        eprintln!("{} game(s) selected by --result, --games, --skip and --limit", games_of(&hits));
        hits
    } else {
        hits
    };
    if args.count {
        writeln!(out, "{} game(s), {} position(s)", games_of(&hits), hits.len())?;
        return Ok(0);
    }
    for hit in &hits {
        write_hit(out, &index, hit, args.format).map_err(|e| match e {
            Written::Io(e) => Failure::from(e),
            Written::Index(e) => failed(&args.index, e),
        })?;
    }
    Ok(0)
}

/// How many games `hits` (in the index's order) are of.
fn games_of(hits: &[Hit]) -> usize {
    let mut games: Vec<(usize, usize)> = hits.iter().map(|h| (h.segment, h.game)).collect();
    games.dedup();
    games.len()
}

/// A game found, by its input's name and its number there.
fn game_key(index: &Index, hit: &Hit) -> (String, usize) {
    let game = index.game(hit);
    (game.source, game.index as usize)
}

/// The games found that the selection flags `select` select, judged by
/// reading them from their inputs (those changed since they were indexed
/// are told and left out); the summary of the reading goes to standard
/// error.
fn read_selected(
    args: &Args,
    select: &SelectArgs,
    found: &Found,
) -> Result<HashSet<(String, usize)>, Failure> {
    let mut inputs = inputs_of(found, &[]).inputs;
    let batch = super::batch(args.jobs, args.encoding)?;
    let mut chooser = Chooser::new(select)?.within(Some(found.within.clone()))?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection().clone();
    let mut tally = Tally::new(inputs.len()).quiet();
    let mut chosen = HashSet::new();
    chooser.pass(
        &batch,
        &inputs,
        &mut tally,
        || selection.checker(()),
        |meta, event, tally| {
            if let PassEvent::Game { index, game, selected } = event {
                tally.game_as(Outcome::checked(&meta.source, index, &game, ""), selected);
                if selected {
                    chosen.insert((meta.json_source.clone(), index));
                }
            }
            Ok(())
        },
    )?;
    eprintln!("read again: {}{}{}", tally.summary(), chooser.summary(), not_read(found));
    Ok(chosen)
}

/// `--to`: the games found written as `qipu convert --to` writes them,
/// read again from their inputs (those changed since they were indexed
/// are told and left out), the selection flags applied to them.
fn write_games(
    args: &Args,
    to: Target,
    index: &Index,
    hits: &[Hit],
    select: SelectArgs,
) -> Result<i32, Failure> {
    let found = gather(index, hits);
    let written: Vec<&Path> = [args.write.output.as_deref(), args.write.rejected.as_deref()]
        .into_iter()
        .flatten()
        .filter(|p| p.as_os_str() != "-")
        .collect();
    let expanded = inputs_of(&found, &written);
    let convert = ConvertArgs {
        to,
        write: args.write.clone(),
        read: ReadArgs { paths: found.files.clone(), encoding: args.encoding, jobs: args.jobs, shard: None },
        select,
        shape: args.shape.clone(),
        only: Some(found.within.clone()),
    };
    // With convert's summary after it, every game found is accounted for:
    // not read, or read and then selected or left out, written or not.
    eprintln!(
        "{} game(s) found: {} read again from {} input(s){}",
        found.games,
        found.games - found.not_read,
        found.sources.len(),
        not_read(&found)
    );
    super::convert::run_expanded(&convert, expanded, &mut std::io::stdout().lock())
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
                "termination": game.termination.map(|t| t.as_str()),
                "tags": tags,
            });
            if let Some(line) = line {
                value["line"] = line.into();
            }
            writeln!(out, "{value}").map_err(Written::Io)
        }
    }
}
