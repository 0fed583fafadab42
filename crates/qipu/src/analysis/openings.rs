//! The opening tree of a collection: the first plies of every game from
//! the standard start, with the positions reached by different move orders
//! merged (by position hash), and for each position the games that reached
//! it, their results, Red's score and the ECCO code most of them have.
//!
//! ```
//! use qipu::analysis::openings::OpeningTree;
//! use qipu::record::replay::opening;
//! use qipu::formats::pgn;
//! let mut tree = OpeningTree::new(4);
//! let text = "[Event \"a\"]\n1. h2e2 h9g7 2. g3g4 1-0\n[Event \"b\"]\n1. g3g4 h9g7 2. h2e2 0-1\n[Event \"c\"]\n1. h2e2 b9c7 1/2-1/2";
//! for record in pgn::read(text) {
//!     let (start, moves) = opening(&record, 4).unwrap();
//!     tree.add(&start, &moves, record.written_result(), None);
//! }
//! let root = tree.node(0);
//! assert_eq!(root.games, 3);
//! // Two move orders reach the same position after three plies.
//! let merged = tree.nodes().iter().filter(|n| n.ply == 3).collect::<Vec<_>>();
//! assert_eq!(merged.len(), 1);
//! assert_eq!((merged[0].games, merged[0].red_wins, merged[0].black_wins), (2, 1, 1));
//! ```

use std::collections::HashMap;

