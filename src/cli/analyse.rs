//! `qipu analyse PATH... --engine CMD -o OUT`: every main-line position of
//! every game searched by engines, and the games written annotated, in
//! input order: each move's evaluation in its comment, NAGs, the engine's
//! line after a mistake, and each player's figures as tags.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use qipu::analysis::annotate::{AnnotateOptions, GameReport, Judgement, Thresholds};
use qipu::batch::ProblemLine;
use qipu::engine::protocol::{Limit, Protocol};
use qipu::engine::{Analysed, Counts, EngineConfig, Pool, PoolConfig, SearchStore};
use qipu::formats::write::{WriteFormat, WriteOptions};
use qipu::formats::{self, ccbridge};
use qipu::output::{Destination, DestinationError, InputFiles, Refused, WrittenGame};
use qipu::record::eval::{EvalStyle, Evaluation, Score};
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder};
use qipu::select::{Judged, PassEvent};

use crate::cli::output::{file_error, told};
use crate::cli::progress::{Outcome, Tally};
use crate::cli::{ChineseStyle, Failure, MoveNotation};

/// What `qipu analyse` writes the games as.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// PGN, moves in --notation.
    Pgn,
    /// qipu's JSON records, one a line (each move's evaluation also as an `eval` key).
    Json,
    /// DhtmlXQ blocks.
    Dhtmlxq,
    /// One XQF file per game in the directory of -o.
    Xqf,
    /// One 象棋桥 CBL library, the file of -o.
    Cbl,
}

/// The protocol flag.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProtocolArg {
    /// UCI (Pikafish, Fairy-Stockfish).
    Uci,
    /// UCCI (ElephantEye).
    Ucci,
}

/// How evaluations are written into comments.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalStyleArg {
    /// `{+0.38/19}`: pawns from Red's side, then the depth; mates `#5`, `#-3`.
    Plain,
    /// `{[%eval 0.38,19]}`, as lichess writes them.
    Lichess,
}

/// What `qipu analyse` prints on standard output besides the games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// Nothing but the games (when they go to standard output); problems and the summary on
    /// standard error.
    Text,
    /// One JSON object per game: its players' figures, and every position searched with the
    /// engine's best move, score (for the side to move) and line.
    Json,
}

