//! An index open for questions ([`Index`]): which games reach a position
//! (looked up by key, each answer checked by replaying its game), and
//! which reach a sub-position, a material balance or a run of moves (every
//! game replayed from its moves, on several threads).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use super::key::key_of;
use super::manifest::{Manifest, Stamp};
use super::pattern::Pieces;
use super::segment::{GameRecord, Segment, unpack};
use crate::record::GameResult;
use crate::record::replay::Termination;
use crate::select::{Imbalance, Material, MaterialPattern};
use crate::{Board, Color, Move, Position};

/// An index open for questions (see the [module docs](super)).
#[derive(Debug)]
pub struct Index {
    dir: PathBuf,
    manifest: Manifest,
    segments: Vec<Segment>,
    /// The sources the index holds, by number: their place in the manifest.
    live: HashMap<u32, usize>,
    /// The same places, by the sources' names.
    named: HashMap<String, usize>,
}

/// A position of a game that answers a question.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// The segment holding the game (in the index's order).
    pub segment: usize,
    /// The game in its segment (the place of its main line's record: the
    /// same for every line of a game).
    pub game: usize,
    /// The line of the game: 0 the main line, `n` its variation `n` (in
    /// the order the game's record gives its variations, a variation
    /// within a variation after the one it lies in).
    pub line: u32,
    /// The position's ply in its line, from the start of the game: 0 for
    /// the start.
    pub ply: u32,
    /// What the index holds of the game (its main line's record).
    pub(crate) record: GameRecord,
    /// The position found is the left–right mirror of the one asked for
    /// (the pattern's mirror, for a scan), not the position itself.
    pub(crate) mirrored: bool,
}

impl Hit {
    /// The place of its line's record in the segment.
    fn line_at(&self) -> usize {
        self.game + self.line as usize
    }
}

/// What the index holds of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The input it was read from, named as the commands name it.
    pub source: String,
    /// Its number in the input, from 0.
    pub index: u32,
    /// Its result.
    pub result: GameResult,
    /// Whether every move replayed (else its positions stop before the
    /// wrong move).
    pub valid: bool,
    /// The year of its date, if known.
    pub year: Option<u16>,
    /// Red's and Black's Elo, if known.
    pub elo: [Option<u16>; 2],
    /// The plies the index holds of the hit's line, from the start of the
    /// game (of the main line for a main-line hit).
    pub plies: u32,
    /// The hit's line: 0 the main line, `n` the game's variation `n`.
    pub line: u32,
    /// How its main line ends as the rules judge it (checkmate, a
    /// repetition ruled, the move limit, …): `None` when it ends otherwise,
    /// or when the index was made by a qipu that did not hold it.
    pub termination: Option<Termination>,
}

/// A question answered by replaying every game: positions where all the
/// criteria given hold.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Pieces on points ([`Pieces`]).
    pub pieces: Option<Pieces>,
    /// The material on the board.
    pub material: Option<MaterialPattern>,
    /// What one side has more than the other, kind by kind ([`Imbalance`]).
    pub imbalance: Option<Imbalance>,
    /// The side to move.
    pub turn: Option<Color>,
    /// Moves played from the position, in order (a run of the main line;
    /// in an index of all lines, of any line).
    pub sequence: Vec<Move>,
    /// The left–right mirror of `pieces` and `sequence` matches too.
    pub mirror: bool,
}

/// The hits of chunks, by the chunks' numbers.
type ChunkHits = Vec<(usize, Vec<Hit>)>;

/// The games of `from..to` of one segment, replayed.
struct Chunk {
    segment: usize,
    from: usize,
    to: usize,
}

impl Index {
    /// Opens the index `dir` (made by [`Builder`](super::Builder)).
    pub fn open(dir: &Path) -> io::Result<Index> {
        let manifest = Manifest::read(dir)?;
        let segments = manifest
            .segments
            .iter()
            .map(|entry| Segment::open(dir, entry))
            .collect::<io::Result<Vec<_>>>()?;
        let live = manifest.sources.iter().enumerate().map(|(k, s)| (s.id, k)).collect();
        let named = manifest.sources.iter().enumerate().map(|(k, s)| (s.name.clone(), k)).collect();
        Ok(Index { dir: dir.to_path_buf(), manifest, segments, live, named })
    }

    /// The folder of the index.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Whether a position and its left–right mirror share a key.
    pub fn mirror(&self) -> bool {
        self.manifest.mirror
    }

    /// Whether the index holds the games' variations too.
    pub fn all_lines(&self) -> bool {
        self.manifest.all_lines
    }

