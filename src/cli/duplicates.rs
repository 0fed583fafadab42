//! `qipu duplicates PATH...`: groups of copies of the same game, found by
//! their moves (see [`qipu::dedupe`]), for people or as JSON lines.
//!
//! The inputs are read up to three times: once to key every game; with
//! `--by truncated`, once more to look each game's prefixes up among the
//! whole lines; and, when there are copies, the inputs that hold them once
//! more, for their tags (and the copies themselves, with
//! `--duplicates-out`). Standard input is kept in a temporary file for it.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use super::duplicates_tags::{TAGS, TagTable, Tags};
use super::progress::{Outcome, Tally};
use super::select::KeepArg;
use super::{ChineseStyle, Failure, MoveNotation, OutputFormat};
use qipu::dedupe::{Group, Kinds, Link, Why};
use qipu::formats::pgn;
use qipu::record::{GameResult, Record, RecordBuilder, RecordedMove, Skip, Span, Visitor, Warning};
use qipu::select::{CopyFinder, PassEvent, Selection};

/// A kind of sameness.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// The same main line from the same start position.
    Line,
    /// The same final position after as many plies.
    Final,
    /// One game's main line is a prefix of another's (the longer is kept).
    Truncated,
}

/// Arguments of `qipu duplicates`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Kinds of sameness, repeated or comma-separated: line, final, truncated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "line")]
    pub by: Vec<By>,
    /// Match the left–right mirror of each game too.
    #[arg(long)]
    pub mirror: bool,
    /// Games with fewer main-line plies are never copies (short games share
    /// their few moves by chance).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub min_plies: u32,
    /// Which game of each group is kept (a truncated copy never is).
    #[arg(long, value_enum, default_value_t = KeepArg::First)]
    pub keep: KeepArg,
    /// `text` for people, `json` for programs (one object per group and line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Write the copies (every member of a group but the kept one) into this file as PGN,
    /// in Chinese notation, in input order (never over an input).
    #[arg(long, value_name = "FILE")]
    pub duplicates_out: Option<PathBuf>,
    #[command(flatten)]
    pub read: super::args::ReadArgs,
    /// Where the groups are written (`--force` also lets --duplicates-out replace a file).
    #[command(flatten)]
    pub output: super::output::OutputArgs,
}

/// Finds and prints the groups of copies.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let mut inputs = args.read.inputs(&[args.output.output.as_deref(), args.duplicates_out.as_deref()]);
    let names: Vec<(String, String, bool)> = inputs
        .iter()
        .map(|i| {
            let (json, escaped) = i.json_name();
            (i.name(), json, escaped)
        })
        .collect();
    let _spooled = super::spool::keep_stdin(&mut inputs)?;
    let mut sink = args.output.open(&inputs, stdout)?;
    let mut copies_stdout = std::io::sink();
    let mut out_file = match args.duplicates_out.as_deref() {
        Some(p) if p.as_os_str() == "-" || Some(p) == args.output.output.as_deref() => {
            return Err(Failure::usage("--duplicates-out needs a file of its own"));
        }
        Some(p) => Some(super::output::Sink::open(Some(p), args.output.force, &inputs, &mut copies_stdout)?),
        None => None,
    };
    let kinds = Kinds {
        line: args.by.contains(&By::Line),
        end: args.by.contains(&By::Final),
        truncated: args.by.contains(&By::Truncated),
        mirror: args.mirror,
        min_plies: args.min_plies.max(1),
    };
    let batch = args.read.batch()?;

    // Pass 1: every game keyed, and told as every batch command tells it.
    let mut finder = CopyFinder::new(kinds);
    let mut tally = Tally::new(inputs.len());
    let mut formats: Vec<&'static str> = Vec::with_capacity(inputs.len());
    // Nothing is selected: every game is told, and each input's end.
    let selection = Arc::new(Selection::default());
    let make = || CopyFinder::visitor(&selection, kinds);
    super::select::Chooser::every().pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
        match event {
            PassEvent::Game { index, game, .. } => {
                let note = " (keyed on the moves before it)";
                tally.game(Outcome::checked(&meta.source, index, &game.0, note));
                finder.game(&game, true);
            }
            PassEvent::Unreadable { .. } => finder.unreadable(),
            PassEvent::Done => {
                finder.input_done();
                formats.push(meta.format);
            }
            PassEvent::NoRecord { .. } => {}
        }
        Ok(())
    })?;
    // Pass 2, with --by truncated: prefixes of the lines looked up among
    // the whole lines.
    finder.find_truncated(&batch, &inputs, |_| ());
    let groups = finder.groups(args.keep.policy());
    let keyed = finder.keyed();

    // Pass 3: the tags of the members, and the copies, from the inputs
    // that hold them.
    let mut members: Vec<u32> =
        groups.groups().iter().flat_map(|g| g.members.iter().map(|m| m.game)).collect();
    members.sort_unstable();
    let mut tags = TagTable::new(members.clone(), |g| finder.plies(g));
    // What is left to tell of the games is in `groups` and `tags`.
    let numbering = finder.into_numbering();
    let build = out_file.is_some();
    let notation = MoveNotation::Chinese.with(ChineseStyle::Simplified);
    let gathered = |game: u32, (game_tags, record): (Tags, Option<Record>)| {
        if !tags.has(game) {
            return Ok(());
        }
        if let (Some(file), Some(record)) = (out_file.as_mut(), record)
            && groups.verdict(game) != qipu::dedupe::Verdict::Keep
        {
            file.write_all((pgn::write(&record, notation) + "\n").as_bytes())?;
        }
        tags.set(game, &game_tags);
        Ok::<(), Failure>(())
    };
    numbering.reread(&batch, &inputs, members, || Gather::new(build), gathered, |_| ())?;
    let place = |game: u32| numbering.place(game);
    for (k, group) in groups.groups().iter().enumerate() {
        match args.format {
            OutputFormat::Text => write_text(&mut sink, k, group, &names, &place, &tags)?,
            OutputFormat::Json => {
                let json = group_json(k, group, &names, &formats, &place, &tags);
                super::write_json(&mut sink, &json)?;
                writeln!(sink)?;
            }
        }
    }
    sink.commit()?;
    if let Some(file) = out_file {
        file.commit()?;
    }
    eprintln!(
        "{}; {keyed} of {} plies or more: {} group(s), {} copies",
        tally.summary(),
        kinds.min_plies,
        groups.groups().len(),
        groups.copies()
    );
    Ok(tally.code())
}

