//! Shaping a record before it is written: variations, comments or
//! annotation glyphs dropped, the main line cut after so many plies, tags
//! kept by name, and tags naming where the game was read.
//!
//! A [`Shape`] says what to do; [`Shape::apply`] does it to a record. The
//! start position is never changed (the `FEN` tag is kept whatever the tag
//! list says), so a shaped record never reads back as another game; a game
//! cut short gets the unknown result `*`.
//!
//! ```
//! use qipu::formats::pgn;
//! use qipu::record::{GameResult, shape::{Shape, TagFilter}};
//! let mut record = pgn::read(concat!(
//!     "[Event \"x\"]\n[Annotator \"y\"]\n[Result \"1-0\"]\n",
//!     "1. h2e2 {center} h9g7 $1 (1... b9c7) 2. h0g2 1-0",
//! ))
//! .remove(0);
//! let shape = Shape {
//!     main_line: true,
//!     no_comments: true,
//!     no_nags: true,
//!     plies_max: Some(2),
//!     tags: TagFilter::Standard,
//! };
//! assert!(shape.apply(&mut record), "the game was cut");
//! assert_eq!(record.tree().main_line().count(), 2);
//! assert_eq!(record.tree().variation_count(), 0);
//! assert_eq!(record.written_result(), Some(GameResult::Unknown));
//! assert_eq!(record.tags(), [("Event".to_string(), "x".to_string()), ("Result".into(), "*".into())]);
//! assert!(record.replayed().is_valid()); // replayed again, as it now is
//! ```

use super::{GameResult, MoveTree, NodeId, Record, Replayed, Resolution};
use crate::Move;

/// The tags `--tags standard` keeps: PGN's seven-tag roster, with Red and
/// Black for White and Black, and the start position (`FEN`).
pub(crate) const STANDARD_TAGS: [&str; 8] =
    ["Event", "Site", "Date", "Round", "Red", "Black", "Result", "FEN"];

/// The tag [`add_source`] names the input with.
pub(crate) const SOURCE_FILE_TAG: &str = "SourceFile";

/// The tag [`add_source`] numbers the game with (from 1).
pub(crate) const SOURCE_GAME_TAG: &str = "SourceGame";

/// Which tags a shaped record keeps. The `FEN` tag, which gives the start
/// position, is always kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum TagFilter {
    /// Every tag.
    #[default]
    All,
    /// The tags of `STANDARD_TAGS`.
    Standard,
    /// The tags of these names (compared without regard to ASCII case).
    Only(Vec<String>),
}

impl TagFilter {
    /// Reads `all`, `standard` or a list of names separated by commas
    /// (`Event,Red,Black`); the words `all` and `standard` in any case.
    ///
    /// ```
    /// use qipu::record::shape::TagFilter;
    /// assert_eq!(TagFilter::parse("standard"), Ok(TagFilter::Standard));
    /// assert_eq!(TagFilter::parse("Red, Black"), Ok(TagFilter::Only(vec!["Red".into(), "Black".into()])));
    /// assert!(TagFilter::parse("Red,,Black").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// An empty list, or an empty name in it, or a name with a space or a
    /// quote (no tag can be called so).
    pub fn parse(text: &str) -> Result<TagFilter, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("all") {
            return Ok(TagFilter::All);
        }
        if text.eq_ignore_ascii_case("standard") {
            return Ok(TagFilter::Standard);
        }
        let mut names = Vec::new();
        for (k, name) in text.split(',').enumerate() {
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("name {} of the tag list {text:?} is empty", k + 1));
            }
            if name.chars().any(|c| c.is_whitespace() || c.is_control() || c == '"') {
                return Err(format!("{name:?} is not a tag name (it holds a space or a quote)"));
            }
            names.push(name.to_string());
        }
        Ok(TagFilter::Only(names))
    }

    /// Whether a tag called `name` is kept.
    ///
    /// ```
    /// use qipu::record::shape::TagFilter;
    /// let only = TagFilter::Only(vec!["red".into()]);
    /// assert!(only.keeps("Red") && only.keeps("FEN") && !only.keeps("Black"));
    /// assert!(TagFilter::Standard.keeps("Round") && !TagFilter::Standard.keeps("Opening"));
    /// ```
    pub fn keeps(&self, name: &str) -> bool {
        match self {
            TagFilter::All => true,
            _ if name.eq_ignore_ascii_case("FEN") => true,
            TagFilter::Standard => STANDARD_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)),
            TagFilter::Only(names) => names.iter().any(|t| t.eq_ignore_ascii_case(name)),
        }
    }
}

