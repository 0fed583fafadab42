//! Text as users write it: names and other tag values compared whatever
//! their script (traditional or simplified Chinese) and width (full-width
//! `ＡＢＣ１２３`, the ideographic space), by folding both sides to one
//! form ([`fold`]). And numbers written by hand where each byte counts.

mod digits;
mod fold;
mod script_table;

pub(crate) use digits::decimal;
pub use fold::fold;
pub(crate) use fold::fold_char;
