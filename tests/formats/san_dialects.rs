//! SAN as chess programs write Xiangqi PGN, read back to the same moves:
//! - records laid out as pychess (ranks 1…10, `[White]` for Red) and
//!   WinBoard (ranks 0…9) export them;
//! - random legal games, and their mirror images, written in every dialect
//!   (ranks from 0 or 1, with and without `x` and `+`/`#`, the letters
//!   `H`/`E` or `N`/`B`), each read back to the moves written.

use crate::common::Rng;
use qipu::formats::pgn;
use qipu::record::replay::replay;
use qipu::{Move, Position, Role};

/// A game of 38 plies as Fairy-Stockfish writes its SAN (what pychess
/// exports): ranks 1…10, `x` for captures, origin ranks (`E5e3`) where two
/// pieces could go.
const PYCHESS_MOVES: &str = "1. Ade2 Ra9 2. Ea3 Ra8 3. Chc3 Ch7 4. Ec1 Pi6 5. Cb4 Afe9 6. Ece3 Cc8 \
     7. Ad1 Hi8 8. Cxc7 Ch5 9. Cb6 Ch3 10. Cc5 Cxc4 11. Ca5 Ege8 12. Pi5 Hh6 13. Cb4 Rf10 14. Cb9 Rf5 \
     15. Eg5 Pa6 16. Ri2 Pg6 17. Cb2 Hg8 18. E5e3 Pe6 19. Hd2 Hh6";

/// The same game's moves as points.
const PYCHESS_POINTS: &str = "d0e1 a9a8 c0a2 a8a7 h2c2 h7h6 a2c0 i6i5 b2b3 f9e8 c0e2 b7c7 e1d0 h9i7 c2c6 h6h4 \
     b3b5 h4h2 c6c4 c7c3 c4a4 g9e7 i3i4 i7h5 b5b3 i9f9 b3b8 f9f4 e2g4 a6a5 i0i1 g6g5 b8b1 h5g7 g4e2 e6e5 b0d1 g7h5";

fn points(text: &str) -> Vec<Move> {
    text.split_whitespace().map(|m| m.parse().expect("a move")).collect()
}

