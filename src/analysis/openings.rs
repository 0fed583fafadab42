//! The opening tree of a collection: the first plies of every game from
//! the standard start, with the positions reached by different move orders
//! merged (by position hash), and for each position the games that reached
//! it, their results, Red's score and the ECCO code most of them have.
//!
//! ```
//! use qipu::analysis::openings::OpeningTree;
//! use qipu::analysis::replay::opening;
//! use qipu::formats::pgn;
//! let mut tree = OpeningTree::new(4);
//! let text = "[Event \"a\"]\n1. h2e2 h9g7 2. g3g4 1-0\n[Event \"b\"]\n1. g3g4 h9g7 2. h2e2 0-1\n[Event \"c\"]\n1. h2e2 b9c7 1/2-1/2";
//! for record in pgn::read(text) {
//!     let (start, moves) = opening(&record, 4).unwrap();
//!     tree.add(&start, &moves, record.result, None);
//! }
//! let root = tree.node(0);
//! assert_eq!(root.games, 3);
//! // Two move orders reach the same position after three plies.
//! let merged = tree.nodes().iter().filter(|n| n.ply == 3).collect::<Vec<_>>();
//! assert_eq!(merged.len(), 1);
//! assert_eq!((merged[0].games, merged[0].red_wins, merged[0].black_wins), (2, 1, 1));
//! ```

use std::collections::HashMap;

use crate::record::GameResult;
use crate::{Move, Position};

/// One position of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningNode {
    /// Plies from the start (the first time the position was reached).
    pub ply: usize,
    /// The position's hash.
    pub hash: u64,
    /// The node it was first reached from, and the move played there.
    pub parent: Option<(usize, Move)>,
    /// The moves played from here, in the order first seen.
    pub children: Vec<Edge>,
    /// Games that reached the position.
    pub games: u32,
    /// Of those, won by Red, drawn, won by Black (the rest have no result).
    pub red_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games won by Black.
    pub black_wins: u32,
    /// ECCO codes of the games that reached it, and how many of each.
    pub ecco: Vec<(&'static str, u32)>,
}

impl OpeningNode {
    /// A position first reached at `ply` from `parent`, with no game yet.
    fn new(ply: usize, hash: u64, parent: Option<(usize, Move)>) -> OpeningNode {
        OpeningNode {
            ply,
            hash,
            parent,
            children: Vec::new(),
            games: 0,
            red_wins: 0,
            draws: 0,
            black_wins: 0,
            ecco: Vec::new(),
        }
    }

    /// Red's score over the games with a result: a win 1, a draw ½.
    pub fn score(&self) -> Option<f64> {
        score(self.red_wins, self.draws, self.black_wins)
    }

    /// The ECCO code most of its games have (the first such code on a tie).
    pub fn main_ecco(&self) -> Option<&'static str> {
        main_ecco(&self.ecco)
    }
}

/// Red's score over `red_wins`, `draws` and `black_wins`: a win 1, a draw
/// ½; `None` when no game has a result.
pub(crate) fn score(red_wins: u32, draws: u32, black_wins: u32) -> Option<f64> {
    let decided = red_wins + draws + black_wins;
    (decided > 0).then(|| (f64::from(red_wins) + f64::from(draws) / 2.0) / f64::from(decided))
}

/// Counts a game's result in the counts of Red's wins, draws and Black's
/// wins (a game without one in none).
pub(crate) fn count_result(
    result: Option<GameResult>,
    red_wins: &mut u32,
    draws: &mut u32,
    black_wins: &mut u32,
) {
    match result {
        Some(GameResult::RedWins) => *red_wins += 1,
        Some(GameResult::Draw) => *draws += 1,
        Some(GameResult::BlackWins) => *black_wins += 1,
        Some(GameResult::Unknown) | None => {}
    }
}

