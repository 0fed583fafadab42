//! How a segment holds each game's start FEN and tags: a tag (name and
//! value) met before is written as its number in the segment's
//! dictionary (`seg-N.dict`, a few bytes), a new one is added to it; past
//! [`MAX_ENTRIES`] entries or [`MAX_BYTES`] bytes, tags are written whole.
//! Collections repeat events, players, dates and ratings: 1,000,000
//! generated games' tags took 141 bytes a game as text, 23 so. The
//! dictionary is read whole when tags are first asked for, so it is
//! deflated after its 8-byte tag (names and values repeat words: the
//! corpus' took 764,908 bytes, 237,000 so); one written plain (tag
//! `QIDXDIC1`) is read too.
//!
//! A game's tags: its start FEN (a length, then the text; length 0 for the
//! standard start), the number of tags, then each tag: `k + 1` for entry
//! `k` of the dictionary, or 0 and the tag itself. A tag itself: the
//! name's length and bytes, the value's length and bytes. Numbers are
//! LEB128 varints.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};

use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;

/// The most entries a segment's dictionary takes.
pub(crate) const MAX_ENTRIES: usize = 1 << 22;
/// The most bytes of entries a segment's dictionary takes (the builder
/// holds them: memory stays bounded).
pub(crate) const MAX_BYTES: usize = 32 << 20;

/// A game's start FEN (`None`: the standard start) and its tags.
pub(crate) type StartAndTags = (Option<String>, Vec<(String, String)>);

/// The tag at the start of `seg-N.dict`: its entries follow, deflated.
pub(crate) const DICT_TAG: &[u8; 8] = b"QIDXDIC2";

/// The tag of a dictionary whose entries follow plain (read, no longer
/// written).
const PLAIN_DICT_TAG: &[u8; 8] = b"QIDXDIC1";

fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        n |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(n);
        }
    }
    None
}

fn text(bytes: &[u8], at: &mut usize) -> Option<String> {
    let len = usize::try_from(read_varint(bytes, at)?).ok()?;
    let end = at.checked_add(len).filter(|&e| e <= bytes.len())?;
    let s = std::str::from_utf8(&bytes[*at..end]).ok()?.to_string();
    *at = end;
    Some(s)
}

/// A tag as its dictionary entry: name's length and bytes, value's.
fn entry(name: &str, value: &str, out: &mut Vec<u8>) {
    varint(name.len() as u64, out);
    out.extend_from_slice(name.as_bytes());
    varint(value.len() as u64, out);
    out.extend_from_slice(value.as_bytes());
}

/// Writes the games' tags of a segment, and its dictionary.
#[derive(Debug)]
pub(crate) struct TagWriter {
    dict: DeflateEncoder<BufWriter<File>>,
    ids: HashMap<Box<[u8]>, u32>,
    bytes: usize,
    key: Vec<u8>,
}

impl TagWriter {
    /// A writer adding to the dictionary `dict` (a new file).
    pub(crate) fn new(dict: File) -> io::Result<TagWriter> {
        let mut dict = BufWriter::with_capacity(1 << 16, dict);
        dict.write_all(DICT_TAG)?;
        let dict = DeflateEncoder::new(dict, Compression::default());
        Ok(TagWriter { dict, ids: HashMap::new(), bytes: 0, key: Vec::new() })
    }

    /// Appends to `out` the start FEN (`None`: the standard start) and tags
    /// of a game.
    pub(crate) fn encode(
        &mut self,
        start: Option<&str>,
        tags: &[(String, String)],
        out: &mut Vec<u8>,
    ) -> io::Result<()> {
        let start = start.unwrap_or("");
        varint(start.len() as u64, out);
        out.extend_from_slice(start.as_bytes());
        varint(tags.len() as u64, out);
        for (name, value) in tags {
            self.key.clear();
            entry(name, value, &mut self.key);
            if let Some(&id) = self.ids.get(self.key.as_slice()) {
                varint(u64::from(id) + 1, out);
            } else if self.ids.len() < MAX_ENTRIES && self.bytes + self.key.len() <= MAX_BYTES {
                let id = self.ids.len() as u32;
                self.dict.write_all(&self.key)?;
                self.bytes += self.key.len();
                self.ids.insert(self.key.clone().into_boxed_slice(), id);
                varint(u64::from(id) + 1, out);
            } else {
                varint(0, out);
                out.extend_from_slice(&self.key);
            }
        }
        Ok(())
    }

    /// Writes what is left of the dictionary.
    pub(crate) fn finish(self) -> io::Result<()> {
        self.dict.finish()?.flush()
    }
}

/// A segment's dictionary, read.
#[derive(Debug, Default)]
pub(crate) struct Dictionary(Vec<(String, String)>);

