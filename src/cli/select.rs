//! The selection flags every batch command takes, read into the library's
//! [`Options`], and the chooser whose pass every batch command runs: the
//! library's, with standard input kept and a progress line while copies
//! are planned, and each game and input counted in the command's tally.

use std::sync::Arc;

use qipu::batch::{Batch, Input, Meta, Status};
use qipu::dedupe::{Keep, Kinds};
use qipu::record::Visitor;
use qipu::record::replay::Termination;
use qipu::rules::judge::RuleSet;
use qipu::select::{
    CountRange, CriterionError, DateRange, EccoSet, GameNumbers, Judged, MaterialAt, MaterialPattern,
    OptionError, OptionErrorKind, Options, PassEvent, Reading, ResultChoice, Selection, Within,
};

use super::Failure;
use super::progress::{Progress, Tally};

/// `--result` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ResultArg {
    /// Red won.
    #[value(name = "1-0")]
    RedWins,
    /// Black won.
    #[value(name = "0-1")]
    BlackWins,
    /// A draw (`1/2-1/2`).
    Draw,
    /// `*` or no result.
    Unknown,
}

/// `--termination` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TerminationArg {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no move (and loses).
    Stalemate,
    /// 120 plies without a capture.
    MoveLimit,
    /// The game ends in a repetition ruled a draw.
    Repetition,
    /// The game ends in a repetition a side loses by checking perpetually (长将).
    PerpetualCheck,
    /// The game ends in a repetition a side loses by chasing a piece perpetually (长捉).
    PerpetualChase,
    /// The game ends in a repetition a side loses by checking and chasing (一将一捉).
    CheckChase,
    /// The game ends in a repetition a side loses by threatening mate perpetually (长杀; Chinese
    /// rules).
    PerpetualMateThreat,
    /// The game ends in a repetition a side loses by threatening mate and checking or chasing
    /// (一将一杀; Chinese rules).
    MateThreatMixed,
    /// Neither side has material left that can win.
    DeadDraw,
    /// None of these (or the main line does not replay to its end).
    None,
}

/// `--status` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusArg {
    /// Every move replays (`ok`, the word JSON reports used before, is taken too).
    #[value(alias = "ok")]
    Valid,
    /// A move (or the start position) is not legal.
    Illegal,
    /// The game (or the whole input) cannot be read.
    Unreadable,
}

/// `--material-at` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MaterialAtArg {
    /// At some position of the main line, the start included.
    Any,
    /// At the main line's last position.
    End,
}

