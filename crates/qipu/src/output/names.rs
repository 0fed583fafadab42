//! The one rule of file names: values of a game (a title, a player, an
//! event) made into parts of file names that every common file system
//! holds: no separators or characters Windows forbids, no control or
//! invisible format characters, no leading or trailing dot or space, no
//! Windows device name, and a bounded length in bytes ([`safe_value`]);
//! and names given once whatever their case ([`FileNames`]), for the file
//! systems of Windows and macOS, which do not tell `A.xqf` from `a.xqf`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The name an empty or missing value is given.
pub const UNKNOWN: &str = "unknown";

/// `value` as a part of a file name of at most `max_bytes` bytes (UTF-8):
///
/// - spaces around it are dropped; nothing left (or `None`) gives
///   [`UNKNOWN`];
/// - control characters, invisible format characters (bidirectional
///   overrides, zero-width spaces, byte-order marks) and `< > : " / \ | ? *`
///   become `_`;
/// - it is cut to `max_bytes` on a character boundary;
/// - a leading `.` becomes `_` (no hidden file, no `..`), and so does a
///   trailing `.` or space (Windows drops them);
/// - a Windows device name (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`,
///   `LPT0`–`LPT9`, in any case, alone or before a `.`) gets a `_` after it.
///
/// Different values may give the same name (`a/b` and `a:b`, values cut
/// alike): callers that write a file per name put them together.
///
/// ```
/// use qipu::output::names::safe_value;
/// assert_eq!(safe_value(Some("许银川 vs 吕钦 1/2"), 100), "许银川 vs 吕钦 1_2");
/// assert_eq!(safe_value(Some("../../etc/passwd"), 100), "___.._etc_passwd");
/// assert_eq!(safe_value(Some("con"), 100), "con_");
/// assert_eq!(safe_value(Some(" "), 100), "unknown");
/// ```
pub fn safe_value(value: Option<&str>, max_bytes: usize) -> String {
    safe_part(value.unwrap_or(""), max_bytes).unwrap_or_else(|| UNKNOWN.to_string())
}

/// `value` made safe as [`safe_value`] says; `None` when nothing is left
/// of it but spaces.
pub fn safe_part(value: &str, max_bytes: usize) -> Option<String> {
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    let mut name = String::with_capacity(value.len().min(max_bytes));
    for c in value.chars() {
        let c = if forbidden(c) { '_' } else { c };
        if name.len() + c.len_utf8() > max_bytes {
            break;
        }
        name.push(c);
    }
    if name.is_empty() {
        // `max_bytes` is too small for the first character.
        return Some("_".to_string());
    }
    let kept = name.trim_end_matches(['.', ' ']).len();
    let cut = name.len() - kept;
    name.truncate(kept);
    name.extend(std::iter::repeat_n('_', cut));
    let dots = name.len() - name.trim_start_matches('.').len();
    name.replace_range(..dots, &"_".repeat(dots));
    if is_device_name(&name) {
        let base = name.find('.').unwrap_or(name.len());
        name.insert(base, '_');
    }
    Some(name)
}

/// Characters no file name holds on some common file system, or that hide
/// what a name says.
fn forbidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '<' | '>' | ':' | '"' | '/' | '\\' | '|' | '?' | '*')
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// Whether Windows takes `name` for a device: its part before the first
/// `.`, spaces at its end dropped, is one of the reserved names.
fn is_device_name(name: &str) -> bool {
    let base = name.split('.').next().unwrap_or("").trim_end_matches(' ').to_ascii_uppercase();
    match base.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$" => true,
        _ => {
            let (Some(prefix), Some(digit)) = (base.get(..3), base.get(3..)) else { return false };
            matches!(prefix, "COM" | "LPT")
                && matches!(
                    digit,
                    "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "¹" | "²" | "³"
                )
        }
    }
}

/// The most bytes of a file name's stem in [`FileNames`]: 255 (the name
/// limit of the usual file systems) less room for `-NNNNNNNNNN.xqf`.
pub const MAX_STEM: usize = 255 - 16;

/// The most characters of a title in a file name of [`FileNames`].
const MAX_TITLE_CHARS: usize = 80;

/// The names of the files of one run, one game a file: each game's `Title`
/// made safe ([`safe_part`], its first 80 characters, at most
/// [`MAX_STEM`] bytes), else `SOURCE-N` (the source file's stem and the
/// game's number from 1); a name already given, in any case, gets `-2`,
/// `-3`, ….
///
/// ```
/// use qipu::formats::pgn;
/// use qipu::output::names::FileNames;
/// let records = pgn::read("[Title \"a/b\"]\n1. h2e2 *\n\n[Title \"A/B\"]\n1. h2e2 *\n\n[Title \"CON\"]\n1. h2e2 *\n\n1. h2e2 *\n");
/// let mut names = FileNames::default();
/// let given: Vec<String> = records.iter().enumerate().map(|(k, r)| names.name(r.tag("Title"), "games.pgn", k, "xqf")).collect();
/// assert_eq!(given, ["a_b.xqf", "A_B-2.xqf", "CON_.xqf", "games-4.xqf"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct FileNames {
    /// The names given, in lower case.
    used: HashSet<String>,
}

