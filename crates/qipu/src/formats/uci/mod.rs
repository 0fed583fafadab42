//! UCI and UCCI position lines: one game a line, as engines are told a
//! position and as engine logs and bug reports give games.
//!
//! ```text
//! position startpos moves h2e2 h9g7 h0g2
//! position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2
//! fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0e1
//! 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0e1
//! startpos
//! ```
//!
//! The word `position` may be left out; the start is `startpos`, `fen`
//! and a FEN, or a FEN alone (its placement has `/`); `moves` and the
//! moves may be left out. Moves are coordinate moves (files `a`–`i`,
//! ranks `0`–`9` from Red's side: `h2e2`, as [`crate::notation::iccs`]
//! reads them). The reader is [`read`](mod@read), the writer
//! [`write`](mod@write).

pub mod read;
pub mod write;

pub use read::{UciError, UciErrorKind, UciLine, parse_line};
pub use write::{WriteError, write};
