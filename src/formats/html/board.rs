//! The empty board the viewer places its pieces on: an `<svg>` with the
//! lines, the palaces, the river and the file numbers, one `<symbol>` per
//! piece (`qp-K` … `qp-p`, centred on (0,0)), an empty `<g id="qp-marks"/>`
//! and `<g id="qp-pieces"/>`, and on the root the geometry (`data-x0`,
//! `data-y0`, `data-step`, `data-flip`).

use std::fmt::Write;

/// How the board is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct SvgStyle {
    /// Its width in pixels.
    pub size: u32,
    /// Black at the bottom.
    pub flip: bool,
}

impl Default for SvgStyle {
    fn default() -> SvgStyle {
        SvgStyle { size: 450, flip: false }
    }
}

/// The board without pieces (see the module's docs).
pub(super) fn svg_frame(style: &SvgStyle) -> String {
    let step = f64::from(style.size) / 9.6;
    let (x0, y0) = (step * 0.8, step * 0.8);
    let (width, height) = (x0 * 2.0 + 8.0 * step, y0 * 2.0 + 9.0 * step);
    let mut s = String::with_capacity(6000);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" data-x0="{x0:.2}" data-y0="{y0:.2}" data-step="{step:.2}" data-flip="{}" font-family="'Noto Serif CJK SC','Noto Sans CJK SC','SimSun',serif">"##,
        u8::from(style.flip)
    );
    s.push_str("<defs>");
    let pieces = [
        ('K', "帥"),
        ('A', "仕"),
        ('B', "相"),
        ('N', "傌"),
        ('R', "俥"),
        ('C', "炮"),
        ('P', "兵"),
        ('k', "將"),
        ('a', "士"),
        ('b', "象"),
        ('n', "馬"),
        ('r', "車"),
        ('c', "砲"),
        ('p', "卒"),
    ];
    let radius = step * 0.44;
    for (letter, name) in pieces {
        let colour = if letter.is_ascii_uppercase() { "#c01818" } else { "#202020" };
        let _ = write!(
            s,
            r##"<symbol id="qp-{letter}" overflow="visible"><circle r="{radius:.1}" fill="#f7e7c4" stroke="{colour}" stroke-width="2"/><circle r="{:.1}" fill="none" stroke="{colour}" stroke-width="1"/><text text-anchor="middle" dominant-baseline="central" font-size="{:.1}" fill="{colour}">{name}</text></symbol>"##,
            radius - 4.0,
            radius * 1.15
        );
    }
    s.push_str("</defs>");
    let _ = write!(s, r##"<rect width="{width:.1}" height="{height:.1}" fill="#e8c98e"/>"##);
    let (left, right, top, bottom) = (x0, x0 + 8.0 * step, y0, y0 + 9.0 * step);
    s.push_str(r##"<g stroke="#5a3a1a" stroke-width="1.2" fill="none">"##);
    let _ = write!(
        s,
        r#"<rect x="{left:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" stroke-width="2"/>"#,
        8.0 * step,
        9.0 * step
    );
    for row in 1..9 {
        let y = y0 + step * f64::from(row);
        let _ = write!(s, r#"<line x1="{left:.1}" y1="{y:.1}" x2="{right:.1}" y2="{y:.1}"/>"#);
    }
    for col in 1..8 {
        let x = x0 + step * f64::from(col);
        let _ = write!(s, r#"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{:.1}"/>"#, y0 + 4.0 * step);
        let _ = write!(s, r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{bottom:.1}"/>"#, y0 + 5.0 * step);
    }
    for palace in [0.0, 7.0] {
        let (xa, xb) = (x0 + 3.0 * step, x0 + 5.0 * step);
        let (ya, yb) = (y0 + palace * step, y0 + (palace + 2.0) * step);
        let _ = write!(s, r#"<line x1="{xa:.1}" y1="{ya:.1}" x2="{xb:.1}" y2="{yb:.1}"/>"#);
        let _ = write!(s, r#"<line x1="{xb:.1}" y1="{ya:.1}" x2="{xa:.1}" y2="{yb:.1}"/>"#);
    }
    s.push_str("</g>");
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" dominant-baseline="central" font-size="{:.1}" fill="#5a3a1a">楚 河　　　　漢 界</text>"##,
        x0 + 4.0 * step,
        y0 + 4.5 * step,
        step * 0.5
    );
    // File numbers: Red's 九…一 below from its left, Black's 1…9 above.
    let red = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    for (i, name) in red.iter().enumerate() {
        let file = if style.flip { 8 - i } else { i };
        let x = x0 + step * file as f64;
        let (red_y, black_y) = if style.flip {
            (y0 - step * 0.6, bottom + step * 0.6)
        } else {
            (bottom + step * 0.6, y0 - step * 0.6)
        };
        let _ = write!(
            s,
            r##"<text x="{x:.1}" y="{red_y:.1}" text-anchor="middle" dominant-baseline="central" font-size="{:.1}" fill="#7a5a3a">{name}</text>"##,
            step * 0.3
        );
        let _ = write!(
            s,
            r##"<text x="{x:.1}" y="{black_y:.1}" text-anchor="middle" dominant-baseline="central" font-size="{:.1}" fill="#7a5a3a">{}</text>"##,
            step * 0.3,
            i + 1
        );
    }
    s.push_str(r#"<g id="qp-marks"/><g id="qp-pieces"/></svg>"#);
    s
}