/// What to do to a record before it is written; the default does nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Drop every variation: the main line stays, with its comments and
    /// glyphs.
    pub main_line: bool,
    /// Drop every comment: about the game, before and after moves.
    pub no_comments: bool,
    /// Drop every numeric annotation glyph (and so the remark marks `!`, `?`).
    pub no_nags: bool,
    /// Keep at most this many plies of the main line; the alternatives to
    /// a dropped move go with it, those of kept moves stay whole. A game
    /// cut short gets the result `*`.
    pub plies_max: Option<usize>,
    /// The tags kept.
    pub tags: TagFilter,
}

impl Shape {
    /// Whether the shape leaves every record as it is.
    pub(crate) fn is_identity(&self) -> bool {
        *self == Shape::default()
    }

    /// Shapes `record`; returns whether its main line was cut short
    /// ([`Shape::plies_max`]). The result stays the game's whatever tags
    /// are dropped: when the `Result` tag goes, [`Record::result`] keeps
    /// it. The replay kept with the record stays true: when moves are
    /// dropped, the replay of the moves kept is told from it without
    /// resolving a move again (in the one case it cannot be, a wrong move
    /// cut off from the main line while a kept variation holds another, it
    /// is dropped and done again when next asked for). Time and memory are
    /// linear in the record's size.
    pub fn apply(&self, record: &mut Record) -> bool {
        if self.tags != TagFilter::All {
            record.result = record.result();
            record.tags.retain(|(name, _)| self.tags.keeps(name));
        }
        let tree = &record.tree;
        let too_long = self.plies_max.is_some_and(|max| tree.main_line().nth(max).is_some());
        let has_variations = self.main_line && tree.variation_count() > 0;
        if too_long || has_variations {
            let max = self.plies_max.unwrap_or(usize::MAX);
            let (tree, old_of) = pruned(tree, self.main_line, max);
            let cut = Cut { max, main_line: self.main_line, too_long };
            let replay = record.replay.get().and_then(|old| pruned_replay(old, &tree, &old_of, cut));
            record.tree = tree;
            record.replay = replay.map(std::sync::OnceLock::from).unwrap_or_default();
        }
        if self.no_comments || self.no_nags {
            strip_notes(&mut record.tree, self.no_comments, self.no_nags);
        }
        if too_long {
            record.result = Some(GameResult::Unknown);
            for (name, value) in &mut record.tags {
                if name.eq_ignore_ascii_case("Result") {
                    *value = GameResult::Unknown.as_str().to_string();
                }
            }
        }
        too_long
    }
}

/// Adds (or sets) the tags naming where a record was read: `SourceFile`,
/// the input's name as text reports print it, and `SourceGame`, the game's
/// number in it counted from 1 (`index` counts from 0).
///
/// ```
/// use qipu::record::{Record, shape};
/// let mut record = Record::default();
/// shape::add_source(&mut record, "games/a.pgn", 0);
/// assert_eq!(record.tag("SourceFile"), Some("games/a.pgn"));
/// assert_eq!(record.tag("SourceGame"), Some("1"));
/// ```
pub fn add_source(record: &mut Record, source: &str, index: usize) {
    record.set_tag(SOURCE_FILE_TAG, source);
    record.set_tag(SOURCE_GAME_TAG, (index as u64 + 1).to_string());
}

