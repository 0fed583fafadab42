//! Names for XQF files written one game a file: the game's title made safe
//! for any file system, else its source and number, each name used once.

use std::collections::HashSet;
use std::path::Path;

/// The most bytes of a file name's stem: 255 (the name limit of the usual
/// file systems) less room for `-NNNNNNNNNN.xqf`.
pub const MAX_STEM: usize = 255 - 16;

/// A file name from a title: no path separators, control characters or
/// characters Windows forbids; at most 80 characters, and at most
/// [`MAX_STEM`] bytes, cut on a character boundary, so that the name with
/// its number and extension fits any file system (255 bytes a name).
///
/// ```
/// use qipu::formats::xqf::file_stem;
/// assert_eq!(file_stem("许银川 vs 吕钦 1/2"), "许银川 vs 吕钦 1_2");
/// assert_eq!(file_stem("../../etc/passwd"), "_.._etc_passwd");
/// ```
pub fn file_stem(title: &str) -> String {
    let mut name = String::new();
    for c in title.trim().chars().take(80) {
        let c = if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
            '_'
        } else {
            c
        };
        if name.len() + c.len_utf8() > MAX_STEM {
            break;
        }
        name.push(c);
    }
    name.trim_matches(['.', ' ']).to_string()
}

/// The names of the XQF files of one run: each game's `Title` made safe
/// ([`file_stem`]), else `SOURCE-N` (the source file's stem and the game's
/// number from 1); a name already given gets `-2`, `-3`, ….
///
/// ```
/// use qipu::formats::{pgn, xqf::FileNames};
/// let records = pgn::read("[Title \"a/b\"]\n1. h2e2 *\n\n[Title \"a/b\"]\n1. h2e2 *\n\n1. h2e2 *\n");
/// let mut names = FileNames::default();
/// let given: Vec<String> = records.iter().enumerate().map(|(k, r)| names.name(r.tag("Title"), "games.pgn", k)).collect();
/// assert_eq!(given, ["a_b.xqf", "a_b-2.xqf", "games-3.xqf"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct FileNames {
    used: HashSet<String>,
}

impl FileNames {
    /// The name of game `index` (from 0) of `source`, whose `Title` tag
    /// is `title`, not given before.
    pub fn name(&mut self, title: Option<&str>, source: &str, index: usize) -> String {
        self.name_with(title, source, index, "xqf")
    }

    /// As [`FileNames::name`], with the extension `ext` (no dot) in place
    /// of `xqf`.
    pub fn name_with(&mut self, title: Option<&str>, source: &str, index: usize, ext: &str) -> String {
        let title = title.map(file_stem).filter(|t| !t.is_empty());
        let stem = title.unwrap_or_else(|| {
            let source = Path::new(source).file_stem().map_or("game".into(), |s| s.to_string_lossy());
            format!("{}-{}", file_stem(&source), index + 1)
        });
        let mut name = format!("{stem}.{ext}");
        let mut n = 2;
        while self.used.contains(&name) {
            name = format!("{stem}-{n}.{ext}");
            n += 1;
        }
        self.used.insert(name.clone());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_STEM, file_stem};

    #[test]
    fn titles_make_safe_file_names() {
        assert_eq!(file_stem("许银川 vs 吕钦 1/2"), "许银川 vs 吕钦 1_2");
        assert_eq!(file_stem("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(file_stem(" . "), "");
        assert_eq!(file_stem(&"长".repeat(100)).chars().count(), 79, "239 bytes at most");
        assert!(file_stem(&"😀".repeat(100)).len() <= MAX_STEM);
    }
}
