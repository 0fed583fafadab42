//! `qipu convert FOLDER --to xqf|cbr|pfc -o DIR`: the files of the games
//! written into the folders of DIR that mirror those the inputs were found
//! in; inputs named themselves write into DIR, a zip's members under the
//! zip's stem; no folder name leaves DIR.

use crate::common::{qipu, stderr};

use std::path::{Path, PathBuf};

use crate::common::scratch;
use qipu::formats::pgn;
use qipu::record::Record;

/// Every file below `dir`, as paths relative to it with `/`, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap();
                let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                found.push(parts.join("/"));
            }
        }
    }
    found.sort();
    found
}

/// The moves of a record's main line, as points.
fn moves(record: &Record) -> String {
    let tree = record.tree();
    let moves: Vec<String> =
        tree.main_line().map(|id| tree.node(id).mv.as_ref().unwrap().points().unwrap().to_string()).collect();
    moves.join(" ")
}

/// The games of a file written, read back through `convert --to pgn`.
fn read_back(path: &Path) -> Vec<Record> {
    let out = qipu().arg("convert").arg(path).args(["--to", "pgn", "--notation", "iccs"]).output().unwrap();
    assert!(out.status.success(), "{}: {}", path.display(), stderr(&out));
    pgn::read(&String::from_utf8(out.stdout.clone()).unwrap())
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A tree of folders: one game and several games a file, the same file
/// name in two folders, names differing only in case in one folder.
fn archive(dir: &Path) -> PathBuf {
    let archive = dir.join("archive");
    write(&archive.join("1990/全国赛/a.pgn"), "1. h2e2 h9g7 *\n");
    write(
        &archive.join("1990/全国赛/multi.pgn"),
        "[Title \"Final\"]\n1. b2e2 *\n\n[Title \"FINAL\"]\n1. c3c4 *\n\n1. g3g4 *\n",
    );
    write(&archive.join("1991/a.pgn"), "1. h0g2 *\n");
    write(&archive.join("1991/A.pgn"), "1. b0c2 *\n");
    write(&archive.join("top.pgn"), "1. i0i1 *\n");
    archive
}

#[test]
fn the_folders_of_the_inputs_are_mirrored() {
    let dir = scratch("mirror");
    let archive = archive(&dir);
    let direct = dir.join("direct.pgn");
    write(&direct, "1. a3a4 *\n");
    let out_dir = dir.join("out");
    let out = qipu()
        .arg("convert")
        .arg(&archive)
        .arg(&direct)
        .args(["--to", "xqf", "-o"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).ends_with("8 game(s): 8 valid, 0 illegal, 0 unreadable (6 input(s)); 8 written\n"));
    assert_eq!(
        tree(&out_dir),
        [
            "1990/全国赛/FINAL-2.xqf",
            "1990/全国赛/Final.xqf",
            "1990/全国赛/a-1.xqf",
            "1990/全国赛/multi-3.xqf",
            "1991/A-1.xqf",
            "1991/a-1-2.xqf",
            "direct-1.xqf",
            "top-1.xqf",
        ]
    );
    let want = [
        ("1990/全国赛/a-1.xqf", "h2e2 h9g7"),
        ("1990/全国赛/Final.xqf", "b2e2"),
        ("1990/全国赛/FINAL-2.xqf", "c3c4"),
        ("1990/全国赛/multi-3.xqf", "g3g4"),
        ("1991/A-1.xqf", "b0c2"),
        ("1991/a-1-2.xqf", "h0g2"),
        ("top-1.xqf", "i0i1"),
        ("direct-1.xqf", "a3a4"),
    ];
    for (name, want) in want {
        let games = read_back(&out_dir.join(name));
        assert_eq!(games.len(), 1, "{name}");
        assert_eq!(moves(&games[0]), want, "{name}");
    }
    let out = qipu().arg("validate").arg(&out_dir).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("8 game(s): 8 valid"));
    // The same again: nothing written over without --force.
    let out = qipu().arg("convert").arg(&archive).args(["--to", "xqf", "-o"]).arg(&out_dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("1991/a-1-2.xqf: error: exists; not written over (use --force)"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).ends_with("; 0 written\n"));
    // A folder given inside the tree mirrors below itself.
    let cbr = dir.join("cbr");
    let out = qipu()
        .arg("convert")
        .arg(archive.join("1990"))
        .args(["--to", "cbr", "-o"])
        .arg(&cbr)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        tree(&cbr),
        ["全国赛/FINAL-2.cbr", "全国赛/Final.cbr", "全国赛/a-1.cbr", "全国赛/multi-3.cbr"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_named_themselves_write_into_the_directory() {
    let dir = scratch("mirror-direct");
    let archive = archive(&dir);
    let out_dir = dir.join("pfc");
    let out = qipu()
        .arg("convert")
        .arg(archive.join("1991/a.pgn"))
        .arg(archive.join("1990/全国赛/a.pgn"))
        .args(["--to", "pfc", "-o"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(tree(&out_dir), ["a-1-2.pfc", "a-1.pfc"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A zip archive of stored members.
fn zip(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in entries {
        let (name, data) = (name.as_bytes(), data.as_bytes());
        let offset = out.len() as u32;
        let fields = |head: &mut Vec<u8>| {
            head.extend_from_slice(&0x0800u16.to_le_bytes()); // UTF-8 name
            head.extend_from_slice(&0u16.to_le_bytes()); // stored
            head.extend_from_slice(&[0, 0, 0x21, 0]); // time, date
            head.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
            head.extend_from_slice(&(data.len() as u32).to_le_bytes());
            head.extend_from_slice(&(data.len() as u32).to_le_bytes());
            head.extend_from_slice(&(name.len() as u16).to_le_bytes());
            head.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        out.extend_from_slice(b"PK\x03\x04\x14\0");
        fields(&mut out);
        out.extend_from_slice(name);
        out.extend_from_slice(data);
        central.extend_from_slice(b"PK\x01\x02\x14\0\x14\0");
        fields(&mut central);
        central.extend_from_slice(&[0; 6]);
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name);
    }
    let start = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

#[test]
fn no_folder_name_leaves_the_directory() {
    let dir = scratch("mirror-escape");
    let archive = dir.join("archive");
    // Folders named to mislead: a hidden one, a Windows device, and a zip
    // whose members climb out with `..` and start at the root.
    write(&archive.join(".hidden/CON/g.pgn"), "1. h2e2 *\n");
    std::fs::write(
        archive.join("old.zip"),
        zip(&[
            ("../../evil/g.pgn", "1. b2e2 *\n"),
            ("/abs/g.pgn", "1. c3c4 *\n"),
            ("in/g.pgn", "1. g3g4 *\n"),
        ]),
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = qipu().arg("convert").arg(&archive).args(["--to", "xqf", "-o"]).arg(&out_dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        tree(&out_dir),
        ["_hidden/CON_/g-1.xqf", "old/__/__/evil/g-1.xqf", "old/abs/g-1.xqf", "old/in/g-1.xqf"]
    );
    // Nothing was written beside the directory.
    let mut beside: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    beside.sort();
    assert_eq!(beside, ["archive", "out"]);
    // A zip named itself: its members under its stem.
    let zipped = dir.join("zipped");
    let out = qipu()
        .arg("convert")
        .arg(archive.join("old.zip"))
        .args(["--to", "xqf", "-o"])
        .arg(&zipped)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(tree(&zipped), ["old/__/__/evil/g-1.xqf", "old/abs/g-1.xqf", "old/in/g-1.xqf"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_input_is_never_written_over() {
    let dir = scratch("mirror-input");
    let archive = dir.join("archive");
    // An XQF file in a folder, converted into the folder it came from.
    write(&archive.join("x.pgn"), "[Title \"t\"]\n1. h2e2 *\n");
    let out = qipu().arg("convert").arg(&archive).args(["--to", "xqf", "-o"]).arg(&archive).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = qipu()
        .arg("convert")
        .arg(&archive)
        .args(["--to", "xqf", "--force", "-o"])
        .arg(&archive)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("t.xqf: error: is an input file; not written over"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
