//! GB18030 or Big5: which of the two reads a text as record-like Chinese.
//!
//! Each reading is scored character by character: a character frequent in
//! game records and in Chinese prose ([`COMMON`]) counts 2, another CJK
//! ideograph 0, another character that is not ASCII -1, and a byte that is
//! not text in that encoding (U+FFFD REPLACEMENT CHARACTER) -20; the
//! higher score wins, GB18030 on a tie. The scores are not counted on
//! decoded texts: a character of either encoding is one byte or a pair of
//! bytes (a lead byte 0x81–0xFE and a trail byte), the same bytes in both,
//! so the difference of the two scores is summed on the bytes, a pair's
//! looked up in a table made once, from the two decoders themselves, the
//! first time a text needs it. The one case a pair does not cover, a
//! GB18030 lead byte followed by a digit (the start of a four-byte
//! sequence, rare in records), is scored on the decoded texts. Either way
//! the verdict is the same.

use std::sync::OnceLock;

use super::Encoding;

/// How many bytes the GB18030/Big5 decision looks at.
const SAMPLE: usize = 64 * 1024;

/// Characters frequent in game records and in Chinese prose, in simplified
/// and traditional forms: a text decoded in the right encoding is full of
/// them, one decoded in the wrong one rarely holds any.
const COMMON: &str = "车車马馬炮砲包相象仕士帅帥将將兵卒进進退平前后後中一二三四五六七八九\
１２３４５６７８９红紅黑先胜勝负負和局对對第轮輪赛賽杯届屆年月日棋象队隊手着著变變的是了不在人有我他这這个個们們\
来來上大为為国國地到以说說时時要就出会會可也你生能而子那得于於下自之过過发發作里裡用道行所然家种種事成方多经經么麼去法\
学學如都同现現当當没沒动動面起看定天分还還好小部其些主样樣理心本开開但因只从從想实實";

/// GB18030 or Big5, whichever reads the start of `bytes` (its first 64 KiB,
/// a double-byte character at the cut left out) as more record-like
/// Chinese with fewer errors.
pub(super) fn guess_chinese(bytes: &[u8]) -> Encoding {
    let mut end = bytes.len().min(SAMPLE);
    // Do not cut a double-byte character in two at the end of the sample.
    while end < bytes.len() && end > 0 && bytes[end - 1] >= 0x80 {
        end -= 1;
    }
    let sample = &bytes[..end];
    let lead = lead_of_big5(sample)
        .unwrap_or_else(|| score_decoded(sample, Encoding::Big5) - score_decoded(sample, Encoding::Gb18030));
    if lead > 0 { Encoding::Big5 } else { Encoding::Gb18030 }
}

/// How much more the Big5 reading of `bytes` scores than its GB18030
/// reading, counted on the bytes: both encodings cut a text into the same
/// characters, one byte or a pair of bytes each, and those that score the
/// same in both (ASCII, 0xFF, a lead byte before a byte that is no trail
/// byte in either, or at the end) are passed over. `None` when it holds a
/// GB18030 four-byte sequence (or what starts like one), which is not a
/// pair in GB18030.
fn lead_of_big5(bytes: &[u8]) -> Option<i64> {
    let table = tables();
    let mut lead = 0i64;
    let mut at = 0;
    while let Some(&first) = bytes.get(at) {
        at += 1;
        match first {
            0..=0x7F | 0xFF => {}
            // GB18030 reads 0x80 as €, Big5 as an error.
            0x80 => lead += ERROR + 1,
            _ => match bytes.get(at) {
                Some(b'0'..=b'9') => return None,
                Some(&trail @ TRAIL..) => {
                    lead += i64::from(table[pair_index(first, trail)]);
                    at += 1;
                }
                // An error in both, the ASCII byte read as itself.
                Some(_) => at += 1,
                None => {}
            },
        }
    }
    Some(lead)
}

/// The score of a byte that is not text in the encoding.
const ERROR: i64 = -20;

/// The score of `c`, a character of a decoded text, with `common` telling
/// the [`COMMON`] characters.
fn char_score(c: char, common: &Common) -> i64 {
    match c {
        '\u{FFFD}' => ERROR,
        c if common.holds(c) => 2,
        '\u{4E00}'..='\u{9FFF}' => 0,
        c if (c as u32) >= 0x80 => -1,
        _ => 0,
    }
}

/// The score of `bytes` read in `encoding`, counted on the decoded text.
fn score_decoded(bytes: &[u8], encoding: Encoding) -> i64 {
    let common = Common::new();
    let (text, _) = encoding.codec().decode_without_bom_handling(bytes);
    text.chars().map(|c| char_score(c, &common)).sum()
}

/// The [`COMMON`] characters: the ideographs as bits, one for each of
/// U+4E00 to U+9FFF; and the full-width digits.
struct Common(Vec<u64>);

/// The first ideograph, and the last.
const IDEOGRAPHS: (u32, u32) = (0x4E00, 0x9FFF);