/// Arguments of `qipu analyse`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("search_limit").args(["depth", "movetime", "nodes"])))]
pub struct Args {
    /// The engine: its program and arguments as one string (quote an argument that holds
    /// spaces: --engine "'/opt/my engine/pikafish'").
    #[arg(long, value_name = "CMD")]
    pub engine: String,
    /// The engine's protocol (default: UCI if it answers `uci`, else UCCI).
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,
    /// Search each position to this depth (the default, 10, when no limit is given).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search each position for this many nodes.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Engine processes searching at once (default: the cores divided by --threads).
    #[arg(long, value_name = "K")]
    pub engines: Option<usize>,
    /// Search threads of each engine (its `Threads` option).
    #[arg(long, value_name = "T")]
    pub threads: Option<u32>,
    /// Hash table of each engine in MB (`Hash`; UCCI `hashsize`).
    #[arg(long, value_name = "MB")]
    pub hash: Option<u32>,
    /// Set an engine option (repeatable): `--option "Skill Level=20"`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Lines the engine searches (UCI engines' MultiPV): after a mistake, each of them that does
    /// not start with the move played is added as a variation.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub multipv: u32,
    /// Judge only the moves of these plies (from 1): `A..B`, `A..`, `..B` or `N`; only the
    /// positions they need are searched. (`--plies` selects games by their length, as in every
    /// command.)
    #[arg(long, value_name = "A..B")]
    pub ply_range: Option<String>,
    /// Keep every search in this SQLite file (created if missing), keyed by position, engine,
    /// options and limit: a position is searched once, in this run and the next.
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Continue an interrupted run: the games in -o (which must be the output of this command
    /// on the same inputs) are kept and not searched again; the others are added after them
    /// (--to xqf: a game whose file is in the directory is kept).
    #[arg(long)]
    pub resume: bool,
    /// Milliseconds a search may take before the engine is deemed hung, ended and started
    /// again (default: ten times --movetime plus a second; two minutes for --depth or --nodes).
    #[arg(long, value_name = "MS")]
    pub timeout: Option<u64>,
    /// How evaluations are written into comments.
    #[arg(long, value_enum, default_value_t = EvalStyleArg::Plain)]
    pub eval_style: EvalStyleArg,
    /// Loss in winning chances (0 to 2) from which a move is an inaccuracy (?!).
    #[arg(long, value_name = "LOSS", default_value_t = 0.1)]
    pub inaccuracy: f64,
    /// Loss in winning chances from which a move is a mistake (?).
    #[arg(long, value_name = "LOSS", default_value_t = 0.2)]
    pub mistake: f64,
    /// Loss in winning chances from which a move is a blunder (??).
    #[arg(long, value_name = "LOSS", default_value_t = 0.3)]
    pub blunder: f64,
    /// Do not add the engine's lines as variations after mistakes and blunders.
    #[arg(long)]
    pub no_variations: bool,
    /// The format the annotated games are written in.
    #[arg(long, value_enum, default_value_t = Target::Pgn)]
    pub to: Target,
    /// What is printed on standard output besides the games (json needs -o for the games).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Notation of the moves in PGN.
    #[arg(long, value_enum, default_value_t = MoveNotation::Chinese)]
    pub notation: MoveNotation,
    /// Characters for --notation chinese.
    #[arg(long, value_enum, default_value_t = ChineseStyle::Simplified)]
    pub chinese: ChineseStyle,
    /// Write the games into this file (`-` or none: standard output); with --to xqf, the
    /// directory; with --to cbl, the library. Never one of the inputs. Written under a
    /// temporary name and given its name when complete, also when the run is interrupted.
    #[arg(short, long, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// Write over an existing output file (never over an input).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub read: crate::cli::args::ReadArgs,
    /// Which games to analyse.
    #[command(flatten)]
    pub select: crate::cli::select::SelectArgs,
}

/// The words of a command line: split at spaces, quotes (`'…'`, `"…"`)
/// keeping spaces, a backslash keeping the next character.
fn words(command: &str) -> Result<Vec<String>, String> {
    let (mut words, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                word.push(chars.next().ok_or("ends with a backslash")?);
                any = true;
            }
            (_, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    if quote.is_some() {
        return Err("a quote is not closed".into());
    }
    if any {
        words.push(word);
    }
    if words.is_empty() {
        return Err("no program given".into());
    }
    Ok(words)
}

/// `A..B`, `A..`, `..B` or `N` as plies from 1.
fn plies(text: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    let bad = || format!("--ply-range {text}: expected A..B, A.., ..B or N (plies from 1)");
    let num =
        |s: &str, or: usize| if s.is_empty() { Ok(or) } else { s.trim().parse::<usize>().map_err(|_| bad()) };
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (num(a, 1)?, num(b, usize::MAX)?),
        None => {
            let n = num(text, 0)?;
            (n, n)
        }
    };
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok(a..=b)
}

impl Args {
    /// The engines' configuration.
    fn engine_config(&self) -> Result<EngineConfig, Failure> {
        let command =
            words(&self.engine).map_err(|e| Failure::usage(format!("--engine {:?}: {e}", self.engine)))?;
        let limit = match (self.depth, self.movetime, self.nodes) {
            (_, Some(ms), _) => Limit::MoveTime(ms),
            (_, _, Some(n)) => Limit::Nodes(n),
            (d, _, _) => Limit::Depth(d.unwrap_or(10)),
        };
        let mut config = EngineConfig::new(command, limit);
        config.protocol = self.protocol.map(|p| match p {
            ProtocolArg::Uci => Protocol::Uci,
            ProtocolArg::Ucci => Protocol::Ucci,
        });
        config.hash_mb = self.hash;
        config.threads = self.threads;
        config.multipv = self.multipv.max(1);
        for o in &self.options {
            let (n, v) = o
                .split_once('=')
                .ok_or_else(|| Failure::usage(format!("--option {o:?}: expected NAME=VALUE")))?;
            config.options.push((n.trim().to_string(), v.trim().to_string()));
        }
        if let Some(ms) = self.timeout {
            config.timeout = Duration::from_millis(ms.max(1));
        }
        Ok(config)
    }