/// Gathers a game's [`Tags`] without replaying it, and builds its record
/// when asked (for `--duplicates-out`).
#[derive(Debug)]
struct Gather {
    tags: Tags,
    builder: Option<RecordBuilder>,
}

impl Gather {
    fn new(build: bool) -> Gather {
        Gather { tags: Tags::default(), builder: build.then(RecordBuilder::default) }
    }
}

impl Visitor for Gather {
    type Output = (Tags, Option<Record>);

    fn begin_game(&mut self, at: Span) {
        if let Some(b) = &mut self.builder {
            b.begin_game(at);
        }
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        if let Some(k) = TAGS.iter().position(|t| t.eq_ignore_ascii_case(name))
            && self.tags[k].is_none()
        {
            self.tags[k] = Some(value.chars().take(200).collect());
        }
        if let Some(b) = &mut self.builder {
            b.tag(name, value, at);
        }
    }

    fn mv(&mut self, mv: &RecordedMove) -> std::ops::ControlFlow<()> {
        match &mut self.builder {
            Some(b) => b.mv(mv),
            None => std::ops::ControlFlow::Break(()),
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some(b) = &mut self.builder {
            b.nag(nag);
        }
    }

    fn comment(&mut self, text: &str) {
        if let Some(b) = &mut self.builder {
            b.comment(text);
        }
    }

    fn comment_before(&mut self, text: &str) {
        if let Some(b) = &mut self.builder {
            b.comment_before(text);
        }
    }

    fn begin_variation(&mut self) -> Skip {
        match &mut self.builder {
            Some(b) => b.begin_variation(),
            None => Skip(true),
        }
    }

    fn end_variation(&mut self) {
        if let Some(b) = &mut self.builder {
            b.end_variation();
        }
    }

    fn result(&mut self, result: GameResult) {
        if let Some(b) = &mut self.builder {
            b.result(result);
        }
    }

    fn warning(&mut self, warning: Warning) {
        if let Some(b) = &mut self.builder {
            b.warning(warning);
        }
    }

    fn unreadable(&mut self, why: Warning) {
        if let Some(b) = &mut self.builder {
            b.unreadable(why);
        }
    }

    fn end_game(&mut self) -> (Tags, Option<Record>) {
        let record = self.builder.as_mut().map(|b| b.end_game());
        (std::mem::take(&mut self.tags), record)
    }

    fn builds_records(&self) -> bool {
        self.builder.is_some()
    }

    fn record(&mut self, record: Record) -> (Tags, Option<Record>) {
        let mut tags = Tags::default();
        for (k, name) in TAGS.iter().enumerate() {
            tags[k] = record.tag(name).map(|v| v.chars().take(200).collect());
        }
        (tags, self.builder.is_some().then_some(record))
    }
}

/// A member as JSON gives it.
#[derive(Debug, Serialize)]
struct MemberJson<'a> {
    source: &'a str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    source_escaped: bool,
    index: usize,
    format: &'static str,
    tags: TagsJson<'a>,
    plies: u32,
    kept: bool,
    why: Option<&'static str>,
    mirrored: bool,
    /// The position in `members` of the member it matches.
    matches: Option<usize>,
}