/// Counts one more game of ECCO code `code`.
pub(crate) fn count_ecco(counts: &mut Vec<(&'static str, u32)>, code: &'static str) {
    match counts.iter_mut().find(|(known, _)| *known == code) {
        Some((_, n)) => *n += 1,
        None => counts.push((code, 1)),
    }
}

/// The code most games have (the first such code on a tie).
pub(crate) fn main_ecco(counts: &[(&'static str, u32)]) -> Option<&'static str> {
    let most = counts.iter().map(|&(_, n)| n).max()?;
    counts.iter().find(|&&(_, n)| n == most).map(|&(code, _)| code)
}

/// A move played from a position of the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The move.
    pub m: Move,
    /// The node it leads to.
    pub node: usize,
    /// Games that played it here. The node it leads to may count more:
    /// games that reached the same position by another move order.
    pub games: u32,
}

/// The tree of the first plies of many games.
#[derive(Clone, Debug)]
pub struct OpeningTree {
    plies: usize,
    nodes: Vec<OpeningNode>,
    by_hash: HashMap<u64, usize>,
    /// Nodes counted for the game being added (a position reached twice
    /// counts the game once).
    seen: Vec<usize>,
    /// Edges (node, child) counted for the game being added.
    seen_edges: Vec<(usize, usize)>,
}

impl OpeningTree {
    /// An empty tree of the first `plies` plies.
    pub fn new(plies: usize) -> OpeningTree {
        let root = OpeningNode::new(0, Position::start().hash(), None);
        let by_hash = HashMap::from([(root.hash, 0)]);
        OpeningTree { plies, nodes: vec![root], by_hash, seen: Vec::new(), seen_edges: Vec::new() }
    }

    /// How many plies the tree holds.
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// The nodes; node 0 is the start position.
    pub fn nodes(&self) -> &[OpeningNode] {
        &self.nodes
    }

    /// Node `id`.
    pub fn node(&self, id: usize) -> &OpeningNode {
        &self.nodes[id]
    }

    /// Adds a game: its start position, its first legal moves, its result
    /// and its ECCO code. Games from another start are left out (false).
    pub fn add(
        &mut self,
        start: &Position,
        moves: &[Move],
        result: Option<GameResult>,
        ecco: Option<&'static str>,
    ) -> bool {
        if *start != Position::start() {
            return false;
        }
        let mut pos = start.clone();
        let mut at = 0;
        self.seen.clear();
        self.seen_edges.clear();
        self.count(0, result, ecco);
        for (ply, &m) in moves.iter().take(self.plies).enumerate() {
            let _ = pos.play_unchecked(m);
            let hash = pos.hash();
            let next = match self.by_hash.get(&hash) {
                Some(&id) => id,
                None => {
                    let id = self.nodes.len();
                    self.nodes.push(OpeningNode::new(ply + 1, hash, Some((at, m))));
                    self.by_hash.insert(hash, id);
                    id
                }
            };
            let children = &mut self.nodes[at].children;
            let edge = match children.iter().position(|e| e.node == next) {
                Some(k) => k,
                None => {
                    children.push(Edge { m, node: next, games: 0 });
                    children.len() - 1
                }
            };
            if !self.seen_edges.contains(&(at, next)) {
                self.seen_edges.push((at, next));
                self.nodes[at].children[edge].games += 1;
            }
            self.count(next, result, ecco);
            at = next;
        }
        true
    }

    fn count(&mut self, id: usize, result: Option<GameResult>, ecco: Option<&'static str>) {
        if self.seen.contains(&id) {
            return;
        }
        self.seen.push(id);
        let node = &mut self.nodes[id];
        node.games += 1;
        count_result(result, &mut node.red_wins, &mut node.draws, &mut node.black_wins);
        if let Some(code) = ecco {
            count_ecco(&mut node.ecco, code);
        }
    }

    /// The position of node `id`, replayed along the moves that first
    /// reached it.
    pub fn position(&self, id: usize) -> Position {
        let mut path = Vec::new();
        let mut at = id;
        while let Some((parent, m)) = self.nodes[at].parent {
            path.push(m);
            at = parent;
        }
        let mut pos = Position::start();
        for &m in path.iter().rev() {
            let _ = pos.play_unchecked(m);
        }
        pos
    }

    /// The moves played from node `id` whose position has at least
    /// `min_games` games, the most played position first.
    pub fn children(&self, id: usize, min_games: u32) -> Vec<Edge> {
        let mut children: Vec<Edge> = self.nodes[id]
            .children
            .iter()
            .copied()
            .filter(|e| self.nodes[e.node].games >= min_games)
            .collect();
        children.sort_by_key(|e| std::cmp::Reverse(self.nodes[e.node].games));
        children
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::replay::opening;
    use crate::formats::pgn;

    #[test]
    fn counts_each_game_once_per_position_and_keeps_other_starts_out() {
        let mut tree = OpeningTree::new(6);
        // 车一进一 车９进１ 车一退一 车９退１ returns to the start position.
        let games =
            "1. a0a1 a9a8 2. a1a0 a8a9 3. h2e2 1-0\n\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n1. e0d0 *\n";
        let mut added = 0;
        for record in pgn::read(games) {
            let (start, moves) = opening(&record, 6).unwrap();
            added += usize::from(tree.add(&start, &moves, record.result, Some("A00")));
        }
        assert_eq!(added, 1);
        assert_eq!(tree.node(0).games, 1, "the start, reached twice, counts once");
        assert_eq!(tree.node(0).red_wins, 1);
        assert_eq!(tree.node(0).main_ecco(), Some("A00"));
        assert_eq!(tree.node(0).score(), Some(1.0));
        let after = tree.children(0, 1);
        assert_eq!(after.len(), 2, "a0a1 and, from the start again, h2e2");
        let first = tree.position(after[0].node);
        assert_eq!(first.hash(), tree.node(after[0].node).hash);
        assert_eq!(after[0].games, 1);
    }
}