    /// The games the index holds.
    pub fn games(&self) -> u64 {
        self.manifest.sources.iter().map(|s| s.games).sum()
    }

    /// The positions the index holds (with a key: every position of the
    /// main lines, and of the variations after they branch).
    pub fn positions(&self) -> u64 {
        self.manifest.sources.iter().map(|s| s.positions).sum()
    }

    /// The variations the index holds (none in an index of main lines).
    pub fn variations(&self) -> u64 {
        self.manifest.sources.iter().map(|s| s.variations).sum()
    }

    /// The positions of the variations' own moves (part of
    /// [`positions`](Self::positions)).
    pub fn variation_positions(&self) -> u64 {
        self.manifest.sources.iter().map(|s| s.variation_positions).sum()
    }

    /// The names of the inputs the index holds, with their games.
    pub fn sources(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.manifest.sources.iter().map(|s| (s.name.as_str(), s.games))
    }

    /// What the input `name` was when the index read it (size,
    /// modification time, hash), if the index holds it.
    pub fn stamp_of(&self, name: &str) -> Option<Stamp> {
        self.named.get(name).map(|&k| self.manifest.sources[k].stamp)
    }

    /// What the index holds of the game of `hit`.
    pub fn game(&self, hit: &Hit) -> GameInfo {
        let segment = &self.segments[hit.segment];
        let record = &hit.record;
        let source = self
            .live
            .get(&record.source)
            .map_or_else(String::new, |&k| self.manifest.sources[k].name.clone());
        let known = |n: u16| (n != 0).then_some(n);
        GameInfo {
            source,
            index: record.index,
            result: match record.result {
                1 => GameResult::RedWins,
                2 => GameResult::BlackWins,
                3 => GameResult::Draw,
                _ => GameResult::Unknown,
            },
            valid: record.status == 0,
            year: known(record.year),
            elo: [known(record.elo[0]), known(record.elo[1])],
            plies: (segment.positions_of(hit.line_at()) - 1) as u32,
            line: hit.line,
            termination: record.termination(),
        }
    }

    /// The tags of the game of `hit`, as read.
    pub fn tags(&self, hit: &Hit) -> io::Result<Vec<(String, String)>> {
        Ok(self.segments[hit.segment].tags_of(&hit.record)?.1)
    }

    /// The moves of the line of `hit` that the index holds, from the start
    /// of the game.
    pub fn moves(&self, hit: &Hit) -> io::Result<Vec<Move>> {
        let codes = self.segments[hit.segment].move_codes(hit.line_at(), hit.line_at() + 1)?;
        codes.into_iter().map(|c| unpack(c).ok_or_else(corrupt)).collect()
    }

    /// The start position of a game of segment `s`.
    fn start(&self, s: usize, record: &GameRecord) -> io::Result<Position> {
        if record.flags & 1 == 0 {
            return Ok(Position::start());
        }
        let (fen, _) = self.segments[s].tags_of(record)?;
        fen.and_then(|f| Position::from_fen(&f).ok()).ok_or_else(corrupt)
    }

    /// The positions of the games that reach `board` (with `turn` to move,
    /// or either side when `None`; with `mirror`, its left–right mirror
    /// too), every time they reach it, in the index's order. Each is
    /// checked by replaying its game: no key's collision is an answer.
    pub fn find(&self, board: &Board, turn: Option<Color>, mirror: bool) -> io::Result<Vec<Hit>> {
        let mut boards = vec![board.clone()];
        if mirror || self.manifest.mirror {
            let mirrored = board.mirrored();
            if &mirrored != board {
                boards.push(mirrored);
            }
        }
        let turns: Vec<Color> = match turn {
            Some(t) => vec![t],
            None => Color::ALL.to_vec(),
        };
        let mut keys: Vec<u64> = boards
            .iter()
            .flat_map(|b| turns.iter().map(move |&t| key_of(b, t, self.manifest.mirror)))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut hits = Vec::new();
        for (s, segment) in self.segments.iter().enumerate() {
            let mut candidates: Vec<(usize, u32)> = Vec::new();
            for &key in &keys {
                candidates
                    .extend(segment.lookup(key)?.into_iter().map(|reference| segment.game_of(reference)));
            }
            candidates.sort_unstable();
            candidates.dedup();
            let mut record: Option<(usize, GameRecord)> = None;
            let mut main: Option<(usize, GameRecord)> = None;
            for (g, ply) in candidates {
                let record = match record {
                    Some((at, r)) if at == g => r,
                    _ => {
                        let r = segment.record(g)?;
                        record = Some((g, r));
                        r
                    }
                };
                if !self.live.contains_key(&record.source) {
                    continue;
                }
                let game = g.checked_sub(usize::from(record.line)).ok_or_else(corrupt)?;
                let main_record = match main {
                    _ if record.line == 0 => record,
                    Some((at, r)) if at == game => r,
                    _ => {
                        let r = segment.record(game)?;
                        if r.line != 0 {
                            return Err(corrupt());
                        }
                        main = Some((game, r));
                        r
                    }
                };
                let line = u32::from(record.line);
                let hit = Hit { segment: s, game, line, ply, record: main_record, mirrored: false };
                let (at, turn) = self.board_at(&hit)?;
                if let Some(k) = boards.iter().position(|b| *b == at)
                    && turns.contains(&turn)
                {
                    // `boards[0]` is the position asked for, any other its mirror.
                    hits.push(Hit { mirrored: k > 0, ..hit });
                }
            }
        }
        Ok(hits)
    }