/// The selection flags, shown under their own heading in `--help`.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Selection (which games the command works on)")]
pub struct SelectArgs {
    /// Games whose tag NAME matches the regular expression REGEX (anywhere in the value; `^…$`
    /// for all of it); repeatable, all must hold. A game without the tag does not match. Here
    /// and in --player, --red, --black, --event, --site and --opening, traditional and
    /// simplified characters match each other, and full-width letters, digits and the
    /// ideographic space match their ASCII forms (a full-width `（` is a literal bracket).
    #[arg(long, value_name = "NAME=REGEX")]
    pub tag: Vec<String>,
    /// Games where Red or Black matches REGEX.
    #[arg(long, value_name = "REGEX")]
    pub player: Option<String>,
    /// Games whose Red player matches REGEX.
    #[arg(long, value_name = "REGEX")]
    pub red: Option<String>,
    /// Games whose Black player matches REGEX.
    #[arg(long, value_name = "REGEX")]
    pub black: Option<String>,
    /// Games whose Event tag matches REGEX.
    #[arg(long, value_name = "REGEX")]
    pub event: Option<String>,
    /// Games whose Site tag matches REGEX.
    #[arg(long, value_name = "REGEX")]
    pub site: Option<String>,
    /// Games dated in FROM..TO (`1990..1995.06`, `2000..`, `..1989`, or one partial date:
    /// `1990.05` is that month). Dates are read as records write them (`1990.05.12`,
    /// `1990-5-12`, `1990年5月12日`, `19900512`, `1990.??.??`); a game is in the range when
    /// every day its date may be is (one dated `1990` is not in `1990.05`); a game without a
    /// date that reads is not.
    #[arg(long, value_name = "FROM..TO")]
    pub date: Option<DateRange>,
    /// Games with this stated result (comma list: `1-0,draw`).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "RESULT")]
    pub result: Vec<ResultArg>,
    /// Games whose main line ends so, by the final position and the repetition it ends in, as
    /// --rules judges them (comma list).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "END")]
    pub termination: Vec<TerminationArg>,
    /// Games of this status (comma list): `valid`, or only the bad ones.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "STATUS")]
    pub status: Vec<StatusArg>,
    /// Games whose ECCO code is one of CODES: `B10`, ranges `B10..B14`, all of a volume `B`, ten
    /// codes `B1`; comma list. The code is the one the moves give (as `qipu classify`) for
    /// games from the standard start, else the game's ECCO tag.
    #[arg(long, value_name = "CODES")]
    pub ecco: Option<EccoSet>,
    /// Games whose opening is called NAME: one of its traditional names (中炮, 屏风马, 仙人指路 …)
    /// is NAME, or its ECCO name holds it (as `qipu classify` names it; games from another start
    /// by their Opening and Variation tags).
    #[arg(long, value_name = "NAME")]
    pub opening: Option<String>,
    /// Games whose main line has MIN..MAX plies (`40..`, `..20`, `30`); plies that replay.
    #[arg(long, value_name = "MIN..MAX")]
    pub plies: Option<CountRange>,
    /// Games with at least one comment.
    #[arg(long)]
    pub has_comments: bool,
    /// Games with at least one variation.
    #[arg(long)]
    pub has_variations: bool,
    /// Games that reach this placement at some ply of the main line (the start included). The
    /// side to move counts only when the FEN gives it (`... w` or `... b`).
    #[arg(long, value_name = "FEN")]
    pub position: Option<String>,
    /// Games that reach the position after these moves from the standard start, by any order
    /// of moves (a transposition counts), side to move included: `"炮二平五 马8进7 马二进三"`,
    /// `"1. h2e2 h9g7 2. h0g2"`, WXF (`"C2.5 H8+7"`), UCI or SAN alike, apart by spaces or
    /// commas, move numbers left out. Repeatable: a game that reaches any of them. Not with
    /// --position.
    #[arg(long, value_name = "MOVES", conflicts_with = "position")]
    pub moves: Vec<String>,
    /// As --moves, one sequence a line of FILE (empty lines and lines opening with `#` left
    /// out); with --moves too, a game that reaches any of them.
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub moves_file: Option<std::path::PathBuf>,
    /// With --position or --moves: look in variations too.
    #[arg(long)]
    pub in_variations: bool,
    /// With --position or --moves: the position's left–right mirror matches too. (With openings
    /// --suite: a position and its mirror are one position of the suite.)
    #[arg(long)]
    pub mirror: bool,
    /// Games with this material: Red's pieces `vs` Black's, in FEN letters (R rook, N/H horse,
    /// B/E elephant, A advisor, C cannon, P pawn; kings not written), a letter may take a count
    /// (`R2CP3` = RRCPPP), a side ending in `*` may hold more (`RP* vs K`: at least a rook and a
    /// pawn against a bare king); `K` or `-` for a bare king. Exact counts otherwise.
    #[arg(long, value_name = "SIGNATURE")]
    pub material: Option<MaterialPattern>,
    /// Where --material must hold.
    #[arg(long, value_enum, default_value_t = MaterialAtArg::End, requires = "material")]
    pub material_at: MaterialAtArg,
    /// Games with these numbers in their input (from 1): `1,5,10-20`, `30-`.
    #[arg(long, value_name = "LIST")]
    pub games: Option<GameNumbers>,
    /// Select the games that do not match the criteria above instead (before --skip and
    /// --limit).
    #[arg(long)]
    pub invert: bool,
    /// Leave out the first N games selected.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: u64,
    /// Select at most N games (reading stops once they are found).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Leave out copies: games of 10 plies or more whose main line (from the same start) is
    /// another's; `--dedupe=KINDS` for other kinds of sameness, comma-separated: line,
    /// final (the same final position after as many plies), truncated (a prefix of a longer
    /// game's line), mirror (the left–right mirror too). One game of each group is kept, the
    /// first unless --keep says otherwise. After --invert, before --skip and --limit.
    #[arg(
        long,
        value_enum,
        value_name = "KINDS",
        num_args = 0..=1,
        require_equals = true,
        value_delimiter = ',',
        default_missing_value = "line"
    )]
    pub dedupe: Option<Vec<DedupeKind>>,
    /// Leave out the games already in a reference collection: each game that is a copy of one
    /// in PATH (files, folders, archives; repeatable) — the same main line from the same start,
    /// or the kinds --dedupe gives (line, final, mirror; not truncated). The games of PATH are
    /// read first and not written. After --invert, before --dedupe's copies, --skip and
    /// --limit; the summary counts the games left out so.
    #[arg(long, value_name = "PATH")]
    pub not_in: Vec<std::path::PathBuf>,
    /// Which game of each group of copies --dedupe keeps (a truncated copy never is). With
    /// longest or most-annotated, or with --dedupe=truncated or line and final together, the
    /// inputs are read once more first to find the groups (twice with truncated).
    #[arg(long, value_enum, value_name = "WHICH", requires = "dedupe")]
    pub keep: Option<KeepArg>,
    /// The rule book repetitions, the natural move limit and results are judged by: asian
    /// (AXF/WXF, the default) or chinese (中国象棋竞赛规则 2011).
    #[arg(long, value_name = "RULES", default_value = "asian", help_heading = "Rules")]
    pub rules: RuleSet,
}

