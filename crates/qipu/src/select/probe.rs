//! What a selection must know of a game's moves, gathered as the game is
//! replayed: whether it reaches a position, whether its material matches,
//! and its opening. A [`Probe`] follows the main line (and, when asked,
//! the variations) beside whatever else the replay does, so that it costs
//! no second replay.

use std::sync::Arc;

use super::criteria::{Material, MaterialPattern};
use crate::analysis::ecco::{OpeningName, OpeningReader};
use crate::dedupe::{GameKey, Keyer};
use crate::record::replay::Follow;
use crate::record::{MoveTree, Record, Resolution};
use crate::rules::zobrist;
use crate::{Board, Color, Move, Position};

/// A placement to look for (`--position`, `--moves`), with the side to
/// move or not, and its left–right mirror when asked; or several, any of
/// which matches ([`Target::or`]).
///
/// ```
/// use qipu::select::Target;
/// let target = Target::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR", false).unwrap();
/// let after = qipu::Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
/// assert!(target.matches(&after)); // the side to move was not given
/// assert!(!target.matches(&qipu::Position::start()));
/// // The same position reached by moves, in any notation.
/// let moves = Target::after_moves("1. 炮二平五 马8进7 2. H8+7", false).unwrap();
/// let transposed = Target::after_moves("b0c2 h9g7 h2e2", false).unwrap();
/// assert_eq!(moves, transposed);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The placements (each one given, and its mirror when asked), each
    /// with the hashes it has with either side to move, and the side to
    /// move when given.
    boards: Vec<Placement>,
}

/// One placement of a [`Target`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct Placement {
    board: Board,
    /// The Zobrist hash with Red to move, and with Black.
    hashes: [u64; 2],
    /// The side to move, when given.
    turn: Option<Color>,
}

impl Target {
    /// The placement of `fen` (the side to move counts only when the FEN
    /// gives it); with `mirror`, its left–right mirror too.
    ///
    /// # Errors
    ///
    /// Why the FEN does not read.
    pub fn from_fen(fen: &str, mirror: bool) -> Result<Target, crate::FromFenError> {
        let fen = fen.trim();
        let setup = crate::Setup::from_fen(fen).map_err(crate::FromFenError::Syntax)?;
        let turn = fen.split_whitespace().nth(1).map(|_| setup.turn);
        Ok(Target::of(setup.board, turn, mirror))
    }

    /// The position after `moves` from the standard start, with its side to
    /// move (and with `mirror` its left–right mirror): the games that reach
    /// it by any order of moves. The moves are written in any notation
    /// (ICCS, UCI, WXF, Chinese, SAN; one game keeps one), apart by spaces
    /// or commas; move numbers (`1.`, `1...`, `2.` before a move or alone)
    /// and a final result are left out.
    ///
    /// # Errors
    ///
    /// The first move that is not legal where it is played (its number from
    /// 1, its text, why), or no move at all.
    pub fn after_moves(moves: &str, mirror: bool) -> Result<Target, super::CriterionError> {
        let pos = play_moves(moves)?;
        Ok(Target::of(pos.board().clone(), Some(pos.turn()), mirror))
    }

    /// The target that matches where `self` or `other` does.
    pub fn or(mut self, other: Target) -> Target {
        for placement in other.boards {
            if !self.boards.contains(&placement) {
                self.boards.push(placement);
            }
        }
        self
    }

    fn of(board: Board, turn: Option<Color>, mirror: bool) -> Target {
        let mut boards = vec![board];
        if mirror {
            let mirrored = boards[0].mirrored();
            if mirrored != boards[0] {
                boards.push(mirrored);
            }
        }
        let boards = boards
            .into_iter()
            .map(|board| {
                let hashes = [zobrist::hash_of(&board, Color::Red), zobrist::hash_of(&board, Color::Black)];
                Placement { board, hashes, turn }
            })
            .collect();
        Target { boards }
    }

