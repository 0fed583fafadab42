//! Legal move generation and attack detection.
//!
//! Pseudo-legal moves come from the tables in `tables`; a move is then
//! legal unless it leaves the mover's king attacked, where the opposing
//! king on an open file counts as an attack (flying general). Most moves
//! cannot change that, and are accepted without a test: only moves of the
//! king, moves while in check, and moves from or to a point on a line
//! between the king and an opposing rook, cannon or king (or off the leg
//! of an opposing horse aimed at the king) are tested.

use super::tables::{
    ADVISOR, DIAGONAL_NEIGHBOURS, DIRECTIONS, ELEPHANT, HORSE, HORSE_ATTACKERS, KING, LINES_THROUGH,
    NO_DIRECTION, PAWN, PAWN_ATTACKERS, RAYS, Steps,
};
use super::{Color, Move, MoveList, Piece, Position, Role, Square};

/// No point: used where a test has no vacated or filled point.
const NONE: u8 = u8::MAX;

impl Position {
    /// All legal moves of the side to move, in generation order.
    ///
    /// ```
    /// use qipu::Position;
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap();
    /// let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(moves, ["d0d1"]); // d0e0 would face the black king
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let filter = self.legality_filter();
        list.retain(|m| filter.is_legal(self, m));
        list
    }

    /// How many legal moves the side to move has (faster than
    /// `legal_moves().len()`).
    pub fn count_legal_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let filter = self.legality_filter();
        list.iter().filter(|&&m| filter.is_legal(self, m)).count()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        // Piece by piece: most positions have a legal move among the first
        // piece's moves, so the rest are never generated.
        let filter = self.legality_filter();
        let mut list = MoveList::new();
        self.board.squares_of(self.turn).any(|from| {
            list.clear();
            self.pseudo_moves_from(from, &mut list);
            list.iter().any(|&m| filter.is_legal(self, m))
        })
    }

    /// Whether `m` is a legal move here, checked for this move alone
    /// (much cheaper than generating every legal move).
    ///
    /// ```
    /// use qipu::{Move, Position, Square};
    /// let pos = Position::start();
    /// assert!(pos.is_legal(Move::new(Square::H2, Square::E2)));
    /// assert!(pos.is_legal(Move::new(Square::H2, Square::H9))); // jumps h7 to take h9
    /// assert!(!pos.is_legal(Move::new(Square::H2, Square::H8))); // jumps only to take
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.turn;
        let squares = self.board.raw();
        let (f, t) = (m.from.index(), m.to.index());
        let Some(piece) = squares[f] else { return false };
        if piece.color != us || matches!(squares[t], Some(p) if p.color == us) {
            return false;
        }
        let reachable = match piece.role {
            Role::King => KING[f].to[..KING[f].len as usize].contains(&(t as u8)),
            Role::Advisor => ADVISOR[f].to[..ADVISOR[f].len as usize].contains(&(t as u8)),
            Role::Pawn => {
                let steps = &PAWN[us.index()][f];
                steps.to[..steps.len as usize].contains(&(t as u8))
            }
            Role::Elephant => leap_reaches(&ELEPHANT[f], squares, t),
            Role::Horse => leap_reaches(&HORSE[f], squares, t),
            Role::Rook | Role::Cannon => {
                let Some(between) = self.pieces_between(m.from, m.to) else { return false };
                let needed = match (piece.role, squares[t]) {
                    (Role::Cannon, Some(_)) => 1,
                    _ => 0,
                };
                between == needed
            }
        };
        if !reachable {
            return false;
        }
        if piece.role == Role::King {
            return !self.attacked_with(t as u8, !us, f as u8, t as u8);
        }
        let king = self.king(us);
        if self.in_check {
            return !self.attacked_with(king.index() as u8, !us, f as u8, t as u8);
        }
        // Not in check, the move can only expose the king by leaving or
        // filling a line between it and an opposing rook, cannon or king, or
        // by leaving a horse leg beside it with an opposing horse behind:
        // only those lines and that leg are looked at.
        let board = &self.board;
        let them = !us;
        let sliders = board.occupied_by(them)
            & (board.occupied_by_role(Role::Rook)
                | board.occupied_by_role(Role::Cannon)
                | board.occupied_by_role(Role::King));
        let k = king.index();
        let lined = sliders & LINES_THROUGH[k] != 0;
        let from_line = if lined { direction(k, f) } else { None };
        let to_line = if lined { direction(k, t) } else { None };
        let leg =
            is_diagonal_neighbour(k, f) && board.occupied_by(them) & board.occupied_by_role(Role::Horse) != 0;
        if from_line.is_none() && to_line.is_none() && !leg {
            return true;
        }
        let occupied = (board.occupied_by(us) | board.occupied_by(them) | 1u128 << t) & !(1u128 << f);
        let at = |s: u8| -> Option<Piece> {
            if s as usize == t {
                Some(piece)
            } else if s as usize == f {
                None
            } else {
                squares[s as usize]
            }
        };
        !opened_attack(k, (from_line, to_line), leg.then_some(f as u8), them, occupied, at)
    }

    /// Whether the move `m` just played, by a piece of kind `role`, put the
    /// side now to move in check. That side was not in check before, so
    /// only the lines through the vacated and the filled points, the horse
    /// leg vacated, and the moved piece itself can attack its king now.
    #[inline]
    pub(super) fn gives_check(&self, role: Role, m: Move) -> bool {
        let by = !self.turn;
        let k = self.king(self.turn).index();
        let (f, t) = (m.from.index(), m.to.index());
        let board = &self.board;
        let squares = board.raw();
        let at = |s: u8| squares[s as usize];
        let occupied = board.occupied_by(Color::Red) | board.occupied_by(Color::Black);
        let lines = (direction(k, f), direction(k, t));
        let leg = is_diagonal_neighbour(k, f).then_some(f as u8);
        if opened_attack(k, lines, leg, by, occupied, at) {
            return true;
        }
        match role {
            Role::Horse => {
                let horses = &HORSE_ATTACKERS[k];
                (0..horses.len as usize).any(|i| horses.to[i] as usize == t && at(horses.via[i]).is_none())
            }
            Role::Pawn => {
                let pawns = &PAWN_ATTACKERS[by.index()][k];
                pawns.to[..pawns.len as usize].contains(&(t as u8))
            }
            _ => false,
        }
    }

    /// How many pieces stand strictly between two points on one file or
    /// rank; `None` when they are not on one line (or are the same point).
    pub fn pieces_between(&self, a: Square, b: Square) -> Option<usize> {
        let dir = direction(a.index(), b.index())?;
        let board = &self.board;
        let on_ray =
            RAYS[a.index()][dir].mask & (board.occupied_by(Color::Red) | board.occupied_by(Color::Black));
        let at_b = 1u128 << b.index();
        // Rays north and east run up the point indexes: the points between
        // lie below `b`; rays south and west run down: above it.
        let between = if dir == 0 || dir == 2 { on_ray & (at_b - 1) } else { on_ray & !(at_b | (at_b - 1)) };
        Some(between.count_ones() as usize)
    }

    /// Whether a piece of `by` attacks `target`, counting the king of `by`
    /// as attacking along an open file.
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        self.attacked_with(target.index() as u8, by, NONE, NONE)
    }

    /// Appends every pseudo-legal move (legal but for king safety).
    fn pseudo_moves(&self, list: &mut MoveList) {
        for from in self.board.squares_of(self.turn) {
            self.pseudo_moves_from(from, list);
        }
    }

    /// Appends the pseudo-legal moves of the piece of the side to move on
    /// `from`.
    #[inline]
    fn pseudo_moves_from(&self, from: Square, list: &mut MoveList) {
        let us = self.turn;
        let squares = self.board.raw();
        let f = from.index();
        let piece = squares[f].expect("own piece");
        let mut push = |to: u8| list.push(Move::new(from, Square::from_index_unchecked(to as usize)));
        match piece.role {
            Role::Rook => {
                for ray in &RAYS[f] {
                    for &to in &ray.squares[..ray.len as usize] {
                        match squares[to as usize] {
                            None => push(to),
                            Some(p) => {
                                if p.color != us {
                                    push(to);
                                }
                                break;
                            }
                        }
                    }
                }
            }
            Role::Cannon => {
                for ray in &RAYS[f] {
                    let mut it = ray.squares[..ray.len as usize].iter();
                    for &to in it.by_ref() {
                        if squares[to as usize].is_some() {
                            break;
                        }
                        push(to);
                    }
                    for &to in it {
                        if let Some(p) = squares[to as usize] {
                            if p.color != us {
                                push(to);
                            }
                            break;
                        }
                    }
                }
            }
            Role::Horse => leaps(&HORSE[f], squares, us, true, &mut push),
            Role::Elephant => leaps(&ELEPHANT[f], squares, us, true, &mut push),
            Role::King => leaps(&KING[f], squares, us, false, &mut push),
            Role::Advisor => leaps(&ADVISOR[f], squares, us, false, &mut push),
            Role::Pawn => leaps(&PAWN[us.index()][f], squares, us, false, &mut push),
        }
    }

    /// Works out which moves need a king-safety test in this position.
    #[inline]
    fn legality_filter(&self) -> LegalityFilter {
        let us = self.turn;
        let them = !us;
        let king = self.king(us);
        let k = king.index();
        let squares = self.board.raw();
        let in_check = self.in_check;
        let mut danger = 0u128;
        for (dir, ray) in RAYS[k].iter().enumerate() {
            let vertical = dir < 2;
            let threat = ray.squares[..ray.len as usize].iter().any(|&s| {
                matches!(squares[s as usize],
                    Some(Piece { color, role: Role::Rook | Role::Cannon }) if color == them)
                    || (vertical && squares[s as usize] == Some(Piece::new(them, Role::King)))
            });
            if threat {
                danger |= ray.mask;
            }
        }
        let horses = &HORSE_ATTACKERS[k];
        for i in 0..horses.len as usize {
            if squares[horses.to[i] as usize] == Some(Piece::new(them, Role::Horse)) {
                danger |= 1u128 << horses.via[i];
            }
        }
        LegalityFilter { king: king.index() as u8, in_check, danger }
    }

    /// Whether `by` attacks point `target` on the board with the point
    /// `vacated` emptied and the point `filled` taken by a piece not of
    /// `by` (`NONE` for either means no change).
    #[inline]
    fn attacked_with(&self, target: u8, by: Color, vacated: u8, filled: u8) -> bool {
        let squares = self.board.raw();
        let at = |s: u8| -> Option<Piece> {
            if s == filled {
                Some(Piece::new(!by, Role::Pawn))
            } else if s == vacated {
                None
            } else {
                squares[s as usize]
            }
        };
        let t = target as usize;
        let bit = |s: u8| if s == NONE { 0 } else { 1u128 << s };
        let occupied =
            (self.board.occupied_by(Color::Red) | self.board.occupied_by(Color::Black) | bit(filled))
                & !bit(vacated);
        if (0..4).any(|dir| ray_attack(t, dir, by, occupied, at)) {
            return true;
        }
        let horses = &HORSE_ATTACKERS[t];
        for i in 0..horses.len as usize {
            if at(horses.to[i]) == Some(Piece::new(by, Role::Horse)) && at(horses.via[i]).is_none() {
                return true;
            }
        }
        let pawns = &PAWN_ATTACKERS[by.index()][t];
        pawns.to[..pawns.len as usize].iter().any(|&s| at(s) == Some(Piece::new(by, Role::Pawn)))
    }
}

