//! Building records from a reader's events, and giving a record's events
//! back.

use std::ops::ControlFlow;

use super::{GameResult, MoveTree, NodeId, Record, RecordedMove, Span, Visitor, Warning};

/// The visitor that builds a [`Record`] of each game: the tags in the order
/// read, the move tree (variations as alternatives to the move they follow),
/// comments, glyphs, the result, warnings and why the game cannot be read;
/// and its replay ([`Record::replayed`]), done once as the game is built, so
/// that nothing that uses the record replays it again.
///
/// ```
/// use qipu::formats::pgn;
/// use qipu::record::RecordBuilder;
/// let games = pgn::read_with("[Red \"许银川\"]\n1. 炮二平五 {中炮} 马８进７ (1... 象３进５) *", &mut RecordBuilder::default());
/// assert_eq!(games[0].tag("Red"), Some("许银川"));
/// assert_eq!(games[0].tree().main_line().count(), 2);
/// assert_eq!(games[0].tree().variation_count(), 1);
/// assert!(games[0].has_replay());
/// ```
#[derive(Debug, Default)]
pub struct RecordBuilder {
    game: Record,
    /// The node the next move is played from (`None`: the root).
    cursor: Option<NodeId>,
    /// The nodes to go back to when a variation ends.
    variations: Vec<NodeId>,
    /// A comment right after `begin_variation`, for its first move.
    pending_before: Option<String>,
}

impl RecordBuilder {
    fn cursor(&self) -> NodeId {
        self.cursor.unwrap_or(self.game.tree.root())
    }

    fn append(comment: &mut Option<String>, text: &str) {
        match comment {
            Some(c) => {
                c.push('\n');
                c.push_str(text);
            }
            None => *comment = Some(text.to_string()),
        }
    }
}

impl Visitor for RecordBuilder {
    type Output = Record;

    fn begin_game(&mut self, at: Span) {
        self.game.at = at;
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        // The place of the start position, when the reader knows it.
        if name.eq_ignore_ascii_case("FEN") && at != Span::default() && self.game.start_at.is_none() {
            self.game.start_at = Some(at);
        }
        self.game.tags.push((name.to_string(), value.to_string()));
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        let node = self.game.tree.add_child(self.cursor(), mv.clone());
        if let Some(before) = self.pending_before.take() {
            self.game.tree.node_mut(node).notes_mut().comment_before = Some(before);
        }
        self.cursor = Some(node);
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: u8) {
        let cursor = self.cursor();
        self.game.tree.node_mut(cursor).notes_mut().nags.push(nag);
    }

    fn comment(&mut self, text: &str) {
        let cur = self.cursor();
        let tree = &self.game.tree;
        // Right after `begin_variation`, a comment belongs to the
        // variation's first move.
        let starts_variation = self.variations.last().is_some_and(|&v| tree.node(v).parent == Some(cur));
        if starts_variation && cur != tree.root() {
            let before = self.pending_before.get_or_insert_with(String::new);
            if !before.is_empty() {
                before.push('\n');
            }
            before.push_str(text);
            return;
        }
        Self::append(&mut self.game.tree.node_mut(cur).notes_mut().comment, text);
    }

    fn comment_before(&mut self, text: &str) {
        let before = self.pending_before.get_or_insert_with(String::new);
        if !before.is_empty() {
            before.push('\n');
        }
        before.push_str(text);
    }

    fn begin_variation(&mut self) -> super::Skip {
        let cur = self.cursor();
        if let Some(parent) = self.game.tree.node(cur).parent {
            self.variations.push(cur);
            self.cursor = Some(parent);
        }
        super::Skip(false)
    }

    fn end_variation(&mut self) {
        if let Some(cur) = self.variations.pop() {
            self.cursor = Some(cur);
        }
    }

    fn result(&mut self, result: GameResult) {
        self.game.result = Some(result);
    }

    fn warning(&mut self, warning: Warning) {
        self.game.warnings.push(warning);
    }

    fn unreadable(&mut self, why: Warning) {
        if self.game.unreadable.is_none() {
            self.game.unreadable = Some(why);
        }
    }

    fn builds_records(&self) -> bool {
        true
    }

    fn record(&mut self, record: Record) -> Record {
        with_replay(record)
    }

    fn end_game(&mut self) -> Record {
        #[cfg(test)]
        counting::count();
        // The next game is likely about as long as this one: room for its
        // moves is made once rather than grown move by move.
        let room = self.game.tree.len() + 8;
        self.cursor = None;
        self.variations.clear();
        self.pending_before = None;
        let game = std::mem::replace(
            &mut self.game,
            Record { tree: MoveTree::with_capacity(room), ..Record::default() },
        );
        with_replay(game)
    }
}

/// `record` with its replay done once, as it is built: whoever reads it
/// (a selection, shaping, a writer) asks for it at no cost.
fn with_replay(record: Record) -> Record {
    if !record.has_replay() {
        let _ = record.replay.set(super::replay::replay(&record));
    }
    record
}

