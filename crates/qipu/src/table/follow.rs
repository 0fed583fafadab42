//! What a worker thread gathers of a game's main line for the tables, as
//! it is replayed: its moves, its key, its ECCO code and, when positions
//! are wanted, the FEN of every position ([`TableFollower`], a [`Follow`]er).

use crate::analysis::ecco::OpeningReader;
use crate::analysis::trail::{Step, Trail, TrailSink};
use crate::dedupe::key::{line_start, step};
use crate::notation::Notation;
use crate::record::replay::{Follow, LineId};
use crate::record::{Evaluation, Skip};
use crate::{Color, Move, Position};

/// The most bytes of FENs (and moves) a follower keeps room for between
/// games.
const KEPT_ROOM: usize = 1 << 20;

/// What [`TableFollower`] makes of a game's main line: a small value, handed from
/// the worker thread that replayed the game to the one that builds the
/// tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MainLine {
    /// The main line's moves that replayed, in order.
    pub moves: Vec<Move>,
    /// The hash of the game's start and main line, as its
    /// [`GameKey::line`](crate::dedupe::GameKey::line) (copies share it):
    /// `None` when its start is no legal position, or when the follower
    /// was made [`without_games`](TableFollower::without_games).
    pub line_key: Option<u64>,
    /// The ECCO code of the opening (`None` for a game from another start,
    /// or when the follower was made
    /// [`without_games`](TableFollower::without_games)).
    pub ecco: Option<&'static str>,
    /// The positions after each move (not the start), when asked for.
    pub positions: Option<Fens>,
}

/// The positions after each main-line move of a game: their FENs one after
/// another in one text, and the evaluation each move's comment gives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fens {
    /// The FENs, one after another (ASCII: written as bytes, each one
    /// appended, never the whole checked again).
    pub(crate) text: Vec<u8>,
    /// Where each FEN ends in `text`.
    pub(crate) ends: Vec<usize>,
    /// The side to move in each position.
    pub(crate) turns: Vec<Color>,
    /// The evaluations the comments of the moves give
    /// ([`Evaluation::find`]), by the position each move led to: few
    /// positions have one, so only those are held.
    pub(crate) evals: Vec<(usize, Evaluation)>,
    /// With [`TableFollower::moves_in`]: the text of each move that led
    /// to a position, in the trail's notation, one after another, and
    /// where each ends.
    moves: Option<(String, Vec<usize>)>,
}

impl Fens {
    /// How many positions.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The FEN of position `k` (from 0: the position after the first move).
    pub fn fen(&self, k: usize) -> &str {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        std::str::from_utf8(&self.text[start..self.ends[k]]).unwrap_or_default()
    }

    /// The side to move in position `k`.
    pub fn turn(&self, k: usize) -> Color {
        self.turns[k]
    }

    /// The move that led to position `k`, in the notation the follower was
    /// made with ([`TableFollower::moves_in`]); `None` without one.
    pub fn move_text(&self, k: usize) -> Option<&str> {
        let (text, ends) = self.moves.as_ref()?;
        let start = if k == 0 { 0 } else { *ends.get(k - 1)? };
        text.get(start..*ends.get(k)?)
    }

    /// The evaluation the comment of the move that led to position `k`
    /// gives, if any.
    pub fn evaluation(&self, k: usize) -> Option<Evaluation> {
        let at = self.evals.binary_search_by_key(&k, |&(at, _)| at).ok()?;
        Some(self.evals[at].1)
    }
}

impl TrailSink for Fens {
    type Output = Fens;

    fn position(&mut self, step: &Step<'_>) {
        step.write_fen(&mut self.text);
        self.ends.push(self.text.len());
        self.turns.push(step.turn);
        if let Some((text, ends)) = &mut self.moves {
            text.push_str(step.mv.unwrap_or_default());
            ends.push(text.len());
        }
    }

    fn evaluation(&mut self, eval: Evaluation) {
        let Some(at) = self.ends.len().checked_sub(1) else { return };
        match self.evals.last_mut() {
            Some(last) if last.0 == at => last.1 = eval,
            _ => self.evals.push((at, eval)),
        }
    }

    fn end(&mut self) -> Fens {
        // Held until the table takes the game: copied at their size, no
        // room to spare; this one's room is kept for the next game (so
        // that its buffers do not grow again from nothing), unless a
        // giant game made it large.
        let fens = self.clone();
        self.text.clear();
        self.ends.clear();
        self.turns.clear();
        self.evals.clear();
        if let Some((text, ends)) = &mut self.moves {
            text.clear();
            ends.clear();
        }
        if self.text.capacity() > KEPT_ROOM {
            *self = Fens { moves: self.moves.as_ref().map(|_| Default::default()), ..Fens::default() };
        }
        fens
    }
}

