//! Chinese four-character notation (中文纵线格式): 炮二平五, 马８进７.
//!
//! Read: every character variant in the wild (车車俥硨, 马馬傌, 炮砲包, 相象,
//! 仕士, 帅帥将將, 兵卒, 进進上, 退下, 后後), numerals 一…九 and 壹…玖, ASCII
//! and full-width digits for either side (the side to move decides, never
//! the numeral style), WXF operators inside Chinese text (马8+7), the
//! qualifiers 前/中/后 and 一…五 before or after the piece, the pieceless
//! pawn forms 前九平八 and 二7平6, the old five-character form 前兵九平八,
//! and the abbreviated forms 炮25 and 马8（7）. Remark marks after the move
//! (`!`, `?`, `+`) are returned apart.
//!
//! Write: red numerals 一…九, black full-width digits １…９, simplified
//! characters by default or traditional on request, qualifiers by the
//! xqbase convention (前/后, 前/中/后, 一…五 through the pool of pawn files).
//!
//! ```
//! use qipu::Position;
//! use qipu::notation::chinese::{self, Style};
//! let pos = Position::start();
//! for text in ["炮二平五", "砲2平5", "炮25", "炮２＝５", "包二平五!"] {
//!     let m = chinese::parse(text).unwrap().resolve(&pos).unwrap();
//!     assert_eq!(chinese::write(&pos, m, Style::Simplified).unwrap(), "炮二平五");
//!     assert_eq!(chinese::write(&pos, m, Style::Traditional).unwrap(), "砲二平五");
//! }
//! ```

use super::{
    Descriptive, Direction, Distinction, Order, Origin, ParseMoveError, ParseMoveErrorKind, WriteMoveError,
    distinction, is_remark_char, motion,
};
use crate::{Color, Move, Piece, Position, Role};

const NOTATION: &str = "Chinese";

/// Which characters the writer uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// 车马炮帅仕相兵 / 将士象卒, 进退平, 后 (the default).
    #[default]
    Simplified,
    /// 車馬砲帥仕相兵 / 將士象卒, 進退平, 後.
    Traditional,
}

