//! 象棋世家 / 弈天 `.mxq` game files: the record of one online game.
//!
//! # Layout
//!
//! Read from the 50 files of the development corpus (ElephantEye's
//! `mxq2pgn` converts the same files); every field is a string: one byte
//! giving its length, then that many bytes of GBK text. In order:
//!
//! | # | field | example |
//! |---|---|---|
//! | 0 | the room or event | `聚义堂`, `桃花岛第关` |
//! | 1 | the date (and time) | `2003年4月12日 19点46分`, `02-10-22` |
//! | 2 | `RED-RESULT-BLACK`, the result Red's: 胜 won, 负 lost, 和 drawn | `东万剑客(5r)-胜-绝壁逢生(6舵)` |
//! | 3, 4 | Red's and Black's ratings | `1519`, `1547` |
//! | 5–9 | the clock: five numbers (minutes, increments, and the time each side had left; not all understood) | `10`, `5`, `0`, `557`, `600` |
//! | 10 | how the game ended, in words | `红方投子认负`, `黑方被绝杀`, `双方议和` |
//! | | `Moves` | |
//! | | each move: `FR-FR`, a file digit `0`–`8` (ICCS `a`–`i`) and a rank letter `A`–`J` (ICCS `0`–`9`), from and to | `7C-4C` (h2-e2) |
//! | | `Ends` | |
//! | | comments (none in the corpus: kept as a warning, not read) | |
//! | | `CommentsEnd` | |
//!
//! Games start from the standard position. The fields are kept as tags:
//! `Event`, `Date`, `Red`, `Black`, `Result`, `RedElo`, `BlackElo`,
//! `Termination`, and the clock's five numbers as written in `MxqClock`.

use std::borrow::Cow;

use super::tree::Game;
use crate::record::{MoveText, Record, RecordBuilder, RecordedMove, Span, Visitor, Warning};

use super::ByteError;

/// Why an `.mxq` file cannot be read.
pub type MxqError = ByteError<MxqErrorKind>;

/// What is wrong in an `.mxq` file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MxqErrorKind {
    /// A string runs past the end of the file.
    #[error("a string of {len} bytes runs past the end of the file")]
    Truncated {
        /// The length its first byte gives.
        len: usize,
    },
    /// The `Moves` string is not found after the header.
    #[error("no `Moves` section after the header")]
    NoMoves,
    /// The moves do not end with `Ends`.
    #[error("the moves do not end with `Ends`")]
    NoEnd,
    /// A move is not written `FR-FR`.
    #[error("{0:?} is no move (written like 7C-4C)")]
    BadMove(String),
}

/// At most this many header strings before `Moves`.
const MAX_HEADER: usize = 32;

/// The strings of `bytes` from its first byte, each with its offset, as
/// far as they fit; then the error when one runs past the end.
fn strings(bytes: &[u8]) -> impl Iterator<Item = Result<(usize, &[u8]), MxqError>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let &len = bytes.get(at)?;
        let len = usize::from(len);
        let start = at;
        let Some(text) = bytes.get(at + 1..at + 1 + len) else {
            at = bytes.len();
            return Some(Err(MxqError {
                offset: start,
                in_inflated_data: false,
                kind: MxqErrorKind::Truncated { len },
            }));
        };
        at += 1 + len;
        Some(Ok((start, text)))
    })
}

/// Whether `bytes` look like an `.mxq` file: length-prefixed strings from
/// the first byte, one of the first 32 being `Moves`.
pub(crate) fn is_mxq(bytes: &[u8]) -> bool {
    strings(bytes).take(MAX_HEADER + 1).map_while(Result::ok).any(|(_, s)| s == b"Moves")
}