/// `--dedupe` kinds of sameness.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DedupeKind {
    /// The same main line from the same start.
    Line,
    /// The same final position after as many plies.
    Final,
    /// One game's main line is a prefix of another's (the longer is kept).
    Truncated,
    /// The kinds given match the left–right mirror of each game too.
    Mirror,
}

/// Which copy of a group is kept (`--keep`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KeepArg {
    /// The first in input order.
    First,
    /// The one with the most plies.
    Longest,
    /// The one with the most comments, variations and tags.
    MostAnnotated,
}

impl KeepArg {
    /// The library's policy.
    pub fn policy(self) -> Keep {
        match self {
            KeepArg::First => Keep::First,
            KeepArg::Longest => Keep::Longest,
            KeepArg::MostAnnotated => Keep::MostAnnotated,
        }
    }
}

impl SelectArgs {
    /// The library's options these flags give.
    ///
    /// # Errors
    ///
    /// A `--tag` that is not `NAME=REGEX` or whose pattern does not read.
    pub fn options(&self) -> Result<Options, OptionError> {
        let kinds = self.dedupe.as_ref().map(|by| {
            let has = |k| by.contains(&k);
            Kinds {
                line: has(DedupeKind::Line),
                end: has(DedupeKind::Final),
                truncated: has(DedupeKind::Truncated),
                mirror: has(DedupeKind::Mirror),
                ..Kinds::default()
            }
        });
        let material_at = match self.material_at {
            MaterialAtArg::Any => MaterialAt::Any,
            MaterialAtArg::End => MaterialAt::End,
        };
        Ok(Options {
            tags: Options::tag_rules(&self.tag)?,
            player: self.player.clone(),
            red: self.red.clone(),
            black: self.black.clone(),
            event: self.event.clone(),
            site: self.site.clone(),
            date: self.date,
            results: self
                .result
                .iter()
                .map(|r| match r {
                    ResultArg::RedWins => ResultChoice::RedWins,
                    ResultArg::BlackWins => ResultChoice::BlackWins,
                    ResultArg::Draw => ResultChoice::Draw,
                    ResultArg::Unknown => ResultChoice::Unknown,
                })
                .collect(),
            terminations: self
                .termination
                .iter()
                .map(|t| match t {
                    TerminationArg::Checkmate => Some(Termination::Checkmate),
                    TerminationArg::Stalemate => Some(Termination::Stalemate),
                    TerminationArg::MoveLimit => Some(Termination::MoveLimit),
                    TerminationArg::Repetition => Some(Termination::Repetition),
                    TerminationArg::PerpetualCheck => Some(Termination::PerpetualCheck),
                    TerminationArg::PerpetualChase => Some(Termination::PerpetualChase),
                    TerminationArg::CheckChase => Some(Termination::CheckChase),
                    TerminationArg::PerpetualMateThreat => Some(Termination::PerpetualMateThreat),
                    TerminationArg::MateThreatMixed => Some(Termination::MateThreatMixed),
                    TerminationArg::DeadDraw => Some(Termination::DeadDraw),
                    TerminationArg::None => None,
                })
                .collect(),
            statuses: self
                .status
                .iter()
                .map(|s| match s {
                    StatusArg::Valid => Status::Valid,
                    StatusArg::Illegal => Status::Illegal,
                    StatusArg::Unreadable => Status::Unreadable,
                })
                .collect(),
            ecco: self.ecco.clone(),
            opening: self.opening.clone(),
            plies: self.plies,
            has_comments: self.has_comments,
            has_variations: self.has_variations,
            position: self.position.clone(),
            moves: self.all_moves()?,
            in_variations: self.in_variations,
            mirror: self.mirror,
            material: self.material.map(|m| (m, material_at)),
            games: self.games.clone(),
            invert: self.invert,
            skip: self.skip,
            limit: self.limit,
            dedupe: kinds,
            keep: self.keep.map_or(Keep::First, KeepArg::policy),
            rules: self.rules,
            not_in: self.not_in.clone(),
        })
    }