    /// The position of `hit`: its game replayed to its ply.
    pub fn position(&self, hit: &Hit) -> io::Result<Position> {
        let mut pos = self.start(hit.segment, &hit.record)?;
        let codes = self.segments[hit.segment].move_codes(hit.line_at(), hit.line_at() + 1)?;
        for &code in codes.iter().take(hit.ply as usize) {
            let _ = pos.play_unchecked(unpack(code).ok_or_else(corrupt)?);
        }
        Ok(pos)
    }

    /// The placement of `hit` and the side to move there: its game's
    /// board replayed to its ply, the moves only shifting pieces (they
    /// replayed when the index was built), no check worked out.
    pub(crate) fn board_at(&self, hit: &Hit) -> io::Result<(Board, Color)> {
        let start = self.start(hit.segment, &hit.record)?;
        let (mut board, mut turn) = (start.board().clone(), start.turn());
        let codes = self.segments[hit.segment].move_codes(hit.line_at(), hit.line_at() + 1)?;
        for &code in codes.iter().take(hit.ply as usize) {
            shift(&mut board, unpack(code).ok_or_else(corrupt)?)?;
            turn = !turn;
        }
        Ok((board, turn))
    }

    /// The lines of the game of `hit`, main line first, each with its
    /// moves from the start of the game (as move codes). At most
    /// [`MAX_VARIATIONS`](super::MAX_VARIATIONS) + 1 lines of at most
    /// [`MAX_VARIATION_PLIES`](super::MAX_VARIATION_PLIES) plies in all
    /// beside the main line's.
    pub(crate) fn lines_of(&self, hit: &Hit) -> io::Result<Vec<(GameRecord, Vec<u16>)>> {
        let segment = &self.segments[hit.segment];
        let mut records = vec![segment.record(hit.game)?];
        // The variations' records follow the main line's.
        'more: while records.len() <= super::MAX_VARIATIONS {
            let from = hit.game + records.len();
            let block = segment.records(from, (from + 64).min(segment.len()))?;
            if block.is_empty() {
                break;
            }
            for record in block {
                if record.line == 0 {
                    break 'more;
                }
                records.push(record);
            }
        }
        let codes = segment.move_codes(hit.game, hit.game + records.len())?;
        let mut lines = Vec::with_capacity(records.len());
        let mut at = 0;
        for (k, record) in records.into_iter().enumerate() {
            let plies = (segment.positions_of(hit.game + k) - 1) as usize;
            let line = codes.get(at..at + plies).ok_or_else(corrupt)?.to_vec();
            at += plies;
            lines.push((record, line));
        }
        Ok(lines)
    }

    /// The first position of each game where every criterion of `scan`
    /// holds, in the index's order; the games replayed on `jobs` threads.
    /// In an index of all lines, the first of each line: of a variation,
    /// among its own positions (after it branches; with a run of moves,
    /// the positions from which the run plays at least one of its own
    /// moves), so that a game is not found again for the moves its lines
    /// share.
    pub fn scan(&self, scan: &Scan, jobs: usize) -> io::Result<Vec<Hit>> {
        let mirrored = scan.mirror.then(|| Scan {
            pieces: scan.pieces.as_ref().map(Pieces::mirrored),
            sequence: scan.sequence.iter().map(|m| m.flip_horizontal()).collect(),
            ..scan.clone()
        });
        // Chunks of about 1,000 games, shared among the threads.
        let mut chunks = Vec::new();
        for (s, segment) in self.segments.iter().enumerate() {
            let mut from = 0;
            while from < segment.len() {
                let to = (from + 1024).min(segment.len());
                chunks.push(Chunk { segment: s, from, to });
                from = to;
            }
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<io::Result<ChunkHits>> = std::thread::scope(|threads| {
            let workers: Vec<_> = (0..jobs.max(1))
                .map(|_| {
                    threads.spawn(|| {
                        let mut found = Vec::new();
                        loop {
                            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(chunk) = chunks.get(k) else { break };
                            found.push((k, self.scan_chunk(chunk, scan, mirrored.as_ref())?));
                        }
                        Ok(found)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_else(|_| Err(io::Error::other("a search thread failed"))))
                .collect()
        });
        let mut found: Vec<(usize, Vec<Hit>)> = Vec::new();
        for result in results {
            found.extend(result?);
        }
        found.sort_unstable_by_key(|(k, _)| *k);
        Ok(found.into_iter().flat_map(|(_, hits)| hits).collect())
    }

    fn scan_chunk(&self, chunk: &Chunk, scan: &Scan, mirrored: Option<&Scan>) -> io::Result<Vec<Hit>> {
        let segment = &self.segments[chunk.segment];
        let codes = segment.move_codes(chunk.from, chunk.to)?;
        let records = segment.records(chunk.from, chunk.to)?;
        let mut hits = Vec::new();
        let mut at = 0usize;
        let mut moves: Vec<Move> = Vec::new();
        for g in chunk.from..chunk.to {
            let plies = (segment.positions_of(g) - 1) as usize;
            let game_codes = &codes[at..at + plies];
            at += plies;
            let record = records[g - chunk.from];
            if !self.live.contains_key(&record.source) {
                continue;
            }
            let line = usize::from(record.line);
            let game = g.checked_sub(line).ok_or_else(corrupt)?;
            let main = match game.checked_sub(chunk.from) {
                Some(k) => records[k],
                None => segment.record(game)?,
            };
            // The first ply of the line's own: a run of moves from there
            // on plays one of them.
            let own = if line == 0 { 0 } else { record.branch as usize + 1 };
            let first = own.saturating_sub(scan.sequence.len());
            moves.clear();
            for &code in game_codes {
                moves.push(unpack(code).ok_or_else(corrupt)?);
            }
            // The board alone is replayed: no check, no key (the moves
            // replayed when the index was built).
            let start = self.start(chunk.segment, &main)?;
            let mut turn = start.turn();
            let mut board = start.board().clone();
            let counted = scan.material.is_some() || scan.imbalance.is_some();
            let hit = |ply: usize, mirrored: bool| Hit {
                segment: chunk.segment,
                game,
                line: line as u32,
                ply: ply as u32,
                record: main,
                mirrored,
            };
            let mut material = counted.then(|| Material::of(&board));
            for ply in 0..=plies {
                let holds = |scan: &Scan, board: &Board, material: &Option<Material>| {
                    scan.turn.is_none_or(|t| t == turn)
                        && scan.pieces.as_ref().is_none_or(|p| p.matches(board))
                        && scan.material.is_none_or(|m| material.as_ref().is_some_and(|have| m.matches(have)))
                        && scan
                            .imbalance
                            .is_none_or(|m| material.as_ref().is_some_and(|have| m.matches(have)))
                        && moves[ply..].starts_with(&scan.sequence)
                };
                // Whether it holds here (from the line's own positions on),
                // and as the pattern's mirror.
                let found = if ply < first {
                    None
                } else if holds(scan, &board, &material) {
                    Some(false)
                } else if mirrored.is_some_and(|m| holds(m, &board, &material)) {
                    Some(true)
                } else {
                    None
                };
                if let Some(mirrored) = found {
                    hits.push(hit(ply, mirrored));
                    break;
                }
                if let Some(&m) = moves.get(ply) {
                    if let (Some(have), Some(taken)) = (material.as_mut(), board.piece_at(m.to)) {
                        have.take(taken.color, taken.role);
                    }
                    shift(&mut board, m)?;
                    turn = !turn;
                }
            }
        }
        Ok(hits)
    }
}

/// Plays `m` on `board` as a move the index holds: the piece on its
/// square goes to its target (there must be one).
fn shift(board: &mut Board, m: Move) -> io::Result<()> {
    let piece = board.piece_at(m.from).ok_or_else(corrupt)?;
    let _ = board.shift(m.from.index(), m.to.index(), piece);
    Ok(())
}

pub(crate) fn corrupt() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "the index is damaged: a move or a start does not read")
}
