//! Batches: many inputs of any format read, replayed and answered in input
//! order, on all cores (with the `parallel` feature), in bounded memory.
//!
//! A batch reads each input and hands every game to a [`Visitor`] made for
//! the work (a [`Checker`] to validate, a [`RecordBuilder`] to convert, any
//! visitor of your own); a sink gets what the visitor made of each game, in
//! input order, with [`Event`]s for inputs that cannot be read. Small files
//! are read whole, several at a time; large PGN, JSON and DhtmlXQ texts
//! and CBL libraries are cut into chunks of whole games that are read side
//! by side (see [`crate::formats::stream`]); at most a few
//! chunks' or files' work is in flight at once, so memory does not grow
//! with the input.
//!
//! ```
//! use qipu::batch::{self, Batch, Checker, Event, Status};
//! let expanded = batch::expand(&["fixtures/pgn".into()]);
//! let (mut valid, mut games) = (0, 0);
//! Batch::new().run(&expanded.inputs, Checker::default, |_, event| {
//!     if let Event::Games { games: checked, .. } = event {
//!         games += checked.len();
//!         valid += checked.iter().filter(|c| c.status == Status::Valid).count();
//!     }
//!     Ok::<(), ()>(())
//! }).unwrap();
//! assert_eq!((games, valid), (1391, 1391));
//! ```

mod check;
mod games;
pub(crate) mod gunzip;
mod identity;
mod input;
mod problem;
mod report;
mod run;
mod shard;
pub(crate) mod unzip;

pub use check::{Checked, Checker, Status};
pub use games::{Games, Item};
pub use identity::{Outputs, Unread, Why};
pub use input::{Expanded, Input, Member, escaped_name, expand, expand_writing};
pub use problem::{ProblemLine, Severity};
pub use report::ChaseReport;
pub use report::{ConductReport, ErrorReport, Report, RulingReport};
pub use run::{Batch, Event, Meta, cores};
pub use shard::{Shard, ShardError};

#[allow(unused_imports)]
use crate::record::{RecordBuilder, Visitor};
