//! Repetitions ruled: who breaks the rules when a position stands for the
//! third time, under the Asian (AXF/WXF) or the Chinese rules.
//!
//! A repetition is judged by what each side did with its moves between the
//! first and the third occurrence of the position (the cycle):
//!
//! - **check** (将): the move gives check;
//! - **chase** (捉): the move creates a threat to capture a piece (see
//!   below); a side chases perpetually when one and the same piece is
//!   chased by each of its chasing moves, by whichever pieces;
//! - **mate threat** (杀, judged under the Chinese rules only): the move
//!   threatens checkmate in one;
//! - anything else is **idle** (闲), and one idle move in the cycle is
//!   enough for a side to break no rule.
//!
//! A side that checks with every move checks perpetually (长将); one that
//! chases the same piece with every move chases perpetually (长捉). Both
//! rule sets forbid these. The Chinese rules also forbid every other cycle
//! in which each move of a side is forcing: checks and chases of the same
//! piece (一将一捉), mate threats alone (长杀) or with checks or chases
//! (一将一杀); the Asian rules allow them (AXF rule 12; 细则 4 and 6). When
//! one side alone breaks the rules, it must change and loses if it does
//! not; a side checking perpetually against one breaking the rules
//! otherwise loses (check is the graver offence in both books); otherwise
//! (neither side or both) the repetition is a draw.
//!
//! `tests/data/rulings/RULES.md` has both rule books' texts behind this,
//! with their sources, and the examples the tests check the judge
//! against.
//!
//! A chase: after the move, a piece other than a king or a pawn can
//! legally capture an opponent piece that is not its king, nor a pawn on
//! its own side of the river, and
//! - the target is worth more: a rook attacked by a horse or cannon (AXF
//!   rule 15; the Chinese rules' material values), a rook, horse or cannon
//!   by an advisor or elephant (the Chinese values; for the Asian rules,
//!   which do not say, the engines' convention), protected or not; or
//! - the target is not truly protected (no legal recapture once taken),
//!   and it is not a piece of the attacker's kind that could take the
//!   attacker in turn (an offer to exchange);
//!
//! and the attack is new: the same piece did not attack the same target so
//! before the move. A pinned piece chases only what it may legally take;
//! a side answering check compares with what it could take but for the
//! check (a piece that attacked before the check and attacks again once
//! the check is answered does not chase).
//!
//! ```
//! use qipu::{Color, Move, Position};
//! use qipu::rules::judge::{judge, RuleSet, Verdict, Violation};
//! // Red's rook checks on g9 and g5 while Black's rook covers f9 and f5.
//! let start = Position::from_fen("3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1").unwrap();
//! let moves: Vec<Move> = "g5g9 f5f9 g9g5 f9f5 g5g9 f5f9 g9g5 f9f5"
//!     .split(' ').map(|m| m.parse().unwrap()).collect();
//! let ruling = judge(RuleSet::Asian, &start, &moves, 0).unwrap();
//! assert_eq!(ruling.plies, [0, 4, 8]);
//! assert_eq!(ruling.verdict, Verdict::Loses(Color::Red));
//! assert_eq!(ruling.side(Color::Red).violation, Some(Violation::PerpetualCheck));
//! assert_eq!(ruling.side(Color::Black).violation, None);
//! assert!(ruling.to_string().starts_with("Red checks perpetually"), "{ruling}");
//! ```

use std::fmt;
use std::str::FromStr;

use super::{Color, Move, Piece, Position, Role, Setup, Square};

/// The rule book a repetition is judged by.
///
/// ```
/// use qipu::rules::judge::RuleSet;
/// assert_eq!("chinese".parse::<RuleSet>(), Ok(RuleSet::Chinese));
/// assert_eq!(RuleSet::default().as_str(), "asian");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The Asian Xiangqi Federation's rules, which the World Xiangqi
    /// Federation follows: mate threats are idle moves.
    #[default]
    Asian,
    /// The Chinese Xiangqi Association's competition rules (中国象棋竞赛规则
    /// 2011): mate threats (杀) are forcing moves like checks and chases.
    Chinese,
}

impl RuleSet {
    /// `asian` or `chinese`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleSet::Asian => "asian",
            RuleSet::Chinese => "chinese",
        }
    }

    /// The rule book's name in words.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Asian => "Asian rules",
            RuleSet::Chinese => "Chinese rules",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule set's name that is neither `asian` nor `chinese`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set {0:?} (asian or chinese)")]