    /// Whether `pos` has one of the placements (and its side to move, if
    /// given).
    pub fn matches(&self, pos: &Position) -> bool {
        let hash = pos.hash();
        let turn = usize::from(pos.turn() == Color::Black);
        // The hash first: a placement is compared only when it agrees.
        self.boards.iter().any(|p| {
            p.hashes[turn] == hash && p.turn.is_none_or(|t| t == pos.turn()) && &p.board == pos.board()
        })
    }
}

/// The position after `text`'s moves from the standard start (see
/// [`Target::after_moves`]).
fn play_moves(text: &str) -> Result<Position, super::CriterionError> {
    let error = |why: String| super::CriterionError { what: "moves", text: text.to_string(), why };
    let mut pos = Position::start();
    let mut dialect = crate::notation::Dialect::default();
    let mut played = 0usize;
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == '，' || c == '、') {
        let word = strip_move_number(word);
        if word.is_empty() || crate::record::GameResult::parse(word).is_some() {
            continue;
        }
        let m = crate::notation::resolve_any_in_game(&pos, word, &mut dialect)
            .map_err(|e| error(format!("move {} {word:?}: {e}", played + 1)))?;
        let _ = pos.play_unchecked(m);
        played += 1;
    }
    if played == 0 {
        return Err(error(
            "no move: write the moves from the start, as \"h2e2 h9g7\" or \"炮二平五 马8进7\"".into(),
        ));
    }
    Ok(pos)
}

/// `word` without a move number before it (`1.`, `12...`, `3．`), or empty
/// when it is one.
fn strip_move_number(word: &str) -> &str {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return word;
    }
    let rest = &word[digits..];
    let after = rest.trim_start_matches(['.', '．', '…']);
    if after.len() == rest.len() { word } else { after }
}

/// Where a material signature must hold (`--material-at`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum MaterialAt {
    /// At some position of the main line (its start included).
    Any,
    /// At the main line's last position.
    #[default]
    End,
}

/// What a [`Probe`] looks for; shared by every probe of a batch.
#[derive(Clone, Debug, Default)]
pub struct Looks {
    /// A placement the game must reach.
    pub position: Option<Target>,
    /// Look for it in variations too.
    pub in_variations: bool,
    /// A material signature the game must have.
    pub material: Option<(MaterialPattern, MaterialAt)>,
    /// Name the opening (for `--ecco` and `--opening`).
    pub opening: bool,
    /// Key the main line, to find copies (`--dedupe`).
    pub key: bool,
}

impl Looks {
    /// Whether nothing is looked for: a probe then does nothing.
    pub fn is_empty(&self) -> bool {
        self.position.is_none() && self.material.is_none() && !self.opening && !self.key
    }
}

/// What a [`Probe`] found in a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Probed {
    /// The game reached the placement looked for.
    pub reached: bool,
    /// The material signature held where it was asked to.
    pub material: bool,
    /// The opening by its moves (games from the standard start only).
    pub opening: Option<OpeningName>,
    /// The main line's key (see [`crate::dedupe::GameKey`]), when asked and
    /// the start is a legal position.
    pub key: Option<GameKey>,
}

/// A main-line [`Follow`]er that finds what a selection asks of a game's
/// moves (see [`Looks`]). With `in_variations`, a
/// [`Replayer`](crate::record::replay::Replayer) tells it of variation
/// moves too.
///
/// ```
/// use std::sync::Arc;
/// use qipu::batch::Checker;
/// use qipu::select::{Looks, Probe, Target};
/// // The central cannon from the right (炮二平五), with its mirror (炮八平五).
/// let target = Target::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", true).unwrap();
/// let looks = Arc::new(Looks { position: Some(target), ..Looks::default() });
/// let games = qipu::formats::pgn::read_with("1. h2e2 *\n\n1. b2e2 *\n\n1. h0g2 *", &mut Checker::following(Probe::new(looks)));
/// let reached: Vec<bool> = games.iter().map(|g| g.followed.reached).collect();
/// assert_eq!(reached, [true, true, false]);
/// ```
#[derive(Clone, Debug)]
pub struct Probe {
    looks: Arc<Looks>,
    found: Probed,
    material: Material,
    /// The start position was set up: the material is known.
    started: bool,
    /// The opening's name, read as the game is replayed, when asked.
    opening: OpeningReader,
    keyer: Keyer,
}

