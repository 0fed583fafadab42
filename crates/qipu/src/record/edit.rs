//! Changing a move tree as an editor does: a variation made the main
//! continuation or moved among its siblings, a move taken out with what
//! follows it, a comment set.
//!
//! A node taken out stays in the arena (the ids of the others hold), but
//! is unlinked: no walk of the tree ([`MoveTree::children`],
//! [`MoveTree::main_line`], [`MoveTree::depth_first`], the writers) meets
//! it again.
//!
//! ```
//! let mut record = qipu::formats::pgn::read("1. h2e2 h9g7 (1... b9c7) (1... h7e7) 2. h0g2 *")[0].clone();
//! let tree = record.tree_mut();
//! let first = tree.main_child(tree.root()).unwrap();
//! let alternatives: Vec<_> = tree.children(first).skip(1).collect();
//! tree.promote_to_main(alternatives[1]); // 1... h7e7 is now the main line
//! tree.remove(alternatives[0]); // 1... b9c7 is gone
//! let pgn = qipu::formats::pgn::write(&record, qipu::notation::Notation::Iccs);
//! assert!(pgn.ends_with("1. H2-E2 H7-E7 (1... H9-G7 2. H0-G2) *\n"), "{pgn}");
//! ```

use super::{MoveTree, NodeId, Notes};

impl MoveTree {
    /// Whether `id` is a node of the tree: of its arena, and not taken out
    /// ([`MoveTree::remove`]).
    pub fn contains(&self, id: NodeId) -> bool {
        self.nodes.get(id.index()).is_some_and(|n| !n.removed)
    }

    /// Makes `id` the main continuation of the move it is played from (its
    /// first child), the others keeping their order after it. Returns
    /// whether the tree changed (not for the root, a node taken out, or a
    /// main continuation already).
    pub fn promote_to_main(&mut self, id: NodeId) -> bool {
        self.move_among_siblings(id, |_, _| 0)
    }

    /// Moves `id` one place up among the moves played from the same
    /// position (the second becomes the main continuation). Returns whether
    /// the tree changed.
    pub fn promote(&mut self, id: NodeId) -> bool {
        self.move_among_siblings(id, |at, _| at.saturating_sub(1))
    }

    /// Moves `id` one place down among the moves played from the same
    /// position (a main continuation gives way to the first alternative).
    /// Returns whether the tree changed.
    pub fn demote(&mut self, id: NodeId) -> bool {
        self.move_among_siblings(id, |at, count| (at + 1).min(count - 1))
    }

