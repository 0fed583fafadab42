//! Move notations: Chinese (中文纵线格式), WXF and ICCS.
//!
//! Each notation works in two steps, like shakmaty's SAN: text is parsed
//! without a position into a description (syntax errors only), and the
//! description is resolved against a [`Position`] into a legal [`Move`]
//! (errors: no such piece, ambiguous, illegal). Writing goes the other way:
//! a legal move in a position becomes canonical text (a move with no piece
//! on its origin is a [`WriteMoveError`]).
//!
//! Chinese and WXF describe a move the same way, relative to the mover: a
//! piece picked by its file or by its order on a file (前/后, `+`/`-`), a
//! direction (进/退/平, `+`/`-`/`.`) and a number (ranks travelled, or the
//! destination file). Both parse into a [`Descriptive`] move, resolved by
//! one resolver that tries every convention in use and keeps the readings
//! that are legal moves.
//!
//! ```
//! use qipu::Position;
//! use qipu::notation::{chinese, iccs, wxf};
//! let pos = Position::start();
//! let m = chinese::parse("炮二平五").unwrap().resolve(&pos).unwrap();
//! assert_eq!(wxf::parse("C2.5").unwrap().resolve(&pos), Ok(m));
//! assert_eq!(iccs::parse("H2-E2").unwrap().resolve(&pos), Ok(m));
//! assert_eq!(chinese::write(&pos, m, chinese::Style::Simplified).unwrap(), "炮二平五");
//! assert_eq!(wxf::write(&pos, m).unwrap(), "C2.5");
//! assert_eq!(iccs::write(m, iccs::Style::Iccs), "H2-E2");
//! ```

use std::fmt;

use crate::{Color, File, Illegality, Move, Position, Role, Square};

mod any;
pub mod chinese;
#[cfg(test)]
mod fast_path_tests;
pub mod iccs;
pub mod san;
pub mod wxf;

pub(crate) use any::resolve_any_in_game;
pub use any::{Dialect, MoveError, resolve_any};

/// Which way a piece moves, as its own side sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// 进 (`+`): towards the opponent.
    Forward,
    /// 退 (`-`): towards one's own side.
    Backward,
    /// 平 (`.`, `=`): along the rank.
    Sideways,
}

/// Which of several same-kind pieces a record means, counted from the
/// front (the piece nearest the opponent) to the back.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// 前: the front piece.
    Front,
    /// 中: the middle piece (the 2nd of three; of five, the 3rd in print
    /// and the 2nd in ElephantEye's reading, both tried).
    Middle,
    /// 后/後: the rear piece (of four or five, the rearmost in print and
    /// the 3rd in ElephantEye's reading, both tried).
    Rear,
    /// 一…五 (and 二…五 after 前): the n-th piece from the front, 1-based;
    /// also WXF `a`…`e` of the xqbase form `Pa.4`.
    Nth(u8),
    /// WXF `+` after the letter: the front piece of two or three, the 2nd
    /// of four or five.
    Plus,
    /// WXF `-` after the letter: the rear piece of two or three, the 2nd
    /// from the rear of four or five.
    Minus,
    /// WXF `++`: the foremost of four or five pawns.
    Foremost,
    /// WXF `--`: the rearmost of four or five pawns.
    Rearmost,
}

/// How a record names the piece that moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The piece on this file, numbered 1…9 from the mover's right.
    File(u8),
    /// A piece picked by its order among the same-kind pieces of one file
    /// (when `file` is given) or of the files holding several.
    Ordered {
        /// Which piece, front first.
        order: Order,
        /// The file, when the record names it (前九平八, `3+.4`).
        file: Option<u8>,
    },
    /// Two digits before the operator (`33.4`, `15=6`): official WXF's
    /// middle pawn of file `first` (when both digits are equal), or
    /// Fairy-Stockfish's pawn number `first` on file `second`; both tried.
    Digits {
        /// The first digit.
        first: u8,
        /// The second digit.
        second: u8,
    },
}

