//! The fast paths of the Chinese reader ([`chinese::parse_plain`]) and of
//! the resolver ([`Descriptive::resolve`]'s plain path) agree with the
//! general code they stand in for: same description, same move, same
//! error, on every legal move written in both styles, on mutations of
//! those texts, on random token strings and on random descriptions, in
//! positions of random games and in the tandem-rich positions of the WXF
//! fixture.

use std::io::Read;

use super::chinese::{self, Style};
use super::{Descriptive, Direction, Order, Origin, ResolveError};
use crate::{Position, Role};

/// xorshift64*, as in the integration tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions of random games from the start.
fn game_positions(games: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start();
        for _ in 0..60 + rng.below(120) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(pos.clone());
            let _ = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    out
}

/// The positions of the WXF notation fixture: many tandem pieces, pawns
/// on several files.
fn fixture_positions() -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/notation-pyffish-wxf.txt.gz");
    let bytes = std::fs::read(path).expect("fixture");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).expect("gzip text");
    let mut fens: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split(';').next())
        .collect();
    fens.dedup();
    fens.iter().map(|f| Position::from_fen(f).expect("fixture FEN")).collect()
}

/// Every character the reader takes as a token, and others around them:
/// white space, remark marks, junk of one to four bytes.
fn alphabet() -> Vec<char> {
    // The blocks the characters come from (the tables of the reader).
    let mut out: Vec<char> = (0..0x80u32)
        .chain(0x4E00..0xA000)
        .chain(0xFF00..0xFF60)
        .filter_map(char::from_u32)
        .filter(|&c| {
            chinese::parse(&format!("{c}二平五")).is_ok() || chinese::parse(&format!("炮{c}平五")).is_ok()
        })
        .collect();
    // Qualifiers, directions and brackets, which the two probes above miss.
    out.extend("前中后後进進上退下平+＋-－=＝.．(（)）".chars());
    out.extend([
        ' ', '\u{3000}', '\t', '\u{a0}', '!', '?', '#', '！', '？', '＃', 'x', 'é', '马', '😀', '０', '0',
        '十',
    ]);
    out.sort();
    out.dedup();
    out
}

/// How many texts and descriptions of each outcome were compared, so
/// that the tests know they saw errors as well as moves.
#[derive(Default, Debug)]
struct Tally {
    not_read: usize,
    read: usize,
    resolved: usize,
    no_piece: usize,
    illegal: usize,
    ambiguous: usize,
}

impl Tally {
    fn resolution(&mut self, r: &Result<crate::Move, ResolveError>) {
        match r {
            Ok(_) => self.resolved += 1,
            Err(ResolveError::NoPiece { .. } | ResolveError::EmptyOrigin { .. }) => self.no_piece += 1,
            Err(ResolveError::Illegal { .. }) => self.illegal += 1,
            Err(ResolveError::Ambiguous { .. }) => self.ambiguous += 1,
        }
    }

    /// Whether every outcome was seen often enough.
    fn covers_every_outcome(&self) -> bool {
        [self.not_read, self.read, self.resolved, self.no_piece, self.illegal, self.ambiguous]
            .iter()
            .all(|&n| n > 1_000)
    }
}

/// Whether the fast paths and the general ones read `text` alike in `pos`.
fn check_text(pos: &Position, text: &str, tally: &mut Tally) {
    let fast = chinese::parse_with_remark(text);
    let general = chinese::parse_general(text);
    assert_eq!(fast, general, "{text:?}");
    if let Some(d) = chinese::parse_plain(text) {
        assert_eq!(general, Ok((d, "")), "{text:?}");
    }
    match general {
        Ok((d, _)) => {
            tally.read += 1;
            let r = d.resolve(pos);
            assert_eq!(r, d.resolve_general(pos), "{text:?} in {}", pos.fen());
            tally.resolution(&r);
        }
        Err(_) => tally.not_read += 1,
    }
}