use crate::record::{GameResult, MoveText, Record, RecordedMove, Span};
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

    /// Its counts as the tree's lines and comments give them: `12 game(s),
    /// +5 =4 -3, Red 58.3%, B05` (Red's score when a game has a result, the
    /// main ECCO code when known).
    pub fn summary(&self) -> String {
        let mut s =
            format!("{} game(s), +{} ={} -{}", self.games, self.red_wins, self.draws, self.black_wins);
        if let Some(score) = self.score() {
            s.push_str(&format!(", Red {:.1}%", 100.0 * score));
        }
        if let Some(code) = self.main_ecco() {
            s.push_str(&format!(", {code}"));
        }
        s
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

/// A move of the tree as [`OpeningTree::walk`] visits it.
#[derive(Copy, Clone, Debug)]
pub struct Visit<'a> {
    /// The move and the node it leads to.
    pub edge: Edge,
    /// The ply of the position it leads to on the line walked.
    pub ply: usize,
    /// The position it is played in (the position of the node it is
    /// played from).
    pub before: &'a Position,
    /// The position it leads to: that of [`Edge::node`], as
    /// [`OpeningTree::position`] gives it.
    pub after: &'a Position,
    /// The position was reached before on the walk, by another move
    /// order: its moves are not walked again.
    pub transposition: bool,
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

    /// The position of every node, by id: each played from its parent's
    /// (node 0 is the start), not replayed from the start. Each is the
    /// position [`OpeningTree::position`] gives.
    pub fn positions(&self) -> Vec<Position> {
        let mut positions: Vec<Position> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let pos = match node.parent {
                // A parent is made before its children: it is there.
                Some((parent, m)) => {
                    let mut pos = positions[parent].clone();
                    let _ = pos.play_unchecked(m);
                    pos
                }
                None => Position::start(),
            };
            positions.push(pos);
        }
        positions
    }

    /// Walks the tree from the start, each position expanded once, a
    /// node's moves (the most played first, those of positions of at
    /// least `min_games` games) before those of its children: `visit` gets
    /// the value of the node moved from and the [`Visit`] of the move, and
    /// returns the value of the node it leads to. Positions are carried
    /// down the tree ([`OpeningTree::positions`]). The first error of
    /// `visit` ends the walk.
    ///
    /// ```
    /// use qipu::analysis::openings::OpeningTree;
    /// use qipu::record::replay::opening;
    /// let mut tree = OpeningTree::new(2);
    /// for record in qipu::formats::pgn::read("1. h2e2 h9g7 *\n\n1. h2e2 b9c7 *\n\n1. b2e2 *") {
    ///     let (start, moves) = opening(&record, 2).unwrap();
    ///     tree.add(&start, &moves, record.written_result(), None);
    /// }
    /// let mut lines = Vec::new();
    /// tree.walk(1, String::new(), |line: &String, visit| {
    ///     let line = format!("{line}{} ", visit.edge.m);
    ///     lines.push((line.clone(), visit.after.fen()));
    ///     Ok::<_, ()>(line)
    /// })
    /// .unwrap();
    /// let moves: Vec<&str> = lines.iter().map(|(line, _)| line.trim_end()).collect();
    /// assert_eq!(moves, ["h2e2", "b2e2", "h2e2 h9g7", "h2e2 b9c7"]);
    /// ```
    ///
    /// # Errors
    ///
    /// The first error `visit` returns.
    pub fn walk<V, E>(
        &self,
        min_games: u32,
        root: V,
        mut visit: impl FnMut(&V, &Visit<'_>) -> Result<V, E>,
    ) -> Result<(), E> {
        let positions = self.positions();
        let mut expanded = vec![false; self.nodes.len()];
        expanded[0] = true;
        let mut stack = vec![(0usize, 0usize, root)];
        while let Some((id, ply, value)) = stack.pop() {
            if ply >= self.plies {
                continue;
            }
            let mut deeper = Vec::new();
            for edge in self.children(id, min_games) {
                let child = edge.node;
                let transposition = expanded[child];
                let seen = Visit {
                    edge,
                    ply: ply + 1,
                    before: &positions[id],
                    after: &positions[child],
                    transposition,
                };
                let child_value = visit(&value, &seen)?;
                if !transposition {
                    expanded[child] = true;
                    deeper.push((child, ply + 1, child_value));
                }
            }
            stack.extend(deeper.into_iter().rev());
        }
        Ok(())
    }

    /// The summary of the position a move leads to. When other move
    /// orders reach it too, the games of this move come first and the
    /// position's counts are said to be merged: a move never seems to have
    /// more games than the position it is played from.
    pub fn edge_summary(&self, edge: Edge) -> String {
        let node = self.node(edge.node);
        if edge.games == node.games {
            node.summary()
        } else {
            format!("{} game(s) by this move order; with transpositions: {}", edge.games, node.summary())
        }
    }

    /// The tree as one record (an opening book): the most played line,
    /// the others as variations, the moves of positions of at least
    /// `min_games` games, each move's counts ([`OpeningTree::edge_summary`])
    /// in its comment, the start's in the root's.
    ///
    /// ```
    /// use qipu::analysis::openings::OpeningTree;
    /// let mut tree = OpeningTree::new(2);
    /// let start = qipu::Position::start();
    /// tree.add(&start, &["h2e2".parse().unwrap(), "h9g7".parse().unwrap()], None, None);
    /// tree.add(&start, &["b2e2".parse().unwrap()], None, None);
    /// let book = tree.book(1);
    /// let comments: Vec<&str> = book.tree().main_line().filter_map(|id| book.tree().node(id).comment()).collect();
    /// assert_eq!(comments, ["1 game(s), +0 =0 -0", "1 game(s), +0 =0 -0"]);
    /// assert_eq!(book.tree().children(book.tree().root()).count(), 2);
    /// let pgn = qipu::formats::pgn::write(&book, qipu::notation::Notation::Uci);
    /// assert!(pgn.contains("{2 game(s), +0 =0 -0} 1. h2e2"));
    /// ```
    pub fn book(&self, min_games: u32) -> Record {
        let mut record = Record::default();
        record.push_tag("Event", format!("Opening tree, {} plies", self.plies));
        let root = record.tree().root();
        record.tree_mut().node_mut(root).notes_mut().comment = Some(self.node(0).summary());
        let walked = self.walk(min_games, root, |&at, visit| {
            let moved = RecordedMove { text: MoveText::Coords(visit.edge.m), at: Span::default() };
            let node = record.tree_mut().add_child(at, moved);
            let mut comment = self.edge_summary(visit.edge);
            if visit.transposition {
                comment.push_str(", transposes to a position above");
            }
            record.tree_mut().node_mut(node).notes_mut().comment = Some(comment);
            Ok::<_, std::convert::Infallible>(node)
        });
        let Ok(()) = walked;
        record
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
    use crate::formats::pgn;
    use crate::record::replay::opening;

    #[test]
    fn counts_each_game_once_per_position_and_keeps_other_starts_out() {
        let mut tree = OpeningTree::new(6);
        // 车一进一 车９进１ 车一退一 车９退１ returns to the start position.
        let games =
            "1. a0a1 a9a8 2. a1a0 a8a9 3. h2e2 1-0\n\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n1. e0d0 *\n";
        let mut added = 0;
        for record in pgn::read(games) {
            let (start, moves) = opening(&record, 6).unwrap();
            added += usize::from(tree.add(&start, &moves, record.written_result(), Some("A00")));
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

    /// A tree of `count` random games of `plies` plies (few choices each,
    /// so that lines meet).
    fn random_tree(count: usize, plies: usize, seed: u64) -> OpeningTree {
        let mut state = seed | 1;
        let mut tree = OpeningTree::new(plies);
        for _ in 0..count {
            let mut pos = Position::start();
            let mut moves = Vec::new();
            for _ in 0..plies {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[(state % legal.len().min(4) as u64) as usize];
                let _ = pos.play_unchecked(m);
                moves.push(m);
            }
            let result = [GameResult::RedWins, GameResult::Draw, GameResult::BlackWins][(state % 3) as usize];
            tree.add(&Position::start(), &moves, Some(result), None);
        }
        tree
    }

    #[test]
    fn the_walk_carries_each_nodes_own_position() {
        for seed in 1..6 {
            let tree = random_tree(300, 8, seed);
            let positions = tree.positions();
            assert_eq!(positions.len(), tree.nodes().len());
            for (id, pos) in positions.iter().enumerate() {
                assert_eq!(*pos, tree.position(id), "seed {seed}, node {id}");
                assert_eq!(pos.hash(), tree.node(id).hash);
            }
            let mut reached = vec![false; tree.nodes().len()];
            reached[0] = true;
            let mut visits = 0;
            tree.walk(1, 0usize, |&from, visit| {
                visits += 1;
                assert_eq!(*visit.before, tree.position(from));
                assert_eq!(*visit.after, tree.position(visit.edge.node));
                let mut played = visit.before.clone();
                let _ = played.play_unchecked(visit.edge.m);
                assert_eq!(played.hash(), visit.after.hash());
                assert_eq!(visit.transposition, reached[visit.edge.node]);
                reached[visit.edge.node] = true;
                Ok::<_, ()>(visit.edge.node)
            })
            .unwrap();
            // Every move from the start is walked (deeper, a position first
            // walked to by a longer move order may leave some out).
            assert!(tree.node(0).children.iter().all(|e| reached[e.node]));
            assert!(visits > 0);
            // The book holds a move for every visit.
            let book = tree.book(1);
            let mut moves = 0;
            let mut todo = vec![book.tree().root()];
            while let Some(at) = todo.pop() {
                let children: Vec<_> = book.tree().children(at).collect();
                moves += children.len();
                todo.extend(children);
            }
            assert_eq!(moves, visits);
        }
    }

    #[test]
    fn a_walk_stops_at_the_first_error() {
        let tree = random_tree(50, 4, 7);
        let mut calls = 0;
        let walked = tree.walk(1, (), |_, _| {
            calls += 1;
            if calls == 3 { Err("stop") } else { Ok(()) }
        });
        assert_eq!((walked, calls), (Err("stop"), 3));
    }
}