/// A move as Chinese and WXF records describe it, not yet tied to a
/// position.
///
/// ```
/// use qipu::{Position, Role};
/// use qipu::notation::{Descriptive, Direction, Origin, chinese, wxf};
/// let d = chinese::parse("炮二平五").unwrap();
/// assert_eq!(d, Descriptive { role: Some(Role::Cannon), origin: Origin::File(2), direction: Some(Direction::Sideways), number: 5 });
/// assert_eq!(wxf::parse("C2.5"), Ok(d)); // the same description
/// assert_eq!(d.resolve(&Position::start()).unwrap().to_string(), "h2e2");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Descriptive {
    /// The kind of piece; `None` for the pieceless pawn forms (前九平八,
    /// `3+.4`, `++.4`), which name pawns.
    pub role: Option<Role>,
    /// Which piece.
    pub origin: Origin,
    /// Which way it moves; `None` for the abbreviated forms without an
    /// operator (炮25, 马8（7）), where the move decides: sideways for rooks,
    /// cannons, kings and pawns, forwards or backwards for the others.
    pub direction: Option<Direction>,
    /// Ranks travelled (forward or backward along the file), or the
    /// destination file (sideways moves, and every move of horses,
    /// advisors and elephants), 1…9.
    pub number: u8,
}

/// Why a described move is not a legal move in the position.
///
/// ```
/// use qipu::{Position, Role};
/// use qipu::notation::{ResolveError, chinese};
/// let pos = Position::start();
/// let e = chinese::parse("炮三平五").unwrap().resolve(&pos).unwrap_err();
/// assert!(matches!(e, ResolveError::NoPiece { role: Role::Cannon, .. }), "{e}");
/// let e = chinese::parse("车一进九").unwrap().resolve(&pos).unwrap_err();
/// assert!(matches!(e, ResolveError::Illegal { .. }), "{e}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No piece answers the description.
    #[error("no {color} {role} {}", Place(*origin))]
    NoPiece {
        /// The side to move.
        color: Color,
        /// The kind of piece looked for.
        role: Role,
        /// Where it was looked for: the description's origin.
        origin: Origin,
    },
    /// The side to move has no piece on the origin point of a coordinate
    /// move.
    #[error("no {color} piece on {square}")]
    EmptyOrigin {
        /// The side to move.
        color: Color,
        /// The origin point.
        square: Square,
    },
    /// Pieces answer the description but none can move so.
    #[error("illegal: {reason}")]
    Illegal {
        /// Why.
        reason: IllegalReason,
    },
    /// More than one legal move answers the description.
    #[error("ambiguous: could be {}", list(.moves))]
    Ambiguous {
        /// The legal moves it could be, sorted.
        moves: Vec<Move>,
    },
}

/// Why no reading of a move is legal: what a [`ResolveError::Illegal`]
/// holds.
///
/// ```
/// use qipu::{Color, Illegality, Piece, Position, Role, Square};
/// use qipu::notation::{IllegalReason, ResolveError, chinese, iccs};
/// let pos = Position::start();
/// let e = chinese::parse("马二进四").unwrap().resolve(&pos).unwrap_err();
/// let ResolveError::Illegal { reason: IllegalReason::Breaks { mv, rule } } = e else { panic!("{e}") };
/// assert_eq!((mv.to_string(), rule), ("h0f1".to_string(), Illegality::Blocked(Piece::new(Color::Red, Role::Horse), Square::G0)));
/// let e = iccs::parse("a0a5").unwrap().resolve(&pos).unwrap_err();
/// assert!(matches!(e, ResolveError::Illegal { reason: IllegalReason::Rule(Illegality::PathBlocked(_)) }), "{e}");
/// assert_eq!(e.to_string(), "illegal: the rook's path is blocked");
/// let e = chinese::parse("仕四平五").unwrap().resolve(&pos).unwrap_err();
/// assert!(matches!(e, ResolveError::Illegal { reason: IllegalReason::NoDestination { color: Color::Red, .. } }), "{e}");
/// assert_eq!(e.to_string(), "illegal: the Red advisor on file 4 cannot move sideways to file 5");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    /// The move, written as its points (ICCS), breaks this rule.
    #[error("{0}")]
    Rule(Illegality),
    /// The move a description reads as (the last one tried, when it has
    /// several readings) breaks this rule.
    #[error("{mv}: {rule}")]
    Breaks {
        /// The move tried.
        mv: Move,
        /// The rule it breaks.
        rule: Illegality,
    },
    /// The move tried is not legal, and no rule names why.
    #[error("{0} is not a legal move")]
    NotLegal(Move),
    /// The pieces described have no destination under the description
    /// (a rook moving forward nine ranks from the last but one rank).
    #[error("the {color} {} {} cannot move {}", description.role.unwrap_or(Role::Pawn), Place(description.origin), Motion(*description))]
    NoDestination {
        /// The side to move.
        color: Color,
        /// The move as described.
        description: Descriptive,
    },
    /// No piece of the kind named can reach the destination of a SAN
    /// move (`to_rank` as written, counted from 0 or 1).
    #[error("no {color} {role} can move to {to_file}{to_rank}")]
    Unreachable {
        /// The side to move.
        color: Color,
        /// The kind of piece named.
        role: Role,
        /// The destination file.
        to_file: File,
        /// The destination rank number as written.
        to_rank: u8,
    },
}