/// The script moves are written in, by the characters only one script
/// writes (車馬砲帥將進後 and 俥傌硨 traditional, 车马帅将进后 simplified;
/// 炮, 仕, 相, 兵, 退, 平 … are written in both): the one more of the moves
/// show, simplified when as many do; `None` when no move shows either
/// (moves in coordinates, WXF, or only characters both write).
pub(crate) fn style_of<'a>(moves: impl IntoIterator<Item = &'a str>) -> Option<Style> {
    let (mut traditional, mut simplified) = (0usize, 0usize);
    for text in moves {
        for c in text.chars() {
            match c {
                '車' | '馬' | '砲' | '帥' | '將' | '進' | '後' | '俥' | '傌' | '硨' => {
                    traditional += 1
                }
                '车' | '马' | '帅' | '将' | '进' | '后' => simplified += 1,
                _ => {}
            }
        }
    }
    match (traditional, simplified) {
        (0, 0) => None,
        (t, s) if t > s => Some(Style::Traditional),
        _ => Some(Style::Simplified),
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Token {
    Piece(Role),
    Number(u8),
    Qualifier(Order),
    Direction(Direction),
    Open,
    Close,
}

/// The token a character stands for, as a small code (0 = none): pieces
/// 1…7, numbers 11…19, qualifiers 20…22, directions 30…32, brackets 40/41.
const fn code(c: char) -> u8 {
    match c {
        '帅' | '帥' | '将' | '將' => 1,
        '仕' | '士' => 2,
        '相' | '象' => 3,
        '马' | '馬' | '傌' => 4,
        '车' | '車' | '俥' | '硨' => 5,
        '炮' | '砲' | '包' => 6,
        '兵' | '卒' => 7,
        '1' | '一' | '壹' | '１' => 11,
        '2' | '二' | '贰' | '貳' | '２' => 12,
        '3' | '三' | '叁' | '參' | '３' => 13,
        '4' | '四' | '肆' | '４' => 14,
        '5' | '五' | '伍' | '５' => 15,
        '6' | '六' | '陆' | '陸' | '６' => 16,
        '7' | '七' | '柒' | '７' => 17,
        '8' | '八' | '捌' | '８' => 18,
        '9' | '九' | '玖' | '９' => 19,
        '前' => 20,
        '中' => 21,
        '后' | '後' => 22,
        '进' | '進' | '上' | '+' | '＋' => 30,
        '退' | '下' | '-' | '－' => 31,
        '平' | '=' | '＝' | '.' | '．' => 32,
        '(' | '（' => 40,
        ')' | '）' => 41,
        _ => 0,
    }
}

const fn decode(code: u8) -> Option<Token> {
    use Token::*;
    Some(match code {
        1..=7 => Piece(Role::ALL[code as usize - 1]),
        11..=19 => Number(code - 10),
        20 => Qualifier(Order::Front),
        21 => Qualifier(Order::Middle),
        22 => Qualifier(Order::Rear),
        30 => Direction(self::Direction::Forward),
        31 => Direction(self::Direction::Backward),
        32 => Direction(self::Direction::Sideways),
        40 => Open,
        41 => Close,
        _ => return None,
    })
}

/// The kind of piece a character names as the reader takes it (车, 車,
/// 俥, 硨 …), for readers of Chinese move text elsewhere in the crate.
pub(crate) const fn piece_of(c: char) -> Option<Role> {
    match decode(code(c)) {
        Some(Token::Piece(role)) => Some(role),
        _ => None,
    }
}

/// The direction a character names as the reader takes it (进, 進, 上 …).
pub(crate) const fn direction_of(c: char) -> Option<Direction> {
    match decode(code(c)) {
        Some(Token::Direction(direction)) => Some(direction),
        _ => None,
    }
}

/// The code of every ASCII character (digits, operators, brackets).
static ASCII: [u8; 0x80] = {
    let mut table = [0; 0x80];
    let mut i = 0;
    while i < table.len() {
        table[i] = code(i as u8 as char);
        i += 1;
    }
    table
};

/// How many blocks of 64 characters from U+0800 to U+FFFF (the
/// characters of three bytes in UTF-8) hold a character with a code.
const PAGE_COUNT: usize = {
    let mut count = 0;
    let mut page = 0x800 >> 6;
    while page < 0x10000 >> 6 {
        if page_has_code(page) {
            count += 1;
        }
        page += 1;
    }
    count
};

const fn page_has_code(page: u32) -> bool {
    let mut c = page << 6;
    while c < (page + 1) << 6 {
        if let Some(ch) = char::from_u32(c)
            && code(ch) != 0
        {
            return true;
        }
        c += 1;
    }
    false
}

/// For each block of 64 characters of U+0000…U+FFFF (code point >> 6),
/// its row in [`PAGES`]: row 0, all zero, for the blocks without a code.
static PAGE_INDEX: [u8; 0x400] = {
    let mut index = [0; 0x400];
    let mut next = 1;
    let mut page = 0x800 >> 6;
    while page < 0x400 {
        if page_has_code(page as u32) {
            index[page] = next;
            next += 1;
        }
        page += 1;
    }
    index
};

/// The codes of the characters of the blocks that hold some, by
/// [`PAGE_INDEX`] and the low six bits of the code point.
static PAGES: [[u8; 64]; PAGE_COUNT + 1] = {
    let mut pages = [[0; 64]; PAGE_COUNT + 1];
    let mut page = 0x800 >> 6;
    while page < 0x400 {
        let row = PAGE_INDEX[page] as usize;
        let mut i = 0;
        while row != 0 && i < 64 {
            if let Some(ch) = char::from_u32((page as u32) << 6 | i as u32) {
                pages[row][i] = code(ch);
            }
            i += 1;
        }
        page += 1;
    }
    pages
};

/// [`code`] of the character with code point `c` (0 for none), by table
/// for ASCII and the characters of three bytes in UTF-8.
#[inline(always)]
fn code_of(c: u32) -> u8 {
    match c {
        0..=0x7F => ASCII[c as usize],
        0x800..=0xFFFF => PAGES[PAGE_INDEX[c as usize >> 6] as usize][c as usize & 0x3F],
        _ => match char::from_u32(c) {
            Some(c) => code(c),
            None => 0,
        },
    }
}

/// [`code_of`] the character of three UTF-8 bytes `lead`, `b1`, `b2` (0
/// when `lead` does not begin such a character).
#[inline(always)]
fn code3(lead: u8, b1: u8, b2: u8) -> u8 {
    if lead & 0xF0 != 0xE0 {
        return 0;
    }
    let page = ((lead & 0x0F) as usize) << 6 | (b1 & 0x3F) as usize;
    PAGES[PAGE_INDEX[page] as usize][(b2 & 0x3F) as usize]
}

#[inline]
fn token(c: char) -> Option<Token> {
    decode(code_of(c as u32))
}

/// Reads a Chinese move into a description, without a position.
///
/// # Errors
///
/// A [`ParseMoveError`] for text that is not a Chinese move.
///
/// ```
/// use qipu::notation::{chinese, Descriptive, Direction, Order, Origin};
/// use qipu::Role;
/// let d = chinese::parse("前兵九平八").unwrap();
/// assert_eq!(d.role, Some(Role::Pawn));
/// assert_eq!(d.origin, Origin::Ordered { order: Order::Front, file: Some(9) });
/// assert_eq!(d.direction, Some(Direction::Sideways));
/// assert!(chinese::parse("炮二平").is_err());
/// ```
pub fn parse(text: &str) -> Result<Descriptive, ParseMoveError> {
    parse_with_remark(text).map(|(d, _)| d)
}

/// Like [`parse`], also returning the remark marks after the move (`!?`,
/// `+`), empty when there are none.
///
/// # Errors
///
/// As [`parse`].
pub(crate) fn parse_with_remark(text: &str) -> Result<(Descriptive, &str), ParseMoveError> {
    match parse_plain(text) {
        Some(d) => Ok((d, "")),
        None => parse_general(text),
    }
}

/// The fast path of [`parse_with_remark`]: text that is three to five
/// tokens and nothing else (炮二平五, 马８进７, 前兵九平八, 炮25), the shape
/// nearly every move has. `None` for anything else, left to
/// [`parse_general`], which reads such text to the same description.
///
/// No character of a token is white space, so such text is its own trim;
/// the general reader finds the same tokens and, with nothing after them,
/// returns what [`pattern`] makes of all of them.
#[inline]
pub(crate) fn parse_plain(text: &str) -> Option<Descriptive> {
    // Piece, file, direction, number, four characters of three bytes
    // (炮二平五, 馬８進７): what `pattern` makes of their tokens, without
    // making them.
    if let &[a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2] = text.as_bytes()
        && let [piece @ 1..=7, file @ 11..=19, direction @ 30..=32, number @ 11..=19] =
            [code3(a0, a1, a2), code3(b0, b1, b2), code3(c0, c1, c2), code3(d0, d1, d2)]
    {
        let direction = match direction {
            30 => Direction::Forward,
            31 => Direction::Backward,
            _ => Direction::Sideways,
        };
        return Some(Descriptive {
            role: Some(Role::ALL[piece as usize - 1]),
            origin: Origin::File(file - 10),
            direction: Some(direction),
            number: number - 10,
        });
    }
    parse_tokens(text)
}

/// [`parse_plain`] for the other shapes: the tokens of the whole text,
/// three to five of them, through [`pattern`].
#[inline(never)]
fn parse_tokens(text: &str) -> Option<Descriptive> {
    let b = text.as_bytes();
    let mut tokens = [Token::Open; 5];
    let mut n = 0;
    let mut i = 0;
    while let Some(&lead) = b.get(i) {
        if n == tokens.len() {
            return None;
        }
        // Tokens are ASCII or three bytes long in UTF-8 (CJK ideographs,
        // full-width forms): decode those by hand, give up on the rest.
        let code = if lead < 0x80 {
            i += 1;
            ASCII[lead as usize]
        } else if let (Some(&b1), Some(&b2)) = (b.get(i + 1), b.get(i + 2)) {
            i += 3;
            code3(lead, b1, b2)
        } else {
            return None;
        };
        tokens[n] = decode(code)?;
        n += 1;
    }
    if n < 3 {
        return None;
    }
    pattern(&tokens[..n])
}

/// [`parse_with_remark`] for any text: white space around the move, remark
/// marks after it, and every error.
pub(super) fn parse_general(text: &str) -> Result<(Descriptive, &str), ParseMoveError> {
    let text = text.trim();
    let mut tokens = [Token::Open; 5];
    let mut ends = [0usize; 5];
    let mut n = 0;
    for (i, c) in text.char_indices() {
        if n == tokens.len() {
            break;
        }
        match token(c) {
            Some(t) => {
                tokens[n] = t;
                ends[n] = i + c.len_utf8();
                n += 1;
            }
            None => break,
        }
    }
    // The common case first: four tokens and nothing after them.
    if n == 4
        && ends[3] == text.len()
        && let Some(d) = pattern(&tokens[..4])
    {
        return Ok((d, ""));
    }
    for len in [5, 4, 3] {
        if len > n {
            continue;
        }
        let rest = &text[ends[len - 1]..];
        if !rest.chars().all(is_remark_char) {
            continue;
        }
        if let Some(d) = pattern(&tokens[..len]) {
            return Ok((d, rest));
        }
    }
    let kind = match text.chars().find(|&c| token(c).is_none() && !is_remark_char(c)) {
        Some(c) => ParseMoveErrorKind::UnknownCharacter(c),
        None if n < 3 => ParseMoveErrorKind::TooShort { example: "炮二平五" },
        None => ParseMoveErrorKind::OutOfOrder,
    };
    Err(ParseMoveError::new(NOTATION, text, kind))
}

fn pattern(t: &[Token]) -> Option<Descriptive> {
    use Token::*;
    let d = |role, origin, direction, number| Some(Descriptive { role, origin, direction, number });
    let ordinal = |k: u8| (k <= 5).then_some(Order::Nth(k));
    match *t {
        [Piece(r), Number(f), Direction(dir), Number(x)] => d(Some(r), Origin::File(f), Some(dir), x),
        [Piece(r), Qualifier(q), Direction(dir), Number(x)]
        | [Qualifier(q), Piece(r), Direction(dir), Number(x)] => {
            d(Some(r), Origin::Ordered { order: q, file: None }, Some(dir), x)
        }
        [Number(k), Piece(r), Direction(dir), Number(x)] => {
            d(Some(r), Origin::Ordered { order: ordinal(k)?, file: None }, Some(dir), x)
        }
        [Qualifier(q), Number(f), Direction(dir), Number(x)] => {
            d(None, Origin::Ordered { order: q, file: Some(f) }, Some(dir), x)
        }
        [Number(k), Number(f), Direction(dir), Number(x)] => {
            d(None, Origin::Ordered { order: ordinal(k)?, file: Some(f) }, Some(dir), x)
        }
        [Qualifier(q), Piece(r), Number(f), Direction(dir), Number(x)] => {
            d(Some(r), Origin::Ordered { order: q, file: Some(f) }, Some(dir), x)
        }
        [Number(k), Piece(r), Number(f), Direction(dir), Number(x)] => {
            d(Some(r), Origin::Ordered { order: ordinal(k)?, file: Some(f) }, Some(dir), x)
        }
        [Piece(r), Number(f), Open, Number(x), Close] | [Piece(r), Number(f), Number(x)] => {
            d(Some(r), Origin::File(f), None, x)
        }
        _ => None,
    }
}

const PIECES: [[[char; 7]; 2]; 2] = [
    // Simplified: Red, Black (king, advisor, elephant, horse, rook, cannon, pawn).
    [['帅', '仕', '相', '马', '车', '炮', '兵'], ['将', '士', '象', '马', '车', '炮', '卒']],
    // Traditional.
    [['帥', '仕', '相', '馬', '車', '砲', '兵'], ['將', '士', '象', '馬', '車', '砲', '卒']],
];
/// The Chinese character of `piece` in `style`: 帅仕相马车炮兵 for Red,
/// 将士象马车炮卒 for Black (帥…砲 and 將…砲 traditional).
pub(crate) const fn piece_char(piece: Piece, style: Style) -> char {
    let traditional = matches!(style, Style::Traditional);
    PIECES[traditional as usize][piece.color.index()][piece.role.index()]
}

/// The numerals 1 to 9 as the writer writes them for Red.
pub(crate) const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
/// The numerals 1 to 9 as the writer writes them for Black.
pub(crate) const BLACK_NUMERALS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Writes the legal move `m` of `pos` in canonical Chinese notation.
///
/// # Errors
///
/// [`WriteMoveError::NoPiece`] when no piece stands on the move's origin.
pub fn write(pos: &Position, m: Move, style: Style) -> Result<String, WriteMoveError> {
    let mut out = String::with_capacity(12);
    write_to(pos, m, style, &mut out)?;
    Ok(out)
}

/// Appends the canonical Chinese text of the legal move `m` of `pos`.
///
/// # Errors
///
/// [`WriteMoveError::NoPiece`] when no piece stands on the move's origin;
/// nothing is appended then.
pub fn write_to(pos: &Position, m: Move, style: Style, out: &mut String) -> Result<(), WriteMoveError> {
    let color = pos.turn();
    let (role, direction, number) = motion(pos, m)?;
    let traditional = style == Style::Traditional;
    let piece = PIECES[traditional as usize][color.index()][role.index()];
    let numeral = |n: u8| match color {
        Color::Red => RED_NUMERALS[n as usize - 1],
        Color::Black => BLACK_NUMERALS[n as usize - 1],
    };
    let rear = if traditional { '後' } else { '后' };
    let label = |index: usize, count: usize| match (count, index) {
        (2 | 3, 0) => '前',
        (3, 1) => '中',
        (2 | 3, _) => rear,
        (_, i) => RED_NUMERALS[i],
    };
    match distinction(pos, m.from) {
        Distinction::File => {
            out.push(piece);
            out.push(numeral(m.from.file().number_for(color)));
        }
        Distinction::OnFile { index, count } | Distinction::Pool { index, count, .. } => {
            out.push(label(index, count));
            out.push(piece);
        }
    }
    out.push(match (direction, traditional) {
        (Direction::Forward, false) => '进',
        (Direction::Forward, true) => '進',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    });
    out.push(numeral(number));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_of_as_its_docs_showed() {
        use crate::notation::chinese::{Style, style_of};
        assert_eq!(style_of(["砲二平五", "馬８進７"]), Some(Style::Traditional));
        assert_eq!(style_of(["炮二平五", "马８进７"]), Some(Style::Simplified));
        assert_eq!(style_of(["炮二平五", "兵七平六"]), None);
        assert_eq!(style_of(["h2e2", "C2.5"]), None);
    }

    #[test]
    fn piece_char_as_its_docs_showed() {
        use crate::{
            Piece,
            notation::chinese::{Style, piece_char},
        };
        assert_eq!(piece_char(Piece::from_char('K').unwrap(), Style::Simplified), '帅');
        assert_eq!(piece_char(Piece::from_char('p').unwrap(), Style::Simplified), '卒');
        assert_eq!(piece_char(Piece::from_char('c').unwrap(), Style::Traditional), '砲');
    }

    #[test]
    fn remark_marks_are_kept_apart() {
        let (d, remark) = parse_with_remark("车二进六!?").unwrap();
        assert_eq!(remark, "!?");
        assert_eq!(d.origin, Origin::File(2));
        assert!(parse("车二进六x").is_err());
        assert!(parse("").is_err());
        assert!(parse("车二进六进").is_err());
    }

    #[test]
    fn a_move_from_an_empty_point_is_an_error() {
        let pos = Position::start();
        let m = Move::new(crate::Square::E4, crate::Square::E5);
        let mut out = String::from("1. ");
        assert_eq!(write_to(&pos, m, Style::Simplified, &mut out), Err(WriteMoveError::NoPiece(m)));
        assert_eq!(out, "1. ");
        let e = crate::notation::wxf::write(&pos, m).unwrap_err();
        assert_eq!(e.to_string(), "cannot write e4e5: no piece stands on e4");
    }
}
