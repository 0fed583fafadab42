//! Reading UCI and UCCI position lines (see the [module docs](super)).

use crate::fen::ParseFenError;
use crate::formats::words::Words;
use crate::notation::iccs;
use crate::record::{MoveText, RecordedMove, Span, Visitor, Warning};
use crate::{Move, Setup};

/// A UCI position line, read.
///
/// ```
/// use qipu::formats::uci;
/// let line = uci::parse_line("position startpos moves h2e2 h9g7").unwrap();
/// assert_eq!((line.fen, line.moves.len(), line.keyword), (None, 2, true));
/// let e = uci::parse_line("position startpos moves h2e2 h9").unwrap_err();
/// assert_eq!(e.to_string(), "column 30: \"h9\" is not a coordinate move (a file a-i and a rank 0-9, twice: h2e2)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciLine {
    /// The start position given by a FEN; `None` for `startpos`.
    pub fen: Option<Setup>,
    /// The moves, as written (not checked against the position).
    pub moves: Vec<Move>,
    /// Whether the line says `position`, `startpos`, `fen` or `moves` (a
    /// FEN alone does not).
    pub keyword: bool,
}

/// Why a line is not a UCI position line, and where: the message is
/// `column N: ` and the [kind](UciErrorKind)'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct UciError {
    /// The 1-based column, in characters, of the word at fault.
    pub column: u32,
    /// What is wrong.
    pub kind: UciErrorKind,
}

/// What is wrong with a UCI position line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciErrorKind {
    /// The line does not start with `position`, `startpos`, `fen` or a FEN.
    #[error("expected position, startpos, fen or a FEN, found {0:?}")]
    Start(String),
    /// `position` is followed by something else than a start.
    #[error("expected startpos, fen or a FEN after 'position', found {0:?}")]
    AfterPosition(String),
    /// The line ends after a keyword that needs more.
    #[error("nothing after {0:?}")]
    Missing(&'static str),
    /// The start position is followed by something else than `moves`.
    #[error("expected 'moves' after the position, found {0:?}")]
    ExpectedMoves(String),
    /// The FEN does not read.
    #[error("{0}")]
    Fen(ParseFenError),
    /// A word after `moves` is not a coordinate move.
    #[error("{0:?} is not a coordinate move (a file a-i and a rank 0-9, twice: h2e2)")]
    NotAMove(String),
}

/// The start of a line: its position, and where it is written.
struct Start {
    fen: Option<(Setup, u32)>,
    keyword: bool,
}

/// Reads a UCI position line (see the [module docs](super) for its forms).
///
/// # Errors
///
/// A [`UciError`] naming the first word that does not fit.
pub fn parse_line(line: &str) -> Result<UciLine, UciError> {
    let mut words = Words::new(line);
    let start = start(&mut words)?;
    let moves = words.map(|(word, _, column)| coordinate_move(word, column)).collect::<Result<_, _>>()?;
    Ok(UciLine { fen: start.fen.map(|(setup, _)| setup), moves, keyword: start.keyword })
}

/// Reads one line, line `number` of its source, as a game with `visitor`:
/// its FEN as the `FEN` tag (unless it is the standard start with its
/// clocks at `0 1`), then its moves. A line that does not read is an
/// unreadable game, its moves up to the word at fault given.
pub(crate) fn read_line_with<V: Visitor>(line: &str, number: u32, visitor: &mut V) -> V::Output {
    visitor.begin_game(Span { line: number, column: 1 });
    let unreadable = |visitor: &mut V, e: UciError| {
        let at = Span { line: number, column: e.column };
        visitor.unreadable(Warning { at, message: format!("UCI line: {}", e.kind) });
    };
    let mut words = Words::new(line);
    match start(&mut words) {
        Err(e) => unreadable(visitor, e),
        Ok(start) => {
            if let Some((setup, column)) = start.fen {
                let fen = setup.to_fen();
                if fen != crate::fen::START {
                    visitor.tag("FEN", &fen, Span { line: number, column });
                }
            }
            let mut playing = true;
            let mut moves = 0usize;
            for (word, _, column) in words {
                match coordinate_move(word, column) {
                    Ok(_) if playing && moves == crate::record::MAX_MOVES => {
                        let at = Span { line: number, column };
                        visitor.unreadable(Warning { at, message: crate::record::too_many_moves() });
                        playing = false;
                    }
                    Ok(m) if playing => {
                        moves += 1;
                        let at = Span { line: number, column };
                        playing = visitor.mv(&RecordedMove { text: MoveText::Coords(m), at }).is_continue();
                    }
                    Ok(_) => {}
                    Err(e) => {
                        unreadable(visitor, e);
                        break;
                    }
                }
            }
        }
    }
    visitor.end_game()
}

/// A word after `moves` as a move.
fn coordinate_move(word: &str, column: u32) -> Result<Move, UciError> {
    match iccs::parse_plain(word.as_bytes()) {
        Some(m) => Ok(m.0),
        None => Err(UciError { column, kind: UciErrorKind::NotAMove(word.into()) }),
    }
}