/// The ray (index into `RAYS`: north, south, east, west) that leads from
/// point `a` to point `b`, when they are distinct points of one file or rank.
#[inline]
fn direction(a: usize, b: usize) -> Option<usize> {
    match DIRECTIONS[a][b] {
        NO_DIRECTION => None,
        dir => Some(dir as usize),
    }
}

/// Whether `b` touches `a` diagonally (where a horse leg beside `a` stands).
#[inline]
fn is_diagonal_neighbour(a: usize, b: usize) -> bool {
    DIAGONAL_NEIGHBOURS[a] & (1u128 << b) != 0
}

/// Whether a rook, cannon or (up and down a file) king of `by` attacks
/// `target` along ray `dir`, on a board whose occupied points are
/// `occupied` and whose pieces `at` gives.
#[inline(always)]
fn ray_attack(
    target: usize,
    dir: usize,
    by: Color,
    occupied: u128,
    at: impl Fn(u8) -> Option<Piece>,
) -> bool {
    let blockers = RAYS[target][dir].mask & occupied;
    if blockers == 0 {
        return false;
    }
    // North and east rays run up the point indexes, south and west down:
    // the nearest blocker is the lowest, or the highest, set bit.
    let nearest = |set: u128| -> u8 {
        if dir == 0 || dir == 2 { set.trailing_zeros() as u8 } else { 127 - set.leading_zeros() as u8 }
    };
    let first = nearest(blockers);
    if let Some(p) = at(first)
        && p.color == by
        && (p.role == Role::Rook || (p.role == Role::King && dir < 2))
    {
        return true;
    }
    let beyond = blockers & !(1u128 << first);
    beyond != 0 && at(nearest(beyond)) == Some(Piece::new(by, Role::Cannon))
}

