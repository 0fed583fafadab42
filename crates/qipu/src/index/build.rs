//! Building and updating an index ([`Builder`]): games are added as a
//! batch reads them, in input order; inputs unchanged since the last
//! build are not read again, and a changed one replaces what the index
//! held of it.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use super::follow::Line;
use super::manifest::{self, Manifest, SourceEntry, Stamp};
use super::segment::{GameData, GameRecord, KINDS, SegmentWriter, file_name};
use crate::batch::{Checked, Status};
use crate::record::GameResult;
use crate::record::date::PartialDate;

/// What a build did: its counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildSummary {
    /// Games added.
    pub games: u64,
    /// Their positions with a key (the main lines', and in an index of all
    /// lines the variations' own).
    pub positions: u64,
    /// Their variations (in an index of all lines).
    pub variations: u64,
    /// The positions of the variations' own moves (part of `positions`).
    pub variation_positions: u64,
    /// Variations left out (past the bounds of one game's, see
    /// [`MAX_VARIATIONS`](super::follow::MAX_VARIATIONS)).
    pub variations_left_out: u64,
    /// Games read that hold no position (their start is no legal
    /// position, or they could not be read): not in the index.
    pub without_positions: u64,
    /// Inputs read (new or changed).
    pub inputs_read: u64,
    /// Inputs left as they were (unchanged since the last build).
    pub inputs_unchanged: u64,
    /// Inputs that replaced what the index held of them (changed).
    pub inputs_replaced: u64,
    /// Inputs dropped: their files are gone.
    pub inputs_dropped: Vec<String>,
    /// The games and positions the index holds now.
    pub total_games: u64,
    /// See `total_games`.
    pub total_positions: u64,
    /// The variations the index holds now.
    pub total_variations: u64,
}

/// What an index is made with: kept for its life (an index asked to be
/// updated with others refuses).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexOptions {
    /// A position and its left–right mirror share a key.
    pub mirror: bool,
    /// The positions of the games' variations are indexed too.
    pub all_lines: bool,
}

/// Whether an input is to be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The index holds it as it is now: not read.
    Unchanged,
    /// New or changed: read it.
    Read,
}

/// Adds games to an index, creating it when it is not there.
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::index::{Builder, Index, IndexFollower};
/// let dir = std::env::temp_dir().join(format!("qipu-doc-index-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&dir);
/// let mut builder = Builder::open(&dir, false).unwrap();
/// let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 2. h0g2 *\n\n1. b0c2 h9g7 2. h2e2 *\n", &mut Checker::following(IndexFollower::new(false)));
/// builder.start_source("games.pgn", None).unwrap();
/// for (k, game) in games.iter().enumerate() {
///     builder.add(k, game).unwrap();
/// }
/// builder.finish().unwrap();
/// let index = Index::open(&dir).unwrap();
/// assert_eq!((index.games(), index.positions()), (2, 8));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct Builder {
    dir: PathBuf,
    manifest: Manifest,
    writer: Option<SegmentWriter>,
    /// The source games are being added to.
    current: Option<SourceEntry>,
    /// The stamps of the inputs planned to be read, by name.
    stamps: HashMap<String, Stamp>,
    /// The sources added by this build.
    added: Vec<SourceEntry>,
    summary: BuildSummary,
}

impl Builder {
    /// Opens the index `dir` to add games, or creates it (an empty folder
    /// or none); a new index merges each position with its left–right
    /// mirror when `mirror`. An index keeps what it was made with: an
    /// existing one asked for another `mirror` is an error.
    pub fn open(dir: &Path, mirror: bool) -> io::Result<Builder> {
        Builder::open_with(dir, IndexOptions { mirror, all_lines: false })
    }

