//! Replaying a record: see [`crate::record::replay`], whose items are
//! named here too.

pub use crate::record::replay::*;