fn list(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" or ")
}

/// Small fixed set of candidate points (no allocation).
struct Candidates {
    squares: [Square; 10],
    len: usize,
}

impl Candidates {
    const fn new() -> Candidates {
        Candidates { squares: [Square::A0; 10], len: 0 }
    }
    fn add(&mut self, sq: Square) {
        if self.len < self.squares.len() && !self.squares[..self.len].contains(&sq) {
            self.squares[self.len] = sq;
            self.len += 1;
        }
    }
    fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares[..self.len].iter().copied()
    }
}

/// The points of `color`'s `role` pieces on one file, front first.
fn on_file(pos: &Position, color: Color, role: Role, file: File) -> ([Square; 10], usize) {
    let mut out = [Square::A0; 10];
    let mut n = 0;
    let board = pos.board();
    let mut bits = board.occupied_by(color)
        & board.occupied_by_role(role)
        & crate::rules::tables::FILE_MASKS[file.index()];
    while bits != 0 {
        // Front first: from the top for Red, from the bottom for Black.
        let i = match color {
            Color::Red => 127 - bits.leading_zeros() as usize,
            Color::Black => bits.trailing_zeros() as usize,
        };
        bits &= !(1u128 << i);
        // Cannot fail: a file mask holds points of the board only, 10 of them.
        out[n] = Square::from_index(i).expect("a point of the board");
        n += 1;
    }
    (out, n)
}

/// The xqbase pool: every `role` piece of `color` standing on a file that
/// holds two or more of them, files from the mover's right to left, front
/// to back within a file.
fn pool(pos: &Position, color: Color, role: Role) -> ([Square; 10], usize, usize) {
    let mut out = [Square::A0; 10];
    let mut n = 0;
    let mut files = 0;
    for number in 1..=9 {
        let file = File::from_number(color, number).expect("1-9");
        let (sqs, k) = on_file(pos, color, role, file);
        if k >= 2 {
            files += 1;
            for &sq in &sqs[..k] {
                if n < out.len() {
                    out[n] = sq;
                    n += 1;
                }
            }
        }
    }
    (out, n, files)
}

/// The 0-based indexes an order may mean among `n` pieces.
fn order_indexes(order: Order, n: usize) -> ([usize; 2], usize) {
    let one = |i: usize| ([i, usize::MAX], 1);
    let two = |i: usize, j: usize| if i == j { ([i, usize::MAX], 1) } else { ([i, j], 2) };
    match order {
        Order::Front | Order::Foremost => one(0),
        Order::Rearmost => one(n.wrapping_sub(1)),
        Order::Rear if n >= 4 => two(n - 1, 2),
        Order::Rear => one(n.wrapping_sub(1)),
        Order::Middle if n == 5 => two(2, 1),
        Order::Middle if n >= 3 => one(1),
        Order::Middle => ([0, 0], 0),
        Order::Nth(k) => one((k as usize).wrapping_sub(1)),
        Order::Plus => one(if n >= 4 { 1 } else { 0 }),
        Order::Minus => one(if n >= 4 { n - 2 } else { n.wrapping_sub(1) }),
    }
}

fn add_ordered(c: &mut Candidates, sqs: &[Square], order: Order) {
    if sqs.len() < 2 && !matches!(order, Order::Nth(1)) {
        return;
    }
    let (idx, k) = order_indexes(order, sqs.len());
    for &i in &idx[..k] {
        if let Some(&sq) = sqs.get(i) {
            c.add(sq);
        }
    }
}

