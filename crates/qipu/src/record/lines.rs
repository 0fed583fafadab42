//! Each line of a game's move tree as a game of its own (pgn-extract's
//! `--splitvariants`; `qipu convert --variations-as-games`).
//!
//! [`Record::lines`] gives the main line first: the game as it was, its
//! result and tags kept, without its variations. Then each variation, in the
//! order a PGN writer meets them (depth first: a variation's own
//! sub-variations come right after it, before the next variation of the
//! line it leaves), each a game of the moves from the start to where it
//! branches off along the line it leaves, then its own moves along its
//! main continuation (its sub-variations are games of their own).
//!
//! A variation's game:
//!
//! - keeps every tag of the game, the start position (`FEN`) included;
//! - has the unknown result `*` (written after the moves, and in its
//!   `Result` tag when the game has one): the record says nothing of how a
//!   variation ends;
//! - gets the tag [`LINE_TAG`], `[Line "2.1"]`: the line's id as
//!   `qipu fen --all-lines` numbers lines ([`LineId`]): the variations
//!   that branch off a line are numbered 1, 2, 3 … in the order met, and a
//!   variation's id is that of the line it leaves followed by its number
//!   (counted on the tree: a variation written right after a variation's
//!   first move, `(1... b9c7 (1... c9e7))`, is one more alternative on the
//!   line above, `2`, as `fen --all-lines` numbers it for a record read
//!   whole into a tree, where for PGN with tags it says `1.1`);
//! - keeps the comments and annotations of every move it holds (those of
//!   the moves it shares with the main line too), and the comment about
//!   the game.
//!
//! The games are made one at a time, each in time and memory linear in its
//! length; the walk keeps a few words per line met. Nothing recurses.
//!
//! ```
//! use qipu::record::lines::LINE_TAG;
//! let record = &qipu::formats::pgn::read(
//!     "[Result \"1-0\"]\n1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2)) (1... c9e7) 2. h0g2 1-0",
//! )[0];
//! let lines: Vec<(String, Option<String>, String)> = record
//!     .lines()
//!     .map(|line| {
//!         let moves: Vec<String> = line
//!             .record
//!             .tree()
//!             .main_line()
//!             .map(|id| line.record.tree().node(id).mv.as_ref().unwrap().points().unwrap().to_string())
//!             .collect();
//!         (line.id(), line.record.tag(LINE_TAG).map(str::to_string), moves.join(" "))
//!     })
//!     .collect();
//! assert_eq!(
//!     lines,
//!     [
//!         ("0".to_string(), None, "h2e2 h9g7 h0g2".to_string()),
//!         ("1".into(), Some("1".into()), "h2e2 b9c7 h0g2".into()),
//!         ("1.1".into(), Some("1.1".into()), "h2e2 b9c7 b0c2".into()),
//!         ("2".into(), Some("2".into()), "h2e2 c9e7".into()),
//!     ]
//! );
//! let results: Vec<String> = record.lines().map(|l| l.record.result().unwrap().to_string()).collect();
//! assert_eq!(results, ["1-0", "*", "*", "*"]);
//! ```

use super::replay::LineId;
use super::shape::Shape;
use super::{GameResult, MoveTree, NodeId, Record};

/// The tag that names a variation's game: `[Line "1.2"]` (see the
/// [module](self) docs). The main line's game gets none.
pub const LINE_TAG: &str = "Line";

/// One line of a game as a game of its own ([`Record::lines`]).
#[derive(Clone, Debug)]
pub struct Line {
    /// The line's numbers ([`LineId`]): empty for the main line, `[2, 1]`
    /// for the first variation of the second variation of the main line.
    pub numbers: Vec<u32>,
    /// The ply of the line's first move of its own (1 = the game's first
    /// move); 0 for the main line.
    pub ply: usize,
    /// The game: the line's moves, without variations.
    pub record: Record,
}

impl Line {
    /// Whether it is the main line.
    pub fn is_main(&self) -> bool {
        self.numbers.is_empty()
    }

    /// The line's id as text: `0` for the main line, else `1`, `2.1`, ….
    pub fn id(&self) -> String {
        LineId::new(&self.numbers).to_string()
    }
}

/// What the walk does next.
#[derive(Copy, Clone, Debug)]
enum Step {
    /// Go on along line `line` from node `from`: its main continuation,
    /// after the alternatives to it.
    Continue { from: NodeId, line: usize },
    /// The variation whose first move is `start`, leaving line `parent`.
    Variation { start: NodeId, parent: usize },
}

/// A line met: the line it leaves (none for the main line), its number
/// there, and how many variations leave it so far.
#[derive(Copy, Clone, Debug)]
struct Met {
    parent: usize,
    number: u32,
    branches: u32,
}

/// The lines of a record, one game each ([`Record::lines`]).
#[derive(Debug)]
pub struct Lines<'a> {
    record: &'a Record,
    main_given: bool,
    steps: Vec<Step>,
    met: Vec<Met>,
}