    /// How the games are annotated.
    fn annotate_options(&self) -> Result<AnnotateOptions, Failure> {
        let t = Thresholds { inaccuracy: self.inaccuracy, mistake: self.mistake, blunder: self.blunder };
        if !(0.0 < t.inaccuracy && t.inaccuracy <= t.mistake && t.mistake <= t.blunder && t.blunder <= 2.0) {
            return Err(Failure::usage(
                "--inaccuracy, --mistake and --blunder must grow, each above 0 and at most 2 (losses in winning chances)",
            ));
        }
        Ok(AnnotateOptions {
            style: match self.eval_style {
                EvalStyleArg::Plain => EvalStyle::Plain,
                EvalStyleArg::Lichess => EvalStyle::Lichess,
            },
            thresholds: t,
            variations: !self.no_variations,
            annotator: None,
        })
    }

    fn write_options(&self) -> WriteOptions {
        let mut options = WriteOptions::new(match self.to {
            Target::Pgn => WriteFormat::Pgn,
            Target::Json => WriteFormat::Json,
            Target::Dhtmlxq => WriteFormat::Dhtmlxq,
            Target::Xqf => WriteFormat::Xqf,
            Target::Cbl => WriteFormat::Cbr,
        });
        options.notation = self.notation.with(self.chinese);
        options
    }
}

/// Set by Ctrl-C (or SIGTERM): the run ends with the games done so far.
fn stop_on_interrupt() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // Set before any output file is made, so that the output's own handler
    // (which removes partial files) is not the one that runs.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            // A second interrupt: end now.
            qipu::output::remove_partial_files();
            std::process::exit(130);
        }
        eprintln!(
            "\r\x1b[K{}",
            crate::cli::error_line(
                "interrupted: ending the searches under way and writing the games done (Ctrl-C again to quit at once)"
            )
        );
    });
    stop
}

/// The main lines of the games a previous run wrote, kept by --resume (to
/// check that the inputs are the same).
type Resumed = Vec<Vec<qipu::Move>>;

/// The games already in `path`, for --resume: their bytes go first into
/// the new output.
fn resume_text(path: &Path, sink: &mut crate::cli::output::Sink) -> Result<Resumed, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::usage(format!("--resume: {}: {e}", path.display())))?;
    // A run stopped before its first game was written left the output
    // empty: nothing to keep.
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let parsed = formats::read(&bytes, None)
        .map_err(|e| Failure::usage(format!("--resume: {}: cannot read it: {e}", path.display())))?;
    sink.write_all(&bytes)?;
    Ok(parsed.records.iter().map(|r| r.replayed().moves.clone()).collect())
}

/// A game on its way: where it is from, and with --to xqf its file (named
/// in input order, as the games are read).
struct Tag {
    source: Arc<str>,
    index: usize,
    file: Option<PathBuf>,
}

