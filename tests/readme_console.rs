//! The README's `console` blocks run as written: each block in a fresh
//! folder that holds the repository's `fixtures` (a link), its commands
//! one after the other through `sh` with this build's `qipu` first on the
//! `PATH`, standard error folded into standard output. A command with
//! lines shown after it must print exactly those lines; a command with
//! none may print anything. Every command must succeed (exit code 0, or
//! 1 where qipu reports a bad game).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a block and the lines it must print (none: not looked at).
struct Step {
    command: String,
    shown: Vec<String>,
}

/// The `console` blocks of `text`, each with the line it begins on.
fn blocks(text: &str) -> Vec<(usize, Vec<Step>)> {
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
                    None => panic!("README.md line {}: a console block opens with output", n + 1),
                },
            },
        }
    }
    assert!(current.is_none(), "README.md: a console block is not closed");
    blocks
}

fn scratch(block: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qipu-readme-{}-{block}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    std::os::unix::fs::symlink(fixtures, dir.join("fixtures")).unwrap();
    dir
}

#[test]
fn the_readme_console_examples_run_as_shown() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let blocks = blocks(&readme);
    assert!(!blocks.is_empty(), "the README has no console block");
    let bin = Path::new(env!("CARGO_BIN_EXE_qipu")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let mut commands = 0;
    for (line, steps) in &blocks {
        let dir = scratch(*line);
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
                "README.md block at line {line}: `{}` failed ({:?}):\n{printed}",
                step.command,
                out.status
            );
            if !step.shown.is_empty() {
                let printed: Vec<&str> = printed.lines().collect();
                assert_eq!(printed, step.shown, "README.md block at line {line}: `{}`", step.command);
            }
            commands += 1;
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(commands >= blocks.len());
}

#[test]
fn a_block_is_read_into_commands_and_what_they_print() {
    let text = "x\n```console\n$ qipu a\none\ntwo\n$ qipu b\n```\n```text\n$ not run\n```\n";
    let blocks = blocks(text);
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
