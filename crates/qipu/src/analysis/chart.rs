//! Charts drawn as SVG, to stand inside an HTML page: columns (a
//! histogram, or stacked columns of several series) and horizontal bars.
//! Each chart has a title, axes with labels and ticks, and every value
//! readable: written beside its bar, or in the bar's `<title>` (a tooltip).
//! The SVG is well-formed XML: every text is escaped ([`escape`]).

use std::fmt::Write;

/// The width of every chart, in pixels.
pub(crate) const WIDTH: f64 = 1000.0;

/// `text` made safe inside XML and HTML (the one rule of
/// [`formats::markup::escape`](crate::formats::markup::escape)).
pub use crate::formats::markup::escape;

/// About how wide `text` is drawn at `size` pixels: Chinese characters a
/// full square, others a little over half.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(|c| if c >= '\u{2E80}' { size } else { 0.6 * size }).sum()
}

/// `text` cut to about `width` pixels at `size`, with `…` when cut.
fn fit(text: &str, size: f64, width: f64) -> String {
    if text_width(text, size) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = text_width("…", size);
    for c in text.chars() {
        let w = text_width(c.encode_utf8(&mut [0; 4]), size);
        if used + w > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// Ticks for an axis from 0 to at least `max`: a round step (1, 2 or 5
/// times a power of ten) giving at most nine ticks, and the axis's top.
pub(crate) fn ticks(max: usize) -> (usize, usize) {
    if max == 0 {
        return (1, 1);
    }
    let step = round_step(max.div_ceil(8));
    (step, max.div_ceil(step) * step)
}

/// The least of 1, 2, 5, 10, 20, 50, … that is at least `n`.
pub(crate) fn round_step(n: usize) -> usize {
    let mut power = 1usize;
    loop {
        for m in [1, 2, 5] {
            let step = m * power;
            if step >= n {
                return step;
            }
        }
        power = power.saturating_mul(10);
    }
}

/// One series of a column chart: its name (in the legend) and colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Series {
    /// The name, in the legend and in each column's tooltip.
    pub name: String,
    /// A CSS colour.
    pub color: &'static str,
}

/// One column: a value per series, stacked from the bottom in the order of
/// the series.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Column {
    /// What the column stands for, in its `data-key` attribute.
    pub key: String,
    /// The label under the column.
    pub label: String,
    /// The values, one per series (in the `data-values` attribute, spaced).
    pub values: Vec<usize>,
    /// The tooltip: the column and its values in words.
    pub title: String,
}

/// Columns over a horizontal axis: a histogram (one series) or stacked
/// columns (several, with a legend).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ColumnChart {
    /// The `id` of the `<svg>` element.
    pub id: String,
    /// The title, above the chart.
    pub title: String,
    /// What the horizontal axis counts (under it).
    pub(crate) x_label: String,
    /// What the vertical axis counts (beside it).
    pub(crate) y_label: String,
    /// The series; a legend is drawn when there are several.
    pub(crate) series: Vec<Series>,
    /// The columns, left to right.
    pub columns: Vec<Column>,
    /// What is said in place of the columns when there are none.
    pub empty: String,
}

