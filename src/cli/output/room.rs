//! An output with no room left: a full disk (`ENOSPC`), a used-up quota
//! (`EDQUOT`), a file larger than the system allows (`EFBIG`). Writing
//! stops at the first such error, which is told once; the games left are
//! counted as not written (see [`crate::cli::progress::Tally::write_failed`]).

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the end of room was told already (so that the last flush of
/// standard output, failing again, is not told twice).
static TOLD: AtomicBool = AtomicBool::new(false);

/// Whether `e` says that the output has no room left.
pub fn no_room(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded | io::ErrorKind::FileTooLarge
    )
}

/// Marks the end of room told.
pub fn set_told() {
    TOLD.store(true, Ordering::Relaxed);
}

/// Whether the end of room was told.
pub fn told() -> bool {
    TOLD.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_disk_quota_and_file_size_are_no_room() {
        #[cfg(target_os = "linux")]
        for code in [28, 122, 27] {
            assert!(no_room(&io::Error::from_raw_os_error(code)), "{code}");
        }
        // Its kind kept when the error is named after its file.
        let named = io::Error::new(io::ErrorKind::StorageFull, "out.pgn: no space");
        assert!(no_room(&named));
        assert!(!no_room(&io::Error::from(io::ErrorKind::PermissionDenied)));
    }
}