    /// As [`open`](Self::open), with all the options: a new index of all
    /// lines (`options.all_lines`) holds each game's variations too (games
    /// followed by [`IndexFollower::all_lines`](super::IndexFollower::all_lines)).
    /// An existing index asked for other options is an error naming it.
    pub fn open_with(dir: &Path, options: IndexOptions) -> io::Result<Builder> {
        let IndexOptions { mirror, all_lines } = options;
        let manifest = if Manifest::path(dir).exists() {
            let manifest = Manifest::read(dir)?;
            if manifest.all_lines != all_lines {
                let (has, asked) = if manifest.all_lines {
                    ("holds variations", "without")
                } else {
                    ("holds main lines only", "with")
                };
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{}: the index {has}; it cannot be updated {asked} --all-lines (build a new one)",
                        dir.display()
                    ),
                ));
            }
            if manifest.mirror != mirror {
                let (has, asked) = if manifest.mirror { ("merges", "without") } else { ("keeps", "with") };
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{}: the index {has} mirrored positions apart; it cannot be updated {asked} --mirror (build a new one)",
                        dir.display()
                    ),
                ));
            }
            manifest
        } else {
            if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{}: not an index, and not an empty folder", dir.display()),
                ));
            }
            std::fs::create_dir_all(dir)?;
            Manifest { mirror, all_lines, ..Manifest::default() }
        };
        Ok(Builder {
            dir: dir.to_path_buf(),
            manifest,
            writer: None,
            current: None,
            stamps: HashMap::new(),
            added: Vec::new(),
            summary: BuildSummary::default(),
        })
    }

    /// Whether positions and their mirrors share keys in this index.
    pub fn mirror(&self) -> bool {
        self.manifest.mirror
    }

    /// Whether this index holds the games' variations.
    pub fn all_lines(&self) -> bool {
        self.manifest.all_lines
    }

    /// The follower that makes what [`add`](Self::add) takes for this
    /// index.
    pub fn follower(&self) -> super::IndexFollower {
        if self.manifest.all_lines {
            super::IndexFollower::all_lines(self.manifest.mirror)
        } else {
            super::IndexFollower::new(self.manifest.mirror)
        }
    }

    /// Whether the input `name`, read from the file `path`, is to be read:
    /// not when the index holds it with the same size and modification
    /// time, or the same size and bytes.
    pub fn plan(&mut self, name: &str, path: &Path) -> io::Result<Plan> {
        let meta = std::fs::metadata(path)?;
        let held = self.manifest.sources.iter().find(|s| s.name == name).map(|s| s.stamp);
        if let Some(held) = held
            && held.size == meta.len()
            && held.modified == manifest::modified(&meta)
        {
            self.summary.inputs_unchanged += 1;
            return Ok(Plan::Unchanged);
        }
        let stamp = manifest::stamp(path)?;
        if let Some(held) = held
            && held.size == stamp.size
            && held.hash == stamp.hash
        {
            // Touched, not changed: keep it, with its new time.
            if let Some(s) = self.manifest.sources.iter_mut().find(|s| s.name == name) {
                s.stamp = stamp;
            }
            self.summary.inputs_unchanged += 1;
            return Ok(Plan::Unchanged);
        }
        self.stamps.insert(name.to_string(), stamp);
        Ok(Plan::Read)
    }

    /// Drops the sources whose files are gone (`exists` tells, by name):
    /// their names.
    pub fn drop_missing(&mut self, exists: impl Fn(&str) -> bool) -> Vec<String> {
        let (kept, gone): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.manifest.sources).into_iter().partition(|s| exists(&s.name));
        self.manifest.sources = kept;
        let names: Vec<String> = gone.into_iter().map(|s| s.name).collect();
        self.summary.inputs_dropped.extend(names.iter().cloned());
        names
    }

    /// Starts the games of the input `name` (its stamp from
    /// [`plan`](Self::plan), or the one given; an input of bytes has
    /// none): games added next are its own.
    pub fn start_source(&mut self, name: &str, stamp: Option<Stamp>) -> io::Result<()> {
        if self.current.as_ref().is_some_and(|s| s.name == name) {
            return Ok(());
        }
        self.end_source();
        let stamp = stamp.or_else(|| self.stamps.get(name).copied()).unwrap_or(Stamp {
            size: 0,
            modified: 0,
            hash: 0,
        });
        let id = self.manifest.next_source;
        self.manifest.next_source += 1;
        let segment = self.segment_number()?;
        self.current = Some(SourceEntry {
            id,
            segment,
            games: 0,
            positions: 0,
            variations: 0,
            variation_positions: 0,
            stamp,
            name: name.to_string(),
        });
        self.summary.inputs_read += 1;
        Ok(())
    }

    fn end_source(&mut self) {
        if let Some(source) = self.current.take() {
            self.added.push(source);
        }
    }

    /// The number of the segment being written, started when none is.
    fn segment_number(&mut self) -> io::Result<u32> {
        if self.writer.is_none() {
            let number = self.manifest.segments.iter().map(|s| s.number + 1).max().unwrap_or(0);
            self.writer = Some(SegmentWriter::create(&self.dir, number)?);
            self.manifest.segments.push(super::manifest::SegmentEntry { number, games: 0, positions: 0 });
        }
        Ok(self.manifest.segments.last().expect("a segment").number)
    }

    /// Adds game `index` (from 0) of the current source, as a checker
    /// following an [`IndexFollower`](super::IndexFollower) made it (see
    /// [`follower`](Self::follower); the variations of a game are left out
    /// of an index of main lines); whether it holds positions (one whose
    /// start is no legal position, or that could not be read, is counted,
    /// not held).
    pub fn add(&mut self, index: usize, game: &Checked<Line>) -> io::Result<bool> {
        let line = &game.followed;
        if line.keys.is_empty() || game.status == Status::Unreadable {
            self.summary.without_positions += 1;
            return Ok(false);
        }
        let Some(source) = &mut self.current else {
            return Err(io::Error::other("a game added before its source"));
        };
        let all_lines = self.manifest.all_lines;
        let record = GameRecord {
            source: source.id,
            index: u32::try_from(index).unwrap_or(u32::MAX),
            result: match game.result {
                Some(GameResult::RedWins) => 1,
                Some(GameResult::BlackWins) => 2,
                Some(GameResult::Draw) => 3,
                _ => 0,
            },
            status: u8::from(game.status == Status::Illegal),
            flags: u8::from(line.start.is_some()),
            ending: GameRecord::ending_of(game.replayed.termination),
            year: game.date.as_deref().and_then(PartialDate::read).map_or(0, |d| d.year),
            elo: [elo(game, "RedElo"), elo(game, "BlackElo")],
            ..GameRecord::default()
        };
        let writer = self.writer.as_mut().expect("a source has a segment");
        let references = if all_lines { line.references() } else { line.keys.len() as u64 };
        if !writer.fits(references) {
            return Err(io::Error::other(
                "a segment holds at most 4,294,967,295 positions: index the inputs in several builds",
            ));
        }
        let added = writer.add(GameData {
            record,
            start: line.start.as_deref(),
            tags: &game.tags,
            line,
            all_lines,
        })?;
        source.games += 1;
        source.positions += added.positions;
        source.variations += added.variations;
        source.variation_positions += added.variation_positions;
        self.summary.games += 1;
        self.summary.positions += added.positions;
        self.summary.variations += added.variations;
        self.summary.variation_positions += added.variation_positions;
        if all_lines {
            self.summary.variations_left_out += u64::from(line.left_out);
        }
        Ok(true)
    }

    /// Ends the build: writes the segment, and the manifest with the
    /// sources read (replacing those of the same names); removes the
    /// segments that no source uses any more.
    pub fn finish(mut self) -> io::Result<BuildSummary> {
        self.end_source();
        if let Some(writer) = self.writer.take() {
            let entry = writer.finish()?;
            *self.manifest.segments.last_mut().expect("the segment") = entry;
        }
        for source in std::mem::take(&mut self.added) {
            if let Some(old) = self.manifest.sources.iter_mut().find(|s| s.name == source.name) {
                *old = source;
                self.summary.inputs_replaced += 1;
            } else {
                self.manifest.sources.push(source);
            }
        }
        let used: std::collections::HashSet<u32> = self.manifest.sources.iter().map(|s| s.segment).collect();
        let (kept, unused): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.manifest.segments).into_iter().partition(|s| used.contains(&s.number));
        self.manifest.segments = kept;
        self.manifest.write(&self.dir)?;
        for segment in unused {
            for kind in KINDS {
                let _ = std::fs::remove_file(file_name(&self.dir, segment.number, kind));
            }
        }
        let games = self.manifest.sources.iter().map(|s| s.games).sum();
        let positions = self.manifest.sources.iter().map(|s| s.positions).sum();
        self.summary.total_games = games;
        self.summary.total_positions = positions;
        self.summary.total_variations = self.manifest.sources.iter().map(|s| s.variations).sum();
        Ok(self.summary)
    }
}

/// The Elo the tag `name` gives, 0 when none.
fn elo(game: &Checked<Line>, name: &str) -> u16 {
    game.tags
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .and_then(|(_, v)| v.trim().parse::<u16>().ok())
        .unwrap_or(0)
}