    /// Takes `id` and every move after it out of the tree: its parent's
    /// next alternative takes its place. The nodes stay in the arena
    /// ([`MoveTree::len`] counts them, `MoveTree::node_count` does not)
    /// and [`MoveTree::contains`] no longer holds for them. Returns whether
    /// the tree changed (not for the root or a node taken out already).
    pub fn remove(&mut self, id: NodeId) -> bool {
        if id == self.root() || !self.contains(id) {
            return false;
        }
        let Some(parent) = self.node(id).parent else { return false };
        let before = self.children(parent).count();
        let kept: Vec<NodeId> = self.children(parent).filter(|&c| c != id).collect();
        if kept.len() == before {
            return false; // not linked from its parent: a tree changed by hand
        }
        self.relink(parent, &kept);
        self.nodes[id.index()].next_sibling = None;
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            stack.extend(self.children(n));
            self.nodes[n.index()].removed = true;
            self.removed += 1;
        }
        true
    }

    /// Sets the comment after the move of `id` (on the root: the comment
    /// about the game, before the first move); `None` or an empty text
    /// takes it away.
    pub fn set_comment(&mut self, id: NodeId, comment: Option<&str>) {
        let comment = comment.filter(|c| !c.is_empty()).map(str::to_string);
        let node = self.node_mut(id);
        match comment {
            Some(text) => node.notes_mut().comment = Some(text),
            None => {
                if let Some(notes) = &mut node.notes {
                    notes.comment = None;
                    if **notes == Notes::default() {
                        node.notes = None;
                    }
                }
            }
        }
    }

    /// Moves `id` among the children of its parent, to the place `place`
    /// gives of its place and their number. Returns whether it moved.
    fn move_among_siblings(&mut self, id: NodeId, place: impl FnOnce(usize, usize) -> usize) -> bool {
        if id == self.root() || !self.contains(id) {
            return false;
        }
        let Some(parent) = self.node(id).parent else { return false };
        let mut children: Vec<NodeId> = self.children(parent).collect();
        let Some(at) = children.iter().position(|&c| c == id) else { return false };
        let to = place(at, children.len());
        if to == at {
            return false;
        }
        children.remove(at);
        children.insert(to, id);
        self.relink(parent, &children);
        true
    }

    /// Links `children`, in this order, as the moves played from `parent`.
    fn relink(&mut self, parent: NodeId, children: &[NodeId]) {
        for pair in children.windows(2) {
            self.nodes[pair[0].index()].next_sibling = Some(pair[1]);
        }
        if let Some(&last) = children.last() {
            self.nodes[last.index()].next_sibling = None;
        }
        let p = &mut self.nodes[parent.index()];
        p.first_child = children.first().copied();
        p.last_child = children.last().copied();
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::pgn;
    use crate::notation::Notation;
    use crate::record::{MoveTree, NodeId, Record, RecordedMove};

    /// `1. h2e2 h9g7 (1... b9c7) (1... h7e7) 2. h0g2 *`, with the nodes of
    /// the first move and of the three replies.
    fn game() -> (Record, NodeId, [NodeId; 3]) {
        let record = pgn::read("1. h2e2 h9g7 (1... b9c7 2. h0g2) (1... h7e7) 2. h0g2 *").remove(0);
        let tree = record.tree();
        let first = tree.main_child(tree.root()).unwrap();
        let replies: Vec<NodeId> = tree.children(first).collect();
        (record.clone(), first, [replies[0], replies[1], replies[2]])
    }

    fn iccs(record: &Record) -> String {
        let text = pgn::write(record, Notation::Iccs);
        text.rsplit("\n\n").next().unwrap().trim().replace('\n', " ")
    }

    #[test]
    fn promote_to_main_puts_a_variation_first() {
        let (mut record, first, [main, b9c7, h7e7]) = game();
        assert!(record.tree_mut().promote_to_main(h7e7));
        assert_eq!(record.tree().children(first).collect::<Vec<_>>(), [h7e7, main, b9c7]);
        assert_eq!(iccs(&record), "1. H2-E2 H7-E7 (1... H9-G7 2. H0-G2) (1... B9-C7 2. H0-G2) *");
        assert!(!record.tree_mut().promote_to_main(h7e7), "the main continuation already");
        assert!(record.replayed().is_valid());
        assert_eq!(record.replayed().moves.len(), 2);
    }

    #[test]
    fn promote_and_demote_move_one_place() {
        let (mut record, first, [main, b9c7, h7e7]) = game();
        let tree = record.tree_mut();
        assert!(tree.promote(h7e7));
        assert_eq!(tree.children(first).collect::<Vec<_>>(), [main, h7e7, b9c7]);
        assert!(tree.promote(h7e7));
        assert_eq!(tree.children(first).collect::<Vec<_>>(), [h7e7, main, b9c7]);
        assert!(!tree.promote(h7e7));
        assert!(tree.demote(h7e7));
        assert!(tree.demote(h7e7));
        assert!(!tree.demote(h7e7), "the last already");
        assert_eq!(tree.children(first).collect::<Vec<_>>(), [main, b9c7, h7e7]);
        assert!(!tree.promote(tree.root()) && !tree.demote(tree.root()));
        // The last child is kept right: a child added goes last.
        assert!(tree.demote(main));
        let added = tree.add_child(first, RecordedMove::text("c9e7", 1, 1));
        assert_eq!(tree.children(first).collect::<Vec<_>>(), [b9c7, main, h7e7, added]);
    }

    #[test]
    fn removed_nodes_are_met_by_no_walk() {
        let (mut record, first, [main, b9c7, h7e7]) = game();
        assert_eq!((record.tree().variation_count(), record.tree().node_count()), (2, 7));
        assert!(record.tree_mut().remove(b9c7));
        let tree = record.tree();
        assert!(!tree.contains(b9c7));
        assert!(!tree.contains(tree.children(b9c7).next().unwrap()), "what follows is out too");
        assert!(tree.contains(h7e7));
        assert_eq!(tree.children(first).collect::<Vec<_>>(), [main, h7e7]);
        assert_eq!((tree.len(), tree.node_count(), tree.variation_count()), (7, 5, 1));
        assert_eq!(tree.depth_first().count(), 5);
        assert_eq!(iccs(&record), "1. H2-E2 H9-G7 (1... H7-E7) 2. H0-G2 *");
        assert!(!record.tree_mut().remove(b9c7), "out already");
        // The main continuation: the first alternative takes its place.
        assert!(record.tree_mut().remove(main));
        assert_eq!(iccs(&record), "1. H2-E2 H7-E7 *");
        assert_eq!(record.tree().main_line().count(), 2);
        assert_eq!(record.tree().variation_count(), 0);
        assert_eq!(record.replayed().plies, 2);
        let json = crate::formats::json::write(&record);
        let back = crate::formats::json::read(&json).remove(0);
        assert_eq!(iccs(&back), "1. H2-E2 H7-E7 *");
        let bytes = crate::formats::xqf::write(&record, crate::formats::xqf::Version::V10).unwrap();
        assert_eq!(iccs(&crate::formats::xqf::read(&bytes).unwrap()), "1. H2-E2 H7-E7 *");
        let dhtmlxq = crate::formats::dhtmlxq::write(&record).unwrap();
        assert_eq!(iccs(&crate::formats::dhtmlxq::read(&dhtmlxq)[0]), "1. H2-E2 H7-E7 *");
        // A move added after one taken out is out too.
        let out = record.tree_mut().add_child(b9c7, RecordedMove::text("h0g2", 1, 1));
        assert!(!record.tree().contains(out));
        assert_eq!(record.tree().node_count(), 3);
        // Every move taken out: the tree is empty, the root stays.
        assert!(record.tree_mut().remove(first));
        assert!(record.tree().is_empty());
        let root = record.tree().root();
        assert!(!record.tree_mut().remove(root));
        assert_eq!(record.tree().node_count(), 1);
    }

    #[test]
    fn comments_are_set_and_taken_away() {
        let (mut record, first, _) = game();
        let tree = record.tree_mut();
        tree.set_comment(first, Some("中炮"));
        tree.set_comment(tree.root(), Some("about the game"));
        assert_eq!(
            iccs(&record),
            "{about the game} 1. H2-E2 {中炮} 1... H9-G7 (1... B9-C7 2. H0-G2) (1... H7-E7) 2. H0-G2 *"
        );
        let tree = record.tree_mut();
        tree.set_comment(first, None);
        tree.set_comment(tree.root(), Some(""));
        assert_eq!(record, game().0, "no notes left behind");
    }

    #[test]
    fn ops_on_a_foreign_id_change_nothing() {
        let mut tree = MoveTree::default();
        let (_, _, [_, _, far]) = game();
        assert!(!tree.contains(far));
        assert!(!tree.remove(far) && !tree.promote_to_main(far));
        assert_eq!(tree, MoveTree::default());
    }
}
