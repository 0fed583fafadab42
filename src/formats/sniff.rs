//! Telling formats apart: the one place that decides what a file is, for
//! files read whole and for the first megabyte of files read a piece at a
//! time.
//!
//! Binary formats are told by their signature ([`super::detect::detect`]);
//! a text, once decoded, by what it holds:
//!
//! 1. DhtmlXQ blocks holding a tag (a text that only mentions `[DhtmlXQ]`
//!    is something else), unless a PGN reading of it finds more games (a
//!    PGN whose comments quote DhtmlXQ blocks is a PGN);
//! 2. a 象棋桥 XML record (`<ChineseChessRecord>`);
//! 3. qipu's JSON records (its first line a JSON object);
//! 4. a WXF game file (`FORMAT WXF`, or header lines and a `START{` block);
//! 5. EPD or UCI/UCCI position lines, one game a line: the first line
//!    that is not blank, and most of the first 64, read as such lines (see
//!    [`super::lines`]);
//! 6. PGN: a line of PGN tags;
//! 7. else plain text, or PGN move text without tags when a PGN reading
//!    of it replays more moves (plain-text lines hold no variations nor
//!    comments between moves).
//!
//! ```
//! use qipu::formats::detect::Format;
//! use qipu::formats::sniff::text_format;
//! assert_eq!(text_format("[Event \"x\"]\n1. h2e2 *"), Format::Pgn);
//! assert_eq!(text_format("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]"), Format::Dhtmlxq);
//! assert_eq!(text_format("{开局} 1. 炮二平五 *"), Format::Text);
//! assert_eq!(text_format("position startpos moves h2e2 h9g7\n"), Format::Uci);
//! assert_eq!(text_format("4k4/9/9/9/9/9/9/9/9/4K4 w - - bm e0e1;\n"), Format::Epd);
//! assert_eq!(text_format("吉林洪智  红先和  上海林宏敏\n1. 兵七进一 炮２平３"), Format::Text);
//! ```

use super::detect::Format;
use super::{cbf, dhtmlxq, pgn, wxf};

/// The format of a decoded text (see the [module docs](self) for the
/// order in which they are told apart).
pub fn text_format(text: &str) -> Format {
    if dhtmlxq::contains_block(text) {
        // Counted, not read.
        let blocks = dhtmlxq::count_records(text);
        if blocks > 0 && !(pgn::has_tags(text) && super::pgn_games(text) > blocks) {
            return Format::Dhtmlxq;
        }
    }
    if starts_with_markup(text) && cbf::is_cbf(text) {
        return Format::Cbf;
    }
    if is_json(text) {
        return Format::Json;
    }
    if wxf::is_wxf(text) {
        return Format::Wxf;
    }
    if let Some(format) = super::lines::text_format(text) {
        return format;
    }
    if pgn::has_tags(text) {
        return Format::Pgn;
    }
    Format::Text
}

/// Whether a text opens with markup (`<`), as web pages and XML records do.
pub fn starts_with_markup(text: &str) -> bool {
    text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']).starts_with('<')
}

/// Whether a text holds qipu's JSON records (read only with the `serde`
/// feature: without it, no text is).
pub fn is_json(text: &str) -> bool {
    #[cfg(feature = "serde")]
    {
        super::json::looks_like_json(text)
    }
    #[cfg(not(feature = "serde"))]
    {
        let _ = text;
        false
    }
}
