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
    ADVISOR, BIT, DIRECTIONS, ELEPHANT, HORSE, HORSE_ATTACKERS, KING, NO_DIRECTION, PAIRS, PAWN,
    PAWN_ATTACKERS, RAYS, Steps, pair,
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
    pub(crate) fn count_legal_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let filter = self.legality_filter();
        list.iter().filter(|&&m| filter.is_legal(self, m)).count()
    }

    /// Whether the side to move has any legal move.
    pub(crate) fn has_legal_move(&self) -> bool {
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
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.turn;
        let squares = self.board.raw();
        let (f, t) = (m.from.index(), m.to.index());
        let Some(piece) = squares[f] else { return false };
        let target = squares[t];
        if piece.color != us || matches!(target, Some(p) if p.color == us) {
            return false;
        }
        let rel = PAIRS[f][t];
        let reachable = match piece.role {
            Role::King => rel & pair::KING != 0,
            Role::Advisor => rel & pair::ADVISOR != 0,
            Role::Pawn => rel & pair::PAWN[us.index()] != 0,
            Role::Elephant => rel & pair::ELEPHANT != 0 && squares[via(rel)].is_none(),
            Role::Horse => rel & pair::HORSE != 0 && squares[via(rel)].is_none(),
            Role::Rook | Role::Cannon => {
                if rel & pair::LINE == 0 {
                    return false;
                }
                let dir = (rel & pair::DIR) as usize;
                let between = RAYS[f][dir].mask & RAYS[t][dir ^ 1].mask & self.board.occupied();
                if piece.role == Role::Cannon && target.is_some() {
                    between != 0 && between & (between - 1) == 0
                } else {
                    between == 0
                }
            }
        };
        if !reachable {
            return false;
        }
        if piece.role == Role::King {
            return !self.attacked_with(t as u8, !us, f as u8, t as u8);
        }
        let k = self.king(us).index();
        if self.in_check {
            return !self.attacked_with(k as u8, !us, f as u8, t as u8);
        }
        // Not in check, the move can only expose the king by leaving or
        // filling a point of its file or rank (opening the line to an
        // opposing rook, cannon or king, or making a cannon's screen), or by
        // leaving a horse leg beside it: most moves do neither.
        let (seen_from, seen_to) = (PAIRS[k][f], PAIRS[k][t]);
        if (seen_from & (pair::LINE | pair::DIAG)) | (seen_to & pair::LINE) == 0 {
            return true;
        }
        !self.exposes_king(k, f, t, seen_from, seen_to)
    }

    /// Whether moving the piece on `f` to `t` (not the king; its side not in
    /// check) opens an attack on its king on `k`, where `seen_from` and
    /// `seen_to` are `PAIRS[k][f]` and `PAIRS[k][t]`.
    #[inline(never)]
    fn exposes_king(&self, k: usize, f: usize, t: usize, seen_from: u32, seen_to: u32) -> bool {
        let squares = self.board.raw();
        // The mover's piece on `t` blocks lines but attacks nothing here:
        // for `at` it is no piece of the attacker.
        let at = |s: usize| if s == t { None } else { squares[s] };
        let occupied = || (self.board.occupied() & !BIT[f]) | BIT[t];
        opened_attack(self, k, seen_from, seen_to, !self.turn, occupied, at)
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
        let squares = self.board.raw();
        let direct = match role {
            Role::Horse => {
                let rel = PAIRS[t][k];
                rel & pair::HORSE != 0 && squares[via(rel)].is_none()
            }
            Role::Pawn => PAIRS[t][k] & pair::PAWN[by.index()] != 0,
            _ => false,
        };
        if direct {
            return true;
        }
        let (seen_from, seen_to) = (PAIRS[k][f], PAIRS[k][t]);
        if (seen_from & (pair::LINE | pair::DIAG)) | (seen_to & pair::LINE) == 0 {
            return false;
        }
        self.opened_check(k, seen_from, seen_to, by)
    }

    /// The rest of [`Position::gives_check`]: whether `by` attacks the king
    /// on `k` along the lines toward the vacated and the filled points or
    /// through the vacated leg.
    #[inline(never)]
    fn opened_check(&self, k: usize, seen_from: u32, seen_to: u32, by: Color) -> bool {
        let squares = self.board.raw();
        opened_attack(self, k, seen_from, seen_to, by, || self.board.occupied(), |s| squares[s])
    }

    /// How many pieces stand strictly between two points on one file or
    /// rank; `None` when they are not on one line (or are the same point).
    pub(crate) fn pieces_between(&self, a: Square, b: Square) -> Option<usize> {
        let dir = direction(a.index(), b.index())?;
        let between = RAYS[a.index()][dir].mask & RAYS[b.index()][dir ^ 1].mask & self.board.occupied();
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
    pub(super) fn pseudo_moves_from(&self, from: Square, list: &mut MoveList) {
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
        let them = !self.turn;
        let k = self.king(self.turn).index();
        let board = &self.board;
        let enemy = board.occupied_by(them);
        let sliders = enemy & (board.occupied_by_role(Role::Rook) | board.occupied_by_role(Role::Cannon));
        let king = enemy & board.occupied_by_role(Role::King);
        let mut danger = 0u128;
        for (dir, ray) in RAYS[k].iter().enumerate() {
            let threats = if dir < 2 { sliders | king } else { sliders };
            if ray.mask & threats != 0 {
                danger |= ray.mask;
            }
        }
        if enemy & board.occupied_by_role(Role::Horse) != 0 {
            let squares = board.raw();
            let horses = &HORSE_ATTACKERS[k];
            for i in 0..horses.len as usize {
                if squares[horses.to[i] as usize] == Some(Piece::new(them, Role::Horse)) {
                    danger |= BIT[horses.via[i] as usize];
                }
            }
        }
        LegalityFilter { king: k as u8, in_check: self.in_check, danger }
    }

    /// Whether `by` attacks point `target` on the board with the point
    /// `vacated` emptied and the point `filled` taken by a piece not of
    /// `by` (`NONE` for either means no change).
    #[inline]
    fn attacked_with(&self, target: u8, by: Color, vacated: u8, filled: u8) -> bool {
        let squares = self.board.raw();
        let at = |s: usize| -> Option<Piece> {
            if s == filled as usize {
                Some(Piece::new(!by, Role::Pawn))
            } else if s == vacated as usize {
                None
            } else {
                squares[s]
            }
        };
        let t = target as usize;
        let bit = |s: u8| BIT.get(s as usize).copied().unwrap_or(0);
        let occupied = (self.board.occupied() | bit(filled)) & !bit(vacated);
        if (0..4).any(|dir| ray_attack(t, dir, by, occupied, at)) {
            return true;
        }
        let board = &self.board;
        if board.occupied_by(by) & board.occupied_by_role(Role::Horse) != 0 {
            let horses = &HORSE_ATTACKERS[t];
            for i in 0..horses.len as usize {
                if at(horses.to[i] as usize) == Some(Piece::new(by, Role::Horse))
                    && at(horses.via[i] as usize).is_none()
                {
                    return true;
                }
            }
        }
        let pawns = &PAWN_ATTACKERS[by.index()][t];
        pawns.to[..pawns.len as usize].iter().any(|&s| at(s as usize) == Some(Piece::new(by, Role::Pawn)))
    }
}