/// Runs `qipu analyse`.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let config = args.engine_config()?;
    let annotate = args.annotate_options()?;
    let plies = args.ply_range.as_deref().map(plies).transpose().map_err(Failure::usage)?;
    let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    if args.format == ReportFormat::Json && output.is_none() {
        return Err(Failure::usage("--format json prints reports on standard output: give -o for the games"));
    }
    if matches!(args.to, Target::Xqf | Target::Cbl) && output.is_none() {
        return Err(Failure::usage(match args.to {
            Target::Xqf => "--to xqf writes one file per game: give the directory with -o DIR",
            _ => "--to cbl writes one library: give the file with -o FILE.cbl",
        }));
    }
    if args.resume && output.is_none() {
        return Err(Failure::usage("--resume continues the output of -o: give it"));
    }
    let mut inputs = args.read.inputs(&[args.output.as_deref()]);
    let input_files = InputFiles::of(&inputs);
    let stop = stop_on_interrupt();
    let mut dummy = std::io::sink();
    let (games_stdout, reports): (&mut dyn Write, Option<&mut dyn Write>) = match output {
        Some(_) => (&mut dummy, (args.format == ReportFormat::Json).then_some(stdout as &mut dyn Write)),
        None => (stdout, None),
    };
    let (out, resumed) = open_output(args, output, &inputs, input_files, games_stdout)?;
    let batch = args.read.batch()?;
    let mut chooser = crate::cli::select::Chooser::new(&args.select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection().clone();

    let store: Option<Arc<dyn SearchStore>> = match &args.cache {
        Some(path) => Some(Arc::new(
            qipu::engine::cache::Cache::open(path)
                .map_err(|e| Failure::usage(format!("--cache {}: {e}", path.display())))?,
        )),
        None => None,
    };
    let engines = args.engines.unwrap_or_else(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        (cores / args.threads.unwrap_or(1).max(1) as usize).max(1)
    });
    let mut pool =
        Pool::start(PoolConfig { engine: config, engines, annotate, plies }, store.clone(), stop.clone())
            .map_err(|e| Failure::usage(format!("--engine {}: {e}", args.engine)))?;

    let mut tally = Tally::new(inputs.len());
    let mut run = Run {
        out,
        reports,
        resumed: resumed.map(Vec::into_iter),
        kept: 0,
        counts: Counts::default(),
        games_done: 0,
        interrupted: false,
        write: args.write_options(),
        started: Instant::now(),
        failures: 0,
    };
    let make = || {
        let selection = selection.clone();
        Map::new(RecordBuilder::default(), move |record: Record| {
            let judged = selection.judge_record(&record);
            Judged { matches: judged.matches, key: judged.key, game: record }
        })
    };
    let mut finished = Vec::new();
    let passed = chooser.pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
        let PassEvent::Game { index, game: record, selected } = event else { return Ok(()) };
        let error = record.replayed().error.clone();
        let note = " (analysed up to there; the moves from there on are kept as written)";
        let outcome = Outcome::of(&meta.source, index, record.unreadable(), error.as_ref(), note);
        tally.game_as(outcome, selected);
        if !selected || record.unreadable().is_some() {
            return Ok(());
        }
        if stop.load(Ordering::SeqCst) {
            return Err(Failure { message: String::new(), code: INTERRUPTED });
        }
        // A game the previous run wrote is kept, not searched again.
        if let Some(kept) = run.resumed.as_mut().and_then(Iterator::next) {
            if kept != record.replayed().moves {
                return Err(Failure::usage(format!(
                    "--resume: game {} of the output is not game {} of {} (their moves differ): \
                     resume with the inputs and selection of the first run",
                    run.kept + 1,
                    index + 1,
                    meta.source
                )));
            }
            run.kept += 1;
            return Ok(());
        }
        let mut file = None;
        let named = WrittenGame { title: record.tag("Title"), ..WrittenGame::new(&[], &meta.source, index) };
        if let Some(path) = run.out.name_file(&named) {
            // With --resume, a game whose file is there is kept.
            if args.resume && path.exists() {
                let same = std::fs::read(&path)
                    .ok()
                    .and_then(|bytes| formats::read(&bytes, None).ok())
                    .is_some_and(|read| read.records.first().is_some_and(|r| r.replayed().moves == record.replayed().moves));
                if !same {
                    return Err(Failure::usage(format!(
                        "--resume: {} is not game {} of {} (their moves differ): resume with the inputs and selection of the first run",
                        path.display(),
                        index + 1,
                        meta.source
                    )));
                }
                run.kept += 1;
                return Ok(());
            }
            file = Some(path);
        }
        let tag = Tag { source: Arc::from(meta.source.as_str()), index, file };
        pool.submit(tag, record, |t, a| finished.push((t, a)));
        for (t, a) in finished.drain(..) {
            run.take(t, a, tally)?;
        }
        run.progress(tally);
        Ok(())
    });
    let interrupted = match passed {
        Ok(()) => stop.load(Ordering::SeqCst),
        Err(f) if f.code == INTERRUPTED => true,
        Err(f) => return Err(f),
    };
    pool.finish(|t, a| finished.push((t, a)));
    for (t, a) in finished.drain(..) {
        run.take(t, a, &mut tally)?;
    }
    tally.finish();
    let interrupted = interrupted || run.interrupted;
    if let Some(left) = run.resumed.as_ref().map(|r| r.len()).filter(|&n| n > 0)
        && !interrupted
    {
        return Err(Failure::usage(format!(
            "--resume: the output holds {left} game(s) more than the inputs give: resume with the inputs and selection of the first run"
        )));
    }
    let (written, kept, failures) = (run.games_done, run.kept, run.failures);
    let Counts { searched, cached, failed, restarts } = run.counts;
    let positions = searched + cached + failed;
    run.finish(&mut tally)?;
    if let (Some(store), Some(path)) = (&store, &args.cache) {
        let trouble = store.trouble();
        if trouble.any() {
            let why = cache_trouble(&trouble);
            eprintln!("{}", ProblemLine::warning(&path.display().to_string(), None, None, why));
        }
    }
    let mut summary = format!("{}{}; {written} analysed and written", tally.summary(), chooser.summary());
    if kept > 0 {
        summary += &format!(", {kept} kept from the previous run");
    }
    summary +=
        &format!("; {positions} position(s): {searched} searched, {cached} from the cache, {failed} failed");
    if restarts > 0 {
        summary += &format!(" ({restarts} engine restart(s))");
    }
    eprintln!("{summary}");
    if interrupted {
        eprintln!(
            "{}",
            crate::cli::error_line(format!(
                "interrupted: the output holds the {} game(s) done; add --resume to continue it",
                written + kept
            ))
        );
        return Ok(INTERRUPTED);
    }
    Ok(if failures > 0 { tally.code().max(1) } else { tally.code() })
}

