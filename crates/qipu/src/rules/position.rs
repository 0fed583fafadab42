//! A validated position: placement, side to move, clocks and hash, with
//! moves played and undone in place.

use std::fmt;

use super::fen::{ParseFenError, write_fen};
use super::zobrist;
use super::{Board, Color, Move, Piece, Role, Setup, Square};

/// Plies without a capture after which the natural move limit (自然限着,
/// 60 moves per side) is reached.
pub(crate) const NATURAL_MOVE_LIMIT: u32 = 120;

/// Why a [`Setup`] is not a valid position.
///
/// ```
/// use qipu::{Color, Position, PositionError, Setup};
/// let setup: Setup = "4k4/9/9/9/9/9/9/9/9/3K5 w".parse().unwrap();
/// assert!(Position::from_setup(setup.clone()).is_ok());
/// let mut no_king = setup;
/// no_king.board.remove(qipu::Square::D0);
/// assert_eq!(Position::from_setup(no_king), Err(PositionError::MissingKing(Color::Red)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{color} has {count} kings")]
    ExtraKing {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: usize,
    },
    /// A side has more pieces of a kind than the game starts with.
    #[error("{} has {count} {}s, at most {} allowed", .piece.color, .piece.role, .piece.role.max_count())]
    TooManyPieces {
        /// The piece (side and kind).
        piece: Piece,
        /// How many there are.
        count: usize,
    },
    /// A king stands outside its palace.
    #[error("{color} king on {square} is outside its palace")]
    KingOutsidePalace {
        /// The side.
        color: Color,
        /// Where the king stands.
        square: Square,
    },
    /// An advisor, elephant or pawn stands where it can never go.
    #[error("{piece} on {square}: it can never stand there")]
    ImpossibleSquare {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// The two kings face each other on an open file.
    #[error("the kings face each other on the open {0} file")]
    KingsFacing(super::File),
    /// The side that has just moved is in check.
    #[error("{0} is in check but it is not {0}'s move")]
    OppositeCheck(Color),
}

/// The result of a position with no legal move: the side to move loses,
/// whether it is checkmated or stalemated (困毙).
///
/// ```
/// use qipu::{Color, Outcome, Position};
/// let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/5K3 b").unwrap();
/// assert_eq!(pos.outcome(), None); // the king can go to e9
/// // With a rook on b9 too, the king on d9 is in check and cannot move.
/// let mated = Position::from_fen("1R1k5/R8/9/9/9/9/9/9/9/5K3 b").unwrap();
/// assert_eq!(mated.outcome(), Some(Outcome::Checkmate { winner: Color::Red }));
/// assert_eq!(mated.outcome().unwrap().winner(), Color::Red);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is in check and has no legal move.
    Checkmate {
        /// The side that delivered mate.
        winner: Color,
    },
    /// The side to move is not in check but has no legal move: it loses.
    Stalemate {
        /// The side that is not stalemated.
        winner: Color,
    },
}

impl Outcome {
    /// The winning side.
    pub fn winner(self) -> Color {
        match self {
            Outcome::Checkmate { winner } | Outcome::Stalemate { winner } => winner,
        }
    }
}

/// What [`Position::play_unchecked`] changed, for [`Position::undo`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The move played.
    pub m: Move,
    /// The piece captured, if any.
    pub(crate) captured: Option<Piece>,
    halfmoves: u32,
    fullmoves: u32,
    in_check: bool,
}

/// The move is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {m} in {fen}")]
pub struct IllegalMoveError {
    /// The move.
    pub m: Move,
    /// The position it was tried in.
    pub fen: String,
}

/// Why a FEN does not give a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FromFenError {
    /// The text is not a FEN.
    #[error(transparent)]
    Syntax(#[from] ParseFenError),
    /// The FEN is well formed but the position is not valid.
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
}

/// A valid position: exactly one king per side in its palace, no more
/// pieces of a kind than the game starts with, every advisor, elephant and
/// pawn on a point it can reach, the kings not facing, and the side that
/// has just moved not in check. Puzzle and handicap setups with missing
/// pieces are valid.
///
/// Moves are played and taken back in place without allocation.
///
/// ```
/// use qipu::{Move, Position, Square};
/// let mut pos = Position::start();
/// assert_eq!(pos.legal_moves().len(), 44);
/// let undo = pos.play(Move::new(Square::H2, Square::E2)).unwrap(); // 炮二平五
/// assert_eq!(pos.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
/// pos.undo(undo);
/// assert_eq!(pos, Position::start());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) kings: [Square; 2],
    pub(crate) hash: u64,
    /// Whether the side to move is in check, kept up to date by `play`.
    pub(crate) in_check: bool,
}