/// A copy of `tree` without its variations (`main_line`) and without the
/// main line's moves after the first `max` (with the alternatives to
/// them). Nodes keep their moves, comments and glyphs, and the order of
/// the alternatives; no recursion.
fn pruned(tree: &MoveTree, main_line: bool, max: usize) -> (MoveTree, Vec<usize>) {
    let room = if main_line { tree.len().min(max.saturating_add(1)) } else { tree.len() };
    let mut new = MoveTree::with_capacity(room);
    // The index in `tree` of each node of `new`.
    let mut old_of = Vec::with_capacity(room);
    old_of.push(tree.root().index());
    let root = new.root();
    new.node_mut(root).notes = tree.node(tree.root()).notes.clone();
    // Depth first, the alternatives of a node in their order: each node
    // with the new node of its parent, and its ply when it is on the main
    // line (the root is ply 0).
    let mut stack: Vec<(NodeId, NodeId, Option<usize>)> = Vec::new();
    let push_children =
        |stack: &mut Vec<(NodeId, NodeId, Option<usize>)>, old, new_parent, ply: Option<usize>| {
            // Nothing is played from a main-line position at the cut.
            if ply.is_some_and(|p| p >= max) {
                return;
            }
            let first = stack.len();
            for (k, child) in tree.children(old).enumerate() {
                let child_ply = ply.filter(|_| k == 0).map(|p| p + 1);
                if main_line && child_ply.is_none() {
                    continue;
                }
                stack.push((child, new_parent, child_ply));
            }
            stack[first..].reverse();
        };
    push_children(&mut stack, tree.root(), root, Some(0));
    while let Some((old, parent, ply)) = stack.pop() {
        let node = tree.node(old);
        let Some(mv) = node.mv.clone() else { continue };
        let id = new.add_child(parent, mv);
        old_of.push(old.index());
        new.node_mut(id).notes = node.notes.clone();
        push_children(&mut stack, old, id, ply);
    }
    (new, old_of)
}

/// How a tree was pruned: the main line kept to `max` plies (and cut
/// short, `too_long`), the variations dropped (`main_line`).
#[derive(Copy, Clone, Debug)]
struct Cut {
    max: usize,
    main_line: bool,
    too_long: bool,
}

/// The replay of a record whose tree was pruned to `tree` (node `k` of it
/// being node `old_of[k]` of the tree `old` replayed), told from `old`
/// without resolving a move again: the moves of the nodes kept, the first
/// wrong move if it is kept, and how a main line cut short now ends (its
/// result is then unknown, which no position contradicts). `None` when it
/// cannot be told: the main line's wrong move was cut off and a kept
/// variation holds a wrong move of its own (which `old` does not name), or
/// a start that did not set up may read otherwise without moves (a diagram
/// whose side to move is turned).
fn pruned_replay(old: &Replayed, tree: &MoveTree, old_of: &[usize], cut: Cut) -> Option<Replayed> {
    let Some(start) = &old.resolution.start else {
        // Nothing replayed: the start's error stands, unless no move is left.
        return (!tree.is_empty()).then(|| Replayed {
            resolution: Resolution { moves: vec![None; tree.len()], ..old.resolution.clone() },
            ..old.clone()
        });
    };
    let moves: Vec<Option<Move>> =
        old_of.iter().map(|&k| old.resolution.moves.get(k).copied().flatten()).collect();
    let mut on_main = vec![false; tree.len()];
    for id in tree.main_line() {
        on_main[id.index()] = true;
    }
    // Node `k` is off the main line and did not replay from a position
    // that did: the first wrong move of its line.
    let wrong_in_variation = |k: usize| {
        let parent = tree.nodes[k].parent;
        !on_main[k]
            && moves[k].is_none()
            && parent.is_some_and(|p| p.index() == 0 || moves[p.index()].is_some())
    };
    let error = match &old.error {
        None => None,
        Some(e) => match &e.variation {
            None if e.ply <= cut.max => Some(e.clone()),
            None if (1..tree.len()).any(wrong_in_variation) => return None,
            None => None,
            Some(v) if !cut.main_line && v.ply <= cut.max => Some(e.clone()),
            Some(_) => None,
        },
    };
    let plies = old.plies.min(cut.max);
    let main_moves = old.moves.get(..plies).unwrap_or(&old.moves);
    let main_complete = error.as_ref().is_none_or(|e| e.in_variation());
    let kept = || super::replay::Ending {
        termination: old.termination,
        rulings: old.rulings.clone(),
        ends_in_ruling: old.ends_in_ruling,
        move_limit_at: old.move_limit_at,
        dead_draw_at: old.dead_draw_at,
    };
    let (ending, result_conflict) = match (cut.too_long, main_complete) {
        (false, _) => (kept(), old.result_conflict.clone()),
        (true, true) => (super::replay::ending(old.rules, start, main_moves), None),
        (true, false) => (super::replay::Ending::none(), None),
    };
    let variation_plies = (1..tree.len()).filter(|&k| !on_main[k] && moves[k].is_some()).count();
    Some(Replayed {
        resolution: Resolution { setup: old.resolution.setup.clone(), start: Some(start.clone()), moves },
        moves: main_moves.to_vec(),
        plies,
        variation_plies,
        error,
        termination: ending.termination,
        result_conflict,
        rules: old.rules,
        rulings: ending.rulings,
        ends_in_ruling: ending.ends_in_ruling,
        move_limit_at: ending.move_limit_at,
        dead_draw_at: ending.dead_draw_at,
        warnings: old.warnings.clone(),
    })
}

