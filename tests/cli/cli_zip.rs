//! Zip archives read as folders: every member is read, under the name
//! `archive.zip:member`, archives inside archives too; hostile archives
//! (bombs, lies about sizes, damaged data, encryption, methods qipu does
//! not inflate, nesting too deep) are refused with a reason, and the
//! batch goes on. The archives are built here byte by byte, so that each
//! field can be made to lie.

use crate::common::{self, qipu};

use std::io::Write;

const GOOD: &str = "[Event \"good\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n\n\
                    [Event \"also good\"]\n1. 相三进五 卒７进１ *\n";

/// A member to put in an archive, and the lies to tell of it.
#[derive(Clone)]
struct Entry {
    name: Vec<u8>,
    data: Vec<u8>,
    deflate: bool,
    /// General-purpose flags (bit 0: encrypted, bit 11: UTF-8 name).
    flags: u16,
    /// A method to declare instead of stored (0) or deflated (8).
    method: Option<u16>,
    /// A size to declare instead of the true one.
    size: Option<u32>,
    /// A CRC-32 to declare instead of the true one.
    crc: Option<u32>,
}

fn entry(name: &str, data: &[u8]) -> Entry {
    Entry {
        name: name.as_bytes().to_vec(),
        data: data.to_vec(),
        deflate: true,
        flags: 0,
        method: None,
        size: None,
        crc: None,
    }
}

/// A zip archive of `entries`, laid out as APPNOTE says: each local
/// header and its data, then the central directory, then its end.
fn zip(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let stored = if e.deflate {
            let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
            d.write_all(&e.data).unwrap();
            d.finish().unwrap()
        } else {
            e.data.clone()
        };
        let method = e.method.unwrap_or(if e.deflate { 8 } else { 0 });
        let crc = e.crc.unwrap_or_else(|| crc32fast::hash(&e.data));
        let size = e.size.unwrap_or(e.data.len() as u32);
        let offset = out.len() as u32;
        let fields = |head: &mut Vec<u8>| {
            head.extend_from_slice(&e.flags.to_le_bytes());
            head.extend_from_slice(&method.to_le_bytes());
            head.extend_from_slice(&[0, 0, 0x21, 0]); // time, date
            head.extend_from_slice(&crc.to_le_bytes());
            head.extend_from_slice(&(stored.len() as u32).to_le_bytes());
            head.extend_from_slice(&size.to_le_bytes());
            head.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
            head.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        out.extend_from_slice(b"PK\x03\x04\x14\0");
        fields(&mut out);
        out.extend_from_slice(&e.name);
        out.extend_from_slice(&stored);
        central.extend_from_slice(b"PK\x01\x02\x14\0\x14\0");
        fields(&mut central);
        central.extend_from_slice(&[0; 6]); // comment, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(&e.name);
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

/// The text report and the JSON lines of validating `paths`.
fn validate(paths: &[&std::path::Path]) -> (String, Vec<serde_json::Value>) {
    let out = qipu().arg("validate").args(paths).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr;
    let out = qipu().args(["validate", "--format", "json"]).args(paths).output().unwrap();
    let json =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (text, json)
}

/// The line of the text report about `source`.
fn line<'a>(text: &'a str, source: &str) -> &'a str {
    text.lines().find(|l| l.starts_with(&format!("{source}:"))).unwrap_or_else(|| panic!("{source}: {text}"))
}

/// A zip of the fixtures validates to the same games as the fixtures
/// folder, each under the archive's name and the member's path.
#[test]
fn a_zip_of_the_fixtures_reads_as_the_folder() {
    let dir = common::scratch("zip-fixtures");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let entries: Vec<Entry> = common::files(&root)
        .iter()
        .map(|p| entry(&p.strip_prefix(&root).unwrap().to_string_lossy(), &std::fs::read(p).unwrap()))
        .collect();
    let archive = dir.join("fixtures.zip");
    std::fs::write(&archive, zip(&entries)).unwrap();
    let (folder_text, folder) = validate(&[&root]);
    let (zip_text, zipped) = validate(&[&archive]);
    assert_eq!(folder.len(), zipped.len());
    let prefix = format!("{}:", archive.display());
    for (f, z) in folder.iter().zip(&zipped) {
        let member = z["source"].as_str().unwrap().strip_prefix(&prefix).expect("archive:member");
        assert_eq!(f["source"].as_str().unwrap(), root.join(member).to_str().unwrap());
        for field in ["index", "status", "format", "plies", "error"] {
            assert_eq!(f[field], z[field], "{member} {field}");
        }
    }
    let summary = |t: &str| t.lines().last().unwrap().to_string();
    assert_eq!(summary(&folder_text), summary(&zip_text));
    // The 1,391 games of the PGN fixture, the 12 of fixtures/online/ and
    // the 4 of its games.uci, and the 9 of fixtures/vschess/.
    assert!(summary(&zip_text).starts_with("1416 game(s): 1416 valid"), "{zip_text}");
}