pub struct ParseRuleSetError(String);

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    fn from_str(s: &str) -> Result<RuleSet, ParseRuleSetError> {
        match s.to_ascii_lowercase().as_str() {
            "asian" | "axf" | "wxf" => Ok(RuleSet::Asian),
            "chinese" | "cxa" => Ok(RuleSet::Chinese),
            _ => Err(ParseRuleSetError(s.to_string())),
        }
    }
}

/// The forbidden conduct of one side in a repetition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// 长将: every move a check.
    PerpetualCheck,
    /// 长捉: every move a chase of the same piece.
    PerpetualChase,
    /// 一将一捉 (Chinese rules): every move a check or a chase of the same
    /// piece.
    CheckChase,
    /// 长杀 (Chinese rules): every move a mate threat.
    PerpetualMateThreat,
    /// 一将一杀, 一杀一捉 (Chinese rules): every move a mate threat, a
    /// check or a chase, some of them mate threats.
    MateThreatMixed,
}

impl Violation {
    /// Every kind, in the order reports list them.
    pub const ALL: [Violation; 5] = [
        Violation::PerpetualCheck,
        Violation::PerpetualChase,
        Violation::CheckChase,
        Violation::PerpetualMateThreat,
        Violation::MateThreatMixed,
    ];

    /// The name used in reports and JSON: `perpetual-check`,
    /// `perpetual-chase`, `check-chase`, `perpetual-mate-threat`,
    /// `mate-threat-mixed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Violation::PerpetualCheck => "perpetual-check",
            Violation::PerpetualChase => "perpetual-chase",
            Violation::CheckChase => "check-chase",
            Violation::PerpetualMateThreat => "perpetual-mate-threat",
            Violation::MateThreatMixed => "mate-threat-mixed",
        }
    }

    /// The rule books' Chinese name: 长将, 长捉, 一将一捉, 长杀, 一将一杀.
    pub fn chinese(self) -> &'static str {
        match self {
            Violation::PerpetualCheck => "长将",
            Violation::PerpetualChase => "长捉",
            Violation::CheckChase => "一将一捉",
            Violation::PerpetualMateThreat => "长杀",
            Violation::MateThreatMixed => "一将一杀",
        }
    }

    /// What the side does, in words: `checks perpetually`.
    fn doing(self) -> &'static str {
        match self {
            Violation::PerpetualCheck => "checks perpetually",
            Violation::PerpetualChase => "chases perpetually",
            Violation::CheckChase => "checks and chases perpetually",
            Violation::PerpetualMateThreat => "threatens mate perpetually",
            Violation::MateThreatMixed => "threatens mate, checks or chases perpetually",
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The outcome a repetition rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Neither side, or both, broke the rules (不变作和).
    Draw,
    /// This side broke the rules: it must change, and loses if it does
    /// not.
    Loses(Color),
}

impl Verdict {
    /// The side that loses, if one does.
    pub fn loser(self) -> Option<Color> {
        match self {
            Verdict::Draw => None,
            Verdict::Loses(c) => Some(c),
        }
    }
}

/// One chase of a ruling: at `ply`, the `chaser` on `from` threatens the
/// `target` on `at`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chase {
    /// The ply of the chasing move (1 = the first move of the game).
    pub ply: usize,
    /// The chasing piece.
    pub chaser: Piece,
    /// Where the chasing piece stands after the move.
    pub from: Square,
    /// The piece chased.
    pub target: Piece,
    /// Where the chased piece stands.
    pub at: Square,
}

/// What one side did in a repeated cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conduct {
    /// Its moves in the cycle.
    pub moves: usize,
    /// How many of them gave check.
    pub checks: usize,
    /// How many chased (and gave no check).
    pub chases: usize,
    /// How many threatened mate in one (and neither checked nor chased;
    /// counted under the Chinese rules only).
    pub mate_threats: usize,
    /// The forbidden conduct, if every move was forcing.
    pub violation: Option<Violation>,
    /// The chases of the piece chased throughout, one per chasing move,
    /// when the side chased perpetually or checked and chased.
    pub chased: Vec<Chase>,
}

