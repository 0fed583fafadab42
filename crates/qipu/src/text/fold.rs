//! One form for text written in either Chinese script and either width:
//! traditional characters folded to simplified (by OpenCC's table, see
//! `script_table.rs`), full-width ASCII (U+FF01 to U+FF5E) to ASCII, and
//! the ideographic space (U+3000) to a space.

use std::borrow::Cow;

use super::script_table::TRADITIONAL;

/// The least character of the table: nothing below it is traditional.
const FIRST_TRADITIONAL: char = '\u{3400}';

/// The character `c` folds to, or `None` when it is its own folded form:
/// a traditional character's simplified one (`許` → `许`, `砲` → `炮`), a
/// full-width ASCII character's ASCII one (`Ｈ` → `H`), a space for the
/// ideographic space.
pub(crate) fn fold_char(c: char) -> Option<char> {
    match c {
        '\u{3000}' => Some(' '),
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0),
        _ if c < FIRST_TRADITIONAL => None,
        _ => TRADITIONAL.binary_search_by_key(&c, |&(t, _)| t).ok().map(|i| TRADITIONAL[i].1),
    }
}

/// `text` in one form whatever its script and width, for comparing names
/// and other text: traditional Chinese characters as simplified ones,
/// full-width ASCII as ASCII, the ideographic space as a space. Both sides
/// of a comparison are folded. Text with nothing to fold (ASCII, text
/// already simplified) is given back borrowed, without a copy.
///
/// ```
/// use std::borrow::Cow;
/// use qipu::text::fold;
/// assert_eq!(fold("許銀川"), fold("许银川"));
/// assert_eq!(fold("中砲"), "中炮");
/// assert_eq!(fold("Ｈｕ\u{3000}Ronghua"), "Hu Ronghua");
/// assert!(matches!(fold("胡荣华"), Cow::Borrowed(_)));
/// ```
pub fn fold(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let Some(at) = text.char_indices().find(|&(_, c)| fold_char(c).is_some()).map(|(at, _)| at) else {
        return Cow::Borrowed(text);
    };
    let mut folded = String::with_capacity(text.len());
    folded.push_str(&text[..at]);
    folded.extend(text[at..].chars().map(|c| fold_char(c).unwrap_or(c)));
    Cow::Owned(folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_char_as_its_docs_showed() {
        use crate::text::fold_char;
        assert_eq!(fold_char('車'), Some('车'));
        assert_eq!(fold_char('１'), Some('1'));
        assert_eq!(fold_char('\u{3000}'), Some(' '));
        assert_eq!(fold_char('车'), None);
        assert_eq!(fold_char('a'), None);
    }

    #[test]
    fn the_table_is_sorted_above_its_bound_and_folds_once() {
        assert!(TRADITIONAL.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(TRADITIONAL.iter().all(|&(t, _)| t >= FIRST_TRADITIONAL));
        for &(t, s) in TRADITIONAL {
            assert_ne!(t, s);
            assert_eq!(fold_char(s), None, "{t} folds to {s}, which folds again");
        }
    }

    #[test]
    fn ascii_and_simplified_text_is_borrowed() {
        for text in ["", "Hu Ronghua", "1. h2e2 h9g7", "许银川", "中炮对屏风马", "胡荣华 – 杨官璘", "é"]
        {
            assert!(matches!(fold(text), Cow::Borrowed(_)), "{text}");
        }
        assert!(matches!(fold("許银川"), Cow::Owned(_)));
    }

    #[test]
    fn scripts_and_widths_fold_to_one_form() {
        assert_eq!(fold("許銀川"), "许银川");
        assert_eq!(fold("全國象棋個人賽"), "全国象棋个人赛");
        assert_eq!(fold("ＡＢＣ１２３"), "ABC123");
        assert_eq!(fold("胡榮華\u{3000}（上海）"), "胡荣华 (上海)");
        assert_eq!(fold("！～"), "!~");
        // Not full-width ASCII: left as they are.
        assert_eq!(fold("\u{FF00}\u{FF5F}、。"), "\u{FF00}\u{FF5F}、。");
    }

    #[test]
    fn the_writers_traditional_pieces_and_moves_fold_to_its_simplified_ones() {
        use crate::notation::chinese::{Style, piece_char};
        use crate::{Color, Piece, Role};
        for color in [Color::Red, Color::Black] {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (traditional, simplified) =
                    (piece_char(piece, Style::Traditional), piece_char(piece, Style::Simplified));
                assert_eq!(fold_char(traditional).unwrap_or(traditional), simplified, "{piece:?}");
            }
        }
        let pairs = [
            ('車', '车'),
            ('馬', '马'),
            ('砲', '炮'),
            ('帥', '帅'),
            ('將', '将'),
            ('進', '进'),
            ('後', '后'),
            ('俥', '车'),
            ('傌', '马'),
            ('仕', '仕'),
            ('士', '士'),
            ('相', '相'),
            ('象', '象'),
            ('兵', '兵'),
            ('卒', '卒'),
            ('退', '退'),
            ('平', '平'),
            ('前', '前'),
        ];
        for (traditional, simplified) in pairs {
            assert_eq!(fold_char(traditional).unwrap_or(traditional), simplified, "{traditional}");
        }
        // Every move the writer writes in either style folds to one text.
        let fixture = include_str!("../../fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
        let (mut moves, mut differ) = (0, 0);
        for record in crate::formats::pgn::read(fixture).iter().take(40) {
            for ply in record.plies() {
                let write = |style| crate::notation::chinese::write(&ply.before, ply.mv, style).unwrap();
                let (traditional, simplified) = (write(Style::Traditional), write(Style::Simplified));
                // Black's full-width digits fold on both sides.
                assert_eq!(fold(&traditional), fold(&simplified));
                moves += 1;
                differ += usize::from(traditional != simplified);
            }
        }
        assert!(moves > 1000 && differ > 500, "{moves} {differ}");
    }
}