/// What a cache that failed in a run tells in its summary.
fn cache_trouble(trouble: &qipu::engine::StoreTrouble) -> String {
    let mut why = format!(
        "the cache failed {} lookup(s) and {} store(s)",
        trouble.failed_lookups, trouble.failed_stores
    );
    if let Some(first) = &trouble.first_error {
        why += &format!(" ({first})");
    }
    if trouble.given_up {
        why += &format!(
            "; not used after {} failures in a row: the positions were searched and not kept",
            qipu::engine::cache::GIVE_UP_AFTER
        );
    }
    why
}

/// Seconds as `1h 02m`, `3m 20s` or `45s`.
fn told_duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The exit code of an interrupted run.
const INTERRUPTED: i32 = 130;

/// A run under way: where games go, what was counted.
struct Run<'a, 'r> {
    out: Destination<'a>,
    reports: Option<&'r mut dyn Write>,
    resumed: Option<std::vec::IntoIter<Vec<qipu::Move>>>,
    /// Games kept from the previous run.
    kept: usize,
    counts: Counts,
    /// Games analysed and written.
    games_done: usize,
    /// A game came back unfinished: nothing after it is written.
    interrupted: bool,
    write: WriteOptions,
    started: Instant,
    /// Positions left unannotated.
    failures: u64,
}

