//! The opening explorer's question: from a position, which moves were
//! played, how often, with what results ([`Index::explore`]).

use std::collections::HashSet;
use std::io;

use super::search::{Hit, Index, corrupt};
use super::segment::unpack;
use crate::record::GameResult;
use crate::{Board, Color, Move};

/// Results of a set of games.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games (times the position was reached, with this move next).
    pub games: u64,
    /// Red won.
    pub red_wins: u64,
    /// Black won.
    pub black_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// The sum of the years of the games with a known year, and their count.
    year_sum: u64,
    years: u64,
}

impl Tally {
    fn add(&mut self, result: GameResult, year: Option<u16>) {
        self.games += 1;
        match result {
            GameResult::RedWins => self.red_wins += 1,
            GameResult::BlackWins => self.black_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Unknown => {}
        }
        if let Some(year) = year {
            self.year_sum += u64::from(year);
            self.years += 1;
        }
    }

    /// Games with a result (won, lost or drawn).
    pub fn decided(&self) -> u64 {
        self.red_wins + self.black_wins + self.draws
    }

    /// Red's score over the games with a result: a win 1, a draw ½; `None`
    /// when no game has one.
    pub fn red_score(&self) -> Option<f64> {
        let decided = self.decided();
        (decided > 0).then(|| (self.red_wins as f64 + self.draws as f64 / 2.0) / decided as f64)
    }

    /// The mean year of the games with a known year.
    pub fn mean_year(&self) -> Option<f64> {
        (self.years > 0).then(|| self.year_sum as f64 / self.years as f64)
    }
}

/// A move played from the explored position.
#[derive(Clone, Debug, PartialEq)]
pub struct Continuation {
    /// The move, as it is played in the position asked about (a move of a
    /// mirrored game is mirrored back).
    pub mv: Move,
    /// Its games and their results.
    pub tally: Tally,
    /// The best-known game with it: the one whose players' mean Elo is the
    /// highest (a player without Elo counts 0), then the latest, then the
    /// first in the index.
    pub best: Hit,
}

/// What was played from a position ([`Index::explore`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Explored {
    /// Every time a game reached the position (in an index of all lines,
    /// each place of a game's tree there once, however many of its lines
    /// pass it).
    pub total: Tally,
    /// The games that end there (no move played from it).
    pub ended: Tally,
    /// The moves played from it, the most played first (then by Red's
    /// score, then by the move).
    pub moves: Vec<Continuation>,
}

/// A place of a game's tree at the explored position: a hit there, and
/// each move played from it with a hit of a line that plays it.
type Place = (Hit, Vec<(Move, Hit)>);