    /// The sequences of --moves, then those of --moves-file.
    pub(super) fn all_moves(&self) -> Result<Vec<String>, OptionError> {
        let mut moves = self.moves.clone();
        if let Some(path) = &self.moves_file {
            let text = std::fs::read(path).map_err(|e| OptionError {
                option: "moves-file",
                kind: OptionErrorKind::Criterion(CriterionError {
                    what: "moves-file",
                    text: path.display().to_string(),
                    why: format!("cannot read it: {}", super::output::told(&e)),
                }),
            })?;
            let text = qipu::formats::encoding::decode(&text, None).text;
            moves.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(str::to_string),
            );
        }
        Ok(moves)
    }
}

/// An option's error as the command says it, with the flags' names.
fn usage(e: OptionError) -> Failure {
    Failure::usage(match &e.kind {
        OptionErrorKind::Needs(other) => {
            let other = other.replace(" or ", " or --");
            let suite = if e.option == "mirror" { " (or openings --suite)" } else { "" };
            format!("--{} needs --{other}{suite}", e.option.replace('_', "-"))
        }
        OptionErrorKind::Excludes(other) => format!("--{} cannot be given with --{other}", e.option),
        // The criterion names what did not read (`tag`, `regular expression`).
        OptionErrorKind::Criterion(why) => format!("--{why}"),
        OptionErrorKind::Fen { .. } => format!("--{e}"),
    })
}

/// A command's selection and its pass: the library's chooser, with
/// standard input kept in a file and a progress line while copies are
/// planned, and the pass counting every game in the command's [`Tally`].
#[derive(Debug)]
pub struct Chooser {
    /// The library's chooser.
    chooser: qipu::select::Chooser,
    /// Standard input kept in a file for the plan.
    _kept: Option<super::spool::Spooled>,
}

impl Chooser {
    /// The chooser the flags ask for.
    pub fn new(args: &SelectArgs) -> Result<Chooser, Failure> {
        let chooser = match args.options() {
            Ok(options) => options.chooser(),
            // A wrong `--tag` is told after `--mirror` without `--position`.
            Err(tag) => {
                let targets = args.position.is_some() || !args.moves.is_empty() || args.moves_file.is_some();
                let (mirror, in_variations) = (args.mirror && !targets, args.in_variations && !targets);
                Options { mirror, in_variations, ..Options::default() }.chooser().and(Err(tag))
            }
        }
        .map_err(usage)?;
        Ok(Chooser { chooser, _kept: None })
    }

    /// This chooser, its pass looking at the games of `within` alone when
    /// given ([`qipu::select::Chooser::within`]).
    ///
    /// # Errors
    ///
    /// Copies to be found by reading every input first (`--keep` longest
    /// or most-annotated, `--dedupe=truncated`, line and final together),
    /// which would be found among games outside `within` too.
    pub fn within(self, within: Option<Within>) -> Result<Chooser, Failure> {
        let Some(within) = within else { return Ok(self) };
        if self.chooser.needs_plan() {
            return Err(Failure::usage(
                "--keep longest or most-annotated, --dedupe=truncated and --dedupe=line,final find copies \
                 by reading every game first: not with the games an index found (use --dedupe or \
                 --dedupe=final, or write the games and run convert on them)",
            ));
        }
        let Chooser { chooser, _kept } = self;
        Ok(Chooser { chooser: chooser.within(within), _kept })
    }