impl Conduct {
    /// Moves that neither checked, chased nor (Chinese rules) threatened
    /// mate.
    pub fn idle(&self) -> usize {
        self.moves - self.checks - self.chases - self.mate_threats
    }
}

/// The ruling on a repetition: who did what in the cycle, and the verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The rule book applied.
    pub rules: RuleSet,
    /// The plies (0 = the start of the game) of the position's first,
    /// second and third occurrences: the cycle judged runs from the first
    /// to the third.
    pub plies: [usize; 3],
    /// The last ply of the repetition: the third occurrence, or later when
    /// the game went on repeating the cycle to the same verdict.
    pub end: usize,
    /// What Red and Black did (index by [`Color::index`]).
    pub sides: [Conduct; 2],
    /// The verdict.
    pub verdict: Verdict,
}

impl Ruling {
    /// What `color` did in the cycle.
    pub fn side(&self, color: Color) -> &Conduct {
        &self.sides[color.index()]
    }

    /// The forbidden conduct the verdict punishes: the loser's violation.
    pub fn kind(&self) -> Option<Violation> {
        self.verdict.loser().and_then(|c| self.side(c).violation)
    }

    /// The first ply of the cycle judged (its first move).
    pub(crate) fn first_move(&self) -> usize {
        self.plies[0] + 1
    }
}

