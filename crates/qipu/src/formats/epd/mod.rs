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
//! (or [`push_ranks`]) and [`push_opcode`]; the reader is [`read`](mod@read).
//!
//! A full FEN (with its two clocks) may stand in place of the four fields,
//! with or without opcodes. Read as records (`qipu validate x.epd`), each
//! line is a record without moves: its start is the line's position (the
//! `FEN` tag, its clocks from the full FEN, else from the `hmvc` and
//! `fmvn` opcodes), and each opcode is a tag of the same name, as written
//! (`id`, `bm`, `c0`, `hmvc`). A tag's value is the opcode's operand as it
//! reads (a string without its quotes and escapes); an opcode of several
//! operands keeps them all, joined by spaces, strings among them in quotes
//! and escaped as [`push_opcode`] writes them (`bm h2e2 c3c4`, `c0 "a b" x`);
//! an opcode without operands is a tag with an empty value. An opcode
//! named `FEN` is not kept (the line's position is the `FEN` tag).

pub mod read;
pub mod write;

pub use write::{Operand, push_opcode, push_position, push_ranks};
