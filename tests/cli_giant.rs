//! Games of millions of plies: a game of more than 1,000,000 moves
//! (`record::MAX_MOVES`) is one unreadable game told why, in bounded
//! memory, whatever its format; a game just under it is read. One test,
//! so that the peak memory of the children it starts is its own.

use std::path::Path;
use std::process::Command;

/// The horses out and back: a legal line as long as asked.
const CYCLE: [&str; 4] = ["h0g2", "h9g7", "g2h0", "g7h9"];

fn qipu(args: &[&str], dir: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qipu")).args(args).current_dir(dir).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// A PGN game of `plies` plies, 40 moves a line.
fn pgn(plies: usize) -> Vec<u8> {
    let mut text = String::from("[Event \"giant\"]\n");
    for k in 0..plies {
        text.push_str(CYCLE[k % 4]);
        text.push(if k % 40 == 39 { '\n' } else { ' ' });
    }
    text.push_str("*\n");
    text.into_bytes()
}

/// An XQF file of `plies` plies (a multiple of 4): the file qipu writes of
/// the four-ply cycle, its four move records repeated.
fn xqf(plies: usize, dir: &Path) -> Vec<u8> {
    std::fs::write(dir.join("cycle.pgn"), pgn(4)).unwrap();
    let (code, text) = qipu(&["convert", "cycle.pgn", "--to", "xqf", "-o", "cycle", "--force"], dir);
    assert_eq!(code, 0, "{text}");
    let small = std::fs::read(dir.join("cycle/cycle-1.xqf")).unwrap();
    // The header, the root's record, then one 8-byte record a move; the
    // last has no move after it.
    let (head, moves) = small.split_at(small.len() - 32);
    let mut cycle = moves.to_vec();
    let flags = cycle[24 + 2];
    cycle[24 + 2] = cycle[2];
    let mut file = head.to_vec();
    file.reserve(plies * 8);
    for _ in 0..plies / 4 {
        file.extend_from_slice(&cycle);
    }
    let last = file.len() - 8 + 2;
    file[last] = flags;
    file
}

/// The most memory a child of this process took, in MB.
#[cfg(target_os = "linux")]
fn children_peak_mb() -> u64 {
    // SAFETY: getrusage writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0);
    usage.ru_maxrss as u64 / 1024
}

#[test]
fn a_game_of_ten_million_plies_is_one_unreadable_game_in_bounded_memory() {
    let dir = std::env::temp_dir().join(format!("qipu-giant-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Just under the limit, the game is read and written.
    std::fs::write(dir.join("long.xqf"), xqf(999_996, &dir)).unwrap();
    let (code, text) = qipu(&["validate", "long.xqf"], &dir);
    assert_eq!(code, 0, "{text}");
    assert!(text.ends_with("1 game(s): 1 valid, 0 illegal, 0 unreadable (1 input(s))\n"), "{text}");
    std::fs::remove_file(dir.join("long.xqf")).unwrap();
    // Ten million plies: 80 MB of XQF, 50 MB of PGN.
    std::fs::write(dir.join("giant.xqf"), xqf(10_000_000, &dir)).unwrap();
    std::fs::write(dir.join("giant.pgn"), pgn(10_000_000)).unwrap();
    for args in [
        &["validate", "giant.xqf"][..],
        &["fen", "giant.xqf"],
        &["convert", "giant.xqf", "--to", "pgn", "-o", "giant-out.pgn"],
        &["validate", "giant.pgn"],
        &["convert", "giant.pgn", "--to", "xqf", "-o", "out"],
    ] {
        let (code, text) = qipu(args, &dir);
        assert_eq!(code, 1, "{args:?}: {text}");
        let why = if args[1].ends_with("xqf") {
            "error: game 1: unreadable: the game holds more than 1,000,000 moves (main line and variations)"
        } else {
            "error: game 1: unreadable: more than 16 MB of text"
        };
        assert!(text.contains(why), "{args:?}: {text}");
        assert!(
            text.contains("1 game(s): 0 valid, 0 illegal, 1 unreadable (1 input(s))"),
            "{args:?}: {text}"
        );
    }
    // A game of more moves than the limit, in a text under 16 MB: the
    // same reason, from the PGN reader.
    std::fs::write(dir.join("over.pgn"), pgn(1_000_004)).unwrap();
    let (code, text) = qipu(&["validate", "over.pgn"], &dir);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("unreadable: the game holds more than 1,000,000 moves"), "{text}");
    // The XQF file is held twice (as read and decrypted) and at most the
    // limit's moves: 80 + 80 + about 100 MB.
    #[cfg(target_os = "linux")]
    {
        let peak = children_peak_mb();
        assert!(peak < 400, "peak memory {peak} MB");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