impl Index {
    /// The moves played from `board` with `turn` to move (with `mirror`,
    /// from its left–right mirror too, its moves mirrored back), with how
    /// often, the results, the mean year and the best-known game of each.
    ///
    /// ```
    /// use qipu::batch::Checker;
    /// use qipu::index::{Builder, Index, IndexFollower};
    /// let dir = std::env::temp_dir().join(format!("qipu-doc-explore-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// let text = "[RedElo \"2600\"]\n1. h2e2 h9g7 1-0\n\n1. h2e2 h9g7 0-1\n\n1. h2e2 b9c7 1/2-1/2\n\n1. b2e2 *\n";
    /// let games = qipu::formats::pgn::read_with(text, &mut Checker::following(IndexFollower::new(false)).keep_all_tags());
    /// let mut builder = Builder::open(&dir, false)?;
    /// builder.start_source("g.pgn", None)?;
    /// for (k, game) in games.iter().enumerate() {
    ///     builder.add(k, game)?;
    /// }
    /// builder.finish()?;
    /// let index = Index::open(&dir)?;
    /// let after = qipu::Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")?;
    /// let explored = index.explore(after.board(), after.turn(), false)?;
    /// assert_eq!(explored.total.games, 3);
    /// assert_eq!(explored.moves[0].mv.to_string(), "h9g7");
    /// assert_eq!((explored.moves[0].tally.games, explored.moves[0].tally.red_score()), (2, Some(0.5)));
    /// assert_eq!(index.game(&explored.moves[0].best).elo[0], Some(2600));
    /// // The mirrored first move b2e2 reaches the mirror of the position.
    /// assert_eq!(index.explore(after.board(), after.turn(), true)?.total.games, 4);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explore(&self, board: &Board, turn: Color, mirror: bool) -> io::Result<Explored> {
        let hits = self.find(board, Some(turn), mirror)?;
        let mut explored = Explored::default();
        let mut moves: Vec<(Move, Tally, Hit, (u32, u16))> = Vec::new();
        for game_hits in hits.chunk_by(|a, b| (a.segment, a.game) == (b.segment, b.game)) {
            for (hit, nexts) in self.nodes(game_hits)? {
                let game = self.game(&hit);
                explored.total.add(game.result, game.year);
                if nexts.is_empty() {
                    explored.ended.add(game.result, game.year);
                    continue;
                }
                // A game that reached the mirror: its moves, mirrored back
                // (`find` knows which it reached).
                let mirrored = hit.mirrored;
                let rank = (
                    u32::from(game.elo[0].unwrap_or(0)) + u32::from(game.elo[1].unwrap_or(0)),
                    game.year.unwrap_or(0),
                );
                for (next, by) in nexts {
                    let next = if mirrored { next.flip_horizontal() } else { next };
                    match moves.iter_mut().find(|(m, ..)| *m == next) {
                        Some((_, tally, best, best_rank)) => {
                            tally.add(game.result, game.year);
                            if rank > *best_rank {
                                (*best, *best_rank) = (by, rank);
                            }
                        }
                        None => {
                            let mut tally = Tally::default();
                            tally.add(game.result, game.year);
                            moves.push((next, tally, by, rank));
                        }
                    }
                }
            }
        }
        moves.sort_by(|a, b| {
            b.1.games
                .cmp(&a.1.games)
                .then(b.1.red_score().unwrap_or(0.0).total_cmp(&a.1.red_score().unwrap_or(0.0)))
                .then(a.0.cmp(&b.0))
        });
        explored.moves =
            moves.into_iter().map(|(mv, tally, best, _)| Continuation { mv, tally, best }).collect();
        Ok(explored)
    }

    /// The places of the game tree that `hits` (of one game, in the
    /// index's order) are, each once, with the moves played from it: one
    /// hit of a line playing each (in an index of main lines, the main
    /// line's next move). Lines of a game that share the moves up to a
    /// hit's ply are at the same place: its moves are those any of them
    /// plays next, each counted once.
    fn nodes(&self, hits: &[Hit]) -> io::Result<Vec<Place>> {
        let Some(first) = hits.first() else { return Ok(Vec::new()) };
        if !self.all_lines() {
            return hits
                .iter()
                .map(|&hit| {
                    Ok((
                        hit,
                        self.moves(&hit)?.get(hit.ply as usize).map(|&m| (m, hit)).into_iter().collect(),
                    ))
                })
                .collect();
        }
        let lines = self.lines_of(first)?;
        let mut seen: HashSet<&[u16]> = HashSet::new();
        let mut nodes = Vec::new();
        for &hit in hits {
            let ply = hit.ply as usize;
            let path = lines.get(hit.line as usize).map(|(_, codes)| codes.as_slice()).ok_or_else(corrupt)?;
            let prefix = path.get(..ply).ok_or_else(corrupt)?;
            if !seen.insert(prefix) {
                continue;
            }
            let mut nexts: Vec<(Move, Hit)> = Vec::new();
            for (k, (record, codes)) in lines.iter().enumerate() {
                // A variation that branches later plays the move of a line
                // it lies in there.
                if (k > 0 && record.branch as usize > ply) || codes.get(..ply) != Some(prefix) {
                    continue;
                }
                let Some(&code) = codes.get(ply) else { continue };
                let next = unpack(code).ok_or_else(corrupt)?;
                if !nexts.iter().any(|(m, _)| *m == next) {
                    nexts.push((next, Hit { line: k as u32, ..hit }));
                }
            }
            nodes.push((hit, nexts));
        }
        Ok(nodes)
    }
}