/// The move text with every rank number one less: WinBoard's count.
fn ranks_from_zero(moves: &str) -> String {
    moves
        .split(' ')
        .map(|word| {
            if word.ends_with('.') || word.is_empty() {
                return word.to_string();
            }
            let mut out = String::new();
            let mut digits = String::new();
            for c in word.chars().chain(std::iter::once(' ')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    out.push_str(&(digits.parse::<u32>().unwrap() - 1).to_string());
                    digits.clear();
                }
                if c != ' ' {
                    out.push(c);
                }
            }
            out
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_pychess_export_reads_with_its_players_as_red_and_black() {
    let text = format!(
        "[Event \"Casual game\"]\n[Site \"https://www.pychess.org/abcdefgh\"]\n[Date \"2024.03.01\"]\n\
         [Round \"-\"]\n[White \"redplayer\"]\n[Black \"blackplayer\"]\n[Result \"*\"]\n\
         [TimeControl \"300+3\"]\n[WhiteElo \"1523\"]\n[BlackElo \"1498\"]\n[Variant \"Xiangqi\"]\n\n\
         {PYCHESS_MOVES} *\n"
    );
    let record = &pgn::read(&text)[0];
    let replayed = replay(record);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    assert_eq!(replayed.moves, points(PYCHESS_POINTS));
    assert_eq!((record.tag("Red"), record.tag("Black")), (Some("redplayer"), Some("blackplayer")));
    assert_eq!((record.tag("RedElo"), record.tag("White")), (Some("1523"), None));
    // Written back under Xiangqi's own names, and read again the same.
    let written = pgn::write(record, qipu::notation::Notation::Iccs);
    assert!(written.contains("[Red \"redplayer\"]") && written.contains("[RedElo \"1523\"]"), "{written}");
    let again = &pgn::read(&written)[0];
    assert_eq!(again.tag("Red"), Some("redplayer"));
    assert_eq!(replay(again).moves, points(PYCHESS_POINTS));
}

#[test]
fn a_winboard_export_reads_with_ranks_from_zero() {
    let moves = ranks_from_zero(PYCHESS_MOVES);
    assert!(moves.contains("18. E4e2 ") && moves.contains("Rf9"), "{moves}");
    let text = format!(
        "[Event \"Computer chess game\"]\n[Site \"host\"]\n[Date \"2024.03.01\"]\n[Round \"-\"]\n\
         [White \"fairy-stockfish\"]\n[Black \"human\"]\n[Result \"*\"]\n[Variant \"xiangqi\"]\n\n{moves} *\n"
    );
    let record = &pgn::read(&text)[0];
    let replayed = replay(record);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    assert_eq!(replayed.moves, points(PYCHESS_POINTS));
    assert_eq!(record.tag("Red"), Some("fairy-stockfish"));
}

#[test]
fn a_red_tag_keeps_white_as_it_is() {
    let record = &pgn::read("[Red \"甲\"]\n[White \"乙\"]\n\n1. h2e2 *\n")[0];
    assert_eq!((record.tag("Red"), record.tag("White")), (Some("甲"), Some("乙")));
}

#[test]
fn mixed_case_coordinates_read_as_whichever_reading_is_legal() {
    // `H2e2` in a game of coordinates: h2e2 as points; as SAN (a horse on
    // rank 2 to e2) nothing.
    let record = &pgn::read("1. H2e2 h9g7 *\n")[0];
    assert_eq!(replay(record).moves, points("h2e2 h9g7"));
    // `E4e2` after SAN moves: the elephant on rank 4 (counted from 0) to
    // e2; as points, e4 is empty.
    let record = &pgn::read("[FEN \"3k5/9/9/9/9/2B6/9/9/9/2B1K4 w\"]\n\n1. Kf0 Kd8 2. E4e2 *\n")[0];
    let replayed = replay(record);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    assert_eq!(replayed.moves, points("e0f0 d9d8 c4e2"));
    // Counted from 1 (pychess): `E5e3`.
    let record = &pgn::read("[FEN \"3k5/9/9/9/9/2B6/9/9/9/2B1K4 w\"]\n\n1. Kf1 Kd9 2. E5e3 *\n")[0];
    assert_eq!(replay(record).moves, points("e0f0 d9d8 c4e2"));
}

#[test]
fn a_move_read_two_ways_waits_for_the_game_to_tell() {
    // `Ch4`: h2h4 counted from 0, h2h3 counted from 1; `Hg8` then only
    // reads from 1 (h9g7).
    let record = &pgn::read("1. Ch4 Hg8 2. Hg3 *\n")[0];
    let replayed = replay(record);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    assert_eq!(replayed.moves, points("h2h3 h9g7 h0g2"));
    // Counted from 0: `Hg7`.
    let record = &pgn::read("1. Ch4 Hg7 2. Hg2 *\n")[0];
    assert_eq!(replay(record).moves, points("h2h4 h9g7 h0g2"));
    // A game that never tells is an ambiguity at its move, not a guess.
    let record = &pgn::read("1. Ch4 *\n")[0];
    let e = replay(record).error.expect("ambiguous");
    assert!(e.to_string().contains("ambiguous"), "{e}");
    // Variations and comments held meanwhile are kept, in place.
    let record = &pgn::read("1. Ch4 {a} (1. Ch5 {b}) 1... Hg8 {c} 2. Hg3 *\n")[0];
    let replayed = replay(record);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    assert_eq!(replayed.variation_plies, 1);
    let text = pgn::write(record, qipu::notation::Notation::Uci);
    assert!(text.contains("1. h2h3 {a} (1. h2h4 {b}) 1... h9g7 {c} 2. h0g2"), "{text}");
}

/// How a dialect writes SAN.
#[derive(Clone, Copy, Debug)]
struct Dialect {
    /// The first rank's number.
    base: u8,
    /// `x` before the destination of a capture.
    captures: bool,
    /// `+` after a check, `#` after a mate.
    checks: bool,
    /// `N` and `B` for horse and elephant, not `H` and `E`.
    chess_letters: bool,
}

/// `m`, legal in `pos`, in SAN of `dialect`: the piece's letter (none for
/// a pawn), the origin's file, else rank, else both, where another piece
/// of the kind can go to the destination.
fn san(pos: &Position, m: Move, dialect: Dialect) -> String {
    let role = pos.board().piece_at(m.from).expect("a piece").role;
    let letter = match role {
        Role::King => "K",
        Role::Advisor => "A",
        Role::Elephant if dialect.chess_letters => "B",
        Role::Elephant => "E",
        Role::Horse if dialect.chess_letters => "N",
        Role::Horse => "H",
        Role::Rook => "R",
        Role::Cannon => "C",
        Role::Pawn => "",
    };
    let mut out = letter.to_string();
    let rivals: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|o| {
            o.to == m.to && o.from != m.from && pos.board().piece_at(o.from).map(|p| p.role) == Some(role)
        })
        .collect();
    let rank = |r: usize| (r as u8 + dialect.base).to_string();
    if !rivals.is_empty() {
        if rivals.iter().all(|o| o.from.file() != m.from.file()) {
            out.push(m.from.file().char());
        } else if rivals.iter().all(|o| o.from.rank() != m.from.rank()) {
            out.push_str(&rank(m.from.rank().index()));
        } else {
            out.push(m.from.file().char());
            out.push_str(&rank(m.from.rank().index()));
        }
    }
    if dialect.captures && pos.board().piece_at(m.to).is_some() {
        out.push('x');
    }
    out.push(m.to.file().char());
    out.push_str(&rank(m.to.rank().index()));
    if dialect.checks {
        let mut after = pos.clone();
        after.play_unchecked(m);
        if after.is_check() {
            out.push(if after.legal_moves().is_empty() { '#' } else { '+' });
        }
    }
    out
}

/// A random legal game of up to `plies` plies, and its mirror image.
fn random_game(rng: &mut Rng, plies: usize) -> [Vec<Move>; 2] {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.play_unchecked(m);
        moves.push(m);
    }
    let mirrored = moves.iter().map(|m| m.flip_horizontal()).collect();
    [moves, mirrored]
}

