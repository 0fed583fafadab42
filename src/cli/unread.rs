//! The files of a command's inputs that are not read (named twice, or
//! where the command writes: see [`qipu::batch::Unread`]), counted once
//! for the process so that every summary line accounts for them.

use std::sync::atomic::{AtomicUsize, Ordering};

static UNREAD: AtomicUsize = AtomicUsize::new(0);

/// Sets how many files of the inputs are not read.
pub(crate) fn set(unread: usize) {
    UNREAD.store(unread, Ordering::Relaxed);
}

/// How many files of the inputs are not read.
pub(crate) fn count() -> usize {
    UNREAD.load(Ordering::Relaxed)
}
