//! What engines say and how they are told: the lines of UCI (Pikafish,
//! Fairy-Stockfish) and UCCI (ElephantEye), read and written. No process
//! here: every function takes and gives text.

use std::fmt;

use crate::record::eval::Score;
use crate::{File, Move, Rank, Square};

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// UCI, as Pikafish and Fairy-Stockfish speak it for Xiangqi:
    /// `position fen …`, `go depth N`, `info … score cp X …`.
    Uci,
    /// UCCI, ElephantEye's: `ucci`, `go depth N`, `info depth D score X pv …`,
    /// `bestmove` or `nobestmove`.
    Ucci,
}

impl Protocol {
    /// `uci` or `ucci`: also the line that starts the protocol.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }

    /// Whether `line` ends the engine's answer to [`name`](Protocol::name)
    /// (`uciok`, `ucciok`).
    pub(crate) fn is_ready_answer(self, line: &str) -> bool {
        line.trim() == if self == Protocol::Uci { "uciok" } else { "ucciok" }
    }

    /// The `setoption` line for an option `name` set to `value`: UCI's
    /// `setoption name N value V`, UCCI's `setoption N V`.
    pub(crate) fn set_option(self, name: &str, value: &str) -> String {
        match self {
            Protocol::Uci => format!("setoption name {name} value {value}"),
            Protocol::Ucci => format!("setoption {name} {value}"),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How an engine writes the points of a move: files `a`…`i` from Red's
/// left, and ranks from Red's side counted from 0 (ICCS, Pikafish,
/// ElephantEye: `h2e2`) or from 1 (Fairy-Stockfish: `h3e3`, `h10g8`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Coordinates {
    /// Ranks 0…9 (`h2e2`).
    #[default]
    FromZero,
    /// Ranks 1…10 (`h3e3`, `h10g8`).
    FromOne,
}

impl Coordinates {
    /// `m` as this engine writes it.
    ///
    /// ```
    /// use qipu::engine::protocol::Coordinates;
    /// let m: qipu::Move = "h9g7".parse().unwrap();
    /// assert_eq!(Coordinates::FromZero.write(m), "h9g7");
    /// assert_eq!(Coordinates::FromOne.write(m), "h10g8");
    /// ```
    pub fn write(self, m: Move) -> String {
        match self {
            Coordinates::FromZero => m.to_string(),
            Coordinates::FromOne => {
                let point = |s: Square| format!("{}{}", s.file(), s.rank().index() + 1);
                format!("{}{}", point(m.from), point(m.to))
            }
        }
    }

    /// The move an engine wrote as `text`, if it is two points.
    ///
    /// ```
    /// use qipu::engine::protocol::Coordinates;
    /// assert_eq!(Coordinates::FromOne.read("h10g8").unwrap().to_string(), "h9g7");
    /// assert_eq!(Coordinates::FromZero.read("h2e2").unwrap().to_string(), "h2e2");
    /// assert!(Coordinates::FromZero.read("h10g8").is_none());
    /// ```
    pub fn read(self, text: &str) -> Option<Move> {
        let b = text.as_bytes();
        let point = |b: &[u8]| -> Option<(Square, usize)> {
            let file = File::from_char(char::from(*b.first()?).to_ascii_lowercase())?;
            let digits = b[1..].iter().take(2).take_while(|c| c.is_ascii_digit()).count();
            let n: usize = std::str::from_utf8(&b[1..1 + digits]).ok()?.parse().ok()?;
            let n = match self {
                Coordinates::FromZero if digits == 1 => n,
                Coordinates::FromOne if n >= 1 => n - 1,
                _ => return None,
            };
            let rank = Rank::new(u32::try_from(n).ok()?)?;
            Some((Square::new(file, rank), 1 + digits))
        };
        let (from, used) = point(b)?;
        let (to, used2) = point(&b[used..])?;
        (used + used2 == b.len()).then_some(Move::new(from, to))
    }
}

/// What an engine's search is bounded by.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Plies of depth (`go depth N`).
    Depth(u32),
    /// Milliseconds (`go movetime MS`; UCCI: `go time MS movestogo 1`).
    MoveTime(u64),
    /// Nodes (`go nodes N`).
    Nodes(u64),
}

impl Limit {
    /// The `go` line of this limit in `protocol`.
    pub fn go(self, protocol: Protocol) -> String {
        match (self, protocol) {
            (Limit::Depth(n), _) => format!("go depth {n}"),
            (Limit::Nodes(n), _) => format!("go nodes {n}"),
            (Limit::MoveTime(ms), Protocol::Uci) => format!("go movetime {ms}"),
            (Limit::MoveTime(ms), Protocol::Ucci) => format!("go time {ms} movestogo 1"),
        }
    }
}

impl fmt::Display for Limit {
    /// `depth 12`, `movetime 500`, `nodes 100000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Depth(n) => write!(f, "depth {n}"),
            Limit::MoveTime(ms) => write!(f, "movetime {ms}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// An `info` line that carries a score: the depth, which of the lines of a
/// multi-line search it is, the score (for the side to move) and the moves
/// as the engine wrote them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// `depth D`, when given.
    pub depth: Option<u32>,
    /// `multipv i` (1 when not given).
    pub multipv: u32,
    /// The score, for the side to move.
    pub score: Score,
    /// The score is only a bound (`lowerbound`, `upperbound`).
    pub bound: bool,
    /// The principal variation, moves as written.
    pub pv: Vec<String>,
}

/// ElephantEye's mate value: a mate in `d` plies scores `10000 - d`.
const UCCI_MATE: i32 = 10_000;
/// Above this, an ElephantEye score is a mate (below it down to 9800, a
/// win or loss by the repetition rules).
const UCCI_MATE_BOUND: i32 = 9_900;

/// A UCCI score as a [`Score`]: ElephantEye writes a mate in `d` plies as
/// `10000 - d` (negative when the side to move is mated).
pub(crate) fn ucci_score(value: i32) -> Score {
    if value.abs() > UCCI_MATE_BOUND {
        let plies = UCCI_MATE - value.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if value > 0 { moves } else { -moves })
    } else {
        Score::Centipawns(value)
    }
}

/// Reads an `info` line that carries a score; `None` for any other line
/// (`info currmove …`, `info string …`, an info line whose score cannot be
/// read).
pub(crate) fn parse_info(line: &str, protocol: Protocol) -> Option<Info> {
    let mut words = line.split_ascii_whitespace();
    if words.next()? != "info" {
        return None;
    }
    let (mut depth, mut multipv, mut score, mut bound, mut pv) = (None, 1, None, false, Vec::new());
    while let Some(word) = words.next() {
        match word {
            "depth" => depth = Some(words.next()?.parse().ok()?),
            "multipv" => multipv = words.next()?.parse().ok()?,
            "score" => {
                score = Some(match protocol {
                    Protocol::Uci => match words.next()? {
                        "cp" => Score::Centipawns(words.next()?.parse().ok()?),
                        "mate" => Score::Mate(words.next()?.parse().ok()?),
                        _ => return None,
                    },
                    Protocol::Ucci => match words.next()? {
                        // Some UCCI engines write UCI's forms.
                        "cp" => Score::Centipawns(words.next()?.parse().ok()?),
                        "mate" => Score::Mate(words.next()?.parse().ok()?),
                        n => ucci_score(n.parse().ok()?),
                    },
                })
            }
            "lowerbound" | "upperbound" => bound = true,
            "pv" => {
                pv = words.by_ref().take(MAX_PV).map(str::to_string).collect();
                break;
            }
            // A string runs to the end of the line.
            "string" => break,
            _ => {}
        }
    }
    Some(Info { depth, multipv: multipv.max(1), score: score?, bound, pv })
}

/// The most moves of a principal variation kept.
pub(crate) const MAX_PV: usize = 64;

/// The end of a search, as the engine says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BestMove {
    /// `bestmove M`: the move as written.
    Move(String),
    /// `bestmove (none)`, `bestmove 0000` or UCCI's `nobestmove`: no move.
    None,
}