impl Probe {
    /// A probe looking for `looks`.
    pub fn new(looks: Arc<Looks>) -> Probe {
        Probe {
            looks,
            found: Probed::default(),
            material: Material::default(),
            started: false,
            opening: OpeningReader::default(),
            keyer: Keyer::default(),
        }
    }

    fn look_at(&mut self, pos: &Position) {
        if let Some(target) = &self.looks.position
            && !self.found.reached
        {
            self.found.reached = target.matches(pos);
        }
        if let Some((pattern, MaterialAt::Any)) = &self.looks.material
            && !self.found.material
        {
            self.found.material = pattern.matches(&self.material);
        }
    }
}

impl Follow for Probe {
    type Output = Probed;

    fn start(&mut self, start: &Position) {
        if self.looks.is_empty() {
            return;
        }
        if self.looks.material.is_some() {
            self.material = Material::of(start.board());
        }
        self.started = true;
        if self.looks.key {
            self.keyer.start(start);
        }
        if self.looks.opening {
            self.opening.start(start);
        }
        self.look_at(start);
    }

    #[inline]
    fn before_move(&mut self, before: &Position, m: Move) {
        if self.looks.key {
            self.keyer.before_move(before, m);
        }
        if self.looks.material.is_some()
            && let Some(taken) = before.board().piece_at(m.to)
        {
            self.material.take(taken.color, taken.role);
        }
        if self.looks.opening {
            self.opening.before_move(before, m);
        }
    }

    #[inline]
    fn after_move(&mut self, after: &Position, m: Move) {
        if self.looks.key {
            self.keyer.after_move(after, m);
        }
        if self.looks.position.is_some() || self.looks.material.is_some() {
            self.look_at(after);
        }
    }

    #[inline]
    fn variation_move(&mut self, after: &Position, _: Move) {
        if self.looks.in_variations
            && let Some(target) = &self.looks.position
            && !self.found.reached
        {
            self.found.reached = target.matches(after);
        }
    }

    fn end(&mut self) -> Probed {
        let mut found = std::mem::take(&mut self.found);
        if self.looks.key {
            found.key = self.keyer.end();
        }
        if let Some((pattern, MaterialAt::End)) = &self.looks.material
            && self.started
        {
            found.material = pattern.matches(&self.material);
        }
        if self.looks.opening {
            found.opening = self.opening.end();
        }
        self.started = false;
        found
    }
}

impl Probe {
    /// What the probe finds in `record`, told its moves from the replay the
    /// record keeps ([`Record::replayed`]): the positions are played again,
    /// no move is resolved again. For a record that was read, the same as
    /// following its replay; of a record that could not be read a replay
    /// may still set up the start, which this does not.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use qipu::select::{Looks, Probe, Target};
    /// let target = Target::from_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR", false).unwrap();
    /// let looks = Arc::new(Looks { position: Some(target), in_variations: true, ..Looks::default() });
    /// let record = &qipu::formats::pgn::read("1. h2e2 b9c7 (1... h9g7) *")[0];
    /// assert!(Probe::new(looks).probe_record(record).reached); // in the variation
    /// ```
    pub fn probe_record(&mut self, record: &Record) -> Probed {
        let replayed = record.replayed();
        if let Some(start) = &replayed.resolution.start {
            self.start(start);
            let mut pos = start.clone();
            for &m in &replayed.moves {
                self.before_move(&pos, m);
                let _ = pos.play_unchecked(m);
                self.after_move(&pos, m);
            }
            if self.looks.in_variations && self.looks.position.is_some() && !self.found.reached {
                self.found.reached = self.reached_in_variations(record.tree(), &replayed.resolution, start);
            }
        }
        self.end()
    }