/// The leg or eye of a [`PAIRS`] entry with `HORSE` or `ELEPHANT`.
#[inline]
fn via(rel: u32) -> usize {
    (rel >> pair::VIA & 0xff) as usize
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

/// Whether a rook, cannon or (up and down a file) king of `by` attacks
/// `target` along ray `dir`, on a board whose occupied points are
/// `occupied` and whose pieces `at` gives (an occupied point for which
/// `at` gives no piece holds none of `by`'s).
#[inline(always)]
fn ray_attack(
    target: usize,
    dir: usize,
    by: Color,
    occupied: u128,
    at: impl Fn(usize) -> Option<Piece>,
) -> bool {
    let blockers = RAYS[target][dir].mask & occupied;
    if blockers == 0 {
        return false;
    }
    // North and east rays run up the point indexes, south and west down:
    // the nearest blocker is the lowest, or the highest, set bit.
    let up = dir & 1 == 0;
    let nearest = |set: u128| -> usize {
        if up { set.trailing_zeros() as usize } else { 127 - set.leading_zeros() as usize }
    };
    let first = nearest(blockers);
    if let Some(p) = at(first)
        && p.color == by
        && (p.role == Role::Rook || (p.role == Role::King && dir < 2))
    {
        return true;
    }
    let beyond = if up { blockers & (blockers - 1) } else { blockers ^ BIT[first] };
    beyond != 0 && at(nearest(beyond)) == Some(Piece::new(by, Role::Cannon))
}

/// Whether a rook or cannon of `by`, or on a file its king, stands on ray
/// `dir` from `target`: a ray with none of them needs no closer look.
#[inline(always)]
fn attacker_on_ray(pos: &Position, target: usize, dir: usize, by: Color) -> bool {
    let board = &pos.board;
    let ray = RAYS[target][dir].mask;
    let sliders = board.occupied_by_role(Role::Rook) | board.occupied_by_role(Role::Cannon);
    let king = PAIRS[target][pos.king(by).index()];
    (ray & sliders & board.occupied_by(by) != 0)
        || (dir < 2 && king & (pair::LINE | pair::DIR) == pair::LINE | dir as u32)
}

/// Whether a move opened an attack of `by` on `target`, where `seen_from`
/// and `seen_to` are the [`PAIRS`] entries of the vacated and the filled
/// point seen from `target`: along the line toward either point, or
/// through the vacated point as a horse leg. A move can open no other.
/// `occupied` gives the occupied points after the move, `at` its pieces.
#[inline(always)]
fn opened_attack(
    pos: &Position,
    target: usize,
    seen_from: u32,
    seen_to: u32,
    by: Color,
    occupied: impl Fn() -> u128,
    at: impl Fn(usize) -> Option<Piece>,
) -> bool {
    let from_dir = (seen_from & pair::DIR) as usize;
    let to_dir = (seen_to & pair::DIR) as usize;
    if seen_from & pair::LINE != 0
        && attacker_on_ray(pos, target, from_dir, by)
        && ray_attack(target, from_dir, by, occupied(), &at)
    {
        return true;
    }
    if seen_to & pair::LINE != 0
        && (seen_from & pair::LINE == 0 || to_dir != from_dir)
        && attacker_on_ray(pos, target, to_dir, by)
        && ray_attack(target, to_dir, by, occupied(), &at)
    {
        return true;
    }
    if seen_from & pair::DIAG != 0 {
        let horse = Some(Piece::new(by, Role::Horse));
        let first = (seen_from >> pair::VIA & 0xff) as usize;
        let second = (seen_from >> pair::HORSE_2) as usize;
        return (first < 90 && at(first) == horse) || (second < 90 && at(second) == horse);
    }
    false
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
        } else if self.in_check || self.danger & (BIT[from as usize] | BIT[to as usize]) != 0 {
            pos.attacked_with(self.king, them, from, to)
        } else {
            false
        };
        !attacked
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Board, Setup, zobrist};
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// The sets of a board recomputed from its points.
    fn sets_agree(board: &Board) -> bool {
        Color::ALL.iter().all(|&c| {
            let mut set = 0u128;
            for (sq, p) in board.pieces() {
                if p.color == c {
                    set |= 1u128 << sq.index();
                }
            }
            set == board.occupied_by(c)
        }) && Role::ALL.iter().all(|&r| {
            let mut set = 0u128;
            for (sq, p) in board.pieces() {
                if p.role == r {
                    set |= 1u128 << sq.index();
                }
            }
            set == board.occupied_by_role(r)
        })
    }

    /// A setup keeping each non-king piece of the start with probability
    /// 1/3, the kings on random palace points: many open lines, pins and
    /// checks.
    fn sparse(rng: &mut Rng) -> Option<Position> {
        let mut setup = Setup::empty();
        for (sq, piece) in Board::start().pieces() {
            if piece.role != Role::King && rng.below(3) == 0 {
                setup.board.put(sq, piece);
            }
        }
        for color in Color::ALL {
            let palace: Vec<_> =
                Square::all().filter(|s| s.in_palace(color) && setup.board.piece_at(*s).is_none()).collect();
            setup.board.put(palace[rng.below(palace.len())], Piece::new(color, Role::King));
        }
        setup.turn = if rng.below(2) == 0 { Color::Red } else { Color::Black };
        Position::from_setup(setup).ok()
    }

    /// Along random games, every move from every own piece to every point:
    /// `is_legal` agrees with `legal_moves`; every move played keeps the
    /// sets, the hash and the check flag as a fresh computation finds them,
    /// and undo restores the position.
    fn check_games(rng: &mut Rng, start: &Position, plies: usize) -> usize {
        let mut pos = start.clone();
        let mut checked = 0;
        for _ in 0..plies {
            let legal = pos.legal_moves();
            for from in pos.board().squares_of(pos.turn()) {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.fen());
                    checked += 1;
                }
            }
            for &m in legal.iter() {
                let before = pos.clone();
                let undo = pos.play_unchecked(m);
                assert!(sets_agree(pos.board()), "{m} in {}", before.fen());
                assert_eq!(pos.hash(), zobrist::hash_of(pos.board(), pos.turn()));
                assert_eq!(
                    pos.is_check(),
                    pos.is_attacked(pos.king(pos.turn()), !pos.turn()),
                    "{m} in {before:?}"
                );
                assert!(!pos.is_attacked(pos.king(!pos.turn()), pos.turn()), "{m} in {before:?}");
                pos.undo(undo);
                assert_eq!(pos, before);
                assert!(sets_agree(pos.board()));
            }
            if legal.is_empty() {
                break;
            }
            let _ = pos.play_unchecked(legal[rng.below(legal.len())]);
        }
        checked
    }

    #[test]
    fn single_move_tests_agree_with_generation_in_sparse_games() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut games, mut checked) = (0, 0);
        while games < 150 {
            if let Some(pos) = sparse(&mut rng) {
                checked += check_games(&mut rng, &pos, 40);
                games += 1;
            }
        }
        assert!(checked > 500_000, "{checked}");
    }

    #[test]
    fn single_move_tests_agree_with_generation_from_the_start() {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        let checked: usize = (0..8).map(|_| check_games(&mut rng, &Position::start(), 120)).sum();
        assert!(checked > 500_000, "{checked}");
    }
}