/// Reads the start of a line, up to and with `moves`.
fn start(words: &mut Words<'_>) -> Result<Start, UciError> {
    let error = |column, kind| Err(UciError { column, kind });
    let mut before = words.clone();
    let Some((mut first, mut at, mut column)) = words.next() else {
        return error(1, UciErrorKind::Start(String::new()));
    };
    let mut keyword = false;
    let mut after_position = false;
    if first == "position" {
        keyword = true;
        after_position = true;
        before = words.clone();
        (first, at, column) = match words.next() {
            Some(word) => word,
            None => return error(column, UciErrorKind::Missing("position")),
        };
    }
    let fen = match first {
        "startpos" => {
            keyword = true;
            None
        }
        "fen" => {
            keyword = true;
            let Some((_, at, column)) = words.clone().next() else {
                return error(column, UciErrorKind::Missing("fen"));
            };
            Some(fen(words, at, column, &mut keyword)?)
        }
        word if word.contains('/') => {
            // The FEN's first word is read again with the others.
            *words = before;
            Some(fen(words, at, column, &mut keyword)?)
        }
        word if after_position => return error(column, UciErrorKind::AfterPosition(word.into())),
        word => return error(column, UciErrorKind::Start(word.into())),
    };
    if fen.is_none() {
        match words.next() {
            None => {}
            Some(("moves", ..)) => keyword = true,
            Some((word, _, column)) => return error(column, UciErrorKind::ExpectedMoves(word.into())),
        }
    }
    Ok(Start { fen, keyword })
}

/// Reads the FEN starting at byte `at` (column `column`), and `moves`
/// after it: the FEN is the words up to `moves` or the line's end (seven
/// at most: a seventh is an error of the FEN).
fn fen(words: &mut Words<'_>, at: usize, column: u32, keyword: &mut bool) -> Result<(Setup, u32), UciError> {
    let mut end = at;
    for _ in 0..7 {
        match words.next() {
            Some(("moves", ..)) => {
                *keyword = true;
                break;
            }
            Some((word, start, _)) => end = start + word.len(),
            None => break,
        }
    }
    let text = &words.line()[at..end];
    match Setup::from_fen(text) {
        Ok(setup) => Ok((setup, column)),
        Err(e) => Err(UciError { column, kind: UciErrorKind::Fen(e) }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Result<(Option<String>, usize, bool), (u32, String)> {
        parse_line(line)
            .map(|l| (l.fen.map(|s| s.to_fen()), l.moves.len(), l.keyword))
            .map_err(|e| (e.column, e.kind.to_string()))
    }

    #[test]
    fn every_form_reads() {
        let k = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        let fen = Some(k.to_string());
        assert_eq!(kinds("position startpos moves h2e2 h9g7"), Ok((None, 2, true)));
        assert_eq!(kinds("position startpos"), Ok((None, 0, true)));
        assert_eq!(kinds("startpos"), Ok((None, 0, true)));
        assert_eq!(kinds("startpos moves h2e2"), Ok((None, 1, true)));
        assert_eq!(kinds(&format!("position fen {k} moves e0e1")), Ok((fen.clone(), 1, true)));
        assert_eq!(kinds(&format!("fen {k} moves e0e1 e9e8")), Ok((fen.clone(), 2, true)));
        assert_eq!(kinds(&format!("{k} moves e0e1")), Ok((fen.clone(), 1, true)));
        assert_eq!(kinds(&format!("position {k} moves e0e1")), Ok((fen.clone(), 1, true)));
        assert_eq!(kinds(&format!("position fen {k}")), Ok((fen.clone(), 0, true)));
        assert_eq!(kinds(k), Ok((fen.clone(), 0, false)));
        assert_eq!(
            kinds("4k4/9/9/9/9/9/9/9/9/4K4 b moves e9e8"),
            Ok((Some(k.replace(" w ", " b ")), 1, true))
        );
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(
            kinds("go depth 10"),
            Err((1, "expected position, startpos, fen or a FEN, found \"go\"".into()))
        );
        assert_eq!(kinds("position"), Err((1, "nothing after \"position\"".into())));
        assert_eq!(kinds("position fen"), Err((10, "nothing after \"fen\"".into())));
        assert_eq!(
            kinds("position  start"),
            Err((11, "expected startpos, fen or a FEN after 'position', found \"start\"".into()))
        );
        assert_eq!(
            kinds("startpos h2e2"),
            Err((10, "expected 'moves' after the position, found \"h2e2\"".into()))
        );
        assert_eq!(
            kinds("startpos moves h2e2 h2"),
            Err((21, "\"h2\" is not a coordinate move (a file a-i and a rank 0-9, twice: h2e2)".into()))
        );
        let (column, message) = kinds("fen 4k4/9/9/9/9/9/9/9/9/4K3 w - - 0 1 moves e0e1").unwrap_err();
        assert_eq!(column, 5);
        assert!(message.starts_with("FEN placement field"), "{message}");
        let (column, message) = kinds("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 x moves e0e1").unwrap_err();
        assert_eq!(column, 1);
        assert!(message.starts_with("FEN has more than 6 fields"), "{message}");
    }
}