impl Run<'_, '_> {
    /// A game back from the engines, in input order: its problems told, it
    /// and its report written.
    fn take(&mut self, tag: Tag, game: Analysed, tally: &mut Tally) -> Result<(), Failure> {
        if !game.complete || self.interrupted {
            self.interrupted = true;
            return Ok(());
        }
        self.counts += game.counts;
        for f in &game.failures {
            let errors: Vec<String> = f.errors.iter().map(ToString::to_string).collect();
            let what = if f.recovered {
                "the engine was started again and answered"
            } else {
                "left without annotation"
            };
            let ply = f.ply;
            let message = format!(
                "{}: {} ({})",
                if ply == 0 {
                    "the start position".to_string()
                } else {
                    format!("the position after ply {ply}")
                },
                what,
                errors.join("; then: ")
            );
            if !f.recovered {
                self.failures += 1;
            }
            tally.warn(&ProblemLine::warning(&tag.source, None, Some(tag.index), message));
        }
        if let Some(reports) = self.reports.as_mut() {
            let line = report_json(&tag, &game);
            writeln!(reports, "{line}")?;
        }
        self.write_game(&tag, &game.record, tally)?;
        Ok(())
    }

    fn write_game(&mut self, tag: &Tag, record: &Record, tally: &mut Tally) -> Result<(), Failure> {
        let written = match formats::write::write_with_warnings(record, &self.write) {
            Ok(w) => w,
            Err(e) => {
                let why = format!("not written: {e}");
                tally.not_written(&ProblemLine::game_error(&tag.source, tag.index, why).to_string());
                return Ok(());
            }
        };
        for w in &written.warnings {
            tally.lost(&tag.source, Some(tag.index), w);
        }
        if tag.file.is_some() && tally.writing_stopped() {
            tally.skip_write();
            return Ok(());
        }
        let title = record.tag("Title");
        let game = WrittenGame {
            title,
            file: tag.file.as_deref(),
            ..WrittenGame::new(&written.bytes, &tag.source, tag.index)
        };
        match self.out.write(game).and_then(|()| self.out.flush()) {
            Ok(()) => {}
            Err(DestinationError::File { path, source }) => {
                tally.write_failed(&file_error(&path, &source), &source);
                return Ok(());
            }
            Err(e) => return Err(failed(e)),
        }
        self.games_done += 1;
        tally.wrote();
        Ok(())
    }

    /// The progress line's note: positions searched and a second, and the
    /// time left, reckoned from the inputs done.
    fn progress(&mut self, tally: &mut Tally) {
        let progress = tally.progress();
        let positions = self.counts.searched + self.counts.cached + self.counts.failed;
        let rate = positions as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        let mut note = format!("; {positions} positions ({rate:.1}/s)");
        let (done, total) = progress.inputs();
        if done > 0 && total > done {
            let left = progress.elapsed().as_secs_f64() * (total - done) as f64 / done as f64;
            note += &format!(", about {} left", told_duration(left));
        }
        progress.note(note);
    }

    /// Completes the output: a file given its name, a library written.
    fn finish(self, tally: &mut Tally) -> Result<(), Failure> {
        let lost = |path: &Path, w: &qipu::formats::write::WriteWarning| {
            tally.lost(&path.display().to_string(), None, w)
        };
        self.out.finish_telling(lost).map(|_| ()).map_err(failed)
    }
}

/// An output that could not be written, as the command tells it: a write
/// error as [`Failure::from`] tells it, a file's naming the file.
fn failed(e: DestinationError) -> Failure {
    match e {
        DestinationError::Output(e) => e.into(),
        DestinationError::File { path, source } => {
            Failure::usage(format!("{}: {}", path.display(), told(&source)))
        }
        e => Failure::usage(e.to_string()),
    }
}

/// A score as JSON, its depth given apart: `{"cp":38}` or `{"mate":-3}`
/// (the object of [`Evaluation::json`] without a depth).
fn score_json(score: Score) -> serde_json::Value {
    serde_json::json!(Evaluation { score, depth: None })
}