/// Random edits of `text`: a character replaced, dropped, added or
/// swapped, white space or remarks around it.
fn mutate(text: &str, alphabet: &[char], rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let any = |rng: &mut Rng| alphabet[rng.below(alphabet.len())];
    for _ in 0..1 + rng.below(2) {
        let i = rng.below(chars.len() + 1);
        match rng.below(6) {
            0 if i < chars.len() => chars[i] = any(rng),
            1 if i < chars.len() => {
                chars.remove(i);
            }
            2 => chars.insert(i, any(rng)),
            3 if i + 1 < chars.len() => chars.swap(i, i + 1),
            4 => chars.push(['!', '?', '+', '＋', '#', ' ', '　'][rng.below(7)]),
            _ => chars.insert(0, [' ', '\t', '　', '\n'][rng.below(4)]),
        }
    }
    chars.into_iter().collect()
}

fn random_description(rng: &mut Rng) -> Descriptive {
    let small = |rng: &mut Rng| rng.below(12) as u8; // 0…11: off the ends too
    let order = |rng: &mut Rng| match rng.below(9) {
        0 => Order::Front,
        1 => Order::Middle,
        2 => Order::Rear,
        3 => Order::Plus,
        4 => Order::Minus,
        5 => Order::Foremost,
        6 => Order::Rearmost,
        _ => Order::Nth(rng.below(8) as u8),
    };
    let role = match rng.below(8) {
        7 => None,
        i => Some(Role::ALL[i]),
    };
    let origin = match rng.below(4) {
        0 | 1 => Origin::File(small(rng)),
        2 => Origin::Ordered {
            order: order(rng),
            file: if rng.below(2) == 0 { None } else { Some(small(rng)) },
        },
        _ => Origin::Digits { first: small(rng), second: small(rng) },
    };
    let direction = match rng.below(4) {
        0 => Some(Direction::Forward),
        1 => Some(Direction::Backward),
        2 => Some(Direction::Sideways),
        _ => None,
    };
    Descriptive { role, origin, direction, number: small(rng) }
}

fn check_position(pos: &Position, alphabet: &[char], rng: &mut Rng, tally: &mut Tally) {
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        for style in [Style::Simplified, Style::Traditional] {
            let text = chinese::write(pos, m, style).expect("a legal move");
            let d = chinese::parse_plain(&text).expect("written text takes the fast path");
            assert_eq!(d.resolve(pos), Ok(m), "{text} in {}", pos.fen());
            check_text(pos, &text, tally);
        }
    }
    // Edits of a few written moves, random token strings, random
    // descriptions.
    for _ in 0..4 {
        let m = moves[rng.below(moves.len())];
        let style = if rng.below(2) == 0 { Style::Simplified } else { Style::Traditional };
        let text = chinese::write(pos, m, style).expect("a legal move");
        for _ in 0..8 {
            check_text(pos, &mutate(&text, alphabet, rng), tally);
        }
    }
    for _ in 0..16 {
        let len = 2 + rng.below(5);
        let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        check_text(pos, &text, tally);
    }
    for _ in 0..32 {
        let d = random_description(rng);
        let r = d.resolve(pos);
        assert_eq!(r, d.resolve_general(pos), "{d:?} in {}", pos.fen());
        tally.resolution(&r);
    }
}

#[test]
fn fast_paths_agree_with_the_general_ones_in_random_games() {
    let alphabet = alphabet();
    assert!(alphabet.len() > 80, "{alphabet:?}");
    let mut rng = Rng(0x5EED_C0DE_1234_5678);
    let positions = game_positions(120, &mut rng);
    assert!(positions.len() > 10_000, "{}", positions.len());
    let mut tally = Tally::default();
    for pos in &positions {
        check_position(pos, &alphabet, &mut rng, &mut tally);
    }
    eprintln!("{tally:?}");
    assert!(tally.covers_every_outcome(), "{tally:?}");
}

