//! Text as users write it: names and other tag values compared whatever
//! their script (traditional or simplified Chinese) and width (full-width
//! `ＡＢＣ１２３`, the ideographic space), by folding both sides to one
//! form ([`fold`]).

mod fold;
mod script_table;

pub use fold::fold;
pub(crate) use fold::fold_char;
