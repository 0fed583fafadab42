//! The board as a standalone SVG drawing, as books print it: the grid of
//! nine files and ten ranks, the river with 楚河 汉界, the palace
//! diagonals, the small corner marks at the cannons' and soldiers' starting
//! points, each side's file numbers along its edge, pieces as circles with
//! their characters in red and black, and the last move marked.
//!
//! The drawing is made of parts a page can reuse ([`svg_frame`]): a
//! `<symbol>` per piece (`qp-K` … `qp-P` Red, `qp-k` … `qp-p` Black, after
//! the FEN letters), an empty group for the last move's marks
//! (`qp-marks`) and one for the pieces (`qp-pieces`), and on the root the
//! numbers that say where each point is (`data-x0`, `data-y0`,
//! `data-step`, `data-flip`). [`svg`] fills those groups with the same
//! symbols. Text is set in a stack of CJK fonts; no font is embedded and
//! nothing outside the drawing is referred to.

use std::fmt::Write as _;

use super::{RED_NUMERALS, file_number, is_marked_point, piece_char, place, point_at, top_side};
use crate::{Color, Move, Piece, Position, Role, Square};

/// How an SVG diagram is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgStyle {
    /// The width of the drawing in pixels (its height follows); the
    /// drawing scales to any size.
    pub size: u32,
    /// Seen from Black's side: Red at the top.
    pub flip: bool,
}

impl Default for SvgStyle {
    /// 450 pixels wide, seen from Red's side.
    fn default() -> SvgStyle {
        SvgStyle { size: 450, flip: false }
    }
}

/// The distance between two neighbouring points, in the drawing's units.
const STEP: u32 = 50;
/// Where the point at the top left is drawn.
const X0: u32 = 45;
/// Where the point at the top left is drawn.
const Y0: u32 = 75;
/// The drawing's width in its own units (the `viewBox`).
const WIDTH: u32 = 2 * X0 + 8 * STEP;
/// The drawing's height in its own units.
const HEIGHT: u32 = 2 * Y0 + 9 * STEP;
/// How far outside the grid the frame is drawn.
const FRAME: u32 = 30;
/// The radius of a piece: a bit under half a step.
const RADIUS: u32 = 23;

/// The fonts text is set in: CJK serif faces, whichever the reader has.
const FONTS: &str =
    "'Noto Serif CJK SC','Source Han Serif SC','Noto Serif SC','Songti SC','STSong','SimSun',serif";
/// The colour of the board.
const BOARD: &str = "#f3e2b6";
/// The colour of the lines.
const INK: &str = "#4a3520";
/// The colour of a piece's face.
const FACE: &str = "#fdf6e3";
/// The colour of the last move's marks.
const MARK: &str = "#1f6fb2";

/// The colour a side's pieces are drawn in.
fn ink(color: Color) -> &'static str {
    match color {
        Color::Red => "#c0281e",
        Color::Black => "#1c1c1c",
    }
}

/// The id of the `<symbol>` that draws `piece`: `qp-` and its FEN letter
/// (`qp-R` a red rook, `qp-r` a black one).
pub(crate) fn symbol_id(piece: Piece) -> String {
    format!("qp-{}", piece.char())
}

/// The point `square` is drawn at, in the drawing's units: `(x0 + step *
/// column, y0 + step * row)`, the column and row counted from the top left
/// as the board is seen (flipped or not).
fn xy(square: Square, flip: bool) -> (u32, u32) {
    let (column, row) = place(square, flip);
    (X0 + STEP * column as u32, Y0 + STEP * row as u32)
}