    /// The chooser of a command that takes no selection flags: every game.
    pub fn every() -> Chooser {
        Chooser { chooser: qipu::select::Chooser::default(), _kept: None }
    }

    /// The criteria, judged where each game is read.
    pub fn selection(&self) -> &Arc<Selection> {
        self.chooser.selection()
    }

    /// Finds the copies to leave out over all of `inputs` first, when
    /// `--dedupe` or `--keep` asks for more than the first of each group
    /// met in one pass (standard input is kept in a temporary file for it,
    /// as long as the chooser lives). Call it before the command's pass,
    /// with the inputs and batch that pass reads.
    pub fn plan(&mut self, inputs: &mut [Input], batch: &Batch) -> Result<(), Failure> {
        self.read_known(batch)?;
        if !self.chooser.needs_plan() {
            return Ok(());
        }
        self._kept = super::spool::keep_stdin(inputs)?;
        let total = inputs.len();
        let mut progress = Progress::labelled(total, "finding copies: ");
        self.chooser.plan(batch, inputs, |read| match read {
            Reading::Games(n) => progress.games(n),
            Reading::InputDone => progress.input_done(),
            Reading::SecondPass(inputs) => {
                progress.finish();
                progress = Progress::labelled(inputs, "finding truncated copies: ");
            }
        });
        progress.finish();
        Ok(())
    }

    /// Reads the reference collection of --not-in, if any, with a progress
    /// line; a path of it that cannot be read is an error, as the
    /// collection would be read short.
    fn read_known(&mut self, batch: &Batch) -> Result<(), Failure> {
        let inputs = self.chooser.known_inputs();
        if inputs.is_empty() {
            return Ok(());
        }
        if let Some(Input::Problem { path, reason }) =
            inputs.iter().find(|i| matches!(i, Input::Problem { .. }))
        {
            return Err(Failure::usage(format!("--not-in {}: {reason}", path.display())));
        }
        let mut progress = Progress::labelled(inputs.len(), "reading the reference collection: ");
        self.chooser.read_known(batch, |read| match read {
            Reading::Games(n) => progress.games(n),
            Reading::InputDone => progress.input_done(),
            Reading::SecondPass(_) => {}
        });
        progress.finish();
        Ok(())
    }

    /// The command's pass: the library's ([`qipu::select::Chooser::pass`]),
    /// each game and input counted in `tally` as it comes, with a progress
    /// line. `each` is told every event in input order; it counts each
    /// game itself (what a game's problem is, and how it is told, is the
    /// command's: [`Tally::game_as`]), while an input that cannot be read,
    /// one that holds no record and an input's end are counted here once
    /// `each` has seen them. The pass stops at `--limit`, or at the first
    /// error of `each` (which it returns).
    pub fn pass<V, T>(
        &mut self,
        batch: &Batch,
        inputs: &[Input],
        tally: &mut Tally,
        make: impl Fn() -> V + Sync,
        mut each: impl FnMut(&Meta, PassEvent<T>, &mut Tally) -> Result<(), Failure>,
    ) -> Result<(), Failure>
    where
        V: Visitor<Output = Judged<T>>,
        T: Send,
    {
        self.chooser.pass(batch, inputs, make, |meta, event| {
            // What to count once `each` has seen the event.
            let count = match &event {
                PassEvent::Game { .. } => {
                    tally.batch(1);
                    None
                }
                PassEvent::Unreadable { reason, selected } => Some((false, reason.clone(), *selected)),
                PassEvent::NoRecord { reason, selected } => Some((true, reason.clone(), *selected)),
                PassEvent::Done => None,
            };
            let done = matches!(event, PassEvent::Done);
            each(meta, event, tally)?;
            match count {
                Some((false, reason, selected)) => tally.unreadable_as(&meta.source, reason, selected),
                Some((true, reason, selected)) => tally.no_record_as(&meta.source, reason, selected),
                None if done => tally.input_done(),
                None => {}
            }
            Ok::<(), Failure>(())
        })?;
        tally.finish();
        Ok(())
    }

    /// `; S selected, L left out` for the summary line, when selecting.
    pub fn summary(&self) -> String {
        self.chooser.summary()
    }
}