/// Reads a `bestmove` (or `nobestmove`) line; `None` for any other line.
pub(crate) fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut words = line.split_ascii_whitespace();
    match words.next()? {
        "nobestmove" => Some(BestMove::None),
        "bestmove" => match words.next() {
            None | Some("(none)" | "0000" | "none") => Some(BestMove::None),
            Some(m) => Some(BestMove::Move(m.to_string())),
        },
        _ => None,
    }
}

/// An engine's `id name …` line: the name.
pub(crate) fn parse_id_name(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("id")?.trim_start().strip_prefix("name")?;
    Some(rest.trim()).filter(|n| !n.is_empty())
}

/// The name of an option an engine offers (`option name Hash type spin …`
/// in UCI, `option hashsize type spin …` in UCCI).
pub(crate) fn parse_option_name(line: &str, protocol: Protocol) -> Option<&str> {
    let rest = line.trim().strip_prefix("option ")?.trim_start();
    match protocol {
        Protocol::Uci => {
            let rest = rest.strip_prefix("name ")?;
            let end = rest.find(" type ").unwrap_or(rest.len());
            Some(rest[..end].trim())
        }
        Protocol::Ucci => rest.split_ascii_whitespace().next(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucci_score_as_its_docs_showed() {
        use crate::engine::protocol::ucci_score;
        use crate::record::eval::Score;
        assert_eq!(ucci_score(35), Score::Centipawns(35));
        assert_eq!(ucci_score(9999), Score::Mate(1)); // mates with its next move
        assert_eq!(ucci_score(-9998), Score::Mate(-1)); // mated after one move
        assert_eq!(ucci_score(9995), Score::Mate(3));
    }

    #[test]
    fn parse_info_as_its_docs_showed() {
        use crate::engine::protocol::{Protocol, parse_info};
        use crate::record::eval::Score;
        let info = parse_info(
            "info depth 12 seldepth 20 multipv 2 score cp -38 nodes 9000 pv h2e2 h9g7",
            Protocol::Uci,
        )
        .unwrap();
        assert_eq!((info.depth, info.multipv, info.score), (Some(12), 2, Score::Centipawns(-38)));
        assert_eq!(info.pv, ["h2e2", "h9g7"]);
        let info = parse_info("info depth 9 score 9995 pv h2e2", Protocol::Ucci).unwrap();
        assert_eq!(info.score, Score::Mate(3));
        assert!(parse_info("info currmove h2e2 currmovenumber 1", Protocol::Uci).is_none());
    }

    #[test]
    fn parse_bestmove_as_its_docs_showed() {
        use crate::engine::protocol::{BestMove, parse_bestmove};
        assert_eq!(parse_bestmove("bestmove h2e2 ponder h9g7"), Some(BestMove::Move("h2e2".into())));
        assert_eq!(parse_bestmove("nobestmove"), Some(BestMove::None));
        assert_eq!(parse_bestmove("bestmove (none)"), Some(BestMove::None));
        assert_eq!(parse_bestmove("info depth 1"), None);
    }

    #[test]
    fn coordinates_round_trip_on_every_move_shape() {
        for from in Square::all() {
            for to in [Square::A0, Square::I9, Square::E4, from] {
                let m = Move::new(from, to);
                for c in [Coordinates::FromZero, Coordinates::FromOne] {
                    assert_eq!(c.read(&c.write(m)), Some(m), "{m} {c:?}");
                }
            }
        }
        for bad in ["", "h", "h2", "h2e", "j2e2", "h2e2x", "h0e0", "h11e1"] {
            assert_eq!(Coordinates::FromOne.read(bad), None, "{bad}");
        }
        assert_eq!(Coordinates::FromZero.read("h10e1"), None);
    }

    #[test]
    fn info_lines_that_carry_no_score_are_none() {
        for line in [
            "info",
            "info depth",
            "info depth x score cp 1",
            "info score cp banana",
            "info string x score cp 3",
        ] {
            assert_eq!(parse_info(line, Protocol::Uci), None, "{line}");
        }
        let bound = parse_info("info depth 3 score cp 10 lowerbound pv a0a1", Protocol::Uci).unwrap();
        assert!(bound.bound);
        let mated = parse_info("info depth 3 score mate -2 pv", Protocol::Uci).unwrap();
        assert_eq!(mated.score, Score::Mate(-2));
        assert_eq!(ucci_score(-9850), Score::Centipawns(-9850));
        assert_eq!(ucci_score(10_000), Score::Mate(0));
    }

    proptest::proptest! {
        /// Whatever an engine writes, reading it never panics.
        #[test]
        fn any_line_reads_without_panic(line in "(info|bestmove|nobestmove|id|option|score|cp|mate|pv|depth|multipv| |-|[0-9]{1,12}|[a-j][0-9]{1,2}|\\PC){0,40}") {
            for p in [Protocol::Uci, Protocol::Ucci] {
                let _ = parse_info(&line, p);
                let _ = parse_option_name(&line, p);
            }
            let _ = parse_bestmove(&line);
            let _ = parse_id_name(&line);
            for word in line.split(' ') {
                let _ = Coordinates::FromOne.read(word);
                let _ = Coordinates::FromZero.read(word);
            }
        }
    }

    #[test]
    fn names_and_options() {
        assert_eq!(parse_id_name("id name Pikafish 2024"), Some("Pikafish 2024"));
        assert_eq!(parse_id_name("id author x"), None);
        assert_eq!(
            parse_option_name("option name UCI_Variant type combo default chess var xiangqi", Protocol::Uci),
            Some("UCI_Variant")
        );
        assert_eq!(
            parse_option_name("option usebook type check default true", Protocol::Ucci),
            Some("usebook")
        );
        assert_eq!(Protocol::Ucci.set_option("hashsize", "16"), "setoption hashsize 16");
        assert_eq!(Limit::MoveTime(500).go(Protocol::Ucci), "go time 500 movestogo 1");
    }
}