#[test]
fn fast_paths_agree_with_the_general_ones_with_tandem_pieces() {
    let alphabet = alphabet();
    let mut rng = Rng(0xDEC0_DED0_5EED_0001);
    let positions = fixture_positions();
    assert!(positions.len() > 10_000, "{}", positions.len());
    let mut tandem = 0;
    let mut tally = Tally::default();
    for pos in &positions {
        check_position(pos, &alphabet, &mut rng, &mut tally);
        // The ordered forms take the fast path too when one move answers.
        tandem += pos
            .legal_moves()
            .iter()
            .filter(|&&m| {
                let text = chinese::write(pos, m, Style::Simplified).expect("a legal move");
                let d = chinese::parse(&text).expect("written text reads");
                matches!(d.origin, Origin::Ordered { .. }) && d.resolve_plain(pos) == Some(m)
            })
            .count();
    }
    eprintln!("{tally:?}, {tandem} ordered moves on the fast path");
    assert!(tally.covers_every_outcome(), "{tally:?}");
    assert!(tandem > 10_000, "{tandem}");
}

#[test]
fn the_common_shapes_take_the_fast_path() {
    for text in
        ["炮二平五", "马８进７", "車1進1", "炮2=5", "前兵九平八", "前九平八", "炮25", "二7平6", "马8（7）"]
    {
        let d = chinese::parse_plain(text).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(chinese::parse_general(text), Ok((d, "")), "{text}");
    }
    // White space, remarks, other characters: the general path.
    for text in
        [" 炮二平五", "炮二平五 ", "炮二平五!", "炮二平五+", "炮二平", "炮二平五五五", "炮二平x", "炮é平五"]
    {
        assert_eq!(chinese::parse_plain(text), None, "{text}");
        assert_eq!(chinese::parse_with_remark(text), chinese::parse_general(text), "{text}");
    }
}

#[test]
fn the_one_destination_is_the_first_of_the_destinations() {
    for color in [crate::Color::Red, crate::Color::Black] {
        for role in Role::ALL {
            for from in crate::Square::all() {
                for direction in
                    [Some(Direction::Forward), Some(Direction::Backward), Some(Direction::Sideways), None]
                {
                    for number in 0..=11 {
                        let d = Descriptive { role: Some(role), origin: Origin::File(1), direction, number };
                        let expected =
                            if direction.is_some() { d.destinations(color, role, from)[0] } else { None };
                        assert_eq!(d.destination(color, role, from), expected, "{d:?} {color:?} {from}");
                    }
                }
            }
        }
    }
}

#[test]
fn is_move_text_answers_as_trying_every_notation_does() {
    use super::{Notation, iccs, san, wxf};
    let every = |text: &str| {
        iccs::parse(text).is_ok()
            || wxf::parse(text).is_ok()
            || chinese::parse(text).is_ok()
            || san::parse(text).is_ok()
    };
    let mut rng = Rng(0x5eed_1234);
    let alphabet = alphabet();
    let (mut moves, mut not) = (0, 0);
    for pos in game_positions(6, &mut rng) {
        for m in pos.legal_moves().iter().take(6) {
            let notations = [
                Notation::Chinese(Style::Simplified),
                Notation::Chinese(Style::Traditional),
                Notation::Wxf,
                Notation::Iccs,
                Notation::Uci,
            ];
            for notation in notations {
                let text = notation.write(&pos, *m).expect("a legal move");
                for text in [text.clone(), mutate(&text, &alphabet, &mut rng), format!(" {text}")] {
                    let answer = super::is_move_text(&text);
                    assert_eq!(answer, every(&text), "{text:?}");
                    if answer { moves += 1 } else { not += 1 }
                }
            }
        }
    }
    // Both answers were met, many times.
    assert!(moves > 1000 && not > 100, "{moves} moves, {not} not");
}