/// The whole diagram of `position`: the board, the pieces, and the last
/// move (the move that led to `position`) marked at the point it left and
/// the point it reached.
///
/// The drawing is [`svg_frame`] with its groups filled: each piece a
/// `<use href="#qp-R" x=".." y=".."/>` in `qp-pieces`, the last move's
/// marks in `qp-marks`.
///
/// ```
/// use qipu::{Move, Position, Square};
/// use qipu::diagram::svg::{SvgStyle, svg};
/// let mut pos = Position::start();
/// let cannon = Move::new(Square::H2, Square::E2);
/// pos.play(cannon)?;
/// let drawing = svg(&pos, Some(cannon), &SvgStyle { size: 300, flip: false });
/// assert!(drawing.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\""));
/// assert_eq!(drawing.matches("<use ").count(), 32);
/// // The cannon now stands at e2: x = 45 + 50 * 4, y = 75 + 50 * (9 - 2).
/// assert!(drawing.contains(r##"<use href="#qp-C" x="245" y="425"/>"##));
/// # Ok::<(), qipu::rules::IllegalMoveError>(())
/// ```
pub fn svg(position: &Position, last_move: Option<Move>, style: &SvgStyle) -> String {
    let mut marks = String::new();
    if let Some(m) = last_move {
        write_from_mark(&mut marks, xy(m.from, style.flip));
        write_to_mark(&mut marks, xy(m.to, style.flip));
    }
    let mut pieces = String::new();
    for row in 0..10 {
        for column in 0..9 {
            let square = point_at(column, row, style.flip);
            if let Some(piece) = position.board().piece_at(square) {
                let (x, y) = xy(square, style.flip);
                let _ = write!(pieces, "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>", symbol_id(piece));
            }
        }
    }
    drawing(style, &marks, &pieces)
}

/// The diagram with no pieces and no last move: the board, its marks and
/// labels, one `<symbol>` per piece in `<defs>`, and the empty groups
/// `<g id="qp-marks"/>` and `<g id="qp-pieces"/>` (pieces drawn over the
/// marks), for a page that places the pieces itself.
///
/// The root `<svg>` says where each point is: the point of file `f` (0…8,
/// `a` to `i`, from Red's left) and rank `r` (0…9, from Red's side) is at
/// `x = x0 + step * f`, `y = y0 + step * (9 - r)`, or flipped (`data-flip`
/// `"1"`) at `x = x0 + step * (8 - f)`, `y = y0 + step * r`, in the
/// drawing's own units (its `viewBox`). Each symbol is drawn centred on
/// `(0, 0)`, so `<use href="#qp-K" x="..." y="..."/>` puts a piece on a
/// point.
///
/// ```
/// use qipu::diagram::svg::{SvgStyle, svg_frame};
/// let frame = svg_frame(&SvgStyle::default());
/// assert!(frame.contains(r#"data-x0="45" data-y0="75" data-step="50" data-flip="0""#));
/// assert!(frame.contains(r#"<symbol id="qp-K""#) && frame.contains(r#"<symbol id="qp-p""#));
/// assert!(frame.contains(r#"<g id="qp-marks"/><g id="qp-pieces"/>"#));
/// assert!(!frame.contains("<use "));
/// ```
pub fn svg_frame(style: &SvgStyle) -> String {
    drawing(style, "", "")
}

/// The drawing with `marks` and `pieces` (SVG elements) in their groups.
fn drawing(style: &SvgStyle, marks: &str, pieces: &str) -> String {
    let mut out = String::with_capacity(12_000 + pieces.len() + marks.len());
    let height = (u64::from(style.size) * u64::from(HEIGHT) + u64::from(WIDTH) / 2) / u64::from(WIDTH);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" data-x0=\"{X0}\" data-y0=\"{Y0}\" data-step=\"{STEP}\" \
         data-flip=\"{}\" font-family=\"{FONTS}\">",
        style.size,
        u8::from(style.flip)
    );
    write_symbols(&mut out);
    let _ = write!(out, "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"{BOARD}\"/>");
    write_grid(&mut out);
    write_labels(&mut out, style.flip);
    group(&mut out, "qp-marks", marks);
    group(&mut out, "qp-pieces", pieces);
    out.push_str("</svg>\n");
    out
}

/// A group with an id, written `<g id=".."/>` when empty.
fn group(out: &mut String, id: &str, content: &str) {
    if content.is_empty() {
        let _ = write!(out, "<g id=\"{id}\"/>");
    } else {
        let _ = write!(out, "<g id=\"{id}\">{content}</g>");
    }
}