impl Descriptive {
    /// The legal move this description stands for in `pos`.
    ///
    /// Every convention in use is tried; readings that are not legal moves
    /// are dropped. Exactly one legal move must remain. The plain file
    /// form for a file holding several such pieces (兵七进一 with two pawns
    /// on 七) is read as a last resort, when no standard reading is legal.
    ///
    /// # Errors
    ///
    /// A [`ResolveError`] when no reading is a legal move, or when several
    /// are.
    pub fn resolve(&self, pos: &Position) -> Result<Move, ResolveError> {
        match self.resolve_plain(pos) {
            Some(m) => Ok(m),
            None => self.resolve_general(pos),
        }
    }

    /// The fast path of [`Descriptive::resolve`]: the move, when exactly
    /// one legal move answers the strict reading, which is then what the
    /// general path returns (the loose reading is only tried when the
    /// strict one fails). `None` otherwise, for the general path to sort
    /// out, errors and all.
    ///
    /// The common plain file form (炮二平五, one such piece on the file,
    /// or advisors, elephants and kings, all of which are candidates) takes
    /// its candidates straight from the board, without sorting them front
    /// first: a single legal move does not depend on their order.
    #[inline]
    fn resolve_plain(&self, pos: &Position) -> Option<Move> {
        let color = pos.turn();
        let role = self.role.unwrap_or(Role::Pawn);
        let Origin::File(n) = self.origin else {
            let (strict, _) = self.candidates(pos);
            return self.unique_legal(pos, color, role, strict.iter());
        };
        let file = File::from_number(color, n)?;
        let board = pos.board();
        let bits = board.occupied_by(color)
            & board.occupied_by_role(role)
            & crate::rules::tables::FILE_MASKS[file.index()];
        if bits & bits.wrapping_sub(1) == 0 {
            // One piece (or none): with a direction, one destination.
            if bits != 0 && self.direction.is_some() {
                let from = Square::from_index(bits.trailing_zeros() as usize)?;
                let m = Move::new(from, self.destination(color, role, from)?);
                return pos.is_legal(m).then_some(m);
            }
        } else if !matches!(role, Role::Advisor | Role::Elephant | Role::King) {
            return None; // several pawns, rooks, cannons or horses on the file
        }
        self.unique_legal(pos, color, role, crate::rules::SquareSet(bits))
    }

    /// The one legal move from `candidates` under this description, if
    /// there is exactly one: the `Ok` of [`Descriptive::legal_moves_from`]
    /// for the same candidates in any order.
    #[inline(never)]
    fn unique_legal(
        &self,
        pos: &Position,
        color: Color,
        role: Role,
        candidates: impl Iterator<Item = Square>,
    ) -> Option<Move> {
        let mut found = None;
        for from in candidates {
            for to in self.destinations(color, role, from).into_iter().flatten() {
                let m = Move::new(from, to);
                if pos.is_legal(m) {
                    match found {
                        None => found = Some(m),
                        Some(f) if f == m => {}
                        Some(_) => return None,
                    }
                }
            }
        }
        found
    }

    /// [`Descriptive::resolve`] the long way: every reading, every error.
    #[cold]
    #[inline(never)]
    fn resolve_general(&self, pos: &Position) -> Result<Move, ResolveError> {
        let (strict, loose) = self.candidates(pos);
        match self.legal_moves_from(pos, &strict) {
            Ok(m) => Ok(m),
            Err(e) if loose.len > 0 && !matches!(e, ResolveError::Ambiguous { .. }) => {
                self.legal_moves_from(pos, &loose)
            }
            Err(e) => Err(e),
        }
    }