impl fmt::Display for Ruling {
    /// `Red checks perpetually (4 of 4 moves, plies 1-8); Black breaks no
    /// rule: Red loses (Asian rules)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (first, last) = (self.first_move(), self.plies[2]);
        let mut parts = Vec::new();
        for color in Color::ALL {
            let side = self.side(color);
            parts.push(match side.violation {
                Some(v) => {
                    let mut s = format!("{color} {} ({}", v.doing(), v.chinese());
                    if side.checks > 0 {
                        s += &format!(", {} check{}", side.checks, plural(side.checks));
                    }
                    if side.chases > 0 {
                        s += &format!(", {} chase{}", side.chases, plural(side.chases));
                    }
                    if side.mate_threats > 0 {
                        s += &format!(", {} mate threat{}", side.mate_threats, plural(side.mate_threats));
                    }
                    s += &format!(" in {} move{}", side.moves, plural(side.moves));
                    if let Some(c) = side.chased.first() {
                        s += &format!(
                            "; the {} on {} chases {}'s {} on {}",
                            c.chaser.role.name(),
                            c.from,
                            c.target.color,
                            c.target.role.name(),
                            c.at
                        );
                    }
                    s + ")"
                }
                None if side.idle() > 0 => {
                    format!("{color} breaks no rule ({} idle move{})", side.idle(), plural(side.idle()))
                }
                // Every move forcing, and still no rule broken: say why.
                None => {
                    let mut kinds = Vec::new();
                    for (n, what) in
                        [(side.checks, "check"), (side.chases, "chase"), (side.mate_threats, "mate threat")]
                    {
                        if n > 0 {
                            kinds.push(format!("{n} {what}{}", plural(n)));
                        }
                    }
                    let why = if side.chases > 0 && side.chased.is_empty() {
                        "no piece chased by every chase".to_string()
                    } else {
                        format!("allowed by the {}", self.rules.name())
                    };
                    format!(
                        "{color} breaks no rule ({} in {} move{}: {why})",
                        kinds.join(" and "),
                        side.moves,
                        plural(side.moves)
                    )
                }
            });
        }
        write!(f, "{}; {}, plies {first}-{last}: ", parts[0], parts[1])?;
        match self.verdict {
            Verdict::Draw => write!(f, "a draw ({})", self.rules.name()),
            Verdict::Loses(c) => write!(f, "{c} loses ({})", self.rules.name()),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Judges the repetition played from `start` by `moves`, under `rules`:
/// the moves must bring the position back to `start` at least twice (so
/// that it stands three times), and the cycle judged runs from `start` to
/// the second return. `first_ply` is the ply of `start` in its game (0 =
/// the game's start). `None` when the moves do not repeat `start` twice
/// (moves after the second return are not looked at); the moves must be
/// legal.
///
/// The work is linear in the length of the cycle.
pub fn judge(rules: RuleSet, start: &Position, moves: &[Move], first_ply: usize) -> Option<Ruling> {
    let mut pos = start.clone();
    let mut returns = Vec::with_capacity(2);
    for (i, &m) in moves.iter().enumerate() {
        let _ = pos.play_unchecked(m);
        if pos.hash() == start.hash()
            && pos.board().same_placement(start.board())
            && pos.turn() == start.turn()
        {
            returns.push(i + 1);
            if returns.len() == 2 {
                break;
            }
        }
    }
    let [second, third] = returns[..] else { return None };
    let cycle = &moves[..third];
    let sides = conducts(rules, start, cycle, first_ply);
    let verdict = verdict(sides[0].violation, sides[1].violation);
    let plies = [first_ply, first_ply + second, first_ply + third];
    Some(Ruling { rules, plies, end: plies[2], sides, verdict })
}

/// The verdict when Red's and Black's conduct is `red` and `black`.
fn verdict(red: Option<Violation>, black: Option<Violation>) -> Verdict {
    match (red, black) {
        (None, None) => Verdict::Draw,
        (Some(_), None) => Verdict::Loses(Color::Red),
        (None, Some(_)) => Verdict::Loses(Color::Black),
        // Perpetual check is the graver: against a chase, the checking side
        // must change.
        (Some(Violation::PerpetualCheck), Some(b)) if b != Violation::PerpetualCheck => {
            Verdict::Loses(Color::Red)
        }
        (Some(a), Some(Violation::PerpetualCheck)) if a != Violation::PerpetualCheck => {
            Verdict::Loses(Color::Black)
        }
        (Some(_), Some(_)) => Verdict::Draw,
    }
}

/// No piece on a point (in the table of piece numbers).
const NO_ID: u8 = u8::MAX;

/// What Red and Black did in the cycle played from `start` by `cycle`.
fn conducts(rules: RuleSet, start: &Position, cycle: &[Move], first_ply: usize) -> [Conduct; 2] {
    // Each piece numbered, so that a chased piece is known as it moves (a
    // cycle holds no capture).
    let mut ids = [NO_ID; Square::COUNT];
    for (n, (sq, _)) in start.board().pieces().enumerate() {
        ids[sq.index()] = n as u8;
    }
    let mut sides: [Conduct; 2] = Default::default();
    // The pieces each side chased with every chasing move so far.
    let mut common = [u64::MAX; 2];
    // Every move's chases, to name the piece chased throughout.
    let mut chases: [Vec<(u64, Chase)>; 2] = Default::default();
    let mut pos = start.clone();
    let (mut now, mut was) = (Vec::new(), Vec::new());
    for (k, &m) in cycle.iter().enumerate() {
        let ply = first_ply + k + 1;
        let mover = pos.turn();
        let before = pos.clone();
        let _ = pos.play_unchecked(m);
        let ids_before = ids;
        ids[m.to.index()] = ids[m.from.index()];
        ids[m.from.index()] = NO_ID;
        let side = &mut sides[mover.index()];
        side.moves += 1;
        if pos.is_check() {
            side.checks += 1;
            continue;
        }
        let passed = pos.passed();
        now.clear();
        was.clear();
        chase_pairs(&passed, &mut now);
        chases_but_for_check(&before, &mut was);
        let pair_ids =
            |table: &[u8; Square::COUNT], (a, t): (Square, Square)| (table[a.index()], table[t.index()]);
        let old: Vec<(u8, u8)> = was.iter().map(|&p| pair_ids(&ids_before, p)).collect();
        let mut targets = 0u64;
        for &(a, t) in &now {
            let (ia, it) = pair_ids(&ids, (a, t));
            if old.contains(&(ia, it)) {
                continue;
            }
            targets |= 1 << it;
            let board = pos.board();
            let chase = Chase {
                ply,
                chaser: board.piece_at(a).expect("a chaser"),
                from: a,
                target: board.piece_at(t).expect("a target"),
                at: t,
            };
            chases[mover.index()].push((1 << it, chase));
        }
        if targets != 0 {
            side.chases += 1;
            common[mover.index()] &= targets;
        } else if rules == RuleSet::Chinese && threatens_mate(&passed) {
            side.mate_threats += 1;
        }
    }
    for color in Color::ALL {
        let i = color.index();
        let side = &mut sides[i];
        let chased_throughout = side.chases == 0 || common[i] != 0;
        let forcing = if side.idle() > 0 || !chased_throughout {
            None
        } else if side.checks == side.moves {
            Some(Violation::PerpetualCheck)
        } else if side.mate_threats == side.moves {
            Some(Violation::PerpetualMateThreat)
        } else if side.mate_threats > 0 {
            Some(Violation::MateThreatMixed)
        } else if side.checks == 0 {
            Some(Violation::PerpetualChase)
        } else {
            Some(Violation::CheckChase)
        };
        // The Asian rules forbid only perpetual check and perpetual chase:
        // mixed cycles (一将一捉) and mate threats are allowed (AXF rule 12,
        // 细则 4 and 6).
        side.violation = match rules {
            RuleSet::Chinese => forcing,
            RuleSet::Asian => {
                forcing.filter(|v| matches!(v, Violation::PerpetualCheck | Violation::PerpetualChase))
            }
        };
        if side.chases > 0 && common[i] != 0 {
            // The lowest-numbered piece chased throughout, once a move.
            let target = common[i] & common[i].wrapping_neg();
            let mut last_ply = 0;
            for &(mask, chase) in &chases[i] {
                if mask == target && chase.ply != last_ply {
                    side.chased.push(chase);
                    last_ply = chase.ply;
                }
            }
        }
    }
    sides
}

/// Whether a piece of kind `attacker` attacking one of kind `target`
/// chases it even when it is protected.
fn worth_more(attacker: Role, target: Role) -> bool {
    matches!(
        (attacker, target),
        (Role::Horse | Role::Cannon, Role::Rook)
            | (Role::Advisor | Role::Elephant, Role::Rook | Role::Horse | Role::Cannon)
    )
}

/// The chases of the side to move in `pos`: (chaser's point, target's
/// point), in a fixed order.
fn chase_pairs(pos: &Position, out: &mut Vec<(Square, Square)>) {
    let us = pos.turn();
    let board = pos.board();
    let mut list = super::MoveList::new();
    for from in board.squares_of(us) {
        let piece = board.piece_at(from).expect("a piece of the side to move");
        if matches!(piece.role, Role::King | Role::Pawn) {
            continue;
        }
        list.clear();
        pos.pseudo_moves_from(from, &mut list);
        for &m in list.iter() {
            let Some(target) = board.piece_at(m.to) else { continue };
            if target.color == us || target.role == Role::King {
                continue;
            }
            if target.role == Role::Pawn && !m.to.rank().is_across_river(target.color) {
                continue;
            }
            if !pos.is_legal(m) {
                continue;
            }
            let exchange = target.role == piece.role && can_take_back(pos, m);
            let chased = worth_more(piece.role, target.role) || !(protected(pos, m) || exchange);
            if chased {
                out.push((m.from, m.to));
            }
        }
    }
}

/// The chases of the side to move in `pos` as they stood before a check
/// took them away: a side in check may only answer the check, so every
/// attack it had would look new after the answer. Besides the chases that
/// answer the check (taking the checking piece), those of the position
/// without the checking pieces count; pins by other pieces still hold.
fn chases_but_for_check(pos: &Position, out: &mut Vec<(Square, Square)>) {
    chase_pairs(pos, out);
    if !pos.is_check() {
        return;
    }
    let us = pos.turn();
    let king = pos.king(us);
    let them = pos.passed();
    let mut board = pos.board().clone();
    let mut list = super::MoveList::new();
    for from in pos.board().squares_of(!us) {
        list.clear();
        them.pseudo_moves_from(from, &mut list);
        if list.iter().any(|m| m.to == king) {
            let _ = board.remove(from);
        }
    }
    let setup = Setup { board, turn: us, halfmoves: 0, fullmoves: 1 };
    if let Ok(free) = Position::from_setup(setup)
        && !free.is_check()
    {
        chase_pairs(&free, out);
    }
}

/// Whether, once the capture `m` is played, the side that lost the piece
/// can legally take on its point.
fn protected(pos: &Position, m: Move) -> bool {
    let mut after = pos.clone();
    let _ = after.play_unchecked(m);
    let them = after.turn();
    after.board().squares_of(them).any(|s| after.is_legal(Move::new(s, m.to)))
}

/// Whether the piece attacked by `m` could legally take its attacker, were
/// it its side's move.
fn can_take_back(pos: &Position, m: Move) -> bool {
    pos.passed().is_legal(Move::new(m.to, m.from))
}

/// Whether the side to move in `pos` has a move that checkmates.
fn threatens_mate(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|&m| {
        let mut after = pos.clone();
        let _ = after.play_unchecked(m);
        after.is_checkmate()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace().map(|m| m.parse().unwrap()).collect()
    }

    fn rule(rules: RuleSet, fen: &str, cycle: &str) -> Ruling {
        let start = Position::from_fen(fen).unwrap();
        let cycle = moves(cycle);
        let twice: Vec<Move> = cycle.iter().chain(&cycle).copied().collect();
        judge(rules, &start, &twice, 0).expect("a repetition")
    }

    #[test]
    fn perpetual_check_loses() {
        let r = rule(RuleSet::Asian, "4k4/7R1/9/9/9/9/9/9/9/3K5 w", "h8h9 e9e8 h9h8 e8e9");
        assert_eq!(r.plies, [0, 4, 8]);
        assert_eq!(r.side(Color::Red).violation, Some(Violation::PerpetualCheck));
        assert_eq!(r.side(Color::Red).checks, 4);
        assert_eq!(r.verdict, Verdict::Loses(Color::Red));
        assert_eq!(r.kind(), Some(Violation::PerpetualCheck));
    }

    #[test]
    fn idle_shuffles_draw() {
        let r = rule(RuleSet::Chinese, "3k5/9/9/9/9/9/9/9/9/4K4 w", "e0e1 d9d8 e1e0 d8d9");
        assert_eq!(r.verdict, Verdict::Draw);
        assert_eq!(r.side(Color::Red).idle(), 4);
    }

    #[test]
    fn rook_chasing_an_unprotected_horse() {
        // The black horse steps b7-a5 and back; the red rook follows it
        // from b4 to a4 and back, attacking it each time.
        let fen = "4k4/9/1n7/9/9/1R7/9/9/9/3K5 b";
        let r = rule(RuleSet::Asian, fen, "b7a5 b4a4 a5b7 a4b4");
        assert_eq!(r.side(Color::Red).violation, Some(Violation::PerpetualChase), "{r}");
        assert_eq!(r.verdict, Verdict::Loses(Color::Red));
        let c = r.side(Color::Red).chased[0];
        assert_eq!((c.chaser.role, c.target.role), (Role::Rook, Role::Horse));
    }

    #[test]
    fn an_attack_back_after_answering_check_is_not_new() {
        // The king's step f0-f1 frees the elephant pinned on c0 by the
        // cannon through d0: it now attacks the cannon on e2 (a chase). The
        // other cannon checks from b1 through e1; the king steps back to
        // f0, and the elephant, no longer pinned, attacks again: an attack
        // it had before the check, no new chase. The cannon's return pins
        // it again. One chase in two moves: no perpetual chase.
        let fen = "4k4/9/9/9/9/9/9/4c4/4A4/1cBA1K3 w";
        let r = rule(RuleSet::Asian, fen, "f0f1 b0b1 f1f0 b1b0");
        let (red, black) = (r.side(Color::Red), r.side(Color::Black));
        assert_eq!((red.chases, red.idle()), (2, 2), "{r}");
        assert_eq!(red.chased[0].chaser.role, Role::Elephant, "{r}");
        assert_eq!((black.checks, black.idle()), (2, 2), "{r}");
        assert_eq!(r.verdict, Verdict::Draw, "{r}");
    }

    #[test]
    fn a_side_forcing_with_every_move_yet_breaking_no_rule_is_told_why() {
        // One check, one chase of the rook (AXF rule 12: allowed).
        let fen = "9/3k5/9/5C3/3r5/4R4/9/9/9/4K4 b";
        let cycle = "d5d0 e0e1 d0d6 f6f5 d6d1 e1e0 d1d5 f5f6";
        let r = rule(RuleSet::Asian, fen, cycle);
        assert_eq!(r.verdict, Verdict::Draw, "{r}");
        let text = r.to_string();
        assert!(
            text.contains(
                "Black breaks no rule (4 checks and 4 chases in 8 moves: allowed by the Asian rules)"
            ),
            "{text}"
        );
        let r = rule(RuleSet::Chinese, fen, cycle);
        assert_eq!(r.verdict, Verdict::Loses(Color::Black), "{r}");
    }
}
