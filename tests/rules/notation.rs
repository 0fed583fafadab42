//! Notation vectors from the specification and a table of Chinese forms.

use qipu::notation::{ResolveError, chinese, iccs, wxf};
use qipu::{Move, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// notation.md §4.6: one game fragment in every notation.
#[test]
fn spec_sequence_in_every_notation() {
    let rows = [
        ("炮二平五", "C2.5", "C2.5", "H2-E2", "h2e2"),
        ("马８进７", "H8+7", "N8+7", "H9-G7", "h9g7"),
        ("马二进三", "H2+3", "N2+3", "H0-G2", "h0g2"),
        ("车９平８", "R9.8", "R9.8", "I9-H9", "i9h9"),
        ("车一平二", "R1.2", "R1.2", "I0-H0", "i0h0"),
        ("卒７进１", "P7+1", "P7+1", "G6-G5", "g6g5"),
        ("车二进六", "R2+6", "R2+6", "H0-H6", "h0h6"),
        ("马２进３", "H2+3", "N2+3", "B9-C7", "b9c7"),
        ("兵七进一", "P7+1", "P7+1", "C3-C4", "c3c4"),
        ("炮８平９", "C8.9", "C8.9", "H7-I7", "h7i7"),
        ("车二平三", "R2.3", "R2.3", "H6-G6", "h6g6"),
        ("炮９退１", "C9-1", "C9-1", "I7-I8", "i7i8"),
    ];
    let mut p = Position::start();
    for (chinese_text, wxf_text, ee_text, iccs_text, uci_text) in rows {
        let m = mv(uci_text);
        assert_eq!(chinese::parse(chinese_text).unwrap().resolve(&p), Ok(m), "{chinese_text}");
        assert_eq!(wxf::parse(wxf_text).unwrap().resolve(&p), Ok(m), "{wxf_text}");
        assert_eq!(wxf::parse(ee_text).unwrap().resolve(&p), Ok(m), "{ee_text}");
        assert_eq!(iccs::parse(iccs_text).unwrap().resolve(&p), Ok(m), "{iccs_text}");
        assert_eq!(iccs::parse(uci_text).unwrap().resolve(&p), Ok(m), "{uci_text}");
        assert_eq!(chinese::write(&p, m, chinese::Style::Simplified).unwrap(), chinese_text);
        assert_eq!(wxf::write(&p, m).unwrap(), wxf_text);
        assert_eq!(iccs::write(m, iccs::Style::Iccs), iccs_text);
        assert_eq!(iccs::write(m, iccs::Style::Uci), uci_text);
        p.play(m).unwrap();
    }
    assert_eq!(p.fen(), "r1bakabr1/8c/1cn3n2/p1p1p1R1p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB2 w - - 12 7");
}

/// notation.md §4.6: Fairy-Stockfish's WXF vectors (its `test.py`), moves
/// converted from its 1-based ranks. qipu reads them all; it writes `.`
/// where Fairy-Stockfish writes `=`.
#[test]
fn fairy_stockfish_wxf_vectors() {
    let start = qipu::fen::START;
    let tandem = "rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/1NB6/P1P1P3P/1C1A3C1/9/RNBAK4 w - - 0 1";
    let rook = "4k4/4a3R/9/9/9/9/9/9/4K4/9 w - - 0 1";
    // After 炮二平五 马８进７ 马二进三 (the h9 horse has left, the rook may come across).
    let after_three = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2";
    let cases = [
        (start, "h2h9", "C2+7", "C2+7"),
        (start, "c0e2", "E7+5", "E7+5"),
        (after_three, "i9h9", "R9=8", "R9.8"),
        (rook, "i8e8", "R1=5", "R1.5"),
        (rook, "i8i9", "R1+1", "R1+1"),
        (tandem, "c4e2", "E7-5", "E7-5"),
        (tandem, "d0e1", "A6+5", "A6+5"),
        (tandem, "b4c6", "H++7", "H++7"),
        (tandem, "e5e6", "P++1", "P++1"),
        (tandem, "e3e4", "P-+1", "P-+1"),
    ];
    for (fen, m, fsf, official) in cases {
        let p = pos(fen);
        assert_eq!(wxf::parse(fsf).unwrap().resolve(&p), Ok(mv(m)), "{fsf} in {fen}");
        assert_eq!(wxf::write(&p, mv(m)).unwrap(), official, "{m} in {fen}");
    }
}

const START: &str = qipu::fen::START;
/// Two red rooks on file 九 (a0, a2).
const ROOKS: &str = "3k5/9/9/9/9/9/9/R8/9/R3K4 w";
/// Three red pawns on file 五 (e5, e6, e7).
const THREE: &str = "4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w";
/// Four red pawns on file 五 (e5…e8).
const FOUR: &str = "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w";
/// Red pawns on files 七 (c5, c6) and 三 (g5, g6).
const TWO_FILES: &str = "4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w";
/// Black pawns on files 3 (c3, c4) and 7 (g3, g4).
const BLACK_TWO_FILES: &str = "4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b";
/// Red advisors on d0 and d2 (file 六).
const ADVISORS: &str = "5k3/9/9/9/9/9/9/3A5/9/3AK4 w";

#[test]
fn chinese_forms() {
    use Expect::*;
    enum Expect {
        Is(&'static str),
        NoPiece,
        Illegal,
        Ambiguous,
    }
    let rows: &[(&str, &str, Expect)] = &[
        // Character variants and numeral styles.
        (START, "炮二平五", Is("h2e2")),
        (START, "砲二平五", Is("h2e2")),
        (START, "包二平五", Is("h2e2")),
        (START, "炮2平5", Is("h2e2")),
        (START, "炮２平５", Is("h2e2")),
        (START, "炮贰平伍", Is("h2e2")),
        (START, "马二进三", Is("h0g2")),
        (START, "馬二進三", Is("h0g2")),
        (START, "傌二上三", Is("h0g2")),
        (START, "车一进一", Is("i0i1")),
        (START, "車一進一", Is("i0i1")),
        (START, "俥一进一", Is("i0i1")),
        (START, "硨一进一", Is("i0i1")),
        (START, "相三进五", Is("g0e2")),
        (START, "象三进五", Is("g0e2")),
        (START, "仕四进五", Is("f0e1")),
        (START, "士四进五", Is("f0e1")),
        (START, "帅五进一", Is("e0e1")),
        (START, "帥五進一", Is("e0e1")),
        (START, "兵七进一", Is("c3c4")),
        (START, "卒七进一", Is("c3c4")),
        // WXF operators inside Chinese, abbreviated forms, remarks.
        (START, "马2+3", Is("h0g2")),
        (START, "马2＋3", Is("h0g2")),
        (START, "炮2.5", Is("h2e2")),
        (START, "炮二＝五", Is("h2e2")),
        (START, "炮25", Is("h2e2")),
        (START, "包25", Is("h2e2")),
        (START, "马23", Is("h0g2")),
        (START, "马2（3）", Is("h0g2")),
        (START, "马2(3)", Is("h0g2")),
        (START, "炮二平五!?", Is("h2e2")),
        // The side to move decides, not the numeral style: Black, Chinese numerals.
        (START_B, "马八进七", Is("h9g7")),
        (START_B, "马8进7", Is("h9g7")),
        (START_B, "马８上７", Is("h9g7")),
        (START_B, "马８（７）", Is("h9g7")),
        (START_B, "车1下1", Illegal),
        // Two pieces on a file: 前/后 before or after the piece.
        (ROOKS, "前车进一", Is("a2a3")),
        (ROOKS, "后车进一", Is("a0a1")),
        (ROOKS, "後車進一", Is("a0a1")),
        (ROOKS, "车前进一", Is("a2a3")),
        (ROOKS, "車後平八", Is("a0b0")),
        (ROOKS, "车九进一", Ambiguous),
        (ROOKS, "车九进二", Is("a2a4")),
        // Three pawns on a file.
        (THREE, "前兵平四", Is("e7f7")),
        (THREE, "中兵平四", Is("e6f6")),
        (THREE, "后兵平四", Is("e5f5")),
        (THREE, "前兵进一", Is("e7e8")),
        (THREE, "兵五平四", Is("e6f6")),
        // Four pawns on a file: 前/一, 二, 三, 四; 后 is the rearmost in print and
        // the third for ElephantEye.
        (FOUR, "前兵平四", Is("e8f8")),
        (FOUR, "一兵平四", Is("e8f8")),
        (FOUR, "二兵平四", Is("e7f7")),
        (FOUR, "三兵平四", Is("e6f6")),
        (FOUR, "四兵平四", Is("e5f5")),
        (FOUR, "后兵平四", Ambiguous),
        (FOUR, "五兵平四", NoPiece),
        // Pawns on two files: xqbase pool order (right to left), the 东萍 pieceless
        // form, the old five-character form.
        (TWO_FILES, "一兵平二", Is("g6h6")),
        (TWO_FILES, "二兵平四", Is("g5f5")),
        (TWO_FILES, "三兵平六", Is("c6d6")),
        (TWO_FILES, "四兵平八", Is("c5b5")),
        (TWO_FILES, "前七平六", Is("c6d6")),
        (TWO_FILES, "后三平四", Is("g5f5")),
        (TWO_FILES, "前兵七平六", Is("c6d6")),
        (TWO_FILES, "二兵七平八", Is("c5b5")),
        (BLACK_TWO_FILES, "二7平6", Is("g4f4")),
        (BLACK_TWO_FILES, "前3平4", Is("c3d3")),
        (BLACK_TWO_FILES, "一卒平２", Is("c3b3")),
        // Advisors and elephants sharing a file need no qualifier.
        (ADVISORS, "仕六进五", Is("d0e1")),
        (ADVISORS, "仕六退五", Is("d2e1")),
        // Impossible: no such piece, a piece that cannot move so, a pawn moving back.
        (START, "车三进一", NoPiece),
        (START, "前炮平五", NoPiece),
        (START, "马二平三", Illegal),
        (START, "马二进四", Illegal),
        (START, "车一进三", Illegal),
        (START, "兵七退一", Illegal),
        (START, "兵七平六", Illegal),
        (START, "炮二进九", Illegal),
        (START, "相三进四", Illegal),
    ];
    for (fen, text, expect) in rows {
        let p = pos(fen);
        let got = chinese::parse(text).unwrap_or_else(|e| panic!("{text}: {e}")).resolve(&p);
        match (expect, &got) {
            (Is(m), Ok(g)) => assert_eq!(*g, mv(m), "{text} in {fen}"),
            (NoPiece, Err(ResolveError::NoPiece { .. })) => {}
            (Illegal, Err(ResolveError::Illegal { .. })) => {}
            (Ambiguous, Err(ResolveError::Ambiguous { moves })) => assert!(moves.len() >= 2),
            _ => panic!("{text} in {fen}: got {got:?}"),
        }
    }
}

const START_B: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";

#[test]
fn chinese_syntax_errors() {
    for text in ["", "炮", "炮二平", "炮二平五五", "炮十平五", "X二平五", "炮二走五", "前中平五"]
    {
        assert!(chinese::parse(text).is_err(), "{text:?} should not parse");
    }
    let e = chinese::parse("炮二走五").unwrap_err().to_string();
    assert!(e.contains("'走'"), "{e}");
}

#[test]
fn wxf_dialects() {
    let rows: &[(&str, &str, &str)] = &[
        (START, "C2.5", "h2e2"),
        (START, "c2.5", "h2e2"),
        (START, "C2=5", "h2e2"),
        (START, "Ｃ２＝５", "h2e2"),
        (START, "H2+3", "h0g2"),
        (START, "N2+3", "h0g2"),
        (START, "B3+5", "g0e2"),
        (START, "E3+5", "g0e2"),
        (START, "C2.5+", "h2e2"),
        (START, "C2.5!", "h2e2"),
        (ROOKS, "R+.8", "a2b2"),
        (ROOKS, "R-+1", "a0a1"),
        (ROOKS, "+R.8", "a2b2"),
        (ROOKS, "-R+1", "a0a1"),
        (ROOKS, "fR9.8", "a2b2"),
        (ROOKS, "bR9+1", "a0a1"),
        (THREE, "P+.4", "e7f7"),
        (THREE, "P5.4", "e6f6"),
        (THREE, "P-.4", "e5f5"),
        (THREE, "P..4", "e6f6"),
        (THREE, "15.4", "e7f7"),
        (THREE, "25.4", "e6f6"),
        (THREE, "35.4", "e5f5"),
        (FOUR, "++.4", "e8f8"),
        (FOUR, "P+.4", "e7f7"),
        (FOUR, "P-.4", "e6f6"),
        (FOUR, "--.4", "e5f5"),
        (FOUR, "Pa.4", "e8f8"),
        (FOUR, "Pd.4", "e5f5"),
        (TWO_FILES, "3+.2", "g6h6"),
        (TWO_FILES, "3-.4", "g5f5"),
        (TWO_FILES, "7+.6", "c6d6"),
        (TWO_FILES, "7-.8", "c5b5"),
        (TWO_FILES, "Pa.2", "g6h6"),
        (TWO_FILES, "Pc.6", "c6d6"),
        (TWO_FILES, "+7.6", "c6d6"),
        (TWO_FILES, "27.8", "c5b5"),
    ];
    for (fen, text, m) in rows {
        let p = pos(fen);
        let got = wxf::parse(text).unwrap_or_else(|e| panic!("{text}: {e}")).resolve(&p);
        assert_eq!(got, Ok(mv(m)), "{text} in {fen}");
    }
    for text in ["", "C2.", "C2x5", "X2.5", "C0.5", "C2.0", "C2.5x", "CC.5"] {
        assert!(wxf::parse(text).is_err(), "{text:?} should not parse");
    }
}

#[test]
fn writers_use_the_canonical_forms() {
    let rows: &[(&str, &str, &str, &str, &str)] = &[
        (ROOKS, "a2b2", "前车平八", "前車平八", "R+.8"),
        (ROOKS, "a0a1", "后车进一", "後車進一", "R-+1"),
        (THREE, "e6f6", "中兵平四", "中兵平四", "P5.4"),
        (FOUR, "e8f8", "一兵平四", "一兵平四", "++.4"),
        (FOUR, "e7f7", "二兵平四", "二兵平四", "P+.4"),
        (FOUR, "e6f6", "三兵平四", "三兵平四", "P-.4"),
        (FOUR, "e5f5", "四兵平四", "四兵平四", "--.4"),
        (TWO_FILES, "g5f5", "二兵平四", "二兵平四", "3-.4"),
        (TWO_FILES, "c6d6", "三兵平六", "三兵平六", "7+.6"),
        (BLACK_TWO_FILES, "g4f4", "四卒平６", "四卒平６", "7-.6"),
        (ADVISORS, "d2e1", "仕六退五", "仕六退五", "A6-5"),
        (START_B, "h9g7", "马８进７", "馬８進７", "H8+7"),
    ];
    for (fen, m, simplified, traditional, wxf_text) in rows {
        let p = pos(fen);
        assert_eq!(
            chinese::write(&p, mv(m), chinese::Style::Simplified).unwrap(),
            *simplified,
            "{m} in {fen}"
        );
        assert_eq!(
            chinese::write(&p, mv(m), chinese::Style::Traditional).unwrap(),
            *traditional,
            "{m} in {fen}"
        );
        assert_eq!(wxf::write(&p, mv(m)).unwrap(), *wxf_text, "{m} in {fen}");
    }
}

#[test]
fn iccs_forms() {
    let p = Position::start();
    for text in ["H2-E2", "h2-e2", "h2e2", "H2E2", "Ｈ２－Ｅ２"] {
        assert_eq!(iccs::parse(text).unwrap().resolve(&p), Ok(mv("h2e2")), "{text}");
    }
    for text in ["", "H2-E", "H2--E2", "J2-E2", "H2-E2-", "h2e2e"] {
        assert!(iccs::parse(text).is_err(), "{text:?}");
    }
    assert!(matches!(iccs::parse("e5e6").unwrap().resolve(&p), Err(ResolveError::EmptyOrigin { .. })));
    assert!(matches!(iccs::parse("h2h8").unwrap().resolve(&p), Err(ResolveError::Illegal { .. })));
    assert!(matches!(iccs::parse("h7e7").unwrap().resolve(&p), Err(ResolveError::EmptyOrigin { .. })));
}

/// Each way a move text fails to parse is a variant a caller can match on,
/// and its message is the end of the error's.
#[test]
fn parse_errors_are_typed() {
    use qipu::notation::{Expected, ParseMoveErrorKind as Kind, san};
    fn kind<T: std::fmt::Debug>(r: Result<T, qipu::notation::ParseMoveError>) -> Kind {
        r.unwrap_err().kind
    }
    assert_eq!(kind(chinese::parse("炮二")), Kind::TooShort { example: "炮二平五" });
    assert_eq!(kind(chinese::parse("炮二x五")), Kind::UnknownCharacter('x'));
    assert_eq!(kind(chinese::parse("二炮五平")), Kind::OutOfOrder);
    assert_eq!(kind(wxf::parse("C2")), Kind::TooShort { example: "C2.5" });
    assert_eq!(kind(wxf::parse("X2.5")), Kind::UnknownPiece);
    assert_eq!(kind(wxf::parse("C2.x")), Kind::Expected(Expected::Digit));
    assert_eq!(kind(wxf::parse("C2.5zz")), Kind::Trailing);
    assert_eq!(kind(iccs::parse("j2e2")), Kind::Expected(Expected::TwoPoints));
    assert_eq!(kind(san::parse("Xe2")), Kind::UnknownPieceLetter('X'));
    assert_eq!(kind(san::parse("C")), Kind::Expected(Expected::Destination));
    assert_eq!(kind(san::parse("Cz2")), Kind::Expected(Expected::DestinationFile));
    assert_eq!(kind(san::parse("Ce11")), Kind::RankOutOfRange { origin: false, value: 11 });
    assert_eq!(kind(san::parse("C99e2")), Kind::RankOutOfRange { origin: true, value: 99 });
    assert_eq!(kind(san::parse("C#e2")), Kind::BeforeDestination('#'));
    let e = san::parse("Ce11").unwrap_err();
    assert_eq!(e.to_string(), "cannot read \"Ce11\" as a SAN move: rank out of range");
    let e = chinese::parse("炮二x五").unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot read \"炮二x五\" as a Chinese move: 'x' is not a piece, numeral, qualifier or direction"
    );
}

/// Why a move is illegal is typed: the rule it breaks, with the move tried.
#[test]
fn resolve_errors_are_typed() {
    use qipu::notation::{IllegalReason, Origin, san};
    use qipu::{Color, Illegality, Piece, Role, Square};
    let p = Position::start();
    let e = chinese::parse("炮三平五").unwrap().resolve(&p).unwrap_err();
    assert_eq!(e, ResolveError::NoPiece { color: Color::Red, role: Role::Cannon, origin: Origin::File(3) });
    assert_eq!(e.to_string(), "no Red cannon on file 3");
    let e = wxf::parse("H2+4").unwrap().resolve(&p).unwrap_err();
    let blocked = Illegality::Blocked(Piece::new(Color::Red, Role::Horse), Square::G0);
    assert_eq!(e, ResolveError::Illegal { reason: IllegalReason::Breaks { mv: mv("h0f1"), rule: blocked } });
    assert_eq!(e.to_string(), "illegal: h0f1: the horse is blocked at g0 (horse leg)");
    let e = iccs::parse("h0f1").unwrap().resolve(&p).unwrap_err();
    assert_eq!(e, ResolveError::Illegal { reason: IllegalReason::Rule(blocked) });
    let e = san::parse("Re5").unwrap().resolve(&p).unwrap_err();
    let reason = IllegalReason::Unreachable {
        color: Color::Red,
        role: Role::Rook,
        to_file: qipu::File::E,
        to_rank: 5,
    };
    assert_eq!(e, ResolveError::Illegal { reason });
    assert_eq!(e.to_string(), "illegal: no Red rook can move to e5");
}
