//! Why a zip archive, or one of its members, gives no record: the
//! problems of reading archives, typed (the archives are opened by
//! [`crate::batch`]).

/// What is wrong with a zip archive or one of its members.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveProblem {
    /// The archive's directory of members cannot be read.
    #[error("a damaged zip archive: {message}")]
    Damaged {
        /// What is wrong, in the zip reader's words.
        message: String,
    },
    /// The members would inflate to far more than the archive holds.
    #[error(
        "a zip archive whose members would inflate to {declared} bytes, over {ratio} times its {len} bytes (past {free} MB): refused as a decompression bomb",
        free = .free >> 20
    )]
    Bomb {
        /// The sum of the sizes the members declare.
        declared: u128,
        /// The archive's size.
        len: u64,
        /// The most inflated bytes for each byte of the archive.
        ratio: u64,
        /// Inflated bytes allowed whatever the ratio.
        free: u64,
    },
    /// Members of the same name: the archive's directory keeps one of each.
    #[error("members of the same name: only one of each name is read")]
    SameNames,
    /// A member protected by a password.
    #[error("an encrypted member: qipu reads no password-protected archive")]
    Encrypted,
    /// A member compressed by a method qipu does not inflate.
    #[error("compressed with {method}: qipu inflates stored and deflated members only; unpack the archive")]
    Method {
        /// The method's name (`"bzip2"`, `"lzma"`, …).
        method: String,
    },
    /// An archive inside archives deeper than qipu opens.
    #[error("an archive inside {depth} archives: qipu opens archives {depth} deep at most; unpack it")]
    TooDeep {
        /// How deep archives are opened.
        depth: usize,
    },
    /// An archive inside an archive too large to hold in memory.
    #[error("an archive inside an archive, of {size} bytes: qipu opens those up to {} MB; unpack it", .max >> 20)]
    TooLarge {
        /// Its size.
        size: u64,
        /// The largest opened.
        max: u64,
    },
    /// A symbolic link stored in an archive: it holds a path, not a record.
    #[error("a link stored in the archive, not followed")]
    Link,
}