/// Reads the game of an `.mxq` file.
///
/// # Errors
///
/// An [`MxqError`] when a string runs past the end, the `Moves` or `Ends`
/// string is missing, or a move is not written `FR-FR`.
///
/// ```
/// let mut file = Vec::new();
/// for s in ["聚义堂", "2003年4月12日", "甲-胜-乙", "1500", "1600", "10", "5", "0", "30", "40", "黑方被绝杀", "Moves", "7C-4C", "7J-6H", "Ends", "CommentsEnd"] {
///     let (gbk, _, _) = encoding_rs::GBK.encode(s);
///     file.push(gbk.len() as u8);
///     file.extend_from_slice(&gbk);
/// }
/// let record = qipu::formats::mxq::read(&file)?;
/// assert_eq!((record.tag("Red"), record.tag("Black"), record.tag("Result")), (Some("甲"), Some("乙"), Some("1-0")));
/// assert_eq!(record.tag("MxqClock"), Some("10 5 0 30 40"));
/// assert_eq!(record.replayed().moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["h2e2", "h9g7"]);
/// # Ok::<(), qipu::formats::mxq::MxqError>(())
/// ```
pub fn read(bytes: &[u8]) -> Result<Record, MxqError> {
    read_with(bytes, &mut RecordBuilder::default())
}

/// Reads an `.mxq` file with `visitor`: the game's events, in the order of
/// [`visit`](crate::record::visit), and what the visitor makes of them.
/// The whole file is read (and checked) before the first event, so a file
/// that cannot be read tells nothing; no [`Record`] is built.
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Result<V::Output, MxqError> {
    Ok(read_game(bytes)?.tell(visitor))
}

/// Reads an `.mxq` file into a game.
pub(crate) fn read_game(bytes: &[u8]) -> Result<Game, MxqError> {
    let error = |offset, kind| MxqError { offset, in_inflated_data: false, kind };
    let mut all = strings(bytes);
    let mut header = Vec::new();
    loop {
        match all.next() {
            Some(Ok((_, b"Moves"))) => break,
            Some(Ok((_, text))) if header.len() < MAX_HEADER => header.push(gbk(text)),
            Some(Err(e)) => return Err(e),
            _ => return Err(error(0, MxqErrorKind::NoMoves)),
        }
    }
    let mut record = Game::default();
    tags(&mut record, &header);
    let mut node = record.moves.root();
    loop {
        match all.next() {
            Some(Ok((_, b"Ends"))) => break,
            Some(Ok((at, text))) => {
                let mv = point_move(text).ok_or_else(|| error(at, MxqErrorKind::BadMove(gbk(text))))?;
                let at = Span { line: 0, column: u32::try_from(at).unwrap_or(u32::MAX) };
                node = record.moves.add_child(node, RecordedMove { text: MoveText::Coords(mv), at });
            }
            Some(Err(e)) => return Err(e),
            None => return Err(error(bytes.len(), MxqErrorKind::NoEnd)),
        }
    }
    let mut comments = 0;
    let mut end_at = None;
    for s in all {
        match s? {
            (at, b"CommentsEnd") => {
                end_at = Some(at);
                break;
            }
            _ => comments += 1,
        }
    }
    if comments > 0 {
        let at = Span { line: 0, column: u32::try_from(end_at.unwrap_or(bytes.len())).unwrap_or(u32::MAX) };
        record.warnings.push(Warning {
            at,
            message: format!("{comments} comment string(s) not read (their layout is not known)"),
        });
    }
    Ok(record)
}

/// A string of the file, decoded from GBK.
fn gbk(text: &[u8]) -> String {
    encoding_rs::GBK.decode_without_bom_handling(text).0.into_owned()
}

/// A move written `FR-FR`: a file digit and a rank letter, from and to.
fn point_move(text: &[u8]) -> Option<crate::Move> {
    let [f1, r1, b'-', f2, r2] = *text else { return None };
    let point = |f: u8, r: u8| -> Option<[u8; 2]> {
        (f.is_ascii_digit() && f <= b'8' && (b'A'..=b'J').contains(&r))
            .then(|| [b'a' + (f - b'0'), b'0' + (r - b'A')])
    };
    let (from, to) = (point(f1, r1)?, point(f2, r2)?);
    crate::notation::iccs::parse_plain(&[from[0], from[1], to[0], to[1]]).map(|m| m.0)
}