/// The fourteen piece symbols, Red's then Black's, in `<defs>`.
fn write_symbols(out: &mut String) {
    out.push_str("<defs>");
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            let ink = ink(color);
            let _ = write!(
                out,
                "<symbol id=\"{}\" overflow=\"visible\">\
                 <circle r=\"{RADIUS}\" fill=\"{FACE}\" stroke=\"{ink}\" stroke-width=\"2\"/>\
                 <circle r=\"{}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"0.8\"/>\
                 <text y=\"0\" dy=\"0.36em\" text-anchor=\"middle\" font-size=\"29\" fill=\"{ink}\">{}</text>\
                 </symbol>",
                symbol_id(piece),
                RADIUS - 4,
                piece_char(piece)
            );
        }
    }
    out.push_str("</defs>");
}

/// The grid, the frame, the palace diagonals and the corner marks (the
/// board is the same turned half round, so flipping leaves it alone).
fn write_grid(out: &mut String) {
    let px = |column: u32| X0 + STEP * column;
    let py = |row: u32| Y0 + STEP * row;
    let _ = write!(out, "<g fill=\"none\" stroke=\"{INK}\" stroke-linecap=\"square\">");
    // The frame, a little outside the grid.
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" stroke-width=\"3\"/>",
        X0 - FRAME,
        Y0 - FRAME,
        8 * STEP + 2 * FRAME,
        9 * STEP + 2 * FRAME
    );
    out.push_str("<path stroke-width=\"1.2\" d=\"");
    // Ranks.
    for row in 0..10 {
        let _ = write!(out, "M{} {}H{}", px(0), py(row), px(8));
    }
    // Files: the two edge files cross the river, the others stop at it.
    for column in 0..9 {
        if column == 0 || column == 8 {
            let _ = write!(out, "M{} {}V{}", px(column), py(0), py(9));
        } else {
            let _ = write!(out, "M{} {}V{}M{} {}V{}", px(column), py(0), py(4), px(column), py(5), py(9));
        }
    }
    // The palace diagonals.
    for (top, bottom) in [(0, 2), (7, 9)] {
        let _ = write!(out, "M{} {}L{} {}", px(3), py(top), px(5), py(bottom));
        let _ = write!(out, "M{} {}L{} {}", px(5), py(top), px(3), py(bottom));
    }
    out.push('"');
    out.push_str("/>");
    // The edge of the grid drawn a little heavier.
    let _ = write!(
        out,
        "<rect x=\"{X0}\" y=\"{Y0}\" width=\"{}\" height=\"{}\" stroke-width=\"2\"/>",
        8 * STEP,
        9 * STEP
    );
    // The corner marks at the cannons' and soldiers' points, only on the
    // sides that stay on the board.
    let (gap, arm) = (4, 10);
    out.push_str("<path stroke-width=\"1.2\" stroke-linecap=\"butt\" d=\"");
    for row in 0..10 {
        for column in 0..9 {
            if !is_marked_point(point_at(column, row, false)) {
                continue;
            }
            let (cx, cy) = (px(column as u32) as i64, py(row as u32) as i64);
            for dx in [-1i64, 1] {
                if (column == 0 && dx < 0) || (column == 8 && dx > 0) {
                    continue;
                }
                for dy in [-1i64, 1] {
                    let _ = write!(
                        out,
                        "M{} {}V{}H{}",
                        cx + dx * gap,
                        cy + dy * (gap + arm),
                        cy + dy * gap,
                        cx + dx * (gap + arm)
                    );
                }
            }
        }
    }
    out.push_str("\"/></g>");
}