impl Record {
    /// Gives the record's events to `visitor`, in the order a PGN text
    /// writes them (each move, then the alternatives to it as variations,
    /// then the line goes on), and returns what the visitor makes of them.
    /// A variation the visitor skips is not walked; a move it answers with
    /// `Break` ends the moves.
    ///
    /// ```
    /// use qipu::formats::pgn;
    /// use qipu::record::RecordBuilder;
    /// let record = &pgn::read("[Event \"x\"]\n1. h2e2 {c} h9g7 (1... b9c7 $1 (1... i9i8)) 2. h0g2 1-0")[0];
    /// let again = record.visit(&mut RecordBuilder::default());
    /// assert_eq!(&again, record);
    /// ```
    pub fn visit<V: Visitor>(&self, visitor: &mut V) -> V::Output {
        self.walk(visitor, |_, _| {})
    }

    /// [`Record::visit`], calling `seen` with each move's node after the
    /// visitor has had it (so a visitor's state can be read node by node).
    pub(crate) fn walk<V: Visitor>(&self, visitor: &mut V, mut seen: impl FnMut(&V, NodeId)) -> V::Output {
        visitor.begin_game(self.at);
        for (name, value) in &self.tags {
            let at =
                if name.eq_ignore_ascii_case("FEN") { self.start_at.unwrap_or_default() } else { self.at };
            visitor.tag(name, value, at);
        }
        for w in &self.warnings {
            visitor.warning(w.clone());
        }
        if let Some(why) = &self.unreadable {
            visitor.unreadable(why.clone());
        }
        let tree = &self.tree;
        if let Some(c) = tree.node(tree.root()).comment() {
            visitor.comment(c);
        }
        enum Task {
            /// A move, and whether it is the first of a variation.
            Move(NodeId, bool),
            Close,
        }
        let mut stack: Vec<Task> =
            tree.main_child(tree.root()).map(|n| Task::Move(n, false)).into_iter().collect();
        // Variations begun and not ended.
        let mut open = 0usize;
        while let Some(task) = stack.pop() {
            let id = match task {
                Task::Close => {
                    visitor.end_variation();
                    open -= 1;
                    continue;
                }
                Task::Move(id, first) => {
                    if first {
                        if visitor.begin_variation().0 {
                            // Skipped: its moves, and the matching close, are not given.
                            if let Some(Task::Close) = stack.last() {
                                stack.pop();
                            }
                            continue;
                        }
                        open += 1;
                    }
                    id
                }
            };
            let node = tree.node(id);
            // A node other than the root always holds a move, unless a
            // caller emptied it by hand: such a node and what follows it are
            // left out.
            let Some(mv) = node.mv.as_ref() else { continue };
            if let Some(before) = node.comment_before() {
                visitor.comment_before(before);
            }
            let flow = visitor.mv(mv);
            seen(visitor, id);
            for &nag in node.nags() {
                visitor.nag(nag);
            }
            if let Some(c) = node.comment() {
                visitor.comment(c);
            }
            if flow.is_break() {
                break;
            }
            // What follows this move: the alternatives to it (when it is its
            // parent's main continuation), then its own continuation.
            if let Some(next) = tree.main_child(id) {
                stack.push(Task::Move(next, false));
            }
            let Some(parent) = node.parent else { continue };
            if tree.main_child(parent) == Some(id) {
                let alts: Vec<NodeId> = tree.children(parent).skip(1).collect();
                for &alt in alts.iter().rev() {
                    stack.push(Task::Close);
                    stack.push(Task::Move(alt, true));
                }
            }
        }
        // Variations left open by a stop are closed.
        for _ in 0..open {
            visitor.end_variation();
        }
        if let Some(result) = self.result {
            visitor.result(result);
        }
        visitor.end_game()
    }
}

/// How many records were built on this thread (by [`RecordBuilder`] or
/// from their parts), for the tests that count them.
#[cfg(test)]
pub(crate) mod counting {
    use std::cell::Cell;

    thread_local! {
        static BUILT: Cell<usize> = const { Cell::new(0) };
    }

    /// One more record built.
    pub(crate) fn count() {
        BUILT.with(|n| n.set(n.get() + 1));
    }

    /// The records built on this thread so far.
    pub(crate) fn built() -> usize {
        BUILT.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use crate::record::{Record, RecordBuilder, RecordedMove};

    #[test]
    fn a_tree_changed_by_hand_is_told_without_a_panic() {
        let mut record = Record::default();
        let root = record.tree.root();
        let first = record.tree.add_child(root, RecordedMove::text("h2e2", 1, 1));
        let second = record.tree.add_child(first, RecordedMove::text("h9g7", 1, 6));
        record.tree.add_child(first, RecordedMove::text("b9c7", 1, 12));
        record.tree.add_child(second, RecordedMove::text("h0g2", 1, 18));
        // A move taken out of its node, and a node cut from its parent.
        record.tree.node_mut(second).mv = None;
        let told = record.clone().visit(&mut RecordBuilder::default());
        assert_eq!(told.tree.main_line().count(), 1, "the emptied node and what follows are left out");
        record.tree.node_mut(second).mv = Some(RecordedMove::text("h9g7", 1, 6));
        record.tree.node_mut(first).parent = None;
        let told = record.visit(&mut RecordBuilder::default());
        assert_eq!(told.tree.main_line().count(), 3);
    }
}