/// Drops the comments (`comments`) and the glyphs (`nags`) of every node.
fn strip_notes(tree: &mut MoveTree, comments: bool, nags: bool) {
    for node in &mut tree.nodes {
        let Some(notes) = node.notes.as_mut() else { continue };
        if comments {
            notes.comment = None;
            notes.comment_before = None;
        }
        if nags {
            notes.nags.clear();
        }
        if notes.comment.is_none() && notes.comment_before.is_none() && notes.nags.is_empty() {
            node.notes = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;
    use crate::notation::Notation;

    const GAME: &str = concat!(
        "[Event \"e\"]\n[Red \"r\"]\n[Opening \"o\"]\n[Result \"1-0\"]\n",
        "{about} 1. h2e2 {c1} h9g7 $1 (1... b9c7 {v} 2. h0g2 (2. b0c2) a9b9) ",
        "2. h0g2 $2 i9h9 (2... {before} b9c7) 3. i0h0 1-0\n",
    );

    fn game() -> Record {
        pgn::read(GAME).remove(0)
    }

    fn written(record: &Record) -> String {
        pgn::write(record, Notation::Iccs)
    }

    #[test]
    fn the_default_shape_changes_nothing() {
        let mut record = game();
        let before = record.clone();
        assert!(Shape::default().is_identity());
        assert!(!Shape::default().apply(&mut record));
        assert_eq!(record, before);
        assert_eq!(written(&record), written(&before));
    }

    #[test]
    fn main_line_drops_every_variation_and_keeps_its_notes() {
        let mut record = game();
        let shape = Shape { main_line: true, ..Shape::default() };
        assert!(!shape.apply(&mut record));
        assert_eq!(record.tree.variation_count(), 0);
        assert_eq!(record.tree.len(), 6);
        let text = written(&record);
        assert!(!text.contains('('), "{text}");
        assert!(
            text.contains("{about}") && text.contains("{c1}") && text.contains("$1") && text.contains("$2")
        );
        assert!(!text.contains("{v}") && !text.contains("{before}"), "{text}");
        assert_eq!(record.result(), Some(GameResult::RedWins));
        assert!(record.replayed().is_valid());
        assert_eq!(record.replayed().moves.len(), 5);
    }

    #[test]
    fn notes_go_one_kind_at_a_time() {
        let mut record = game();
        Shape { no_comments: true, ..Shape::default() }.apply(&mut record);
        let text = written(&record);
        assert!(!text.contains('{') && text.contains("$1") && text.contains('('), "{text}");
        assert!(record.tree.depth_first().all(|id| record.tree.node(id).comment_before().is_none()));
        Shape { no_nags: true, ..Shape::default() }.apply(&mut record);
        let text = written(&record);
        assert!(!text.contains('$') && !text.contains('{'), "{text}");
        // No empty notes are left behind.
        assert!(record.tree.nodes.iter().all(|n| n.notes.is_none()));
    }

    #[test]
    fn plies_max_cuts_the_main_line_and_the_alternatives_of_dropped_moves() {
        for (max, plies, variations) in [(0, 0, 0), (1, 1, 0), (2, 2, 2), (3, 3, 2), (4, 4, 3), (5, 5, 3)] {
            let mut record = game();
            let cut = Shape { plies_max: Some(max), ..Shape::default() }.apply(&mut record);
            assert_eq!(cut, max < 5, "{max}");
            assert_eq!(record.tree.main_line().count(), plies, "{max}");
            assert_eq!(record.tree.variation_count(), variations, "{max}");
            let text = written(&record);
            if cut {
                assert_eq!(record.result, Some(GameResult::Unknown));
                assert_eq!(record.tag("Result"), Some("*"));
                assert!(text.trim_end().ends_with('*') && text.contains("[Result \"*\"]"), "{text}");
            } else {
                assert_eq!(record.result(), Some(GameResult::RedWins));
            }
            assert_eq!(record.replayed().moves.len(), plies);
        }
        // A variation of a kept move stays whole, even past the cut.
        let mut record = game();
        Shape { plies_max: Some(2), ..Shape::default() }.apply(&mut record);
        let text = written(&record).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains("(1... B9-C7 {v} 2. H0-G2 (2. B0-C2) 2... A9-B9) *"), "{text}");
    }

    #[test]
    fn tags_are_kept_by_name_and_the_start_position_always() {
        let fen = "[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n[Red \"r\"]\n[Site \"s\"]\n[Round \"1\"]\n1. d0d1 1/2-1/2\n";
        let mut record = pgn::read(fen).remove(0);
        Shape { tags: TagFilter::Only(vec!["site".into()]), ..Shape::default() }.apply(&mut record);
        let names: Vec<&str> = record.tags.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["FEN", "Site"]);
        assert!(record.replayed().is_valid());
        let mut record = game();
        Shape { tags: TagFilter::Standard, ..Shape::default() }.apply(&mut record);
        let names: Vec<&str> = record.tags.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["Event", "Red", "Result"]);
    }

    #[test]
    fn the_result_outlives_its_tag() {
        // An XQF-like record whose result is only in its tag.
        let mut record = pgn::read("[Result \"0-1\"]\n1. h2e2\n").remove(0);
        assert_eq!(record.result, None);
        Shape { tags: TagFilter::Only(vec!["Event".into()]), ..Shape::default() }.apply(&mut record);
        assert!(record.tags.is_empty());
        assert_eq!(record.result(), Some(GameResult::BlackWins));
        assert!(written(&record).contains("[Result \"0-1\"]"));
    }

    #[test]
    fn a_shaped_record_keeps_the_replay_a_replay_again_gives() {
        let texts = [
            GAME,
            // Wrong moves: on the main line after variations with their own.
            "1. h2e2 h9g7 (1... b9c7 2. h2h9) 2. h0g2 (2. h2h9 i9h9) i9h9 3. h2h9 *",
            // A wrong move in a variation, then one on the main line.
            "1. h2e2 h9g7 (1... b9c7 2. h2h9) 2. h0g2 i9h9 3. h2h9 *",
            // Mate at the end, and a variation there.
            "[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n1. a8a9 (1. b1b9) d9d8 2. b1b8 1-0",
            // A diagram whose side to move is turned only without moves.
            "[FEN \"3k5/9/9/9/9/9/9/9/9/3RK4 b\"]\n1. e0e1 *",
            "[FEN \"bad\"]\n1. h2e2 (1. b2e2) *",
            // The same position again and again.
            "1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 (3... b9c7) 4. g2h0 g7h9 5. h0g2 *",
        ];
        for text in texts {
            for main_line in [false, true] {
                for plies_max in [None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(6)] {
                    let mut record = pgn::read(text).remove(0);
                    assert!(record.has_replay());
                    Shape { main_line, plies_max, ..Shape::default() }.apply(&mut record);
                    let again = crate::record::replay::replay(&record);
                    assert_eq!(record.replayed(), &again, "{text} {main_line} {plies_max:?}");
                }
            }
        }
    }

    #[test]
    fn deep_trees_are_shaped_without_recursion() {
        let mut record = Record::default();
        let mut at = record.tree.root();
        for i in 0..100_000 {
            let main = record.tree.add_child(at, crate::record::RecordedMove::text("h2e2", i, 1));
            let alt = record.tree.add_child(at, crate::record::RecordedMove::text("b2e2", i, 6));
            record.tree.add_child(alt, crate::record::RecordedMove::text("h9g7", i, 9));
            at = main;
        }
        let mut copy = record.clone();
        assert!(Shape { plies_max: Some(50_000), ..Shape::default() }.apply(&mut copy));
        assert_eq!(copy.tree.main_line().count(), 50_000);
        assert_eq!(copy.tree.variation_count(), 50_000);
        assert_eq!(copy.tree.len(), 150_001);
        assert!(!Shape { main_line: true, ..Shape::default() }.apply(&mut record));
        assert_eq!(record.tree.len(), 100_001);
    }

    #[test]
    fn tag_lists_are_read_or_refused() {
        assert_eq!(TagFilter::parse("ALL"), Ok(TagFilter::All));
        assert_eq!(TagFilter::parse(" Standard "), Ok(TagFilter::Standard));
        assert_eq!(TagFilter::parse("Event"), Ok(TagFilter::Only(vec!["Event".into()])));
        for bad in ["", ",", "Red,", "Red Black", "a\"b"] {
            assert!(TagFilter::parse(bad).is_err(), "{bad:?}");
        }
    }
}
