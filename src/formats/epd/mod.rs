//! EPD (Extended Position Description): one position a line, the first
//! four fields of a FEN (placement, side to move, and the two `-` fields
//! chess uses for castling and en passant) followed by opcodes, each a
//! name, its operands and a `;`:
//!
//! ```text
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - id "start"; hmvc 0; fmvn 1;
//! ```
//!
//! Operands are words (a move, a code, a number) or strings in double
//! quotes. Engine testers' tools (fastchess, cutechess) read opening
//! suites in this form. The writer is [`write`](mod@write): [`push_position`]
//! (or [`push_ranks`]) and [`push_opcode`].

pub mod write;

pub use write::{Operand, push_opcode, push_position, push_ranks};