impl FileNames {
    /// The name, with the extension `ext` (no dot), of game `index` (from
    /// 0) of `source`, whose `Title` tag is `title`: one not given before,
    /// whatever its case.
    pub fn name(&mut self, title: Option<&str>, source: &str, index: usize, ext: &str) -> String {
        self.name_line(title, source, index, None, ext)
    }

    /// The name of a line of a game ([`Record::lines`](crate::record::Record::lines)):
    /// as [`FileNames::name`] gives, `-line-ID` after the stem for a
    /// variation's game (`line` its id, `1.2`: `games-3-line-1.2.xqf`;
    /// an id of over 100 bytes is cut), nothing added for the main line
    /// (`None`).
    ///
    /// ```
    /// use qipu::output::names::FileNames;
    /// let mut names = FileNames::default();
    /// assert_eq!(names.name_line(None, "games.pgn", 2, None, "xqf"), "games-3.xqf");
    /// assert_eq!(names.name_line(None, "games.pgn", 2, Some("1.2"), "xqf"), "games-3-line-1.2.xqf");
    /// assert_eq!(names.name_line(Some("决赛"), "games.pgn", 0, Some("2"), "xqf"), "决赛-line-2.xqf");
    /// ```
    pub fn name_line(
        &mut self,
        title: Option<&str>,
        source: &str,
        index: usize,
        line: Option<&str>,
        ext: &str,
    ) -> String {
        let suffix = line.and_then(|id| safe_part(&format!("-line-{id}"), MAX_LINE)).unwrap_or_default();
        let room = MAX_STEM - suffix.len();
        let stem = title.and_then(|t| stem_in(t, room)).unwrap_or_else(|| {
            let source = Path::new(source).file_stem().map_or("game".into(), |s| s.to_string_lossy());
            let number = format!("-{}", index + 1);
            let source = stem_in(&source, room - number.len()).unwrap_or_else(|| "game".to_string());
            format!("{source}{number}")
        });
        let stem = format!("{stem}{suffix}");
        let mut name = format!("{stem}.{ext}");
        let mut n = 2;
        while !self.used.insert(name.to_lowercase()) {
            name = format!("{stem}-{n}.{ext}");
            n += 1;
        }
        name
    }
}

/// The most bytes of the `-line-ID` a line's file name gets.
const MAX_LINE: usize = 100;

/// A stem of [`FileNames`]: the first 80 characters of `text` made safe,
/// in at most `max_bytes` bytes.
fn stem_in(text: &str, max_bytes: usize) -> Option<String> {
    let text: String = text.trim().chars().take(MAX_TITLE_CHARS).collect();
    safe_part(&text, max_bytes)
}