impl Record {
    /// Each line of the move tree as a game of its own: the main line
    /// first, then every variation in the order a PGN writer meets them
    /// (see [`record::lines`](crate::record::lines)). A game without variations gives one
    /// game, itself.
    pub fn lines(&self) -> Lines<'_> {
        let root = self.tree.root();
        Lines {
            record: self,
            main_given: false,
            steps: vec![Step::Continue { from: root, line: 0 }],
            met: vec![Met { parent: 0, number: 0, branches: 0 }],
        }
    }
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if !self.main_given {
            self.main_given = true;
            let mut record = self.record.clone();
            // The replay is told from the game's, without a second one.
            Shape { main_line: true, ..Shape::default() }.apply(&mut record);
            return Some(Line { numbers: Vec::new(), ply: 0, record });
        }
        let tree = &self.record.tree;
        while let Some(step) = self.steps.pop() {
            match step {
                Step::Continue { from, line } => {
                    let Some(next) = tree.main_child(from) else { continue };
                    self.steps.push(Step::Continue { from: next, line });
                    let first = self.steps.len();
                    let alternatives =
                        std::iter::successors(tree.next_sibling(next), |&s| tree.next_sibling(s));
                    self.steps.extend(alternatives.map(|start| Step::Variation { start, parent: line }));
                    self.steps[first..].reverse();
                }
                Step::Variation { start, parent } => {
                    self.met[parent].branches += 1;
                    let number = self.met[parent].branches;
                    self.met.push(Met { parent, number, branches: 0 });
                    let line = self.met.len() - 1;
                    self.steps.push(Step::Continue { from: start, line });
                    return Some(self.variation(start, line));
                }
            }
        }
        None
    }
}

impl Lines<'_> {
    /// The numbers of line `line` ([`LineId`]).
    fn numbers(&self, mut line: usize) -> Vec<u32> {
        let mut numbers = Vec::new();
        while line != 0 {
            numbers.push(self.met[line].number);
            line = self.met[line].parent;
        }
        numbers.reverse();
        numbers
    }

    /// The game of the variation that starts with `start`, line `line`.
    fn variation(&self, start: NodeId, line: usize) -> Line {
        let record = self.record;
        let tree = &record.tree;
        // The moves before it, back to the start.
        let mut before: Vec<NodeId> =
            std::iter::successors(tree.node(start).parent, |&p| tree.node(p).parent)
                .filter(|&p| p != tree.root())
                .collect();
        before.reverse();
        let ply = before.len() + 1;
        let own = std::iter::successors(Some(start), |&id| tree.main_child(id));
        let mut new = MoveTree::with_capacity(ply + 1);
        let mut at = new.root();
        new.node_mut(at).notes = tree.node(tree.root()).notes.clone();
        for id in before.into_iter().chain(own) {
            let node = tree.node(id);
            let Some(mv) = node.mv.clone() else { continue };
            at = new.add_child(at, mv);
            new.node_mut(at).notes = node.notes.clone();
        }
        let numbers = self.numbers(line);
        let mut parts = record.clone_without_tree();
        parts.tree = new;
        parts.result = Some(GameResult::Unknown);
        let mut game = Record::from(parts);
        if game.tag("Result").is_some() {
            game.set_tag("Result", GameResult::Unknown.as_str());
        }
        game.set_tag(LINE_TAG, LineId::new(&numbers).to_string());
        Line { numbers, ply, record: game }
    }
}