impl ColumnChart {
    /// The chart as an `<svg>` element.
    pub fn svg(&self) -> String {
        let legend = if self.series.len() > 1 { 24.0 } else { 0.0 };
        let (left, right, top, bottom) = (70.0, 20.0, 40.0 + legend, 62.0);
        let height = 380.0 + legend;
        let (x0, x1, y0, y1) = (left, WIDTH - right, top, height - bottom);
        let mut svg = open_svg(&self.id, height, &self.title);
        if legend > 0.0 {
            let mut x = left;
            for s in &self.series {
                let _ = write!(
                    svg,
                    r#"<rect x="{x:.1}" y="34" width="12" height="12" fill="{}"/><text x="{:.1}" y="44">{}</text>"#,
                    s.color,
                    x + 16.0,
                    escape(&s.name)
                );
                x += 16.0 + text_width(&s.name, 12.0) + 24.0;
            }
        }
        let max = self.columns.iter().map(|c| c.values.iter().sum::<usize>()).max().unwrap_or(0);
        let (step, axis_top) = ticks(max);
        let y_of = |v: usize| y1 - (y1 - y0) * v as f64 / axis_top as f64;
        vertical_axis(&mut svg, (x0, x1), y_of, step, axis_top);
        let _ = write!(
            svg,
            r#"<text class="axis-label" transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
            (y0 + y1) / 2.0,
            escape(&self.y_label)
        );
        centred_text(&mut svg, "axis-label", (x0 + x1) / 2.0, height - 8.0, &self.x_label);
        if self.columns.is_empty() {
            centred_text(&mut svg, "empty", (x0 + x1) / 2.0, (y0 + y1) / 2.0, &self.empty);
        }
        let n = self.columns.len().max(1) as f64;
        let slot = (x1 - x0) / n;
        let bar = (slot * 0.8).clamp(1.0, 64.0);
        // Every k-th label, so that labels do not run into each other.
        let widest = self.columns.iter().map(|c| text_width(&c.label, 11.0)).fold(0.0, f64::max) + 8.0;
        let every = ((widest / slot).ceil() as usize).max(1);
        let totals_fit = slot >= text_width(&max.to_string(), 10.0) + 2.0;
        for (i, column) in self.columns.iter().enumerate() {
            let x = x0 + slot * i as f64 + (slot - bar) / 2.0;
            let values: Vec<String> = column.values.iter().map(|v| v.to_string()).collect();
            let _ = write!(
                svg,
                r#"<g class="column" data-key="{}" data-values="{}"><title>{}</title>"#,
                escape(&column.key),
                values.join(" "),
                escape(&column.title)
            );
            let mut base = 0;
            for (value, series) in column.values.iter().zip(&self.series) {
                if *value > 0 {
                    let (top, bottom) = (y_of(base + value), y_of(base));
                    let _ = write!(
                        svg,
                        r#"<rect x="{x:.1}" y="{top:.1}" width="{bar:.1}" height="{:.1}" fill="{}"/>"#,
                        bottom - top,
                        series.color
                    );
                }
                base += value;
            }
            // A transparent rectangle over the whole slot carries the tooltip
            // for short columns too.
            let _ = write!(
                svg,
                r#"<rect x="{:.1}" y="{y0:.1}" width="{slot:.1}" height="{:.1}" fill="transparent"/>"#,
                x0 + slot * i as f64,
                y1 - y0
            );
            if totals_fit && base > 0 {
                let _ = write!(
                    svg,
                    r#"<text class="value" x="{:.1}" y="{:.1}" text-anchor="middle">{base}</text>"#,
                    x + bar / 2.0,
                    y_of(base) - 3.0
                );
            }
            if i % every == 0 {
                centred_text(&mut svg, "tick", x + bar / 2.0, y1 + 16.0, &column.label);
            }
            svg.push_str("</g>");
        }
        let _ = write!(svg, r#"<line class="axis" x1="{x0}" y1="{y1:.1}" x2="{x1}" y2="{y1:.1}"/>"#);
        svg.push_str("</svg>");
        svg
    }
}

/// One horizontal bar: a label on the left, the bar, a note after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bar {
    /// What the bar stands for, in its `data-key` attribute.
    pub key: String,
    /// The label left of the bar (cut with `…` when too long).
    pub label: String,
    /// The length of the bar (in the `data-value` attribute).
    pub value: usize,
    /// The text after the bar (its value, and more).
    pub note: String,
    /// The tooltip: the bar in words, its label whole.
    pub title: String,
}

/// Horizontal bars, one under the other, over an axis of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BarChart {
    /// The `id` of the `<svg>` element.
    pub id: String,
    /// The title, above the chart.
    pub title: String,
    /// What the bars count (under the axis).
    pub(crate) x_label: String,
    /// A CSS colour for the bars.
    pub color: &'static str,
    /// The bars, top to bottom.
    pub bars: Vec<Bar>,
    /// What is said in place of the bars when there are none.
    pub empty: String,
}