/// The tags of a member.
#[derive(Debug, Serialize)]
#[allow(non_snake_case)]
struct TagsJson<'a> {
    Red: Option<&'a str>,
    Black: Option<&'a str>,
    Event: Option<&'a str>,
    Date: Option<&'a str>,
}

/// A group as JSON gives it.
#[derive(Debug, Serialize)]
struct GroupJson<'a> {
    group: usize,
    members: Vec<MemberJson<'a>>,
}

fn group_json<'a>(
    k: usize,
    group: &Group,
    names: &'a [(String, String, bool)],
    formats: &[&'static str],
    place: &impl Fn(u32) -> (usize, usize),
    tags: &'a TagTable,
) -> GroupJson<'a> {
    let members = group
        .members
        .iter()
        .map(|m| {
            let (input, index) = place(m.game);
            let tag = |i: usize| tags.get(m.game, i);
            MemberJson {
                source: &names[input].1,
                source_escaped: names[input].2,
                index,
                format: formats.get(input).copied().unwrap_or("unknown"),
                tags: TagsJson { Red: tag(0), Black: tag(1), Event: tag(2), Date: tag(3) },
                plies: tags.plies(m.game),
                kept: m.kept,
                why: m.link.map(|l| l.why.as_str()),
                mirrored: m.link.is_some_and(|l| l.mirrored),
                matches: m.link.and_then(|l| group.members.iter().position(|o| o.game == l.with)),
            }
        })
        .collect();
    GroupJson { group: k, members }
}

/// How a member matches the one it is linked to, in words.
fn why_text(link: &Link, other: &str) -> String {
    let mirrored = if link.mirrored { "mirrored " } else { "" };
    match link.why {
        Why::Line => format!("the {mirrored}line of {other}"),
        Why::End => format!("the {mirrored}final position of {other}, as many plies"),
        Why::Truncated => {
            format!("a truncated copy of {other}{}", if link.mirrored { ", mirrored" } else { "" })
        }
        Why::Longer => {
            format!("{other} is a truncated copy of it{}", if link.mirrored { ", mirrored" } else { "" })
        }
    }
}

fn write_text(
    out: &mut impl Write,
    k: usize,
    group: &Group,
    names: &[(String, String, bool)],
    place: &impl Fn(u32) -> (usize, usize),
    tags: &TagTable,
) -> Result<(), Failure> {
    let name = |game: u32| {
        let (input, index) = place(game);
        format!("{}: game {}", names[input].0, index + 1)
    };
    writeln!(out, "group {} ({} games)", k + 1, group.members.len())?;
    for m in &group.members {
        let mut line = format!(
            "{} {}: {}",
            if m.kept { "  kept" } else { "  copy" },
            name(m.game),
            described(tags, m.game)
        );
        if let Some(link) = &m.link {
            line.push_str(&format!(": {}", why_text(link, &name(link.with))));
        }
        writeln!(out, "{}", super::progress::escaped(&line))?;
    }
    Ok(())
}

/// A game of a group as the text report names it: its players (`?` for
/// the one not named, nothing when neither is), its date when it has one,
/// and its plies.
fn described(tags: &TagTable, game: u32) -> String {
    let tag = |i: usize| tags.get(game, i).filter(|v| !v.trim().is_empty());
    let mut parts = Vec::new();
    if tag(0).is_some() || tag(1).is_some() {
        parts.push(format!("{} – {}", tag(0).unwrap_or("?"), tag(1).unwrap_or("?")));
    }
    if let Some(date) = tag(3) {
        parts.push(date.to_string());
    }
    parts.push(format!("{} plies", tags.plies(game)));
    parts.join(", ")
}
