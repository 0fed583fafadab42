//! The documentation's `console` blocks run as written, and its links lead
//! somewhere. The documents are `README.md`, `CONTRIBUTING.md` and every
//! Markdown file under `docs/`.
//!
//! Each `console` block runs in a fresh folder that holds the repository's
//! `fixtures` (a link), its commands one after the other through `sh` with
//! this build's `qipu` first on the `PATH`, standard error folded into
//! standard output. A command with lines shown after it must print exactly
//! those lines; a command with none may print anything. Every command must
//! succeed (exit code 0, or 1 where qipu reports a bad game).
//!
//! Every relative link (`[text](path)`, `[text](path#heading)`,
//! `[text](#heading)`) must name a file or folder of the repository, and a
//! heading of a Markdown file as GitHub names its anchors. The user
//! documents (`README.md`, `docs/`) name no path of a development machine.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a block and the lines it must print (none: not looked at).
struct Step {
    command: String,
    shown: Vec<String>,
}

/// The documents checked: the README, CONTRIBUTING and every Markdown file
/// under `docs/`, as paths relative to the repository.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    let mut folders = vec![PathBuf::from("docs")];
    while let Some(folder) = folders.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join(&folder))
            .unwrap()
            .map(|e| folder.join(e.unwrap().file_name()))
            .collect();
        entries.sort();
        for entry in entries {
            if root.join(&entry).is_dir() {
                folders.push(entry);
            } else if entry.extension().is_some_and(|e| e == "md") {
                found.push(entry);
            }
        }
    }
    found
}

fn read(document: &Path) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(document))
        .unwrap_or_else(|e| panic!("{}: {e}", document.display()))
}

/// The `console` blocks of `text` (the document `name`), each with the
/// line it begins on.
fn blocks(name: &str, text: &str) -> Vec<(usize, Vec<Step>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<Step>)> = None;
    for (n, line) in text.lines().enumerate() {
        match &mut current {
            None if line.trim_end() == "```console" => current = Some((n + 1, Vec::new())),
            None => {}
            Some(_) if line.starts_with("```") => blocks.extend(current.take()),
            Some((_, steps)) => match line.strip_prefix("$ ") {
                Some(command) => steps.push(Step { command: command.to_string(), shown: Vec::new() }),
                None => match steps.last_mut() {
                    Some(step) => step.shown.push(line.to_string()),
                    None => panic!("{name} line {}: a console block opens with output", n + 1),
                },
            },
        }
    }
    assert!(current.is_none(), "{name}: a console block is not closed");
    blocks
}

fn scratch(document: usize, block: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qipu-readme-{}-{document}-{block}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    std::os::unix::fs::symlink(fixtures, dir.join("fixtures")).unwrap();
    dir
}

#[test]
fn the_console_examples_run_as_shown() {
    let bin = Path::new(env!("CARGO_BIN_EXE_qipu")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let (mut commands, mut all_blocks) = (0, 0);
    for (k, document) in documents().iter().enumerate() {
        let name = document.display().to_string();
        let blocks = blocks(&name, &read(document));
        all_blocks += blocks.len();
        for (line, steps) in &blocks {
            let dir = scratch(k, *line);
            for step in steps {
                let out = Command::new("sh")
                    .arg("-c")
                    .arg(format!("exec 2>&1; {}", step.command))
                    .current_dir(&dir)
                    .env("PATH", &path)
                    .env_remove("NO_COLOR")
                    .output()
                    .unwrap();
                let printed = String::from_utf8_lossy(&out.stdout);
                assert!(
                    out.status.code().is_some_and(|c| c <= 1),
                    "{name} block at line {line}: `{}` failed ({:?}):\n{printed}",
                    step.command,
                    out.status
                );
                if !step.shown.is_empty() {
                    let printed: Vec<&str> = printed.lines().collect();
                    assert_eq!(printed, step.shown, "{name} block at line {line}: `{}`", step.command);
                }
                commands += 1;
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    assert!(
        !blocks("README.md", &read(Path::new("README.md"))).is_empty(),
        "the README has no console block"
    );
    assert!(commands >= all_blocks);
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, everything else (punctuation, backticks) dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The text of `markdown` outside fenced code blocks, with inline code left
/// out, line by line (numbered from 1).
fn prose(markdown: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (n, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut kept = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                kept.push_str(part);
            }
        }
        lines.push((n + 1, kept));
    }
    lines
}

/// The anchors of the headings of `markdown` (a second heading of the same
/// anchor gets `-1`, a third `-2`, as on GitHub).
fn anchors(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    let mut seen = std::collections::HashMap::<String, usize>::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let base = anchor(line.trim_start_matches('#'));
            let times = seen.entry(base.clone()).or_default();
            found.push(if *times == 0 { base } else { format!("{base}-{times}") });
            *times += 1;
        }
    }
    found
}

/// The relative links of `markdown`: (line, target), `http`, `https` and
/// `mailto` links left out.
fn links(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in prose(markdown) {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if !["http://", "https://", "mailto:"].iter().any(|p| target.starts_with(p)) {
                found.push((n, target.to_string()));
            }
            rest = &rest[end..];
        }
    }
    found
}