/// Follows a game's main line for the tables (see [`MainLine`]); one is
/// made for each job of a batch ([`TableFollower::new`]).
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::table::TableFollower;
/// let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 *", &mut Checker::following(TableFollower::new(true)));
/// let line = &games[0].followed;
/// assert_eq!(line.moves.len(), 2);
/// assert_eq!(line.ecco, Some("B05")); // as `qipu classify` names it
/// assert_eq!(line.positions.as_ref().unwrap().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct TableFollower {
    moves: Vec<Move>,
    /// The hash of the line (the one part of the game's key the table
    /// holds: the whole key took 2 % of the time of an export of games)
    /// and the opening, for the table of games.
    games: Option<(Option<u64>, OpeningReader)>,
    trail: Option<Trail<Fens>>,
}

impl TableFollower {
    /// A follower of the main line, gathering the FEN of every position
    /// when `positions`.
    pub fn new(positions: bool) -> TableFollower {
        TableFollower {
            moves: Vec::new(),
            games: Some((None, OpeningReader::default())),
            trail: positions.then(|| Trail::new(Notation::Uci, Fens::default())),
        }
    }

    /// The same follower for the table of positions alone: it leaves out
    /// what only the table of games holds, the key and the ECCO code
    /// ([`MainLine::line_key`] and [`MainLine::ecco`] are `None`), which took
    /// about 4 % of the time of an export of positions in a profile.
    ///
    /// ```
    /// use qipu::batch::Checker;
    /// use qipu::table::TableFollower;
    /// let follower = TableFollower::new(true).without_games();
    /// let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 *", &mut Checker::following(follower));
    /// let line = &games[0].followed;
    /// assert_eq!((line.moves.len(), line.ecco, line.line_key), (2, None, None));
    /// ```
    pub fn without_games(mut self) -> TableFollower {
        self.games = None;
        self
    }

    /// The same follower keeping the text of each move of the positions
    /// it gathers, written in `notation` ([`Fens::move_text`]): what
    /// Python's `fen_columns` gives beside the FENs. A follower made
    /// without positions gathers none.
    ///
    /// ```
    /// use qipu::batch::Checker;
    /// use qipu::notation::{Notation, chinese::Style};
    /// use qipu::table::TableFollower;
    /// let follower = TableFollower::new(true).moves_in(Notation::Chinese(Style::Simplified));
    /// let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 *", &mut Checker::following(follower));
    /// let fens = games[0].followed.positions.as_ref().unwrap();
    /// assert_eq!((fens.move_text(0), fens.move_text(1), fens.move_text(2)), (Some("炮二平五"), Some("马８进７"), None));
    /// ```
    pub fn moves_in(mut self, notation: Notation) -> TableFollower {
        if self.trail.is_some() {
            let fens = Fens { moves: Some(Default::default()), ..Fens::default() };
            self.trail = Some(Trail::new(notation, fens));
        }
        self
    }
}

impl Follow for TableFollower {
    type Output = MainLine;

    fn start(&mut self, start: &Position) {
        if let Some((line, opening)) = &mut self.games {
            *line = Some(line_start(start.hash()));
            opening.start(start);
        }
        if let Some(trail) = &mut self.trail {
            trail.start(start);
        }
    }

    fn before_move(&mut self, before: &Position, m: Move) {
        if let Some((line, opening)) = &mut self.games {
            *line = line.map(|line| step(line, m));
            opening.before_move(before, m);
        }
        if let Some(trail) = &mut self.trail {
            trail.before_move(before, m);
        }
    }

    fn after_move(&mut self, after: &Position, m: Move) {
        self.moves.push(m);
        if let Some((_, opening)) = &mut self.games {
            opening.after_move(after, m);
        }
        if let Some(trail) = &mut self.trail {
            trail.after_move(after, m);
        }
    }

    fn begin_variation(&mut self, from: &Position, ply: usize, line: LineId<'_>) -> Skip {
        // Variations are replayed all the same (a wrong move in one makes
        // the game illegal), though only the main line is gathered.
        match &mut self.trail {
            Some(trail) => trail.begin_variation(from, ply, line),
            None => Skip(false),
        }
    }

    fn variation_move(&mut self, after: &Position, m: Move) {
        if let Some(trail) = &mut self.trail {
            trail.variation_move(after, m);
        }
    }

    fn end_variation(&mut self, back: &Position, ply: usize, line: LineId<'_>) {
        if let Some(trail) = &mut self.trail {
            trail.end_variation(back, ply, line);
        }
    }

    fn comment(&mut self, comment: &str) {
        if let Some(trail) = &mut self.trail {
            trail.comment(comment);
        }
    }

    fn end(&mut self) -> MainLine {
        // Held until the table takes the game: copied at its size; the
        // room is kept for the next game, as the FENs' is.
        let moves = self.moves.clone();
        self.moves.clear();
        if self.moves.capacity() > KEPT_ROOM {
            self.moves = Vec::new();
        }
        let (line_key, ecco) = match &mut self.games {
            Some((line, opening)) => (line.take(), opening.end_ecco().map(|ecco| ecco.code)),
            None => (None, None),
        };
        MainLine { moves, line_key, ecco, positions: self.trail.as_mut().map(|trail| trail.end().positions) }
    }
}
