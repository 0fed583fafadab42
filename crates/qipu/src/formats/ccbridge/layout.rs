//! The layout of 象棋桥's binary files: their signatures, and where a
//! CBR record and a CBL library keep what they hold (formats.md §5). The
//! readers and the writers of the family take them from here.

/// The first 16 bytes of a CBR record.
pub const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";

/// The first 16 bytes of a CBL library.
pub const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";

/// The first 8 bytes of a compressed library, followed by u32
/// [`COMPRESSED_FORMAT`].
pub const COMPRESSED_MAGIC: &[u8; 8] = b"CCBridge";

/// The format number after [`COMPRESSED_MAGIC`] in a compressed library.
pub const COMPRESSED_FORMAT: u32 = 21;

/// Whether `bytes` starts like a CBR record.
pub fn is_cbr(bytes: &[u8]) -> bool {
    bytes.starts_with(RECORD_MAGIC)
}

/// Whether `bytes` starts like a CBL library, plain or compressed.
pub fn is_cbl(bytes: &[u8]) -> bool {
    bytes.starts_with(LIBRARY_MAGIC) || is_compressed_library(bytes)
}

/// Whether `bytes` starts like a compressed library.
pub(super) fn is_compressed_library(bytes: &[u8]) -> bool {
    bytes.starts_with(COMPRESSED_MAGIC) && bytes.get(8..12) == Some(&COMPRESSED_FORMAT.to_le_bytes()[..])
}

/// Where the index starts in a CBL.
pub(super) const INDEX_AT: usize = 66_624;
/// Size of an index entry.
pub(super) const ENTRY_LEN: usize = 276;
/// Records sit on slots of this size.
pub(super) const SLOT_LEN: usize = 4096;
/// Index entry states.
pub(super) const STATE_UNUSED: u32 = 0;
pub(super) const STATE_DELETED: u32 = 5;
pub(super) const STATE_RECORD: u32 = 7;

/// Layout version 2's text fields: offset, size in bytes, tag.
pub(super) const V2_STRINGS: &[(usize, usize, &str)] = &[
    (180, 128, "Title"),
    (692, 64, "Event"),
    (756, 64, "Round"),
    (884, 64, "Date"),
    (948, 64, "Site"),
    (1012, 64, "TimeControl"),
    (1076, 64, "Red"),
    (1140, 64, "RedTeam"),
    (1300, 64, "Black"),
    (1364, 64, "BlackTeam"),
    (1652, 64, "Annotator"),
    (1780, 64, "Author"),
];

/// Layout version 2's result code, side to move, start move number, board
/// and move tree offsets.
pub(super) const V2_RESULT: usize = 2076;
pub(super) const V2_SIDE: usize = 2112;
pub(super) const V2_START_NUMBER: usize = 2116;
pub(super) const V2_BOARD: usize = 2120;
pub(super) const V2_TREE: usize = 2214;