/// The header's fields as tags.
fn tags(record: &mut Game, header: &[String]) {
    let field = |k: usize| header.get(k).map(|s| s.trim()).filter(|s| !s.is_empty());
    let mut set = |name: Cow<'static, str>, value: Option<&str>| {
        if let Some(v) = value {
            record.tag(name, v);
        }
    };
    set("Event".into(), field(0));
    set("Date".into(), field(1));
    let players = field(2).and_then(|p| {
        [("-胜-", "1-0"), ("-负-", "0-1"), ("-和-", "1/2-1/2")]
            .iter()
            .find_map(|(mark, result)| p.split_once(mark).map(|(red, black)| (red, black, *result)))
    });
    match players {
        Some((red, black, result)) => {
            set("Red".into(), Some(red));
            set("Black".into(), Some(black));
            set("Result".into(), Some(result));
        }
        None => set("Players".into(), field(2)),
    }
    set("RedElo".into(), field(3));
    set("BlackElo".into(), field(4));
    let clock: Vec<&str> = (5..10).filter_map(field).collect();
    set("MxqClock".into(), (!clock.is_empty()).then(|| clock.join(" ")).as_deref());
    set("Termination".into(), field(10));
    for (k, extra) in header.iter().enumerate().skip(11) {
        set(format!("MxqField{k}").into(), Some(extra.trim()).filter(|s| !s.is_empty()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(strings: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for s in strings {
            let (gbk, _, _) = encoding_rs::GBK.encode(s);
            out.push(gbk.len() as u8);
            out.extend_from_slice(&gbk);
        }
        out
    }

    #[test]
    fn is_mxq_as_its_docs_showed() {
        assert!(crate::formats::mxq::is_mxq(b"\x03abc\x05Moves\x04Ends\x0bCommentsEnd"));
        assert!(!crate::formats::mxq::is_mxq(b"[Event \"Moves\"]"));
    }

    #[test]
    fn damaged_files_say_where_and_why() {
        let good = file(&["x", "Moves", "7C-4C", "Ends", "CommentsEnd"]);
        assert!(read(&good).is_ok());
        // Cut before the end of `Ends`, it fails, naming a byte within;
        // the comments' end marker alone may be missing.
        let ends = good.len() - "CommentsEnd".len() - 1;
        for cut in 0..ends {
            let e = read(&good[..cut]).unwrap_err();
            assert!(e.offset <= cut, "{e}");
        }
        assert!(read(&good[..ends]).is_ok());
        assert_eq!(
            read(&file(&["x", "Moves", "7C-4X", "Ends"])).unwrap_err().kind,
            MxqErrorKind::BadMove("7C-4X".into())
        );
        assert_eq!(read(&file(&["x", "y"])).unwrap_err().kind, MxqErrorKind::NoMoves);
        let noted = read(&file(&["x", "Moves", "Ends", "a comment", "CommentsEnd"])).unwrap();
        assert_eq!(noted.warnings().len(), 1);
    }

    #[test]
    fn random_legal_games_read_back_move_for_move() {
        let mut state = 7u64;
        let mut next = || {
            let (s, out) = crate::rules::zobrist::splitmix64(state);
            state = s;
            out
        };
        for _ in 0..200 {
            let length = next() % 150;
            let mut pos = crate::Position::start();
            let mut played = Vec::new();
            for _ in 0..length {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                played.push(m);
                pos.play_unchecked(m);
            }
            let written: Vec<String> = played
                .iter()
                .map(|m| {
                    let t = m.to_string().into_bytes();
                    let point = |f: u8, r: u8| [(f - b'a' + b'0') as char, (r - b'0' + b'A') as char];
                    let (a, b) = (point(t[0], t[1]), point(t[2], t[3]));
                    format!("{}{}-{}{}", a[0], a[1], b[0], b[1])
                })
                .collect();
            let mut strings = vec![
                "room",
                "2003年4月12日",
                "甲-和-乙",
                "1",
                "2",
                "3",
                "4",
                "5",
                "6",
                "7",
                "双方议和",
                "Moves",
            ];
            strings.extend(written.iter().map(String::as_str));
            strings.extend(["Ends", "CommentsEnd"]);
            let record = read(&file(&strings)).unwrap();
            let replayed = record.replayed();
            assert!(replayed.is_valid(), "{:?}", replayed.error);
            assert_eq!(replayed.moves, played);
            assert_eq!(record.tag("Result"), Some("1/2-1/2"));
        }
    }

    #[test]
    fn a_header_without_a_result_keeps_its_players() {
        let r = read(&file(&["x", "d", "甲 对 乙", "Moves", "Ends"])).unwrap();
        assert_eq!(r.tag("Players"), Some("甲 对 乙"));
        assert_eq!(r.tag("Result"), None);
    }
}