/// The file numbers along the top and bottom edges (each side's along its
/// own edge) and 楚河 汉界 in the river.
fn write_labels(out: &mut String, flip: bool) {
    let top = top_side(flip);
    let label_y = [Y0 - FRAME - 14, Y0 + 9 * STEP + FRAME + 14];
    for (edge, color) in [(0, top), (1, top.other())] {
        let _ = write!(out, "<g fill=\"{INK}\" font-size=\"18\" text-anchor=\"middle\">");
        for column in 0..9 {
            let number = file_number(column, color, flip);
            let x = X0 + STEP * column as u32;
            let y = label_y[edge];
            let _ = match color {
                Color::Red => write!(
                    out,
                    "<text x=\"{x}\" y=\"{y}\" dy=\"0.36em\">{}</text>",
                    RED_NUMERALS[number as usize - 1]
                ),
                Color::Black => write!(out, "<text x=\"{x}\" y=\"{y}\" dy=\"0.36em\">{number}</text>"),
            };
        }
        out.push_str("</g>");
    }
    let _ = write!(out, "<g fill=\"{INK}\" font-size=\"30\" text-anchor=\"middle\">");
    let y = Y0 + STEP * 9 / 2;
    for (half_steps, c) in [(3, '楚'), (5, '河'), (11, '汉'), (13, '界')] {
        let x = X0 + STEP * half_steps / 2;
        let _ = write!(out, "<text x=\"{x}\" y=\"{y}\" dy=\"0.36em\">{c}</text>");
    }
    out.push_str("</g>");
}

/// The mark at the point the last move left: a small ring.
fn write_from_mark(out: &mut String, (x, y): (u32, u32)) {
    let _ = write!(
        out,
        "<circle cx=\"{x}\" cy=\"{y}\" r=\"9\" fill=\"{MARK}\" fill-opacity=\"0.25\" stroke=\"{MARK}\" stroke-width=\"2\"/>"
    );
}

