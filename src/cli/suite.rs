//! `qipu openings --suite`: an opening suite for engine matches, as EPD or
//! PGN (the two forms fastchess and cutechess read with
//! `-openings file=… format=epd|pgn`).

use std::io::Write;

use super::Failure;
use super::openings::{Args, Book};
use super::progress::{Outcome, Tally};
use qipu::analysis::ecco::OpeningReader;
use qipu::analysis::suite::{SuiteBuilder, SuiteFollower, SuiteOptions, SuitePosition};
use qipu::batch::Event;
use qipu::formats::epd::{Operand, push_opcode, push_position};
use qipu::record::{GameResult, MoveText, Record, RecordedMove, Span};
use qipu::{Position, select};

/// Red's score band of `--score LO..HI`: two numbers from 0 to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreBand(pub std::ops::RangeInclusive<f64>);

impl std::str::FromStr for ScoreBand {
    type Err = String;

    fn from_str(text: &str) -> Result<ScoreBand, String> {
        let wrong = || format!("{text:?}: write LO..HI, two numbers from 0 to 1 (0.35..0.65)");
        let (lo, hi) = text.split_once("..").ok_or_else(wrong)?;
        let number = |s: &str| s.trim().parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x));
        match (number(lo), number(hi)) {
            (Some(lo), Some(hi)) if lo <= hi => Ok(ScoreBand(lo..=hi)),
            _ => Err(wrong()),
        }
    }
}

/// The most plies `--at-ply` may ask for.
const MOST_PLIES: u64 = 300;

/// The suite's options from the command's arguments.
fn options(args: &Args) -> Result<SuiteOptions, Failure> {
    let plies = args.at_ply.unwrap_or(select::Span { min: 8, max: 8 });
    if plies.max > MOST_PLIES {
        return Err(Failure::usage(format!("--at-ply: at most {MOST_PLIES} plies")));
    }
    Ok(SuiteOptions {
        plies: plies.min as usize..=plies.max as usize,
        mirror: args.select.mirror,
        min_games: args.min_games,
        score: args.score.clone().map(|band| band.0),
        shuffle: args.shuffle.then_some(args.seed),
        max_positions: args.positions,
    })
}

/// Builds the suite of every input's selected games and writes it.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let options = options(args)?;
    let mut inputs = super::inputs(&args.paths);
    let mut sink = args.output.open(&inputs, stdout)?;
    let out = &mut sink;
    let batch = super::batch(args.jobs, args.encoding)?;
    let mut tally = Tally::new(inputs.len());
    let mut suite = SuiteBuilder::new();
    // `--mirror` merges mirrors in the suite; it matches mirrors of
    // `--position` only when that is given.
    let mut select = args.select.clone();
    select.mirror &= select.position.is_some();
    let mut chooser = super::select::Chooser::new(&select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection().clone();
    let follower = SuiteFollower::new(&options);
    let run = batch.run(
        &inputs,
        || selection.checker((follower.clone(), OpeningReader::default())),
        |meta, event| {
            match event {
                Event::Games { first, games } => {
                    tally.batch(games.len());
                    for (k, judged) in games.into_iter().enumerate() {
                        let game = judged.game;
                        let selected = chooser.take(first + k, judged.matches, judged.key.as_ref());
                        let (line, opening) = &game.followed;
                        if let Some(line) = line.as_ref().filter(|_| selected) {
                            let ecco = opening.as_ref().map(|name| name.ecco.code);
                            suite.add(line, game.result, ecco);
                        }
                        let error = game.replayed.error.as_ref();
                        let outcome =
                            Outcome::of(&meta.source, first + k, game.unreadable.as_ref(), error, "");
                        tally.game_as(outcome, selected);
                        chooser.go_on()?;
                    }
                }
                Event::Unreadable(reason) => {
                    let selected = chooser.take_unreadable();
                    tally.unreadable_as(&meta.source, &reason, selected);
                    chooser.go_on()?;
                }
                Event::NoRecord(reason) => tally.no_record_as(&meta.source, &reason, !chooser.active()),
                Event::Done => tally.input_done(),
            }
            Ok::<(), Failure>(())
        },
    );
    super::select::finished(run)?;
    tally.finish();
    let (games, met) = (suite.games(), suite.positions());
    let positions = suite.finish(&options);
    match args.to.unwrap_or(Book::Epd) {
        Book::Epd => {
            let mut line = String::with_capacity(200);
            for p in &positions {
                line.clear();
                epd_line(p, &mut line);
                line.push('\n');
                out.write_all(line.as_bytes())?;
            }
        }
        Book::Pgn => {
            let notation = args.notation.with(args.chinese);
            for (i, p) in positions.iter().enumerate() {
                out.write_all(qipu::formats::pgn::write(&record(p, i + 1), notation).as_bytes())?;
                out.write_all(b"\n")?;
            }
        }
    }
    sink.commit()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    let plies = match options.plies.clone().into_inner() {
        (a, b) if a == b => format!("ply {a}"),
        (a, b) => format!("plies {a} to {b}"),
    };
    eprintln!(
        "{} position(s) in the suite, of {met} distinct at {plies} in {games} game(s)",
        positions.len()
    );
    Ok(tally.code())
}

/// A score with three decimals.
fn score_text(score: f64) -> String {
    format!("{score:.3}")
}

/// The suite position as an EPD line: the position, then `games`,
/// `red_wins`, `draws`, `black_wins`, `score` (when a game has a result),
/// `ecco` (when known) and `ply`.
fn epd_line(p: &SuitePosition, line: &mut String) {
    push_position(line, p.position.board(), p.position.turn());
    let count = |n: u32| [Operand::Number(u64::from(n))];
    push_opcode(line, "games", &count(p.games));
    push_opcode(line, "red_wins", &count(p.red_wins));
    push_opcode(line, "draws", &count(p.draws));
    push_opcode(line, "black_wins", &count(p.black_wins));
    if let Some(score) = p.score() {
        push_opcode(line, "score", &[Operand::Word(&score_text(score))]);
    }
    if let Some(code) = p.ecco {
        push_opcode(line, "ecco", &[Operand::Word(code)]);
    }
    push_opcode(line, "ply", &[Operand::Number(p.moves.len() as u64)]);
}

/// The suite position as a game: its moves from the start, the counts in
/// tags, result `*`.
fn record(p: &SuitePosition, number: usize) -> Record {
    let mut record = Record::default();
    let mut tag = |name: &str, value: String| record.tags.push((name.to_string(), value));
    tag("Event", "Opening suite".into());
    tag("Round", number.to_string());
    if p.start != Position::start() {
        tag("FEN", p.start.fen());
    }
    tag("Games", p.games.to_string());
    tag("RedWins", p.red_wins.to_string());
    tag("Draws", p.draws.to_string());
    tag("BlackWins", p.black_wins.to_string());
    if let Some(score) = p.score() {
        tag("Score", score_text(score));
    }
    if let Some(code) = p.ecco {
        tag("ECCO", code.to_string());
    }
    let mut at = record.tree.root();
    for &m in &p.moves {
        at = record.tree.add_child(at, RecordedMove { text: MoveText::Coords(m), at: Span::default() });
    }
    record.result = Some(GameResult::Unknown);
    record
}
