//! The modules of the command (`src/`) and the library (`crates/qipu/src/`) form no circle, and the library's layers point
//! down only: a module names (with `use` or a path) another of its own
//! directory level or a sibling's part only if that one does not name it
//! back through any chain, and a top-level module of the library names
//! only those below it.
//!
//! Paths are read from the source text (outside comments and the test
//! modules): `crate::a::b`, `super::a`, `self::a`, `qipu::a`, and one
//! level of braces (`use super::{a, b::c}`). A path into an ancestor
//! module (a parent's `mod.rs`) is not counted: parents hold and re-export
//! their children.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The library's layers, lowest first: each may name only those before it.
const LAYERS: [&str; 15] = [
    "text", "rules", "notation", "diagram", "record", "formats", "batch", "dedupe", "analysis", "book",
    "engine", "output", "select", "table", "index",
];

/// Every module of the command's `src/` and the library's `crates/qipu/src/` (its path,
/// `a::b`) and its source file.
fn modules() -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for root in ["src", "crates/qipu/src"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
        modules_below(&root, &mut found);
    }
    found
}

/// The modules below `root` (a crate's `src/`), into `found`.
fn modules_below(root: &Path, found: &mut BTreeMap<String, String>) {
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                parts.pop();
            }
            // The binary's `main.rs` and the library's `lib.rs` are both the root.
            found.insert(parts.join("::"), std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The source outside comments and the `#[cfg(test)] mod tests` part.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The paths named in `code` that start at the crate, `super` or `self`.
fn paths(code: &str) -> Vec<Vec<String>> {
    let starts = ["crate::", "super::", "self::", "qipu::"];
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let Some(start) = starts.iter().filter_map(|s| rest.find(s)).min() else { break };
        let from = at + start;
        // A whole word: not the tail of another name.
        if from > 0
            && (bytes[from - 1].is_ascii_alphanumeric() || bytes[from - 1] == b'_' || bytes[from - 1] == b':')
        {
            at = from + 1;
            continue;
        }
        let len = code[from..].find(|c: char| !word(c)).unwrap_or(code.len() - from);
        let path = code[from..from + len].trim_end_matches(':');
        let segs: Vec<String> = path.split("::").map(str::to_string).collect();
        let after = &code[from + len..];
        if code[from..from + len].ends_with("::") && after.starts_with('{') {
            let body = &after[1..after.find('}').unwrap_or(after.len())];
            // Nested braces are read one level deep only.
            for item in body.split(',') {
                let item = item.trim().split(" as ").next().unwrap_or("").trim();
                if item.is_empty() || item == "self" || item.contains('{') {
                    continue;
                }
                let mut full = segs.clone();
                full.extend(item.split("::").map(str::to_string));
                out.push(full);
            }
        } else {
            out.push(segs);
        }
        at = from + len.max(1);
    }
    out
}

/// The module a path names (the longest known prefix), from module `at`.
fn resolve(modules: &BTreeMap<String, String>, at: &[String], path: &[String]) -> Option<String> {
    let (mut base, mut rest): (Vec<String>, &[String]) = match path[0].as_str() {
        "crate" | "qipu" => (Vec::new(), &path[1..]),
        "self" => (at.to_vec(), &path[1..]),
        "super" => {
            let mut base = at.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        _ => return None,
    };
    let mut best = None;
    while let Some((first, tail)) = rest.split_first() {
        base.push(first.clone());
        if !modules.contains_key(&base.join("::")) {
            break;
        }
        best = Some(base.join("::"));
        rest = tail;
    }
    best
}

/// Who names whom, leaving out paths into a module's own ancestors.
fn edges(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in modules {
        let at: Vec<String> =
            if name.is_empty() { Vec::new() } else { name.split("::").map(str::to_string).collect() };
        for path in paths(&code(text)) {
            let Some(to) = resolve(modules, &at, &path) else { continue };
            let ancestor = to.is_empty() || name.starts_with(&format!("{to}::"));
            let descendant = name.is_empty() || to.starts_with(&format!("{name}::"));
            if to != *name && !ancestor && !descendant {
                edges.entry(name.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// The modules that reach themselves again, each circle's members.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = edges.get(from).into_iter().flatten().collect();
        while let Some(m) = todo.pop() {
            if seen.insert(m.clone()) {
                todo.extend(edges.get(m).into_iter().flatten());
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|m| (m, reach(m))).collect();
    let mut circles: Vec<BTreeSet<String>> = Vec::new();
    for (m, seen) in &reached {
        if !seen.contains(*m) {
            continue;
        }
        let circle: BTreeSet<String> =
            seen.iter().filter(|o| reached.get(o).is_some_and(|back| back.contains(*m))).cloned().collect();
        if !circles.contains(&circle) {
            circles.push(circle);
        }
    }
    circles
}

#[test]
fn no_module_names_one_that_names_it_back() {
    let modules = modules();
    assert!(modules.contains_key("formats::read") && modules.contains_key("cli::convert"));
    let circles = circles(&edges(&modules));
    assert!(circles.is_empty(), "modules in a circle: {circles:?}");
}

#[test]
fn the_library_layers_point_down() {
    let edges = edges(&modules());
    let mut up = Vec::new();
    for (from, tos) in &edges {
        let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
        let Some(low) = LAYERS.iter().position(|l| *l == top(from)) else { continue };
        for to in tos {
            if let Some(high) = LAYERS.iter().position(|l| *l == top(to))
                && high > low
            {
                up.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(up.is_empty(), "lower layers naming higher ones: {up:?}");
}

#[test]
fn the_reading_of_paths_finds_what_it_should() {
    let found = paths("use super::{a, b::c as d, self};\nlet x = crate::x::y(); // crate::z\nnotcrate::q");
    let names: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["super::a", "super::b::c", "crate::x::y", "crate::z"]);
    let modules: BTreeMap<String, String> =
        ["", "a", "a::b", "a::c"].iter().map(|m| (m.to_string(), String::new())).collect();
    let at = ["a".to_string(), "b".to_string()];
    assert_eq!(resolve(&modules, &at, &["super".into(), "c".into(), "f".into()]), Some("a::c".into()));
    let mut edges = BTreeMap::new();
    edges.insert("a::b".to_string(), BTreeSet::from(["a::c".to_string()]));
    assert!(circles(&edges).is_empty());
    edges.insert("a::c".to_string(), BTreeSet::from(["a::b".to_string()]));
    assert_eq!(circles(&edges).len(), 1);
}
