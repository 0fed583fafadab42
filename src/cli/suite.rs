//! `qipu openings --suite`: an opening suite for engine matches, as EPD or
//! PGN (the two forms fastchess and cutechess read with
//! `-openings file=… format=epd|pgn`).

use std::io::Write;

use super::Failure;
use super::args::ReadArgs;
use super::output::OutputArgs;
use super::progress::{Outcome, Tally};
use super::select::SelectArgs;
use qipu::analysis::ecco::OpeningReader;
use qipu::analysis::suite::{SuiteBuilder, SuiteFollower, SuiteOptions};
use qipu::notation::Notation;
use qipu::select::{self, PassEvent};

/// The arguments of `qipu openings` that ask for a suite (flattened into
/// the command's).
#[derive(Debug, clap::Args)]
pub struct SuiteArgs {
    /// Write an opening suite for engine matches instead of the tree: the distinct positions at
    /// --at-ply of the selected games (transpositions merged, and mirrors with --mirror), at
    /// least --min-games games each, at most one position per game, the most played first.
    #[arg(long, help_heading = "Opening suite")]
    pub suite: bool,
    /// With --suite: the ply of the positions (`8`), or a band (`8..12`: each game gives at most
    /// one position).
    #[arg(long, value_name = "N|MIN..MAX", requires = "suite", help_heading = "Opening suite")]
    pub at_ply: Option<qipu::select::CountRange>,
    /// With --suite: only positions where Red's score (a win 1, a draw ½, over the games with a
    /// result) is in this band, for balanced suites.
    #[arg(long, value_name = "LO..HI", requires = "suite", help_heading = "Opening suite")]
    pub score: Option<ScoreBand>,
    /// With --suite: shuffle the positions (the same order for the same --seed).
    #[arg(long, requires = "suite", help_heading = "Opening suite")]
    pub shuffle: bool,
    /// With --shuffle: the seed.
    #[arg(long, default_value_t = 1, requires = "shuffle", help_heading = "Opening suite")]
    pub seed: u64,
    /// With --suite: at most this many positions (after shuffling).
    #[arg(long, value_name = "N", requires = "suite", help_heading = "Opening suite")]
    pub positions: Option<usize>,
}

/// How a suite is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// One EPD line per position.
    Epd,
    /// One PGN game per position, its moves in this notation.
    Pgn(Notation),
}

/// What a suite is made of and where it goes: the arguments `qipu
/// openings` shares with its tree.
#[derive(Debug)]
pub struct Inputs<'a> {
    /// The inputs, how they are read.
    pub read: &'a ReadArgs,
    /// Positions reached by fewer games are left out.
    pub min_games: u32,
    /// `-o FILE` and `--force`.
    pub output: &'a OutputArgs,
    /// Which games.
    pub select: &'a SelectArgs,
}

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
fn options(args: &SuiteArgs, inputs: &Inputs<'_>) -> Result<SuiteOptions, Failure> {
    let plies = args.at_ply.unwrap_or(select::CountRange { min: 8, max: 8 });
    if plies.max > MOST_PLIES {
        return Err(Failure::usage(format!("--at-ply: at most {MOST_PLIES} plies")));
    }
    Ok(SuiteOptions {
        plies: plies.min as usize..=plies.max as usize,
        mirror: inputs.select.mirror,
        min_games: inputs.min_games,
        score: args.score.clone().map(|band| band.0),
        shuffle: args.shuffle.then_some(args.seed),
        max_positions: args.positions,
    })
}

/// Builds the suite of every input's selected games and writes it in
/// `form`.
pub fn run(
    args: &SuiteArgs,
    given: &Inputs<'_>,
    form: Form,
    stdout: &mut impl Write,
) -> Result<i32, Failure> {
    let options = options(args, given)?;
    let mut inputs = given.read.inputs(&[given.output.output.as_deref()]);
    let mut sink = given.output.open(&inputs, stdout)?;
    let out = &mut sink;
    let batch = given.read.batch()?;
    let mut tally = Tally::new(inputs.len());
    let mut suite = SuiteBuilder::new();
    // `--mirror` merges mirrors in the suite; it matches mirrors of
    // `--position` only when that is given.
    let mut select = given.select.clone();
    select.mirror &= select.position.is_some();
    let mut chooser = super::select::Chooser::new(&select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection().clone();
    let follower = SuiteFollower::new(&options);
    let make = || selection.checker((follower.clone(), OpeningReader::default()));
    chooser.pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
        if let PassEvent::Game { index, game, selected } = event {
            let (line, opening) = &game.followed;
            if let Some(line) = line.as_ref().filter(|_| selected) {
                let ecco = opening.as_ref().map(|name| name.ecco.code);
                suite.add(line, game.result, ecco);
            }
            tally.game_as(Outcome::checked(&meta.source, index, &game, ""), selected);
        }
        Ok(())
    })?;
    let (games, met) = (suite.games(), suite.positions());
    let positions = suite.finish(&options);
    match form {
        Form::Epd => {
            let mut line = String::with_capacity(200);
            for p in &positions {
                line.clear();
                p.push_epd(&mut line);
                line.push('\n');
                out.write_all(line.as_bytes())?;
            }
        }
        Form::Pgn(notation) => {
            for (i, p) in positions.iter().enumerate() {
                out.write_all(qipu::formats::pgn::write(&p.to_record(i + 1), notation).as_bytes())?;
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
    super::quiet::info!(
        "{} position(s) in the suite, of {met} distinct at {plies} in {games} game(s)",
        positions.len()
    );
    Ok(tally.code())
}