impl Record {
    /// The record's parts but its moves (an empty tree in their place).
    fn clone_without_tree(&self) -> super::RecordParts {
        super::RecordParts {
            tags: self.tags.clone(),
            tree: MoveTree::default(),
            result: self.result,
            at: self.at,
            start_at: self.start_at,
            warnings: self.warnings.clone(),
            unreadable: self.unreadable.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;

    /// Each line's id, result and moves (as points).
    fn lines(text: &str) -> Vec<(String, String, String)> {
        let record = &pgn::read(text)[0];
        record
            .lines()
            .map(|line| {
                let tree = line.record.tree();
                assert_eq!(tree.variation_count(), 0, "a line has no variation");
                let moves: Vec<String> = tree
                    .main_line()
                    .map(|id| match &tree.node(id).mv.as_ref().unwrap().text {
                        super::super::MoveText::Text(t) => t.to_string(),
                        super::super::MoveText::Coords(m) => m.to_string(),
                    })
                    .collect();
                let result = line.record.result().map_or("none".into(), |r| r.to_string());
                (line.id(), result, moves.join(" "))
            })
            .collect()
    }

    fn owned(want: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
        want.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect()
    }

    #[test]
    fn a_game_without_variations_is_one_game_itself() {
        let text = "[Event \"x\"]\n[Result \"0-1\"]\n1. h2e2 {c} h9g7 2. h0g2 0-1";
        let record = &pgn::read(text)[0];
        let all: Vec<Line> = record.lines().collect();
        assert_eq!(all.len(), 1);
        assert!(all[0].is_main());
        assert_eq!(all[0].record, *record, "unchanged");
        assert_eq!(all[0].record.tag(LINE_TAG), None);
    }

    #[test]
    fn nested_variations_come_depth_first_as_a_pgn_writer_meets_them() {
        let text = concat!(
            "[Result \"1-0\"]\n",
            "1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2 c6c5) (2. h2h6) i9h9) (1... c9e7) ",
            "2. h0g2 (2. b0c2) i9h9 1-0"
        );
        assert_eq!(
            lines(text),
            owned(&[
                ("0", "1-0", "h2e2 h9g7 h0g2 i9h9"),
                ("1", "*", "h2e2 b9c7 h0g2 i9h9"),
                ("1.1", "*", "h2e2 b9c7 b0c2 c6c5"),
                ("1.2", "*", "h2e2 b9c7 h2h6"),
                ("2", "*", "h2e2 c9e7"),
                ("3", "*", "h2e2 h9g7 b0c2"),
            ])
        );
    }

    #[test]
    fn a_variation_of_the_first_move_starts_at_ply_one() {
        let text = "1. h2e2 (1. c3c4 h9g7 (1... b9c7)) (1. b2e2) h9g7 *";
        assert_eq!(
            lines(text),
            owned(&[
                ("0", "*", "h2e2 h9g7"),
                ("1", "*", "c3c4 h9g7"),
                ("1.1", "*", "c3c4 b9c7"),
                ("2", "*", "b2e2"),
            ])
        );
        let record = &pgn::read(text)[0];
        let plies: Vec<usize> = record.lines().map(|l| l.ply).collect();
        assert_eq!(plies, [0, 1, 2, 1]);
    }

    #[test]
    fn tags_comments_and_the_start_stay_the_result_is_unknown() {
        let text = concat!(
            "[Event \"e\"]\n[FEN \"4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\"]\n[Result \"1-0\"]\n",
            "{about} 1. a1a8 {check} (1. a1a5 {slow} $2 e9d9) e9d9 1-0"
        );
        let record = &pgn::read(text)[0];
        let all: Vec<Line> = record.lines().collect();
        assert_eq!(all.len(), 2);
        let v = &all[1].record;
        assert_eq!(v.tag("Event"), Some("e"));
        assert_eq!(v.fen(), record.fen());
        assert_eq!(v.tag("Result"), Some("*"));
        assert_eq!(v.written_result(), Some(GameResult::Unknown));
        assert_eq!(v.tag(LINE_TAG), Some("1"));
        let tree = v.tree();
        assert_eq!(tree.node(tree.root()).comment(), Some("about"));
        let first = tree.main_line().next().unwrap();
        assert_eq!(tree.node(first).comment(), Some("slow"));
        assert_eq!(tree.node(first).nags(), [2]);
        assert!(v.replayed().is_valid(), "{:?}", v.replayed().error);
        assert_eq!(v.replayed().plies, 2);
        assert_eq!(all[0].record.tag("Result"), Some("1-0"));
        assert!(all[0].record.replayed().is_valid());
    }

    #[test]
    fn a_line_through_an_illegal_move_replays_as_it_reads() {
        // The main line's third move is illegal; a variation after it
        // holds it, one before it does not; a variation holds its own.
        let text = "1. h2e2 h9g7 2. h2h9 (2. h0g2 a9a5) b9c7 (2... c9e7) *";
        let record = &pgn::read(text)[0];
        let got: Vec<(String, Option<usize>)> =
            record.lines().map(|l| (l.id(), l.record.replayed().error.as_ref().map(|e| e.ply))).collect();
        assert_eq!(got, [("0".to_string(), Some(3)), ("1".into(), Some(4)), ("2".into(), Some(3))]);
    }

    #[test]
    fn deep_trees_are_walked_without_recursion() {
        // Every line nests in the one before, 20,000 deep: each node's
        // first child ends the line, the second goes on.
        let mut record = Record::default();
        let tree = record.tree_mut();
        let mut at = tree.root();
        for i in 0..20_000 {
            tree.add_child(at, super::super::RecordedMove::text("b2e2", 1, 1));
            let mv = if i % 2 == 0 { "h2e2" } else { "e2h2" };
            at = tree.add_child(at, super::super::RecordedMove::text(mv, 1, 1));
        }
        let ids: Vec<String> = record.lines().take(4).map(|l| l.id()).collect();
        assert_eq!(ids, ["0", "1", "1.1", "1.1.1"]);
        let hundredth = record.lines().nth(100).unwrap();
        assert_eq!((hundredth.numbers.len(), hundredth.ply), (100, 100));
        assert_eq!(hundredth.record.tree().main_line().count(), 101);
        // A long main line with an alternative at every ply.
        let mut record = Record::default();
        let tree = record.tree_mut();
        let mut at = tree.root();
        for i in 0..20_000 {
            let mv = if i % 2 == 0 { "h2e2" } else { "e2h2" };
            let next = tree.add_child(at, super::super::RecordedMove::text(mv, 1, 1));
            tree.add_child(at, super::super::RecordedMove::text("b2e2", 1, 1));
            at = next;
        }
        let ids: Vec<String> = record.lines().take(3).map(|l| l.id()).collect();
        assert_eq!(ids, ["0", "1", "2"]);
    }
}