    /// The pieces the description may mean: the standard readings
    /// (strict), and the last resort (loose).
    fn candidates(&self, pos: &Position) -> (Candidates, Candidates) {
        let color = pos.turn();
        let role = self.role.unwrap_or(Role::Pawn);
        let file_of = |n: u8| File::from_number(color, n);
        let mut strict = Candidates::new();
        let mut loose = Candidates::new();
        match self.origin {
            Origin::File(n) => {
                if let Some(file) = file_of(n) {
                    let (sqs, k) = on_file(pos, color, role, file);
                    let sqs = &sqs[..k];
                    if k == 1 || matches!(role, Role::Advisor | Role::Elephant | Role::King) {
                        sqs.iter().for_each(|&s| strict.add(s));
                    } else {
                        if k % 2 == 1 {
                            strict.add(sqs[k / 2]); // WXF `P3.4`: the middle pawn
                        }
                        sqs.iter().for_each(|&s| loose.add(s));
                    }
                }
            }
            Origin::Ordered { order, file: Some(n) } => {
                if let Some(file) = file_of(n) {
                    let (sqs, k) = on_file(pos, color, role, file);
                    add_ordered(&mut strict, &sqs[..k], order);
                    if k == 1 {
                        loose.add(sqs[0]); // a qualifier where none was needed
                    }
                }
            }
            Origin::Ordered { order, file: None } => {
                // One file with several: the order counts within it. Several:
                // xqbase counts through the whole pool, right to left.
                let (sqs, k, _) = pool(pos, color, role);
                add_ordered(&mut strict, &sqs[..k], order);
            }
            Origin::Digits { first, second } => {
                // Official WXF writes `33` for the middle of three pawns on file
                // 3 only when another file also holds several pawns.
                if first == second
                    && let Some(file) = file_of(first)
                    && pool(pos, color, role).2 >= 2
                {
                    let (sqs, k) = on_file(pos, color, role, file);
                    if k == 3 {
                        strict.add(sqs[1]);
                    }
                }
                if let Some(file) = file_of(second) {
                    let (sqs, k) = on_file(pos, color, role, file);
                    add_ordered(&mut strict, &sqs[..k], Order::Nth(first));
                }
            }
        }
        (strict, loose)
    }

    fn legal_moves_from(&self, pos: &Position, candidates: &Candidates) -> Result<Move, ResolveError> {
        let color = pos.turn();
        let role = self.role.unwrap_or(Role::Pawn);
        if candidates.len == 0 {
            return Err(ResolveError::NoPiece { color, role, origin: self.origin });
        }
        let mut found = [Move::new(Square::A0, Square::A0); 4];
        let mut n = 0;
        let mut tried = None;
        for from in candidates.iter() {
            for to in self.destinations(color, role, from).into_iter().flatten() {
                let m = Move::new(from, to);
                tried = Some(m);
                if n < found.len() && pos.is_legal(m) && !found[..n].contains(&m) {
                    found[n] = m;
                    n += 1;
                }
            }
        }
        match n {
            1 => Ok(found[0]),
            0 => Err(ResolveError::Illegal {
                reason: match tried {
                    Some(m) => match pos.illegality(m) {
                        Some(rule) => IllegalReason::Breaks { mv: m, rule },
                        None => IllegalReason::NotLegal(m),
                    },
                    None => IllegalReason::NoDestination { color, description: *self },
                },
            }),
            _ => {
                let mut moves = found[..n].to_vec();
                moves.sort();
                Err(ResolveError::Ambiguous { moves })
            }
        }
    }

    /// Where a piece on `from` lands under this description when it has a
    /// direction: the only one of [`Descriptive::destinations`] then
    /// (`None` without a direction).
    #[inline(always)]
    fn destination(&self, color: Color, role: Role, from: Square) -> Option<Square> {
        self.direction?;
        self.destinations(color, role, from)[0]
    }

    /// Where a piece on `from` lands under this description (up to two
    /// destinations when the direction is left out).
    #[inline(always)]
    fn destinations(&self, color: Color, role: Role, from: Square) -> [Option<Square>; 2] {
        let forward = match color {
            Color::Red => 1,
            Color::Black => -1,
        };
        let n = self.number as i32;
        let line = matches!(role, Role::King | Role::Rook | Role::Cannon | Role::Pawn);
        let sideways = || {
            let file = File::from_number(color, self.number)?;
            (file != from.file()).then(|| Square::new(file, from.rank()))
        };
        let diagonal = |sign: i32| {
            let file = File::from_number(color, self.number)?;
            let df = (file.index() as i32 - from.file().index() as i32).abs();
            let dr = match (role, df) {
                (Role::Horse, 1) => 2,
                (Role::Horse, 2) => 1,
                (Role::Advisor, 1) => 1,
                (Role::Elephant, 2) => 2,
                _ => return None,
            };
            from.offset(file.index() as i32 - from.file().index() as i32, sign * forward * dr)
        };
        match (self.direction, line) {
            (Some(Direction::Sideways), true) | (None, true) => [sideways(), None],
            (Some(Direction::Sideways), false) => [None, None],
            (Some(Direction::Forward), true) => [from.offset(0, forward * n), None],
            (Some(Direction::Backward), true) => [from.offset(0, -forward * n), None],
            (Some(Direction::Forward), false) => [diagonal(1), None],
            (Some(Direction::Backward), false) => [diagonal(-1), None],
            (None, false) => [diagonal(1), diagonal(-1)],
        }
    }
}

