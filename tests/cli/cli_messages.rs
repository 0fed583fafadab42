//! How problem lines are told: coloured with `--color always`, and one
//! warning told again and again shown a few times, then counted.

use crate::common::qipu;

/// Game 1 has a comment without its end (a warning), game 2 an illegal
/// move (an error).
const WARNED_AND_BAD: &str = "[Event \"a\"]\n1. h2e2 {no end h9g7\n\n[Event \"b\"]\n1. h2e2 h9g7 2. h2e2 *\n";

/// `n` games, each with a comment without its end: one warning a game,
/// all with the same message.
fn warned(n: usize) -> String {
    (0..n).map(|i| format!("[Event \"{i}\"]\n1. h2e2 {{no end h9g7\n\n")).collect()
}

#[test]
fn color_always_colours_problem_lines_into_a_pipe() {
    let out =
        qipu().args(["validate", "--color", "always", "-"]).write_stdin(WARNED_AND_BAD).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains(": \x1b[1;33mwarning\x1b[0m: game 1: comment not closed"), "{text:?}");
    assert!(lines[1].contains(": \x1b[1;31merror\x1b[0m: game 2, ply 3: h2e2"), "{text:?}");

    for args in [&["--color", "never"][..], &[]] {
        let out = qipu().arg("validate").args(args).arg("-").write_stdin(WARNED_AND_BAD).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains('\x1b') && text.contains(": error: game 2"), "{args:?}: {text:?}");
    }
    // NO_COLOR leaves `auto` (the default) without colour; into a pipe it has none anyway.
    let out =
        qipu().env("NO_COLOR", "1").args(["validate", "-"]).write_stdin(WARNED_AND_BAD).output().unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains('\x1b'));
}

#[test]
fn color_always_colours_problem_lines_on_standard_error() {
    let out = qipu()
        .args(["convert", "--color", "always", "--to", "pgn", "-"])
        .write_stdin(WARNED_AND_BAD)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(": \x1b[1;31merror\x1b[0m: game 2"), "{err:?}");
    let out = qipu()
        .args(["convert", "--color", "never", "--to", "pgn", "-"])
        .write_stdin(WARNED_AND_BAD)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\x1b') && err.contains(": error: game 2"), "{err:?}");
}

#[test]
fn a_warning_told_twenty_times_is_shown_five_times_then_counted() {
    let input = warned(20);
    let out = qipu().args(["validate", "-"]).write_stdin(input.clone()).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let shown = text.lines().filter(|l| l.contains(": warning: game ")).count();
    assert_eq!(shown, 5, "{text}");
    assert!(text.contains("-:2:9: warning: game 1: comment not closed with '}'"), "{text}");
    assert!(text.contains("\nwarning: 15 more like \"comment not closed with '}'\" not shown\n"), "{text}");
    assert!(text.ends_with("20 game(s): 20 valid, 0 illegal, 0 unreadable (1 input(s))\n"), "{text}");

    // -q tells problems and the summary: the same.
    let quiet = qipu().args(["validate", "-q", "-"]).write_stdin(input.clone()).output().unwrap();
    assert_eq!(String::from_utf8(quiet.stdout).unwrap(), text);

    // --all-warnings tells every one.
    let all = qipu().args(["validate", "--all-warnings", "-"]).write_stdin(input.clone()).output().unwrap();
    let all = String::from_utf8(all.stdout).unwrap();
    assert_eq!(all.lines().filter(|l| l.contains(": warning: game ")).count(), 20, "{all}");
    assert!(!all.contains("more like"), "{all}");

    // JSON keeps every warning, programs read it.
    let json = qipu().args(["validate", "--format", "json", "-"]).write_stdin(input).output().unwrap();
    let reports: Vec<serde_json::Value> =
        String::from_utf8(json.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let warnings: usize = reports.iter().map(|r| r["warnings"].as_array().unwrap().len()).sum();
    assert_eq!(warnings, 20);
}

/// Names that would move the cursor, colour the terminal or turn the
/// text around them right to left, in games a collection may hold.
const HOSTILE_NAMES: &str = "[Red \"evil\x1b[31mRED\x1b[0m\"]\n[Black \"\u{202e}abc\"]\n[Event \"a\u{2066}b\"]\n\
    1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9 *\n";

#[test]
fn names_from_records_reach_no_terminal_raw() {
    let input = format!("{HOSTILE_NAMES}\n{HOSTILE_NAMES}");
    for args in [&["stats"][..], &["duplicates"], &["classify"], &["validate"]] {
        let out = qipu().args(args).arg("-").write_stdin(input.clone()).output().unwrap();
        let text =
            format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        for raw in ['\x1b', '\u{202e}', '\u{2066}', '\r'] {
            assert!(!text.contains(raw), "{args:?} prints {raw:?} raw:\n{text}");
        }
    }
    let out = qipu().arg("stats").arg("-").write_stdin(input).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  evil\\u{1b}[31mRED\\u{1b}[0m"), "{text}");
    assert!(text.contains("  \\u{202e}abc"), "{text}");
}