/// Whether a move opened an attack of `by` on `target`: along the line
/// toward the vacated point or toward the filled one (the rays `lines`
/// gives, when the points are on a line with `target`), or through the
/// vacated horse leg `leg`. A move can open no other.
#[inline(always)]
fn opened_attack(
    target: usize,
    lines: (Option<usize>, Option<usize>),
    leg: Option<u8>,
    by: Color,
    occupied: u128,
    at: impl Fn(u8) -> Option<Piece>,
) -> bool {
    let (from_line, to_line) = lines;
    from_line.is_some_and(|dir| ray_attack(target, dir, by, occupied, &at))
        || (to_line != from_line && to_line.is_some_and(|dir| ray_attack(target, dir, by, occupied, &at)))
        || leg.is_some_and(|leg| horse_through_leg(target, leg, by, &at))
}

/// Whether a horse of `by` attacks `target` through the empty leg `leg`.
#[inline]
fn horse_through_leg(target: usize, leg: u8, by: Color, at: impl Fn(u8) -> Option<Piece>) -> bool {
    let horses = &HORSE_ATTACKERS[target];
    (0..horses.len as usize)
        .any(|i| horses.via[i] == leg && at(horses.to[i]) == Some(Piece::new(by, Role::Horse)))
}

/// Pushes the steps of a leaping piece that land on an empty or opposing
/// point; with `blockable`, only where the step's `via` point is empty.
#[inline(always)]
fn leaps<const N: usize>(
    steps: &Steps<N>,
    squares: &[Option<Piece>; 90],
    us: Color,
    blockable: bool,
    push: &mut impl FnMut(u8),
) {
    for i in 0..steps.len as usize {
        let to = steps.to[i];
        let free = !matches!(squares[to as usize], Some(p) if p.color == us);
        if free && (!blockable || squares[steps.via[i] as usize].is_none()) {
            push(to);
        }
    }
}

/// Whether a blockable leap from the table reaches point `t` with its leg
/// or eye empty.
#[inline]
fn leap_reaches<const N: usize>(steps: &Steps<N>, squares: &[Option<Piece>; 90], t: usize) -> bool {
    (0..steps.len as usize).any(|i| steps.to[i] as usize == t && squares[steps.via[i] as usize].is_none())
}

/// What the legality test of one position needs to know.
struct LegalityFilter {
    king: u8,
    in_check: bool,
    /// Points whose emptying or filling may expose the king.
    danger: u128,
}

impl LegalityFilter {
    #[inline]
    fn is_legal(&self, pos: &Position, m: Move) -> bool {
        let (from, to) = (m.from.index() as u8, m.to.index() as u8);
        let them = !pos.turn;
        let attacked = if from == self.king {
            pos.attacked_with(to, them, from, to)
        } else if self.in_check || (self.danger >> from) & 1 != 0 || (self.danger >> to) & 1 != 0 {
            pos.attacked_with(self.king, them, from, to)
        } else {
            false
        };
        !attacked
    }
}