    /// Whether a variation's move leads to the placement looked for: each
    /// node's position is its parent's with the node's move played (the
    /// moves that replayed), depth first without recursion.
    fn reached_in_variations(&self, tree: &MoveTree, resolution: &Resolution, start: &Position) -> bool {
        let Some(target) = &self.looks.position else { return false };
        let mut main = vec![false; tree.len()];
        for id in tree.main_line() {
            main[id.index()] = true;
        }
        let mut stack = vec![(tree.root(), start.clone())];
        while let Some((id, pos)) = stack.pop() {
            for child in tree.children(id) {
                let Some(m) = resolution.move_of(child) else { continue };
                let mut next = pos.clone();
                let _ = next.play_unchecked(m);
                if !main[child.index()] && target.matches(&next) {
                    return true;
                }
                stack.push((child, next));
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{Notation, chinese};

    /// `moves` written in `notation` as a game's move text, numbered.
    fn written(moves: &[Move], notation: Notation) -> String {
        let mut pos = Position::start();
        let mut text = String::new();
        for (ply, &m) in moves.iter().enumerate() {
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&notation.write(&pos, m).unwrap());
            text.push(' ');
            let _ = pos.play_unchecked(m);
        }
        text
    }

    #[test]
    fn moves_in_every_notation_name_the_position_they_reach() {
        let notations = [
            Notation::Chinese(chinese::Style::Simplified),
            Notation::Chinese(chinese::Style::Traditional),
            Notation::Wxf,
            Notation::Iccs,
            Notation::Uci,
        ];
        let mut checked = 0;
        for moves in crate::formats::online::tests::random_games(38, 300, 60) {
            if moves.is_empty() {
                continue;
            }
            let mut end = Position::start();
            for &m in &moves {
                let _ = end.play_unchecked(m);
            }
            let expected = Target::of(end.board().clone(), Some(end.turn()), false);
            for notation in notations {
                let text = written(&moves, notation);
                let target = Target::after_moves(&text, false).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(target, expected, "{text}");
                assert!(target.matches(&end));
                checked += 1;
            }
            // The side to move counts: the same placement with the other
            // side to move is not the position.
            let mut other = end.to_setup();
            other.turn = !end.turn();
            if let Ok(other) = Position::from_setup(other) {
                assert!(!expected.matches(&other));
            }
            // The mirror matches the mirrored game's end.
            let mirrored: Vec<Move> =
                moves.iter().map(|m| Move::new(m.from.flip_horizontal(), m.to.flip_horizontal())).collect();
            let mut mirror_end = Position::start();
            for &m in &mirrored {
                let _ = mirror_end.play_unchecked(m);
            }
            let text = written(&moves, Notation::Iccs);
            assert!(Target::after_moves(&text, true).unwrap().matches(&mirror_end));
        }
        assert!(checked > 1000);
    }

    #[test]
    fn a_sequence_that_does_not_play_says_which_move() {
        let e = Target::after_moves("1. h2e2 h9g7 2. h0g4", false).unwrap_err();
        assert_eq!(e.what, "moves");
        assert!(e.why.starts_with("move 3 \"h0g4\": "), "{}", e.why);
        let e = Target::after_moves(" 1. *", false).unwrap_err();
        assert!(e.why.starts_with("no move"), "{}", e.why);
        // Commas and numbers glued to the move read too.
        let a = Target::after_moves("1.h2e2,h9g7，2.h0g2", false).unwrap();
        assert_eq!(a, Target::after_moves("h2e2 h9g7 h0g2", false).unwrap());
        // Two targets: either matches.
        let either = a.clone().or(Target::after_moves("b2e2", false).unwrap());
        let mut pos = Position::start();
        let _ = pos.play_unchecked("b2e2".parse().unwrap());
        assert!(either.matches(&pos) && !a.matches(&pos));
    }
}