/// Where a piece was looked for, in words: `on file 2`, `front on file 9`.
struct Place(Origin);

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Origin::File(n) => write!(f, "on file {n}"),
            Origin::Ordered { order, file: Some(n) } => write!(f, "{order} on file {n}"),
            Origin::Ordered { order, file: None } => write!(f, "{order} of several on one file"),
            Origin::Digits { first, second } => write!(f, "matching {first}{second}"),
        }
    }
}

/// How a described piece moves, in words: `forward 1`, `sideways to file 5`.
struct Motion(Descriptive);

impl fmt::Display for Motion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = self.0.number;
        match self.0.direction {
            Some(Direction::Forward) => write!(f, "forward {number}"),
            Some(Direction::Backward) => write!(f, "backward {number}"),
            Some(Direction::Sideways) => write!(f, "sideways to file {number}"),
            None => write!(f, "to file {number}"),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Order::Front => f.write_str("front"),
            Order::Middle => f.write_str("middle"),
            Order::Rear => f.write_str("rear"),
            Order::Nth(k) => write!(f, "{}", crate::fen::Ordinal(k as usize)),
            Order::Plus => f.write_str("front (+)"),
            Order::Minus => f.write_str("rear (-)"),
            Order::Foremost => f.write_str("foremost"),
            Order::Rearmost => f.write_str("rearmost"),
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Forward => "forward",
            Direction::Backward => "backward",
            Direction::Sideways => "sideways",
        })
    }
}

/// How the piece that makes `m` is told apart from the others of its
/// kind, by the xqbase convention shared by the Chinese and WXF writers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Distinction {
    /// Alone on its file (or an advisor, elephant or king): name the file.
    File,
    /// `index` (0-based, front first) among `count` pieces on its file; the
    /// only file holding several.
    OnFile { index: usize, count: usize },
    /// Pawns on two or more files holding several: `index` among the
    /// `count` pawns of the pool, `file_index` among the `file_count` of
    /// its own file.
    Pool { index: usize, count: usize, file_index: usize, file_count: usize },
}

pub(crate) fn distinction(pos: &Position, from: Square) -> Distinction {
    let Some(piece) = pos.board().piece_at(from) else { return Distinction::File };
    if matches!(piece.role, Role::Advisor | Role::Elephant | Role::King) {
        return Distinction::File;
    }
    // Alone on its file, as most pieces are: told by the file, without
    // listing the file's pieces.
    let board = pos.board();
    let mates = board.occupied_by(piece.color)
        & board.occupied_by_role(piece.role)
        & crate::rules::tables::FILE_MASKS[from.file().index()];
    if mates.count_ones() < 2 {
        return Distinction::File;
    }
    let (sqs, k) = on_file(pos, piece.color, piece.role, from.file());
    // Cannot fail: `from` holds such a piece, and a file has room for all 10.
    let file_index = sqs[..k].iter().position(|&s| s == from).expect("on its file");
    if piece.role != Role::Pawn {
        return Distinction::OnFile { index: file_index, count: k };
    }
    let (pool, n, files) = pool(pos, piece.color, Role::Pawn);
    // Cannot fail: its file holds two or more, and a position holds at
    // most 5 pawns of a side, fewer than the pool's 10 places.
    let index = pool[..n].iter().position(|&s| s == from).expect("in the pool");
    if files == 1 {
        Distinction::OnFile { index: file_index, count: k }
    } else {
        Distinction::Pool { index, count: n, file_index, file_count: k }
    }
}

/// The direction and number that describe `m` for the piece on its origin.
pub(crate) fn motion(pos: &Position, m: Move) -> Result<(Role, Direction, u8), WriteMoveError> {
    let piece = pos.board().piece_at(m.from).ok_or(WriteMoveError::NoPiece(m))?;
    let color = piece.color;
    let (fr, tr) = (m.from.rank().relative_to(color), m.to.rank().relative_to(color));
    let direction = match tr.cmp(&fr) {
        std::cmp::Ordering::Greater => Direction::Forward,
        std::cmp::Ordering::Less => Direction::Backward,
        std::cmp::Ordering::Equal => Direction::Sideways,
    };
    let line = matches!(piece.role, Role::King | Role::Rook | Role::Cannon | Role::Pawn);
    let number = if direction == Direction::Sideways || !line {
        m.to.file().number_for(color)
    } else {
        fr.abs_diff(tr)
    };
    Ok((piece.role, direction, number))
}