/// What is wrong with the links of the document `name` (its text
/// `markdown`), in a repository at `root`.
fn broken_links(root: &Path, name: &Path, markdown: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let folder = name.parent().unwrap_or(Path::new(""));
    for (line, target) in links(markdown) {
        let (file, heading) = match target.split_once('#') {
            Some((file, heading)) => (file, Some(heading)),
            None => (target.as_str(), None),
        };
        let path = root.join(folder).join(file);
        if !file.is_empty() && !path.exists() {
            wrong.push(format!("{} line {line}: {target}: no such file", name.display()));
            continue;
        }
        if let Some(heading) = heading {
            let text = if file.is_empty() {
                markdown.to_string()
            } else {
                std::fs::read_to_string(&path).unwrap_or_default()
            };
            let is_markdown = file.is_empty() || path.extension().is_some_and(|e| e == "md");
            if !is_markdown || !anchors(&text).iter().any(|a| a == heading) {
                wrong.push(format!("{} line {line}: {target}: no such heading", name.display()));
            }
        }
    }
    wrong
}

#[test]
fn every_relative_link_of_the_documents_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = Vec::new();
    let mut count = 0;
    for document in documents() {
        let text = read(&document);
        count += links(&text).len();
        wrong.extend(broken_links(root, &document, &text));
    }
    assert!(count > 20, "only {count} links found: is the link reader broken?");
    assert!(wrong.is_empty(), "broken links:\n{}", wrong.join("\n"));
}

#[test]
fn a_broken_link_or_heading_is_found() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = "# Top: `a` title\n\n## Top: a title\n\n[ok](#top-a-title) [ok](#top-a-title-1) [ok](../README.md#install)\n\
                [no](#nowhere) [no](missing.md) [no](../README.md#nowhere) `[code](missing.md)`\n\
                ```text\n[code](missing.md)\n```\n[web](https://example.com/x)\n";
    let wrong = broken_links(root, Path::new("docs/x.md"), text);
    assert_eq!(
        wrong,
        [
            "docs/x.md line 6: #nowhere: no such heading",
            "docs/x.md line 6: missing.md: no such file",
            "docs/x.md line 6: ../README.md#nowhere: no such heading",
        ]
    );
}

#[test]
fn the_user_documents_name_no_path_of_a_development_machine() {
    for document in documents().iter().filter(|d| !d.starts_with("CONTRIBUTING.md")) {
        for (n, line) in read(document).lines().enumerate() {
            for path in ["../shared", "/work/", "/home/", "/tmp/", "/Users/", ".library"] {
                assert!(!line.contains(path), "{} line {}: names {path}: {line}", document.display(), n + 1);
            }
        }
    }
}

#[test]
fn a_block_is_read_into_commands_and_what_they_print() {
    let text = "x\n```console\n$ qipu a\none\ntwo\n$ qipu b\n```\n```text\n$ not run\n```\n";
    let blocks = blocks("x.md", text);
    assert_eq!(blocks.len(), 1);
    let (line, steps) = &blocks[0];
    assert_eq!(*line, 2);
    assert_eq!(steps.len(), 2);
    assert_eq!(
        (steps[0].command.as_str(), steps[0].shown.clone()),
        ("qipu a", vec!["one".into(), "two".into()])
    );
    assert!(steps[1].shown.is_empty());
}
