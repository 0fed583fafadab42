//! Readying a record to be written: shaped ([`Shape`]), its ECCO tags set
//! by the moves it keeps, and the replay error of the game as it was read
//! — one call for the command line and the Python binding, with no replay
//! of its own: the replay the record keeps is used and kept true.
//!
//! ```
//! use qipu::analysis::prepare::prepare;
//! use qipu::record::shape::Shape;
//! let mut record = qipu::formats::pgn::read("1. h2e2 h9g7 2. h0g2 i9i5 *").remove(0);
//! let error = prepare(&mut record, &Shape { plies_max: Some(3), ..Shape::default() }, true);
//! assert_eq!(error.map(|e| e.ply), Some(4)); // as read; the shaped game is fine
//! assert!(record.replayed().is_valid());
//! assert!(record.tag("ECCO").is_some()); // by the moves kept
//! ```

use super::ecco;
use crate::record::replay::{ReplayError, Termination};
use crate::record::shape::Shape;
use crate::record::{GameResult, Record};

/// Shapes `record` by `shape` and, with `set_ecco`, sets its ECCO tags by
/// the moves it keeps (games from another start, or that cannot be set up,
/// keep theirs); returns the replay error of the game as it was read, which
/// reports count whatever the shaping leaves out. The replay the record
/// keeps is used, and stays true for the writer.
pub fn prepare(record: &mut Record, shape: &Shape, set_ecco: bool) -> Option<ReplayError> {
    let error = record.replayed().error.clone();
    if !shape.is_identity() {
        shape.apply(record);
    }
    if set_ecco {
        ecco::tag_record(record);
    }
    error
}

/// A result set by [`fix_result`]: what the record said, and what the end
/// of its main line gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultFix {
    /// The result the record gave (`None`: none, or `*`).
    pub was: Option<GameResult>,
    /// The result set.
    pub now: GameResult,
    /// How the main line ends.
    pub end: Termination,
}

impl std::fmt::Display for ResultFix {
    /// `result * set to 1-0 (checkmate)`, `result 1/2-1/2 set to 0-1
    /// (perpetual-check)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let was = self.was.map_or("*", GameResult::as_str);
        write!(f, "result {was} set to {} ({})", self.now.as_str(), self.end)
    }
}

/// Sets the result of `record` (written after the moves, and its `Result`
/// tag) to the one the end of its main line gives
/// (`Replayed::decided_result`),
/// where the record states none (or `*`) or states one the end
/// contradicts (a win for the side checkmated, a draw after a checkmate,
/// a win for the side that checked perpetually). A result the end leaves
/// open (a win recorded where the game ends in a drawn repetition: a side
/// may have resigned or lost on time) is kept. Returns what was changed.
///
/// ```
/// use qipu::analysis::prepare::fix_result;
/// use qipu::record::GameResult;
/// let mate = "[FEN \"3nkn3/R8/2N6/9/9/9/9/9/9/3K5 w - - 0 1\"]\n[Result \"0-1\"]\n1. a8e8 0-1";
/// let mut record = qipu::formats::pgn::read(mate).remove(0);
/// let fix = fix_result(&mut record).unwrap();
/// assert_eq!(fix.to_string(), "result 0-1 set to 1-0 (checkmate)");
/// assert_eq!((record.result(), record.tag("Result")), (Some(GameResult::RedWins), Some("1-0")));
/// assert!(record.replayed().result_conflict.is_none());
/// assert_eq!(fix_result(&mut record), None); // right now
/// ```
pub fn fix_result(record: &mut Record) -> Option<ResultFix> {
    let replayed = record.replayed();
    let now = replayed.decided_result()?;
    let end = replayed.termination?;
    let was = record.result().filter(|&r| r != GameResult::Unknown);
    if was == Some(now) || (was.is_some() && replayed.result_conflict.is_none()) {
        return None;
    }
    if record.written_result().is_some() {
        record.set_written_result(Some(now));
    }
    record.set_tag("Result", now.as_str());
    Some(ResultFix { was, now, end })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::formats::write::{WriteFormat, WriteOptions};
    use crate::record::replay::counting::replays;
    use crate::record::shape::TagFilter;
    use crate::select::{CountRange, Looks, Selection, Target};

    #[test]
    fn a_game_read_selected_shaped_and_written_is_replayed_once() {
        let text = concat!(
            "[Event \"a\"]\n1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 i9h9 3. i0h0 *\n\n",
            "[Event \"b\"]\n1. h2e2 h9g7 2. h0g2 (2. b0c2 b9c7) i9i5 3. i0h0 *\n\n",
            "[Event \"c\"]\n1. c3c4 {a pawn} b9c7 2. b0c2 h9g7 3. h0g2 i9h9 4. i0h0 1-0\n",
        );
        // The placement after 1. h2e2 b9c7, looked for in variations too,
        // and a length: criteria that need the moves replayed.
        let target =
            Target::from_fen("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR", false).unwrap();
        let looks = Arc::new(Looks { position: Some(target), in_variations: true, ..Looks::default() });
        let selection = Arc::new(Selection {
            plies: Some(CountRange { min: 2, max: u64::MAX }),
            looks,
            ..Selection::default()
        });
        let shape =
            Shape { main_line: true, plies_max: Some(4), tags: TagFilter::Standard, ..Shape::default() };
        let options = WriteOptions::new(WriteFormat::Pgn);
        let before = replays();
        let games = crate::formats::pgn::read(text);
        let mut written = Vec::new();
        for mut record in games {
            let judged = selection.judge_record(&record);
            let error = prepare(&mut record, &shape, true);
            written.push((judged.matches, error.is_some(), crate::formats::write(&record, &options).is_ok()));
        }
        assert_eq!(replays() - before, 3, "one replay a game");
        assert_eq!(written, [(true, false, true), (false, true, true), (false, false, true)]);
    }
}