/// Why a move cannot be written in a notation that names the piece moved
/// (Chinese, WXF).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteMoveError {
    /// No piece stands on the origin of this move: there is nothing to
    /// name.
    #[error("cannot write {0}: no piece stands on {from}", from = .0.from)]
    NoPiece(Move),
}

/// Text that is not a move in the notation read.
///
/// ```
/// use qipu::notation::{Expected, ParseMoveErrorKind, chinese, wxf};
/// let e = wxf::parse("C2x5").unwrap_err();
/// assert_eq!(e.kind, ParseMoveErrorKind::Expected(Expected::Operator));
/// assert_eq!(e.to_string(), "cannot read \"C2x5\" as a WXF move: expected an operator + - . or = as the third character");
/// assert_eq!(chinese::parse("炮二").unwrap_err().kind, ParseMoveErrorKind::TooShort { example: "炮二平五" });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {text:?} as a {notation} move: {kind}")]
pub struct ParseMoveError {
    /// The notation tried (`"Chinese"`, `"WXF"`, `"ICCS"`, `"SAN"`).
    pub notation: &'static str,
    /// The text.
    pub text: String,
    /// What is wrong.
    pub kind: ParseMoveErrorKind,
}

impl ParseMoveError {
    pub(crate) fn new(notation: &'static str, text: &str, kind: ParseMoveErrorKind) -> ParseMoveError {
        ParseMoveError { notation, text: text.to_string(), kind }
    }
}

/// What is wrong with the text of a [`ParseMoveError`]; its message is
/// the end of the error's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveErrorKind {
    /// Fewer characters than a move has (Chinese, WXF); `example` is a
    /// move of the notation.
    #[error("too short: expected four characters such as {example}")]
    TooShort {
        /// A move written in the notation (`炮二平五`, `C2.5`).
        example: &'static str,
    },
    /// A part of the move is missing, or something else stands in its
    /// place.
    #[error("expected {0}")]
    Expected(Expected),
    /// Chinese: a character that is no part of a move.
    #[error("{0:?} is not a piece, numeral, qualifier or direction")]
    UnknownCharacter(char),
    /// Chinese: the characters are parts of moves, but not in a move's
    /// order.
    #[error("the characters are not in the order piece, file, direction, number")]
    OutOfOrder,
    /// SAN: an upper-case letter that names no piece.
    #[error("unknown piece letter")]
    UnknownPieceLetter(char),
    /// WXF: the first two characters name no piece.
    #[error("the first two characters name no piece")]
    UnknownPiece,
    /// SAN: the destination rank is not a number.
    #[error("bad rank")]
    BadRank,
    /// SAN: a rank number past 10, of the destination or (`origin`) of
    /// the origin.
    #[error("{}rank out of range", if *origin { "origin " } else { "" })]
    RankOutOfRange {
        /// Whether it is the origin's rank.
        origin: bool,
        /// The number read (as far as it was read: past 10 it stops).
        value: u8,
    },
    /// SAN: a character before the destination that is neither the
    /// origin's file nor its rank.
    #[error("unexpected character before the destination")]
    BeforeDestination(char),
    /// WXF: characters after the move that are not remark marks.
    #[error("unexpected characters after the move")]
    Trailing,
}

/// What a [`ParseMoveErrorKind::Expected`] looked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Expected {
    /// ICCS: the whole text is not two points.
    #[error("two points such as H2-E2 or h2e2")]
    TwoPoints,
    /// SAN: no destination (a file letter and a rank number) at the end.
    #[error("a destination such as e2")]
    Destination,
    /// SAN: the destination's file is not a letter a-i.
    #[error("a destination file a-i")]
    DestinationFile,
    /// WXF: the third character is not an operator.
    #[error("an operator + - . or = as the third character")]
    Operator,
    /// WXF: no digit 1-9 after the operator.
    #[error("a digit 1-9 after the operator")]
    Digit,
}