/// The standard starting position, built at compile time.
const START: Position = Position {
    board: super::board::START,
    turn: Color::Red,
    halfmoves: 0,
    fullmoves: 1,
    kings: [Square::E0, Square::E9],
    hash: zobrist::START_HASH,
    in_check: false,
};

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The standard starting position.
    pub fn start() -> Position {
        START
    }

    /// Checks a setup and makes it a position.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] when the setup is no position of a game: a side
    /// without its king or with too many pieces of a kind, a piece on a point
    /// it can never reach, the kings facing, the side not to move in check.
    ///
    /// ```
    /// use qipu::{Position, PositionError, Setup};
    /// let pos = Position::from_setup(Setup::start()).unwrap();
    /// assert_eq!(pos, Position::start());
    /// let facing: Setup = "4k4/9/9/9/9/9/9/9/9/4K4 w".parse().unwrap();
    /// assert!(matches!(Position::from_setup(facing), Err(PositionError::KingsFacing(_))));
    /// ```
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        // Most games begin from the start placement: valid with either side
        // to move, and neither side in check.
        if setup.board.same_placement(&START.board) {
            let Setup { turn, halfmoves, fullmoves, .. } = setup;
            let hash = match turn {
                Color::Red => START.hash,
                Color::Black => START.hash ^ zobrist::BLACK_TO_MOVE,
            };
            return Ok(Position { turn, halfmoves, fullmoves, hash, ..START });
        }
        Position::validate(setup)
    }

    /// [`Position::from_setup`] for any placement: every rule checked.
    fn validate(setup: Setup) -> Result<Position, PositionError> {
        let Setup { board, turn, halfmoves, fullmoves } = setup;
        let mut kings = [Square::A0; 2];
        for color in Color::ALL {
            let mut counts = [0usize; 7];
            for sq in board.squares_of(color) {
                let piece = board.piece_at(sq).expect("occupied point");
                counts[piece.role.index()] += 1;
                if piece.role == Role::King {
                    kings[color.index()] = sq;
                }
            }
            match counts[Role::King.index()] {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                count => return Err(PositionError::ExtraKing { color, count }),
            }
            for role in Role::ALL {
                let count = counts[role.index()];
                if count > role.max_count() {
                    return Err(PositionError::TooManyPieces { piece: Piece::new(color, role), count });
                }
            }
        }
        for (square, piece) in board.pieces() {
            if !can_stand_on(piece, square) {
                return Err(if piece.role == Role::King {
                    PositionError::KingOutsidePalace { color: piece.color, square }
                } else {
                    PositionError::ImpossibleSquare { piece, square }
                });
            }
        }
        let hash = zobrist::hash_of(&board, turn);
        let mut pos = Position { board, turn, halfmoves, fullmoves, kings, hash, in_check: false };
        if let Some(file) = pos.facing_kings_file() {
            return Err(PositionError::KingsFacing(file));
        }
        if pos.is_attacked(pos.king(!turn), turn) {
            return Err(PositionError::OppositeCheck(!turn));
        }
        pos.in_check = pos.is_attacked(pos.king(turn), !turn);
        Ok(pos)
    }

    /// Reads a FEN and checks the position.
    ///
    /// # Errors
    ///
    /// [`FromFenError::Syntax`] for text that is not FEN,
    /// [`FromFenError::Position`] for a placement that is no legal position.
    ///
    /// ```
    /// use qipu::{Position, PositionError, FromFenError, Color};
    /// assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").is_ok());
    /// let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    /// assert!(matches!(err, FromFenError::Position(PositionError::KingsFacing(_))));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FromFenError> {
        Ok(Position::from_setup(Setup::from_fen(fen)?)?)
    }

    /// The position as an unvalidated setup.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The canonical FEN.
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(80);
        self.write_fen(&mut out);
        out
    }

    /// Appends the canonical FEN to `out` (no allocation when it has room).
    pub fn write_fen(&self, out: &mut String) {
        write_fen(&self.board, self.turn, self.halfmoves, self.fullmoves, out);
    }

    /// Piece placement.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture (or since the setup, plus its clock).
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number: 1 at the start, counting up after each Black move.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Where `color`'s king stands.
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// The Zobrist hash of placement and side to move, kept up to date as
    /// moves are played (see [`crate::zobrist`]).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the side to move is in check (including by the opposing king
    /// on an open file, which cannot arise after a legal move).
    pub fn is_check(&self) -> bool {
        self.in_check
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move has no legal move and is not in check
    /// (困毙): it loses.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// The result if the side to move has no legal move; `None` while the
    /// game can go on.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let winner = !self.turn;
        Some(if self.is_check() { Outcome::Checkmate { winner } } else { Outcome::Stalemate { winner } })
    }

    /// Whether 120 plies (60 moves each) have passed without a capture: the
    /// natural move limit of the Chinese rules.
    pub fn is_natural_limit(&self) -> bool {
        self.halfmoves >= NATURAL_MOVE_LIMIT
    }

    /// Plays `m` if it is legal.
    ///
    /// # Errors
    ///
    /// An [`IllegalMoveError`] (the move and the FEN) when `m` is not legal
    /// here; the position is left as it was.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMoveError> {
        if self.is_legal(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMoveError { m, fen: self.fen() })
        }
    }

    /// Plays `m`, which must be legal (as from [`Position::legal_moves`]);
    /// an illegal move leaves the position in an unspecified but memory-safe
    /// state.
    ///
    /// # Panics
    ///
    /// When no piece of either side stands on `m.from`.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let (f, t) = (m.from.index(), m.to.index());
        let piece = self.board.piece_at(m.from).expect("a piece on the origin point");
        let captured = self.board.shift(f, t, piece);
        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE ^ zobrist::key(piece, f) ^ zobrist::key(piece, t);
        let undo = Undo {
            m,
            captured,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            in_check: self.in_check,
        };
        match captured {
            Some(c) => {
                hash ^= zobrist::key(c, t);
                self.halfmoves = 0;
            }
            None => self.halfmoves = self.halfmoves.saturating_add(1),
        }
        if piece.role == Role::King {
            self.kings[piece.color.index()] = m.to;
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash = hash;
        self.in_check = self.gives_check(piece.role, m);
        undo
    }

    /// Takes back the move that returned `undo`, which must be the last
    /// move played.
    #[inline]
    pub fn undo(&mut self, undo: Undo) {
        let Undo { m, captured, halfmoves, fullmoves, in_check } = undo;
        let (f, t) = (m.from.index(), m.to.index());
        let piece = self.board.piece_at(m.to).expect("the moved piece on its destination");
        self.board.unshift(f, t, piece, captured);
        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE ^ zobrist::key(piece, f) ^ zobrist::key(piece, t);
        if let Some(c) = captured {
            hash ^= zobrist::key(c, t);
        }
        if piece.role == Role::King {
            self.kings[piece.color.index()] = m.from;
        }
        self.turn = !self.turn;
        self.fullmoves = fullmoves;
        self.halfmoves = halfmoves;
        self.in_check = in_check;
        self.hash = hash;
    }

    /// The position with the other side to move and nothing else changed
    /// (a pass, which the rules do not allow): what the side that has just
    /// moved threatens. Not a position of the game.
    pub(crate) fn passed(&self) -> Position {
        let mut pos = self.clone();
        pos.turn = !self.turn;
        pos.hash ^= zobrist::BLACK_TO_MOVE;
        pos.in_check = pos.is_attacked(pos.king(pos.turn), self.turn);
        pos
    }

    /// The file on which the two kings face each other with nothing between
    /// them, if they do.
    pub fn facing_kings_file(&self) -> Option<super::File> {
        let (red, black) = (self.king(Color::Red), self.king(Color::Black));
        if red.file() != black.file() {
            return None;
        }
        let (lo, hi) = (red.index().min(black.index()), red.index().max(black.index()));
        let open =
            (lo + 9..hi).step_by(9).all(|i| self.board.piece_at(Square::from_index_unchecked(i)).is_none());
        open.then_some(red.file())
    }
}