impl BarChart {
    /// The chart as an `<svg>` element.
    pub fn svg(&self) -> String {
        const ROW: f64 = 26.0;
        const LABELS: f64 = 13.0;
        let widest = self.bars.iter().map(|b| text_width(&b.label, LABELS)).fold(0.0, f64::max);
        let label_width = widest.clamp(40.0, 380.0);
        let note_width = self.bars.iter().map(|b| text_width(&b.note, 12.0)).fold(0.0, f64::max) + 12.0;
        let (x0, x1) = (label_width + 18.0, WIDTH - note_width.clamp(40.0, 320.0) - 10.0);
        let y0 = 44.0;
        let rows = self.bars.len().max(1) as f64;
        let y1 = y0 + ROW * rows;
        let height = y1 + 50.0;
        let mut svg = open_svg(&self.id, height, &self.title);
        let max = self.bars.iter().map(|b| b.value).max().unwrap_or(0);
        let (step, axis_top) = ticks(max);
        let x_of = |v: usize| x0 + (x1 - x0) * v as f64 / axis_top as f64;
        let mut tick = 0;
        while tick <= axis_top {
            let x = x_of(tick);
            let _ = write!(
                svg,
                r#"<line class="grid" x1="{x:.1}" y1="{y0:.1}" x2="{x:.1}" y2="{y1:.1}"/><text class="tick" x="{x:.1}" y="{:.1}" text-anchor="middle">{tick}</text>"#,
                y1 + 16.0
            );
            tick += step;
        }
        centred_text(&mut svg, "axis-label", (x0 + x1) / 2.0, height - 8.0, &self.x_label);
        if self.bars.is_empty() {
            centred_text(&mut svg, "empty", (x0 + x1) / 2.0, y0 + ROW * 0.65, &self.empty);
        }
        for (i, b) in self.bars.iter().enumerate() {
            let y = y0 + ROW * i as f64;
            let end = x_of(b.value);
            let _ = write!(
                svg,
                r#"<g class="bar" data-key="{}" data-value="{}"><title>{}</title><text class="label" x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect x="{x0:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/><text class="value" x="{:.1}" y="{:.1}">{}</text></g>"#,
                escape(&b.key),
                b.value,
                escape(&b.title),
                x0 - 8.0,
                y + ROW * 0.65,
                escape(&fit(&b.label, LABELS, label_width)),
                y + 4.0,
                (end - x0).max(0.0),
                ROW - 8.0,
                self.color,
                end + 6.0,
                y + ROW * 0.65,
                escape(&b.note)
            );
        }
        let _ = write!(svg, r#"<line class="axis" x1="{x0:.1}" y1="{y0:.1}" x2="{x0:.1}" y2="{y1:.1}"/>"#);
        let _ = write!(svg, r#"<line class="axis" x1="{x0:.1}" y1="{y1:.1}" x2="{x1:.1}" y2="{y1:.1}"/>"#);
        svg.push_str("</svg>");
        svg
    }
}

/// The opening of a chart's `<svg>`, with its title (an `<h3>` would sit
/// outside the picture; this stays with it).
fn open_svg(id: &str, height: f64, title: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" id="{}" class="chart" viewBox="0 0 {WIDTH} {height:.0}" width="{WIDTH}" height="{height:.0}" role="img" aria-label="{title}"><text class="title" x="10" y="22">{title}</text>"#,
        escape(id),
        title = escape(title)
    )
}

/// The vertical axis of a column chart: grid lines and tick labels every
/// `step` up to `top`, and the axis line at `x0`.
fn vertical_axis(
    svg: &mut String,
    (x0, x1): (f64, f64),
    y_of: impl Fn(usize) -> f64,
    step: usize,
    top: usize,
) {
    let mut tick = 0;
    while tick <= top {
        let y = y_of(tick);
        let _ = write!(
            svg,
            r#"<line class="grid" x1="{x0}" y1="{y:.1}" x2="{x1}" y2="{y:.1}"/><text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{tick}</text>"#,
            x0 - 6.0,
            y + 4.0
        );
        tick += step;
    }
    let _ =
        write!(svg, r#"<line class="axis" x1="{x0}" y1="{:.1}" x2="{x0}" y2="{:.1}"/>"#, y_of(top), y_of(0));
}

/// Writes `text` (escaped) centred at (`x`, `y`) in the style `class`.
fn centred_text(svg: &mut String, class: &str, x: f64, y: f64, text: &str) {
    let _ = write!(
        svg,
        r#"<text class="{class}" x="{x:.1}" y="{y:.1}" text-anchor="middle">{}</text>"#,
        escape(text)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_module_as_its_docs_showed() {
        use crate::analysis::chart::{Bar, BarChart};
        let chart = BarChart {
            id: "moves".into(),
            title: "First moves".into(),
            x_label: "games".into(),
            color: "#8c5a2b",
            bars: vec![Bar {
                key: "炮二平五".into(),
                label: "炮二平五".into(),
                value: 12,
                note: "12".into(),
                title: "炮二平五: 12 games".into(),
            }],
            empty: "no game from the standard start".into(),
        };
        let svg = chart.svg();
        assert!(svg.starts_with("<svg") && svg.contains("炮二平五: 12 games"));
    }

    #[test]
    fn ticks_as_its_docs_showed() {
        assert_eq!(crate::analysis::chart::ticks(545), (100, 600));
        assert_eq!(crate::analysis::chart::ticks(0), (1, 1));
    }

    #[test]
    fn round_steps_and_ticks() {
        assert_eq!([1, 2, 3, 6, 11, 49, 51].map(round_step), [1, 2, 5, 10, 20, 50, 100]);
        assert_eq!(ticks(7), (1, 7));
        assert_eq!(ticks(1391), (200, 1400));
    }

    #[test]
    fn long_labels_are_cut() {
        assert_eq!(fit("中炮过河车互进七兵对屏风马", 10.0, 50.0), "中炮过河…");
        assert_eq!(fit("C2.5", 10.0, 50.0), "C2.5");
    }

    #[test]
    fn columns_carry_their_values() {
        let chart = ColumnChart {
            id: "c".into(),
            title: "T".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                Series { name: "a".into(), color: "red" },
                Series { name: "b".into(), color: "blue" },
            ],
            columns: vec![Column {
                key: "1990".into(),
                label: "1990".into(),
                values: vec![3, 0],
                title: "t".into(),
            }],
            empty: String::new(),
        };
        let svg = chart.svg();
        assert!(svg.contains(r#"data-key="1990" data-values="3 0""#), "{svg}");
        // One coloured rectangle (the zero is not drawn), one for the tooltip, two legend swatches.
        assert_eq!(svg.matches("<rect").count(), 4);
    }
}