impl Common {
    fn new() -> Common {
        let mut bits = vec![0u64; ((IDEOGRAPHS.1 - IDEOGRAPHS.0) / 64 + 1) as usize];
        for c in COMMON.chars() {
            if let Some(k) = (c as u32).checked_sub(IDEOGRAPHS.0).filter(|_| c as u32 <= IDEOGRAPHS.1) {
                bits[(k / 64) as usize] |= 1 << (k % 64);
            }
        }
        Common(bits)
    }

    fn holds(&self, c: char) -> bool {
        match (c as u32).checked_sub(IDEOGRAPHS.0).filter(|_| c as u32 <= IDEOGRAPHS.1) {
            Some(k) => self.0[(k / 64) as usize] & (1 << (k % 64)) != 0,
            None => ('１'..='９').contains(&c),
        }
    }
}

/// The first lead byte.
const LEAD: u8 = 0x81;
/// The first byte that may be a trail byte (in Big5; in GB18030 digits too
/// may follow a lead byte).
const TRAIL: u8 = 0x40;
/// How many bytes from [`TRAIL`] to 0xFF.
const TRAILS: usize = 0x100 - TRAIL as usize;

/// The place of a pair in the table.
fn pair_index(lead: u8, trail: u8) -> usize {
    usize::from(lead - LEAD) * TRAILS + usize::from(trail - TRAIL)
}

/// How much more each pair of a lead byte and a byte from [`TRAIL`] scores
/// in Big5 than in GB18030, made on first use.
fn tables() -> &'static [i8] {
    static TABLE: OnceLock<Vec<i8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let common = Common::new();
        let (big5, gb18030) = (scores(Encoding::Big5, &common), scores(Encoding::Gb18030, &common));
        big5.iter().zip(&gb18030).map(|(b, g)| i8::try_from(b - g).unwrap_or(0)).collect()
    })
}