/// Archives inside archives are read to four deep; a fifth is told of.
/// A gzip member is inflated; a member of no record is not a game.
#[test]
fn archives_inside_archives_and_what_they_hold() {
    let dir = common::scratch("zip-nested");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(GOOD.as_bytes()).unwrap();
    let mut inner =
        zip(&[entry("d/games.pgn", GOOD.as_bytes()), entry("games.pgn.gz", &gz.finish().unwrap())]);
    for depth in (1..=4).rev() {
        let mut again = entry(&format!("level{depth}.zip"), &inner);
        again.deflate = depth % 2 == 0;
        inner = zip(&[
            entry("readme.txt", b"Games of the club."),
            again,
            entry(&format!("g{depth}.pgn"), GOOD.as_bytes()),
        ]);
    }
    let archive = dir.join("outer.zip");
    std::fs::write(&archive, &inner).unwrap();
    let (text, json) = validate(&[&archive]);
    let a = archive.display().to_string();
    // Depths 1 to 4 are read: four g*.pgn files, two games each.
    for depth in 1..=4 {
        let chain: String = (1..depth).map(|d| format!(":level{d}.zip")).collect();
        let source = format!("{a}{chain}:g{depth}.pgn");
        assert_eq!(
            json.iter().filter(|g| g["source"] == source && g["status"] == "valid").count(),
            2,
            "{source}"
        );
    }
    // The archive at depth 5 (level4.zip's games) is not opened: it says why.
    let deep = format!("{a}:level1.zip:level2.zip:level3.zip:level4.zip");
    assert!(line(&text, &deep).contains("an archive inside 4 archives"), "{text}");
    assert!(line(&text, &format!("{a}:readme.txt")).contains("holds no record"), "{text}");
    assert!(text.contains("9 game(s): 8 valid, 0 illegal, 1 unreadable"), "{text}");

    // Three deep, the gzip member and the folder inside are read.
    let three = zip(&[entry(
        "x.zip",
        &zip(&[entry(
            "y.zip",
            &zip(&[
                entry("d/games.pgn", GOOD.as_bytes()),
                entry("games.pgn.gz", &{
                    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                    gz.write_all(GOOD.as_bytes()).unwrap();
                    gz.finish().unwrap()
                }),
            ]),
        )]),
    )]);
    let archive = dir.join("three.zip");
    std::fs::write(&archive, three).unwrap();
    let (text, json) = validate(&[&archive]);
    let a = archive.display().to_string();
    for member in ["d/games.pgn", "games.pgn.gz"] {
        let source = format!("{a}:x.zip:y.zip:{member}");
        assert_eq!(
            json.iter().filter(|g| g["source"] == source && g["status"] == "valid").count(),
            2,
            "{text}"
        );
    }
}