/// The folder, below the directory written into, that the files of
/// `input` go into when a program mirrors the folders it read: the folders
/// of its place below the folder it was found in (`within`, see
/// [`Expanded::within`](crate::batch::Expanded::within); `1990/全国赛` for
/// `1990/全国赛/a.pgn`), and for a member of a zip archive, then the
/// archive's stem and the member's own folders (`2019/决赛` for
/// `2019.zip:决赛/a.pgn`; an archive inside it, its stem too). Nothing for
/// an input named itself, standard input or bytes. Each folder's name is
/// made safe as [`safe_part`] says (`..` becomes `__`, `CON` `CON_`);
/// empty names and `.` are left out: the folder is always relative, and
/// never leaves the directory.
///
/// ```
/// use qipu::batch::Input;
/// use qipu::output::names::folder_of;
/// use std::path::{Path, PathBuf};
/// let input = Input::File { path: "archive/1990/全国赛/a.pgn".into(), found: true, len: None };
/// assert_eq!(folder_of(&input, Some(Path::new("1990/全国赛/a.pgn"))), PathBuf::from("1990/全国赛"));
/// assert_eq!(folder_of(&input, None), PathBuf::new());
/// let odd = Input::File { path: "x/CON/a:b/g.pgn".into(), found: true, len: None };
/// assert_eq!(folder_of(&odd, Some(Path::new("CON/a:b/g.pgn"))), PathBuf::from("CON_/a_b"));
/// ```
pub fn folder_of(input: &crate::batch::Input, within: Option<&Path>) -> PathBuf {
    let mut folder = PathBuf::new();
    let mut push = |part: &str| {
        if part != "."
            && let Some(safe) = safe_part(part, MAX_STEM)
        {
            folder.push(safe);
        }
    };
    for part in within.and_then(Path::parent).into_iter().flat_map(Path::components) {
        if let std::path::Component::Normal(part) = part {
            push(&part.to_string_lossy());
        }
    }
    if let crate::batch::Input::Member(member) = input {
        let stem = |name: &str| {
            Path::new(name).file_stem().map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned())
        };
        push(&stem(&member.archive().to_string_lossy()));
        let names = member.names();
        for (k, name) in names.iter().enumerate() {
            let mut parts: Vec<&str> = name.split(['/', '\\']).collect();
            let last = parts.pop().unwrap_or("");
            for part in parts {
                push(part);
            }
            // An archive inside the archive: a folder of its own.
            if k + 1 < names.len() {
                push(&stem(last));
            }
        }
    }
    folder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_are_never_given() {
        let mut names = FileNames::default();
        let mut name = |title: &str| names.name(Some(title), "games.pgn", 0, "xqf");
        assert_eq!(name("CON"), "CON_.xqf");
        assert_eq!(name("nul"), "nul_.xqf");
        assert_eq!(name("COM1"), "COM1_.xqf");
        assert_eq!(name("lpt1.txt"), "lpt1_.txt.xqf");
        assert_eq!(name("Aux.pgn"), "Aux_.pgn.xqf");
        assert_eq!(name("prn "), "prn_.xqf", "spaces around go first");
        assert_eq!(name("COM10"), "COM10.xqf", "not a device");
        assert_eq!(name("CONSOLE"), "CONSOLE.xqf");
        for device in ["CON", "PRN", "AUX", "NUL", "COM0", "COM9", "LPT1", "LPT9", "CONIN$", "conout$"] {
            assert!(is_device_name(device), "{device}");
            assert!(is_device_name(&format!("{device}.xqf")), "{device}.xqf");
            assert!(!is_device_name(&safe_value(Some(device), 100)), "{device} made safe");
            let with_ext = safe_value(Some(&format!("{device}.txt")), 100);
            assert!(!is_device_name(&with_ext), "{with_ext}");
        }
    }

    #[test]
    fn names_are_unique_whatever_their_case() {
        let mut names = FileNames::default();
        let given: Vec<String> = ["Game", "GAME", "game", "game-2"]
            .iter()
            .map(|t| names.name(Some(t), "s.pgn", 0, "xqf"))
            .collect();
        assert_eq!(given, ["Game.xqf", "GAME-2.xqf", "game-3.xqf", "game-2-2.xqf"]);
        let lower: HashSet<String> = given.iter().map(|n| n.to_lowercase()).collect();
        assert_eq!(lower.len(), given.len());
    }

    #[test]
    fn games_without_a_title_are_named_after_their_source() {
        let mut names = FileNames::default();
        assert_eq!(names.name(None, "dir/games.pgn", 0, "cbr"), "games-1.cbr");
        assert_eq!(names.name(Some(" . "), "dir/games.pgn", 1, "cbr"), "_.cbr", "a dot is made safe");
        assert_eq!(names.name(Some("  "), "dir/games.pgn", 2, "cbr"), "games-3.cbr");
        assert_eq!(names.name(None, "dir/CON.pgn", 0, "cbr"), "CON_-1.cbr", "the source made safe too");
        assert_eq!(names.name(None, "dir/.hidden.pgn", 0, "cbr"), "_hidden-1.cbr");
        let long = names.name(Some(&"长".repeat(100)), "s", 0, "xqf");
        assert_eq!(long, format!("{}.xqf", "长".repeat(79)), "80 characters, at most MAX_STEM bytes");
    }

    #[test]
    fn values_become_names_every_file_system_holds() {
        let safe = |v: &str| safe_value(Some(v), 100);
        assert_eq!(safe("许银川"), "许银川");
        assert_eq!(safe("  吕钦 "), "吕钦");
        assert_eq!(safe("a/b"), "a_b");
        assert_eq!(safe(r#"<>:"/\|?*"#), "_________");
        assert_eq!(safe("tab\there\u{202E}x"), "tab_here_x");
        assert_eq!(safe(".."), "__");
        assert_eq!(safe(".hidden"), "_hidden");
        assert_eq!(safe("../x"), "___x");
        assert_eq!(safe("Dr."), "Dr_");
        assert_eq!(safe("CON"), "CON_");
        assert_eq!(safe("nul.txt"), "nul_.txt");
        assert_eq!(safe("Com1"), "Com1_");
        assert_eq!(safe("LPT²"), "LPT²_");
        assert_eq!(safe("CONSOLE"), "CONSOLE");
        assert_eq!(safe("COM10"), "COM10");
        assert_eq!(safe(""), UNKNOWN);
        assert_eq!(safe("   "), UNKNOWN);
        assert_eq!(safe_value(None, 100), UNKNOWN);
    }

    #[test]
    fn long_values_are_cut_on_a_character_boundary() {
        let name = safe_value(Some(&"长".repeat(100)), 100);
        assert_eq!(name, "长".repeat(33), "99 bytes: a fourth byte more would split a character");
        let name = safe_value(Some(&format!("{} x", "a".repeat(99))), 100);
        assert_eq!(name, format!("{}_", "a".repeat(99)), "the cut leaves a trailing space: made `_`");
        assert!(safe_value(Some(&"😀".repeat(100)), 10).len() <= 10);
        assert_eq!(safe_value(Some("😀"), 2), "_");
    }
}