/// The JSON report of a game: its players' figures, its moves as judged
/// and its positions as searched.
fn report_json(tag: &Tag, game: &Analysed) -> serde_json::Value {
    let side = |s: &qipu::analysis::annotate::SideReport| {
        serde_json::json!({
            "moves": s.moves,
            "acpl": s.acpl(),
            "accuracy": s.accuracy(),
            "inaccuracies": s.inaccuracies,
            "mistakes": s.mistakes,
            "blunders": s.blunders,
        })
    };
    let report: &GameReport = &game.report;
    let positions: Vec<serde_json::Value> = game
        .record
        .positions()
        .zip(&game.searches)
        .enumerate()
        .filter_map(|(ply, (pos, search))| {
            let s = search.as_ref()?;
            let best = s.best();
            Some(serde_json::json!({
                "ply": ply,
                "fen": pos.fen(),
                "best": best.pv.first().map(ToString::to_string),
                "score": score_json(best.score),
                "depth": best.depth,
                "pv": best.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "lines": s.lines.iter().skip(1).map(|l| serde_json::json!({
                    "score": score_json(l.score),
                    "depth": l.depth,
                    "pv": l.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            }))
        })
        .collect();
    let moves: Vec<serde_json::Value> = report
        .moves
        .iter()
        .map(|m| {
            serde_json::json!({
                "ply": m.ply,
                "move": m.mv.to_string(),
                "eval": m.evaluation.map(|e| score_json(e.score)),
                "depth": m.evaluation.and_then(|e| e.depth),
                "cp_loss": m.cp_loss,
                "judgement": m.judgement.map(Judgement::name),
            })
        })
        .collect();
    serde_json::json!({
        "source": &*tag.source,
        "index": tag.index,
        "plies": report.moves.len(),
        "searched": game.counts.searched,
        "cached": game.counts.cached,
        "failed": game.counts.failed,
        "red": side(&report.red),
        "black": side(&report.black),
        "moves": moves,
        "positions": positions,
    })
}

/// Opens the output of `--to` (and with --resume, takes the games of the
/// previous run from it).
fn open_output<'a>(
    args: &Args,
    output: Option<&Path>,
    inputs: &[qipu::batch::Input],
    input_files: InputFiles,
    stdout: &'a mut dyn Write,
) -> Result<(Destination<'a>, Option<Resumed>), Failure> {
    Ok(match args.to {
        Target::Pgn | Target::Json | Target::Dhtmlxq => {
            let existing = output.filter(|p| args.resume && p.exists());
            let mut sink =
                crate::cli::output::Sink::open(output, args.force || existing.is_some(), inputs, stdout)?;
            let resumed = match existing {
                Some(path) => Some(resume_text(path, &mut sink)?),
                None => None,
            };
            (Destination::one(sink.into_stream()), resumed)
        }
        Target::Cbl => {
            let path = output.expect("checked by run");
            let resuming = args.resume && path.exists();
            let mut library = Destination::library(path, args.force || resuming, input_files).map_err(
                |e| match Refused::of(&e) {
                    Some(Refused::Exists) => Failure::usage(format!(
                        "{}: exists (write over it with --force, or continue it with --resume)",
                        path.display()
                    )),
                    _ => Failure::usage(format!("{}: {}", path.display(), told(&e))),
                },
            )?;
            if !resuming {
                return Ok((library, None));
            }
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::usage(format!("--resume: {}: {e}", path.display())))?;
            if bytes.is_empty() {
                // Stopped before the library was written: nothing to keep.
                return Ok((library, Some(Vec::new())));
            }
            let read = ccbridge::read_cbl(&bytes)
                .map_err(|e| Failure::usage(format!("--resume: {}: cannot read it: {e}", path.display())))?;
            let mut lines = Vec::new();
            for record in read.records {
                let record = record.map_err(|e| {
                    Failure::usage(format!("--resume: {}: a game cannot be read: {e}", path.display()))
                })?;
                let written = ccbridge::write_cbr(&record).map_err(|e| {
                    Failure::usage(format!("--resume: {}: cannot keep a game: {e}", path.display()))
                })?;
                lines.push(record.replayed().moves.clone());
                library.keep(&written.bytes, record.tag("Title").unwrap_or_default()).map_err(failed)?;
            }
            (library, Some(lines))
        }
        Target::Xqf => {
            let dir = output.expect("checked by run");
            let files = Destination::folder(dir, "xqf", args.force, input_files)
                .map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?;
            (files, None)
        }
    })
}