/// The mark at the point the last move reached: four corner brackets
/// around the piece.
fn write_to_mark(out: &mut String, (x, y): (u32, u32)) {
    let (x, y) = (i64::from(x), i64::from(y));
    let (half, arm) = (26i64, 9i64);
    let _ = write!(out, "<path fill=\"none\" stroke=\"{MARK}\" stroke-width=\"2.5\" d=\"");
    for dx in [-1i64, 1] {
        for dy in [-1i64, 1] {
            let _ = write!(
                out,
                "M{} {}V{}H{}",
                x + dx * half,
                y + dy * (half - arm),
                y + dy * half,
                x + dx * (half - arm)
            );
        }
    }
    out.push_str("\"/>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use quick_xml::XmlVersion;
    use quick_xml::events::Event;
    use quick_xml::reader::Reader;

    /// Every element of `text` (its name and attributes), checking that the
    /// text is well-formed XML.
    fn elements(text: &str) -> Vec<(String, Vec<(String, String)>)> {
        let mut reader = Reader::from_str(text);
        reader.config_mut().check_end_names = true;
        let mut found = Vec::new();
        loop {
            match reader.read_event().expect("well-formed XML") {
                Event::Start(e) | Event::Empty(e) => {
                    let name = e.name().0.to_owned();
                    let attributes = e
                        .attributes()
                        .map(|a| {
                            let a = a.unwrap();
                            (
                                a.key.0.to_owned(),
                                a.normalized_value(XmlVersion::Implicit1_0).unwrap().into_owned(),
                            )
                        })
                        .collect();
                    found.push((name, attributes));
                }
                Event::Eof => break,
                _ => {}
            }
        }
        found
    }

    fn attribute<'a>(element: &'a (String, Vec<(String, String)>), name: &str) -> Option<&'a str> {
        element.1.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    #[test]
    fn symbol_id_as_its_docs_showed() {
        use crate::{Piece, diagram::svg::symbol_id};
        assert_eq!(symbol_id(Piece::from_char('R').unwrap()), "qp-R");
        assert_eq!(symbol_id(Piece::from_char('p').unwrap()), "qp-p");
    }

    #[test]
    fn the_start_is_well_formed_with_32_pieces_where_they_stand() {
        let drawing = svg(&Position::start(), None, &SvgStyle::default());
        let all = elements(&drawing);
        assert_eq!(all[0].0, "svg");
        assert_eq!(attribute(&all[0], "xmlns"), Some("http://www.w3.org/2000/svg"));
        let uses: Vec<_> = all.iter().filter(|e| e.0 == "use").collect();
        assert_eq!(uses.len(), 32);
        let at = |id: &str, x: u32, y: u32| {
            uses.iter().any(|u| {
                attribute(u, "href") == Some(id)
                    && attribute(u, "x") == Some(&x.to_string())
                    && attribute(u, "y") == Some(&y.to_string())
            })
        };
        // Red's king at e0: bottom middle; Black's left cannon (b7 from Red's view).
        assert!(at("#qp-K", X0 + 4 * STEP, Y0 + 9 * STEP));
        assert!(at("#qp-c", X0 + STEP, Y0 + 2 * STEP));
        assert!(at("#qp-R", X0, Y0 + 9 * STEP));
        assert!(at("#qp-p", X0 + 8 * STEP, Y0 + 3 * STEP));
        // No reference leaves the drawing.
        assert!(uses.iter().all(|u| attribute(u, "href").is_some_and(|h| h.starts_with("#qp-"))));
        // The only address is the SVG namespace.
        assert_eq!(drawing.matches("http").count(), 1);
    }

    #[test]
    fn flipping_turns_every_piece_half_round() {
        let style = SvgStyle { size: 450, flip: true };
        let drawing = svg(&Position::start(), None, &style);
        assert!(drawing.contains(r##"<use href="#qp-K" x="245" y="75"/>"##), "{drawing}");
        // Red's a0 rook at the top right.
        assert!(drawing.contains(&format!(r##"<use href="#qp-R" x="{}" y="{Y0}"/>"##, X0 + 8 * STEP)));
        assert!(drawing.contains("data-flip=\"1\""));
    }

    #[test]
    fn the_frame_holds_every_symbol_and_empty_groups() {
        let frame = svg_frame(&SvgStyle { size: 600, flip: false });
        let all = elements(&frame);
        let symbols: Vec<&str> =
            all.iter().filter(|e| e.0 == "symbol").filter_map(|e| attribute(e, "id")).collect();
        assert_eq!(
            symbols,
            [
                "qp-K", "qp-A", "qp-B", "qp-N", "qp-R", "qp-C", "qp-P", "qp-k", "qp-a", "qp-b", "qp-n",
                "qp-r", "qp-c", "qp-p"
            ]
        );
        let groups: Vec<&str> =
            all.iter().filter(|e| e.0 == "g").filter_map(|e| attribute(e, "id")).collect();
        assert_eq!(groups, ["qp-marks", "qp-pieces"]);
        assert!(frame.contains("<g id=\"qp-marks\"/><g id=\"qp-pieces\"/></svg>"));
        assert_eq!(attribute(&all[0], "width"), Some("600"));
    }

    #[test]
    fn the_last_move_is_marked_at_both_ends_before_the_pieces() {
        let mut pos = Position::start();
        let m = Move::new(Square::B0, Square::C2);
        pos.play(m).unwrap();
        let drawing = svg(&pos, Some(m), &SvgStyle::default());
        let marks = drawing.split("<g id=\"qp-marks\">").nth(1).unwrap().split("</g>").next().unwrap();
        // The ring at b0 and the brackets around c2.
        assert!(marks.contains(&format!("cx=\"{}\" cy=\"{}\"", X0 + STEP, Y0 + 9 * STEP)), "{marks}");
        let (cx, cy) = (X0 + 2 * STEP, Y0 + 7 * STEP);
        assert!(marks.contains(&format!("M{} {}", cx - 26, cy - 26 + 9)), "{marks}");
        assert!(drawing.find("qp-marks").unwrap() < drawing.find("qp-pieces").unwrap());
        elements(&drawing);
    }

    #[test]
    fn the_height_follows_the_width() {
        for size in [100, 450, 1000] {
            let frame = svg_frame(&SvgStyle { size, flip: false });
            let all = elements(&frame);
            let height: f64 = attribute(&all[0], "height").unwrap().parse().unwrap();
            let want = f64::from(size) * f64::from(HEIGHT) / f64::from(WIDTH);
            assert!((height - want).abs() <= 0.5, "{size}: {height} vs {want}");
        }
    }
}