/// Hostile and damaged archives: each refused with its reason, in
/// bounded time and memory, and the records beside them still read.
#[test]
fn hostile_archives_are_refused_with_a_reason() {
    let dir = common::scratch("zip-hostile");
    std::fs::write(dir.join("good.pgn"), GOOD).unwrap();
    // Members sharing one deflated run of zeros, each declaring 1 GB:
    // a bomb of the overlapping kind, told before anything is inflated.
    let zeros = vec![0u8; 4 << 20];
    let mut bomb = zip(&[entry("zeros.pgn", &zeros)]);
    {
        // Point 300 central entries at the one member, each declaring 1 GB.
        let cd = bomb.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        let eocd = bomb.windows(4).position(|w| w == b"PK\x05\x06").unwrap();
        let mut one = bomb[cd..eocd].to_vec();
        one[24..28].copy_from_slice(&(1u32 << 30).to_le_bytes());
        let name_at = 46;
        let mut central = Vec::new();
        for i in 0..300u16 {
            let mut e = one.clone();
            e[name_at..name_at + 5].copy_from_slice(format!("z{i:04}").as_bytes());
            central.extend_from_slice(&e);
        }
        let mut end = bomb[eocd..].to_vec();
        end[8..10].copy_from_slice(&300u16.to_le_bytes());
        end[10..12].copy_from_slice(&300u16.to_le_bytes());
        end[12..16].copy_from_slice(&(central.len() as u32).to_le_bytes());
        bomb.truncate(cd);
        bomb.extend_from_slice(&central);
        bomb.extend_from_slice(&end);
    }
    std::fs::write(dir.join("bomb.zip"), &bomb).unwrap();
    // A member that declares 1,000 bytes and inflates to 4 MB.
    let mut liar = entry("liar.pgn", &zeros);
    liar.size = Some(1000);
    // A member whose CRC-32 does not match; one that ends short.
    let mut crc = entry("crc.pgn", GOOD.as_bytes());
    crc.crc = Some(0x1234_5678);
    let mut short = entry("short.pgn", GOOD.as_bytes());
    short.size = Some(GOOD.len() as u32 + 10);
    // Encrypted; compressed with bzip2 (method 12).
    let mut secret = entry("secret.pgn", GOOD.as_bytes());
    secret.flags = 1;
    let mut bzip2 = entry("bzip2.pgn", GOOD.as_bytes());
    bzip2.method = Some(12);
    let fine = entry("fine.pgn", GOOD.as_bytes());
    std::fs::write(dir.join("members.zip"), zip(&[liar, crc, short, secret, bzip2, fine.clone()])).unwrap();
    // The same name twice: only one is read, and that is told.
    std::fs::write(dir.join("twice.zip"), zip(&[fine.clone(), fine.clone()])).unwrap();
    // A damaged directory; nothing but a signature.
    let mut damaged = zip(std::slice::from_ref(&fine));
    let n = damaged.len();
    damaged[n - 6..n - 2].copy_from_slice(&0xFFFF_FF00u32.to_le_bytes());
    std::fs::write(dir.join("damaged.zip"), damaged).unwrap();
    std::fs::write(dir.join("signature.zip"), b"PK\x03\x04").unwrap();
    // A zip under another name, found in a folder: not opened, told how.
    std::fs::write(dir.join("games.dat"), zip(std::slice::from_ref(&fine))).unwrap();

    let started = std::time::Instant::now();
    let (text, json) = validate(&[&dir]);
    assert!(started.elapsed().as_secs() < 60, "took {:?}", started.elapsed());
    let d = dir.display().to_string();
    assert!(line(&text, &format!("{d}/bomb.zip")).contains("refused as a decompression bomb"), "{text}");
    let m = format!("{d}/members.zip");
    for (member, why) in [
        ("liar.pgn", "inflates past the 1000 bytes it declares"),
        ("crc.pgn", "its CRC-32 does not match"),
        ("short.pgn", "it ends after"),
        ("secret.pgn", "an encrypted member"),
        ("bzip2.pgn", "compressed with bzip2"),
    ] {
        let l = line(&text, &format!("{m}:{member}"));
        assert!(l.contains("unreadable") && l.contains(why), "{l}");
    }
    assert_eq!(
        json.iter().filter(|g| g["source"] == format!("{m}:fine.pgn") && g["status"] == "valid").count(),
        2
    );
    assert!(line(&text, &format!("{d}/twice.zip")).contains("members of the same name"), "{text}");
    assert!(line(&text, &format!("{d}/damaged.zip")).contains("a damaged zip archive"), "{text}");
    assert!(line(&text, &format!("{d}/signature.zip")).contains("a damaged zip archive"), "{text}");
    assert!(line(&text, &format!("{d}/games.dat")).contains("named *.zip"), "{text}");
    // The games beside them are read: good.pgn, fine.pgn, twice.zip's one,
    // and those of the member that ends short before its end (both whole).
    assert_eq!(json.iter().filter(|g| g["status"] == "valid").count(), 8, "{text}");
    assert_eq!(
        json.iter().filter(|g| g["source"] == format!("{m}:short.pgn") && g["status"] == "valid").count(),
        2
    );
    // Named on the command line, the zip under another name is opened.
    let (text, _) = validate(&[&dir.join("games.dat")]);
    assert!(text.contains("2 game(s): 2 valid"), "{text}");
}

/// Member names: UTF-8 as flagged or as they read, GBK as Chinese Windows
/// writes them, CP437 else; a control character cannot forge a line.
#[test]
fn member_names_in_every_encoding() {
    let dir = common::scratch("zip-names");
    let gbk = encoding_rs::GBK.encode("对局/胡荣华.pgn").0.into_owned();
    let mut gbk_entry = entry("", GOOD.as_bytes());
    gbk_entry.name = gbk;
    let mut utf8 = entry("棋谱.pgn", GOOD.as_bytes());
    utf8.flags = 1 << 11;
    let mut cp437 = entry("", GOOD.as_bytes());
    cp437.name = b"caf\x82\xff.pgn".to_vec(); // not UTF-8, not GBK
    let forged = entry("a\nb.pgn", GOOD.as_bytes());
    std::fs::write(dir.join("names.zip"), zip(&[gbk_entry, utf8, cp437, forged])).unwrap();
    let (text, json) = validate(&[&dir.join("names.zip")]);
    let a = dir.join("names.zip").display().to_string();
    for name in ["对局/胡荣华.pgn", "棋谱.pgn", "café\u{a0}.pgn", "a\nb.pgn"] {
        let source = format!("{a}:{name}");
        assert_eq!(json.iter().filter(|g| g["source"] == source).count(), 2, "{source}: {json:?}");
    }
    assert!(text.lines().all(|l| !l.starts_with("b.pgn")), "{text}");
}

/// `convert` reads a zip's games, and never writes over the archive.
#[test]
fn convert_reads_a_zip_and_spares_it() {
    let dir = common::scratch("zip-convert");
    let archive = dir.join("games.zip");
    let bytes = zip(&[entry("a.pgn", GOOD.as_bytes())]);
    std::fs::write(&archive, &bytes).unwrap();
    let out = qipu().args(["convert", "--to", "pgn"]).arg(&archive).output().unwrap();
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    let out = qipu()
        .args(["convert", "--to", "pgn", "--force", "-o"])
        .arg(&archive)
        .arg(&archive)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(std::fs::read(&archive).unwrap(), bytes, "the archive was written over");
}