/// Whether `piece` may stand on `square` in a game from the start position.
fn can_stand_on(piece: Piece, square: Square) -> bool {
    let file = square.file().index();
    let rank = square.rank().relative_to(piece.color) as usize;
    match piece.role {
        Role::King => square.in_palace(piece.color),
        Role::Advisor => square.in_palace(piece.color) && (file + rank) % 2 == 1,
        Role::Elephant => {
            matches!((file, rank), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4))
        }
        Role::Pawn => rank >= 5 || (rank >= 3 && file.is_multiple_of(2)),
        Role::Horse | Role::Rook | Role::Cannon => true,
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    /// The canonical FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl std::str::FromStr for Position {
    type Err = FromFenError;
    fn from_str(s: &str) -> Result<Position, FromFenError> {
        Position::from_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos_err(fen: &str) -> PositionError {
        match Position::from_fen(fen) {
            Err(FromFenError::Position(e)) => e,
            other => panic!("expected a position error for {fen}, got {other:?}"),
        }
    }

    #[test]
    fn validation_errors() {
        use Color::*;
        assert_eq!(pos_err("9/9/9/9/9/9/9/9/9/4K4 w"), PositionError::MissingKing(Black));
        assert_eq!(pos_err("4k4/9/9/9/9/9/9/9/9/9 w"), PositionError::MissingKing(Red));
        assert_eq!(
            pos_err("3k5/4k4/9/9/9/9/9/9/9/4K4 w"),
            PositionError::ExtraKing { color: Black, count: 2 }
        );
        assert_eq!(
            pos_err("3k5/9/9/9/9/9/9/9/9/RRR1K4 w"),
            PositionError::TooManyPieces { piece: Piece::new(Red, Role::Rook), count: 3 }
        );
        assert_eq!(
            pos_err("3k5/9/9/9/9/9/9/9/9/PPPPPPK2 w"),
            PositionError::TooManyPieces { piece: Piece::new(Red, Role::Pawn), count: 6 }
        );
        assert_eq!(
            pos_err("3k5/9/9/9/9/9/9/9/9/K8 w"),
            PositionError::KingOutsidePalace { color: Red, square: Square::A0 }
        );
        assert_eq!(
            pos_err("9/9/9/4k4/9/9/9/9/9/4K4 w"),
            PositionError::KingOutsidePalace { color: Black, square: Square::E6 }
        );
        assert_eq!(
            pos_err("3k5/9/9/9/9/9/9/9/9/3KA4 w"),
            PositionError::ImpossibleSquare { piece: Piece::new(Red, Role::Advisor), square: Square::E0 }
        );
        assert_eq!(
            pos_err("3k5/9/9/9/2B6/9/9/9/9/4K4 w"),
            PositionError::ImpossibleSquare { piece: Piece::new(Red, Role::Elephant), square: Square::C5 }
        );
        assert_eq!(
            pos_err("3k5/9/9/9/9/9/1P7/9/9/4K4 w"),
            PositionError::ImpossibleSquare { piece: Piece::new(Red, Role::Pawn), square: Square::B3 }
        );
        assert_eq!(
            pos_err("3k5/9/9/1p7/9/9/9/9/9/4K4 w"),
            PositionError::ImpossibleSquare { piece: Piece::new(Black, Role::Pawn), square: Square::B6 }
        );
        assert_eq!(pos_err("4k4/9/9/9/9/9/9/9/9/4K4 w"), PositionError::KingsFacing(crate::File::E));
        assert_eq!(pos_err("4k4/9/9/9/9/9/9/9/9/3KR4 w"), PositionError::OppositeCheck(Black));
        // A black pawn on e1 is legal: it has crossed the river.
        assert!(Position::from_fen("5k3/9/9/9/9/9/9/9/4p4/3K5 w").is_ok());
        // A black rook checking the red king with Red to move is fine.
        assert!(Position::from_fen("5k3/9/9/9/9/9/9/9/9/3Kr4 w").is_ok());
    }

    #[test]
    fn puzzle_setups_are_valid() {
        // Kings and a few pieces only, handicap starts with pieces missing.
        assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").is_ok());
        assert!(Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w").is_ok());
        let e = pos_err("4k4/9/9/9/9/9/9/9/9/3KR4 w").to_string();
        assert_eq!(e, "Black is in check but it is not Black's move");
    }

    #[test]
    fn undo_restores_everything() {
        let mut pos = Position::from_fen("5k3/9/9/9/9/9/9/9/4r4/3KR4 b - - 5 9").unwrap();
        let before = pos.clone();
        let u = pos.play(Move::new(Square::E1, Square::E0)).unwrap();
        assert_eq!(u.captured, Some(Piece::new(Color::Red, Role::Rook)));
        assert_eq!(pos.halfmoves(), 0);
        assert_eq!(pos.fullmoves(), 10);
        assert_eq!(pos.hash(), zobrist::hash_of(pos.board(), pos.turn()));
        pos.undo(u);
        assert_eq!(pos, before);
        assert!(pos.play(Move::new(Square::E1, Square::D2)).is_err());
    }
}

#[cfg(test)]
mod start_tests {
    use super::*;

    #[test]
    fn start_position_is_what_validation_makes() {
        let checked = Position::validate(Setup::start()).unwrap();
        assert_eq!(Position::start(), checked);
        assert_eq!(Position::start().hash(), zobrist::hash_of(&Board::start(), Color::Red));
        for turn in Color::ALL {
            for (halfmoves, fullmoves) in [(0, 1), (7, 30), (200, 1)] {
                let setup = Setup { board: Board::start(), turn, halfmoves, fullmoves };
                assert_eq!(Position::from_setup(setup.clone()), Position::validate(setup));
            }
        }
        // Built piece by piece, the start placement is the constant one.
        let mut board = Board::empty();
        for (sq, p) in Board::start().pieces() {
            board.put(sq, p);
        }
        assert_eq!(board, Board::start());
        assert_eq!(super::super::fen::START, Setup::start().to_fen());
    }
}
