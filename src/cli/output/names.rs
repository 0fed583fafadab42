//! Values of a game (a player, an event) made into parts of file names that
//! every common file system holds: no separators or characters Windows
//! forbids, no control or invisible format characters, no trailing dot or
//! space, no Windows device name, and a bounded length in bytes.

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
/// - a trailing `.` or space becomes `_` (Windows drops them);
/// - a Windows device name (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`,
///   `LPT0`–`LPT9`, in any case, alone or before a `.`) gets a `_` after it.
///
/// Different values may give the same name (`a/b` and `a:b`, values cut
/// alike): callers that write a file per name put them together.
pub fn safe_value(value: Option<&str>, max_bytes: usize) -> String {
    let value = value.map_or("", str::trim);
    if value.is_empty() {
        return UNKNOWN.to_string();
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
        return "_".to_string();
    }
    let kept = name.trim_end_matches(['.', ' ']).len();
    let cut = name.len() - kept;
    name.truncate(kept);
    name.extend(std::iter::repeat_n('_', cut));
    if is_device_name(&name) {
        let base = name.find('.').unwrap_or(name.len());
        name.insert(base, '_');
    }
    name
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_become_names_every_file_system_holds() {
        let safe = |v: &str| safe_value(Some(v), 100);
        assert_eq!(safe("许银川"), "许银川");
        assert_eq!(safe("  吕钦 "), "吕钦");
        assert_eq!(safe("a/b"), "a_b");
        assert_eq!(safe(r#"<>:"/\|?*"#), "_________");
        assert_eq!(safe("tab\there\u{202E}x"), "tab_here_x");
        assert_eq!(safe(".."), "__");
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