impl Dictionary {
    /// Reads the dictionary file `file`.
    pub(crate) fn read(file: File) -> io::Result<Dictionary> {
        let mut file = io::BufReader::new(file);
        let mut tag = [0u8; 8];
        file.read_exact(&mut tag).map_err(|_| damaged())?;
        let mut bytes = Vec::new();
        match &tag {
            DICT_TAG => {
                // The writer holds at most MAX_BYTES of entries.
                let limit = MAX_BYTES as u64 + 1;
                DeflateDecoder::new(file).take(limit).read_to_end(&mut bytes).map_err(|_| damaged())?;
                if bytes.len() > MAX_BYTES {
                    return Err(damaged());
                }
            }
            PLAIN_DICT_TAG => {
                file.read_to_end(&mut bytes)?;
            }
            _ => return Err(damaged()),
        }
        let mut at = 0;
        let mut entries = Vec::new();
        while at < bytes.len() {
            let name = text(&bytes, &mut at).ok_or_else(damaged)?;
            let value = text(&bytes, &mut at).ok_or_else(damaged)?;
            entries.push((name, value));
        }
        Ok(Dictionary(entries))
    }

    /// The start FEN (`None`: the standard start) and tags of `bytes`, a
    /// game's as [`TagWriter::encode`] wrote them.
    pub(crate) fn decode(&self, bytes: &[u8]) -> io::Result<StartAndTags> {
        let mut at = 0;
        let start = text(bytes, &mut at).ok_or_else(damaged)?;
        let count = read_varint(bytes, &mut at).ok_or_else(damaged)?;
        let mut tags = Vec::new();
        for _ in 0..count {
            match read_varint(bytes, &mut at).ok_or_else(damaged)? {
                0 => {
                    let name = text(bytes, &mut at).ok_or_else(damaged)?;
                    let value = text(bytes, &mut at).ok_or_else(damaged)?;
                    tags.push((name, value));
                }
                id => tags.push(self.0.get((id - 1) as usize).cloned().ok_or_else(damaged)?),
            }
        }
        Ok(((!start.is_empty()).then_some(start), tags))
    }
}

fn damaged() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "the index is damaged: a game's tags do not read")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_back_with_and_past_the_dictionary() {
        let path = std::env::temp_dir().join(format!("qipu-dict-{}", std::process::id()));
        let mut writer = TagWriter::new(File::create(&path).unwrap()).unwrap();
        let tags = |k: usize| {
            vec![
                ("Event".to_string(), format!("Cup {}", k % 3)),
                ("Red".to_string(), "胡荣华\t\n".to_string()),
            ]
        };
        let mut blobs = Vec::new();
        for k in 0..10 {
            let mut out = Vec::new();
            let start = (k == 4).then_some("4k4/9/9/9/9/9/9/9/4A4/3AK4 w");
            writer.encode(start, &tags(k), &mut out).unwrap();
            blobs.push(out);
        }
        // Past the dictionary's room: written whole.
        writer.bytes = MAX_BYTES;
        let mut whole = Vec::new();
        writer.encode(None, &[("Round".into(), "9".into())], &mut whole).unwrap();
        writer.finish().unwrap();
        let dict = Dictionary::read(File::open(&path).unwrap()).unwrap();
        assert_eq!(dict.0.len(), 4);
        for (k, blob) in blobs.iter().enumerate() {
            let (start, read) = dict.decode(blob).unwrap();
            assert_eq!(read, tags(k));
            assert_eq!(start.is_some(), k == 4);
        }
        assert!(blobs[5].len() < 6, "{:?}", blobs[5]);
        assert_eq!(dict.decode(&whole).unwrap().1, [("Round".to_string(), "9".to_string())]);
        assert!(dict.decode(&[0, 1, 9]).is_err());
        // Deflated: the repeated entries take less than their text.
        let written = std::fs::read(&path).unwrap();
        assert!(written.starts_with(DICT_TAG));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_plain_dictionary_reads_and_a_damaged_one_does_not() {
        let path = std::env::temp_dir().join(format!("qipu-dict-plain-{}", std::process::id()));
        let mut bytes = PLAIN_DICT_TAG.to_vec();
        entry("Red", "胡荣华", &mut bytes);
        entry("Event", "Cup", &mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        let dict = Dictionary::read(File::open(&path).unwrap()).unwrap();
        assert_eq!(
            dict.decode(&[0, 2, 2, 1]).unwrap().1,
            [("Event".to_string(), "Cup".to_string()), ("Red".to_string(), "胡荣华".to_string())]
        );
        // A deflated dictionary cut short, or not deflated at all.
        let mut writer = TagWriter::new(File::create(&path).unwrap()).unwrap();
        for k in 0..2000 {
            writer.encode(None, &[("Round".into(), k.to_string())], &mut Vec::new()).unwrap();
        }
        writer.finish().unwrap();
        let whole = std::fs::read(&path).unwrap();
        assert_eq!(Dictionary::read(File::open(&path).unwrap()).unwrap().0.len(), 2000);
        std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
        assert!(Dictionary::read(File::open(&path).unwrap()).is_err());
        let mut wrong = DICT_TAG.to_vec();
        wrong.extend_from_slice(&bytes[8..]);
        std::fs::write(&path, &wrong).unwrap();
        assert!(Dictionary::read(File::open(&path).unwrap()).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