/// The score of every pair as `encoding` reads it: each row (a lead byte)
/// is decoded at once, its pairs apart by line ends, which neither encoding
/// reads as part of a pair.
fn scores(encoding: Encoding, common: &Common) -> Vec<i64> {
    let mut scores = vec![0i64; usize::from(0xFF - LEAD) * TRAILS];
    let mut row = Vec::with_capacity(TRAILS * 3);
    for lead in LEAD..=0xFE {
        row.clear();
        for trail in TRAIL..=0xFF {
            row.extend_from_slice(&[lead, trail, b'\n']);
        }
        let (text, _) = encoding.codec().decode_without_bom_handling(&row);
        let at = pair_index(lead, TRAIL);
        let (mut pair, mut score) = (0, 0);
        for c in text.chars() {
            if c == '\n' {
                if let Some(s) = scores.get_mut(at + pair).filter(|_| pair < TRAILS) {
                    *s = score;
                }
                (pair, score) = (pair + 1, 0);
            } else {
                score += char_score(c, common);
            }
        }
        if pair != TRAILS {
            // Cannot be; but should it, each pair is read on its own.
            for trail in TRAIL..=0xFF {
                scores[pair_index(lead, trail)] = score_decoded(&[lead, trail], encoding);
            }
        }
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The score as it was first counted: on the decoded text.
    fn decoded_verdict(bytes: &[u8]) -> Encoding {
        let big5 = score_decoded(bytes, Encoding::Big5);
        let gb = score_decoded(bytes, Encoding::Gb18030);
        if big5 > gb { Encoding::Big5 } else { Encoding::Gb18030 }
    }

    fn same_scores(bytes: &[u8]) {
        let decoded = score_decoded(bytes, Encoding::Big5) - score_decoded(bytes, Encoding::Gb18030);
        if let Some(lead) = lead_of_big5(bytes) {
            assert_eq!(lead, decoded, "{bytes:02X?}");
        }
        if bytes.len() <= SAMPLE {
            assert_eq!(guess_chinese(bytes), decoded_verdict(bytes), "{bytes:02X?}");
        }
    }

    fn gbk(text: &str) -> Vec<u8> {
        encoding_rs::GB18030.encode(text).0.into_owned()
    }

    fn big5(text: &str) -> Vec<u8> {
        encoding_rs::BIG5.encode(text).0.into_owned()
    }

    const SIMPLIFIED: &str = "[Event \"全国象棋个人赛\"]\n[Red \"许银川\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８\n{红方先手优势}";
    const TRADITIONAL: &str = "[Event \"全國象棋個人賽\"]\n[Red \"許銀川\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８\n{紅方先手優勢}";

    #[test]
    fn the_common_characters_are_ideographs_and_digits() {
        let common = Common::new();
        for c in COMMON.chars() {
            assert!(
                common.holds(c) && (('\u{4E00}'..='\u{9FFF}').contains(&c) || ('１'..='９').contains(&c))
            );
        }
        assert!(!common.holds('０') && !common.holds('丐') && !common.holds('a'));
    }

    #[test]
    fn every_pair_scores_as_decoded() {
        for lead in 0x80..=0xFFu8 {
            for trail in 0..=0xFFu8 {
                same_scores(&[lead, trail]);
                same_scores(&[b'a', lead, trail, b'z']);
                same_scores(&[lead, trail, 0xA4]);
            }
        }
    }

    #[test]
    fn gbk_big5_and_gb18030_texts_are_told_apart() {
        assert_eq!(guess_chinese(&gbk(SIMPLIFIED)), Encoding::Gb18030);
        assert_eq!(guess_chinese(&big5(TRADITIONAL)), Encoding::Big5);
        // Traditional characters written in GBK are still GBK.
        assert_eq!(guess_chinese(&gbk(TRADITIONAL)), Encoding::Gb18030);
        // Characters only GB18030's four-byte sequences hold.
        let four = gbk("[Event \"象棋 ǹ 䶮 € 𠀀\"]\n1. 炮二平五 马８进７");
        assert!(four.windows(2).any(|w| w[0] >= 0x81 && w[1].is_ascii_digit()));
        assert_eq!(guess_chinese(&four), Encoding::Gb18030);
        same_scores(&four);
        // Short texts, one character of moves or a name.
        assert_eq!(guess_chinese(&gbk("马")), Encoding::Gb18030);
        assert_eq!(guess_chinese(&big5("馬")), Encoding::Big5);
        assert_eq!(guess_chinese(&gbk("炮二平五")), Encoding::Gb18030);
        assert_eq!(guess_chinese(&big5("砲二平五")), Encoding::Big5);
        assert_eq!(guess_chinese(b""), Encoding::Gb18030);
    }

    #[test]
    fn truncated_heads_and_long_texts_are_told_apart() {
        let g = gbk(&SIMPLIFIED.repeat(2000));
        let b = big5(&TRADITIONAL.repeat(2000));
        assert!(g.len() > SAMPLE && b.len() > SAMPLE);
        for cut in [1, 2, 3, 7, 100, 101, SAMPLE - 1, SAMPLE, SAMPLE + 1, g.len()] {
            let (g, b) = (&g[..cut.min(g.len())], &b[..cut.min(b.len())]);
            same_scores(g);
            same_scores(b);
            if cut > 40 {
                assert_eq!(guess_chinese(g), Encoding::Gb18030, "{cut}");
                assert_eq!(guess_chinese(b), Encoding::Big5, "{cut}");
            }
        }
    }

    #[test]
    fn mixed_texts_score_as_decoded() {
        let mut mixed = gbk(SIMPLIFIED);
        mixed.extend(big5(TRADITIONAL));
        mixed.extend(SIMPLIFIED.as_bytes());
        mixed.extend([0x80, 0xFF, 0x81]);
        same_scores(&mixed);
    }

    #[test]
    fn generated_and_mutated_records_are_told_as_decoded() {
        // Texts of frequent and other characters and ASCII, in GBK and in
        // Big5, then with bytes changed, cut or put in: told as the two
        // decoded readings score them.
        let mut state = 11u64;
        let mut next = || {
            let (s, out) = crate::rules::zobrist::splitmix64(state);
            state = s;
            out
        };
        let common: Vec<char> = COMMON.chars().collect();
        let (mut big5, mut gb) = (0, 0);
        for case in 0..3000 {
            let mut text = String::new();
            for _ in 0..next() % 400 {
                match next() % 4 {
                    0 => text.push(common[(next() % common.len() as u64) as usize]),
                    1 => text.push(char::from_u32(0x4E00 + (next() % 0x5200) as u32).unwrap()),
                    2 => text.push(char::from(b' ' + (next() % 90) as u8)),
                    _ => text.push_str("车九进一 "),
                }
            }
            let target = if case % 2 == 0 { Encoding::Gb18030 } else { Encoding::Big5 };
            let mut bytes = target.encode_replacing(&text, '?').into_owned();
            for _ in 0..next() % 4 {
                if bytes.is_empty() {
                    break;
                }
                let at = (next() % bytes.len() as u64) as usize;
                match next() % 3 {
                    0 => bytes[at] = next() as u8,
                    1 => bytes.truncate(at),
                    _ => bytes.insert(at, 0x80 | next() as u8),
                }
            }
            let verdict = guess_chinese(&bytes);
            assert_eq!(verdict, decoded_verdict(&bytes), "case {case}");
            big5 += usize::from(verdict == Encoding::Big5);
            gb += usize::from(verdict == Encoding::Gb18030);
        }
        // Both verdicts were reached, many times.
        assert!(big5 > 500 && gb > 500, "{big5} {gb}");
    }

    proptest! {
        #[test]
        fn random_bytes_score_as_decoded(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            same_scores(&bytes);
        }

        #[test]
        fn mutated_texts_score_as_decoded(
            traditional in any::<bool>(),
            edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 0..8),
            cut in any::<usize>(),
        ) {
            let mut bytes = if traditional { big5(TRADITIONAL) } else { gbk(SIMPLIFIED) };
            for (at, byte, how) in edits {
                let at = at % (bytes.len() + 1);
                match how {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ if at < bytes.len() => { bytes.remove(at); }
                    _ => {}
                }
            }
            bytes.truncate(cut % (bytes.len() + 1));
            same_scores(&bytes);
        }
    }
}