/// The game as PGN in `dialect`.
fn pgn_text(moves: &[Move], dialect: Dialect) -> String {
    let mut pos = Position::start();
    let mut text = String::from("[White \"r\"]\n[Black \"b\"]\n[Variant \"xiangqi\"]\n\n");
    for (ply, &m) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&san(&pos, m, dialect));
        text.push(' ');
        pos.play_unchecked(m);
    }
    text.push_str("*\n");
    text
}

#[test]
fn random_games_in_every_dialect_read_back_to_their_moves() {
    let mut rng = Rng(0x5a4d_d1a1_ec75_0044);
    let mut checked = 0;
    for game in 0..120 {
        for moves in random_game(&mut rng, 20 + game % 140) {
            for bits in 0..16u8 {
                let dialect = Dialect {
                    base: bits & 1,
                    captures: bits & 2 != 0,
                    checks: bits & 4 != 0,
                    chess_letters: bits & 8 != 0,
                };
                let text = pgn_text(&moves, dialect);
                let record = &pgn::read(&text)[0];
                let replayed = replay(record);
                // A game every move of which reads the same counted from 0
                // and from 1 is ambiguous; the random games are long enough
                // to tell.
                assert!(replayed.is_valid(), "{dialect:?}: {:?}\n{text}", replayed.error);
                assert_eq!(replayed.moves, moves, "{dialect:?}\n{text}");
                assert_eq!(record.tag("Red"), Some("r"));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 120 * 2 * 16);
}