/// Whether `c` may follow a move as a remark mark (`!`, `?`, `+` check,
/// `#` mate, also full-width).
pub(crate) fn is_remark_char(c: char) -> bool {
    matches!(c, '!' | '?' | '+' | '#' | '！' | '？' | '＋' | '＃')
}

/// Full-width ASCII (U+FF01…U+FF5E) to ASCII; other characters unchanged.
pub(crate) fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// Whether `text` reads as a move in some notation (ICCS, WXF, Chinese or
/// WinBoard SAN), without looking at a position: how readers tell move
/// text from other text.
pub(crate) fn is_move_text(text: &str) -> bool {
    // Chinese text is tried as Chinese first (the common shape, then the
    // whole notation), sparing the other readers' failures, each of which
    // copies the text into its error; the answer is the same.
    if any::opens_chinese(text) && (chinese::parse_plain(text).is_some() || chinese::parse(text).is_ok()) {
        return true;
    }
    iccs::parse(text).is_ok()
        || wxf::parse(text).is_ok()
        || chinese::parse(text).is_ok()
        || san::parse(text).is_ok()
}

/// A notation and style to write moves in: what [`pgn::write`] takes.
///
/// ```
/// use qipu::{Move, Position, Square};
/// use qipu::notation::{Notation, chinese::Style};
/// let (pos, m) = (Position::start(), Move::new(Square::H0, Square::G2));
/// let written: Vec<String> = [Notation::Chinese(Style::Traditional), Notation::Wxf, Notation::Iccs, Notation::Uci]
///     .iter()
///     .map(|n| n.write(&pos, m))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(written, ["馬二進三", "H2+3", "H0-G2", "h0g2"]);
/// assert_eq!(Notation::Wxf.pgn_format(), "WXF");
/// # Ok::<(), qipu::notation::WriteMoveError>(())
/// ```
///
/// [`pgn::write`]: crate::formats::pgn::write
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Chinese (炮二平五), simplified or traditional.
    Chinese(chinese::Style),
    /// Official WXF (`C2.5`).
    Wxf,
    /// ICCS (`H2-E2`).
    Iccs,
    /// Lower-case coordinates (`h2e2`).
    Uci,
}

impl Notation {
    /// Writes the legal move `m` of `pos`.
    ///
    /// # Errors
    ///
    /// [`WriteMoveError::NoPiece`] in Chinese or WXF when no piece stands
    /// on the move's origin (ICCS and UCI write any move).
    ///
    /// ```
    /// use qipu::{Move, Position, Square};
    /// use qipu::notation::{chinese, Notation};
    /// let m = Move::new(Square::H2, Square::E2);
    /// let chinese = Notation::Chinese(chinese::Style::Simplified);
    /// assert_eq!(chinese.write(&Position::start(), m).unwrap(), "炮二平五");
    /// assert_eq!(Notation::Uci.write(&Position::start(), m).unwrap(), "h2e2");
    /// assert!(chinese.write(&Position::start(), Move::new(Square::E4, Square::E5)).is_err());
    /// ```
    pub fn write(self, pos: &Position, m: Move) -> Result<String, WriteMoveError> {
        match self {
            Notation::Chinese(style) => chinese::write(pos, m, style),
            Notation::Wxf => wxf::write(pos, m),
            Notation::Iccs => Ok(iccs::write(m, iccs::Style::Iccs)),
            Notation::Uci => Ok(iccs::write(m, iccs::Style::Uci)),
        }
    }

    /// Appends the legal move `m` of `pos` to `out` (no allocation when it
    /// has room).
    ///
    /// # Errors
    ///
    /// As [`Notation::write`]; nothing is appended then.
    pub fn write_to(self, pos: &Position, m: Move, out: &mut String) -> Result<(), WriteMoveError> {
        match self {
            Notation::Chinese(style) => chinese::write_to(pos, m, style, out)?,
            Notation::Wxf => wxf::write_to(pos, m, out)?,
            Notation::Iccs => iccs::write_to(m, iccs::Style::Iccs, out),
            Notation::Uci => iccs::write_to(m, iccs::Style::Uci, out),
        }
        Ok(())
    }

    /// The value of a PGN `[Format]` tag for moves in this notation.
    pub fn pgn_format(self) -> &'static str {
        match self {
            Notation::Chinese(_) => "Chinese",
            Notation::Wxf => "WXF",
            Notation::Iccs | Notation::Uci => "ICCS",
        }
    }
}
