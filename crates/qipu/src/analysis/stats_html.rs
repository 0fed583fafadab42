//! A collection's statistics as one self-contained HTML page: the summary
//! as tables and the charts as inline SVG (`chart`), with
//! inline CSS, no script and nothing fetched. The page is XHTML too (it
//! reads as XML), and every text taken from records is escaped.
//!
//! ```
//! use qipu::analysis::stats::{GameFacts, Stats};
//! use qipu::analysis::stats_html;
//! let mut stats = Stats::default();
//! for record in qipu::formats::pgn::read("[Red \"A&B\"][Date \"1990.05.01\"]\n1. 炮二平五 马８进７ 1-0") {
//!     stats.add(&GameFacts::of(&record, "pgn", Some("utf-8")));
//! }
//! stats.finish();
//! let page = stats_html::page(&stats, "games.pgn", 10);
//! assert!(page.contains("<meta charset=\"utf-8\"/>") && page.contains("A&amp;B"));
//! assert_eq!(page.matches("<svg").count(), 5);
//! ```

use std::collections::BTreeMap;
use std::fmt::Write;

use super::chart::{Bar, BarChart, Column, ColumnChart, Series, escape, round_step};
use super::stats::{ResultCounts, SideTotals, Stats};

/// The fonts of the page: Chinese fonts first, then any sans-serif.
const FONTS: &str = r#""Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei", "Noto Sans", "Helvetica Neue", Arial, sans-serif"#;

/// The page's style sheet.
const STYLE: &str = "
body { margin: 24px auto; max-width: 1040px; padding: 0 16px; color: #222; background: #fbf8f1; font-size: 14px; line-height: 1.45; }
h1 { font-size: 24px; margin-bottom: 4px; }
h2 { font-size: 18px; margin-top: 28px; border-bottom: 2px solid #8c5a2b; padding-bottom: 2px; }
p.what { color: #555; margin-top: 0; word-break: break-all; }
p.note { color: #555; margin: 4px 0 12px; }
table { border-collapse: collapse; margin: 6px 20px 12px 0; display: inline-table; vertical-align: top; background: #fff; }
caption { text-align: left; font-weight: bold; padding: 4px 0; white-space: nowrap; }
th, td { padding: 3px 10px; border-bottom: 1px solid #e4ddd0; text-align: left; }
th { background: #f1ebdf; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
svg.chart { display: block; width: 100%; height: auto; background: #fff; border: 1px solid #e4ddd0; margin: 10px 0; }
svg text { font-family: inherit; font-size: 12px; fill: #333; }
svg text.title { font-size: 15px; font-weight: bold; fill: #222; }
svg text.tick, svg text.axis-label { fill: #555; }
svg text.value { font-size: 11px; }
svg text.empty { fill: #999; font-size: 14px; }
svg line.axis { stroke: #555; stroke-width: 1; }
svg line.grid { stroke: #ece7dc; stroke-width: 1; }
svg g.column:hover rect, svg g.bar:hover rect { opacity: 0.8; }
footer { margin-top: 32px; color: #888; font-size: 12px; }
";

/// The colours of Red wins, draws, Black wins and unknown results.
const RESULT_COLORS: [&str; 4] = ["#c0392b", "#9a9a9a", "#222222", "#e2d9c6"];

/// The names of the results, in the order of [`RESULT_COLORS`].
const RESULT_NAMES: [&str; 4] = ["Red wins", "draws", "Black wins", "unknown"];

/// Years that span fewer than this many are drawn one column a year, gaps
/// included; else only the years with games are drawn.
const YEAR_SPAN: u16 = 60;

/// The statistics as an HTML page; `what` says what was read (the paths),
/// `top` how many first moves, ECCO codes, players and events are listed.
pub fn page(stats: &Stats, what: &str, top: usize) -> String {
    let mut html = String::with_capacity(64 * 1024);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>qipu stats: {}</title>\n\
         <style>\nbody {{ font-family: {FONTS}; }}{STYLE}</style>\n</head>\n<body>\n",
        escape(what)
    );
    let _ = write!(
        html,
        "<h1>Statistics of {}</h1>\n<p class=\"what\">{}</p>\n",
        games(stats.games),
        escape(what)
    );
    summary(&mut html, stats);
    section(&mut html, "Game lengths");
    html.push_str(&lengths_chart(stats).svg());
    let _ = writeln!(
        html,
        "<p class=\"note\">Plies of the main line, of the {} that could be read (unreadable games have no length).</p>",
        games(stats.plies.len())
    );
    section(&mut html, "Results by year");
    html.push_str(&years_chart(stats).svg());
    let dated: usize = stats.by_year.values().map(ResultCounts::total).sum();
    let u = &stats.undated;
    let gaps = if every_year(stats) {
        String::new()
    } else {
        format!(" They span {YEAR_SPAN} years or more: only the years with games are drawn.")
    };
    let _ = writeln!(
        html,
        "<p class=\"note\">Years from the <code>Date</code> tag: {}.{gaps} Not drawn: {} without a year \
         ({} Red wins, {} draws, {} Black wins, {} unknown).</p>",
        games(dated),
        games(u.total()),
        u.red_wins,
        u.draws,
        u.black_wins,
        u.unknown
    );
    section(&mut html, "First moves");
    html.push_str(&first_moves_chart(stats, top).svg());
    let from_start: usize = stats.first_moves_red.iter().map(|(_, s)| s.games).sum();
    let _ = writeln!(
        html,
        "<p class=\"note\">Red's first move in the {} from the standard start position; \
         the score is Red's (a win 1, a draw ½) over the games with a result.</p>",
        games(from_start)
    );
    section(&mut html, "Openings (ECCO)");
    html.push_str(&families_chart(stats).svg());
    html.push_str(&codes_chart(stats, top).svg());
    let _ = writeln!(
        html,
        "<p class=\"note\">ECCO 2004 codes, from the first 20 plies of the games from the standard start; \
         without a code (another start position, or unreadable): {}.</p>",
        games(stats.ecco_unclassified())
    );
    section(&mut html, "Players and events");
    let players: Vec<[String; 2]> =
        stats.top_players(top).into_iter().map(|(name, n)| [name, n.to_string()]).collect();
    table(&mut html, "Players with the most games", ["player", "games"], &players);
    let events: Vec<[String; 2]> =
        stats.top_events(top).into_iter().map(|(name, n)| [name, n.to_string()]).collect();
    table(&mut html, "Events with the most games", ["event", "games"], &events);
    if stats.has_analysis() {
        analysis(&mut html, stats, top);
    }
    let _ =
        write!(html, "\n<footer>Made by qipu {}.</footer>\n</body>\n</html>\n", env!("CARGO_PKG_VERSION"));
    html
}

/// The engine analysis section: each side's figures over the annotated
/// games, and the annotators.
fn analysis(html: &mut String, stats: &Stats, top: usize) {
    section(html, "Engine analysis");
    let (red, black) = (&stats.red_analysis, &stats.black_analysis);
    let mean = |value: Option<f64>, unit: &str| value.map_or("-".to_string(), |v| format!("{v:.1}{unit}"));
    let row =
        |name: &str, figure: &dyn Fn(&SideTotals) -> String| [name.to_string(), figure(red), figure(black)];
    let rows = [
        row("mean ACPL", &|t| mean(t.mean_acpl(), "")),
        row("mean accuracy", &|t| mean(t.mean_accuracy(), "%")),
        row("inaccuracies", &|t| t.inaccuracies.to_string()),
        row("mistakes", &|t| t.mistakes.to_string()),
        row("blunders", &|t| t.blunders.to_string()),
    ];
    table(html, "Each side over the annotated games", ["", "Red", "Black"], &rows);
    let annotators: Vec<[String; 2]> =
        stats.top_annotators(top).into_iter().map(|(name, n)| [name, n.to_string()]).collect();
    table(html, "Annotators (engine and limit)", ["annotator", "games"], &annotators);
    let _ = writeln!(
        html,
        "<p class=\"note\">From the tags <code>qipu analyse</code> writes: {} annotated (ACPL: average centipawn \
         loss). Main-line moves with an engine evaluation in their comment: {}.</p>",
        games(stats.annotated),
        stats.evaluated_moves
    );
}

/// A section's heading.
fn section(html: &mut String, title: &str) {
    let _ = writeln!(html, "<h2>{}</h2>", escape(title));
}

/// A table with a caption, a header row and `rows`; every column but the
/// first is numbers (right-aligned).
fn table<const N: usize>(html: &mut String, caption: &str, header: [&str; N], rows: &[[String; N]]) {
    let _ = write!(html, "<table><caption>{}</caption><tr>", escape(caption));
    for h in header {
        let _ = write!(html, "<th>{}</th>", escape(h));
    }
    html.push_str("</tr>");
    for row in rows {
        html.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let class = if i > 0 { " class=\"n\"" } else { "" };
            let _ = write!(html, "<td{class}>{}</td>", escape(cell));
        }
        html.push_str("</tr>");
    }
    if rows.is_empty() {
        let _ = write!(html, "<tr><td colspan=\"{N}\">none</td></tr>");
    }
    html.push_str("</table>\n");
}

/// `n` games, in words: `1 game`, `2 games`.
fn games(n: usize) -> String {
    if n == 1 { "1 game".into() } else { format!("{n} games") }
}

/// `n` as a share of `of`, in per cent with one decimal (`<0.1%` for a
/// share that is not nothing).
fn share(n: usize, of: usize) -> String {
    let percent = if of == 0 { return "-".into() } else { 100.0 * n as f64 / of as f64 };
    if n > 0 && percent < 0.05 { "<0.1%".into() } else { format!("{percent:.1}%") }
}

/// The summary tables: games and their status, formats, results.
fn summary(html: &mut String, stats: &Stats) {
    section(html, "Summary");
    let status = |key: &str| stats.by_status.get(key).copied().unwrap_or(0);
    let g = stats.games;
    let mut rows = vec![
        ["games".to_string(), g.to_string(), String::new()],
        ["valid".to_string(), status("valid").to_string(), share(status("valid"), g)],
        ["illegal".to_string(), status("illegal").to_string(), share(status("illegal"), g)],
        ["unreadable".to_string(), status("unreadable").to_string(), share(status("unreadable"), g)],
        ["with comments".to_string(), stats.with_comments.to_string(), share(stats.with_comments, g)],
        ["with variations".to_string(), stats.with_variations.to_string(), share(stats.with_variations, g)],
    ];
    if let (Some(mean), Some(median)) = (stats.mean_plies(), stats.median_plies()) {
        rows.push(["mean length (plies)".to_string(), format!("{mean:.1}"), String::new()]);
        rows.push(["median length (plies)".to_string(), format!("{median:.1}"), String::new()]);
    }
    table(html, "Games", ["", "games", "share"], &rows);
    let counts = |m: &BTreeMap<String, usize>| -> Vec<[String; 3]> {
        m.iter().map(|(k, &n)| [k.clone(), n.to_string(), share(n, g)]).collect()
    };
    table(html, "Formats and encodings", ["format", "games", "share"], &counts(&stats.by_format));
    let results: Vec<[String; 3]> = stats
        .by_result
        .iter()
        .map(|(k, &n)| {
            let name = match k.as_str() {
                "1-0" => "1-0 (Red wins)",
                "0-1" => "0-1 (Black wins)",
                "1/2-1/2" => "1/2-1/2 (draw)",
                "*" => "* (unknown)",
                "none" => "none stated",
                other => other,
            };
            [name.to_string(), n.to_string(), share(n, g)]
        })
        .collect();
    table(html, "Results (as recorded)", ["result", "games", "share"], &results);
    table(
        html,
        "Result recorded / end computed",
        ["result / termination", "games", "share"],
        &counts(&stats.result_vs_termination),
    );
    let r = &stats.repetition_rulings;
    let mut rulings: Vec<[String; 2]> = r.by_kind.iter().map(|(k, n)| [k.clone(), n.to_string()]).collect();
    rulings.extend([
        ["rulings in all".to_string(), r.rulings.to_string()],
        ["games with a ruling".to_string(), r.games_with_rulings.to_string()],
        ["games ending in a ruling".to_string(), r.games_ending_in_ruling.to_string()],
        ["games in a forbidden repetition".to_string(), r.games_with_forbidden_repetition.to_string()],
        ["games reaching the move limit".to_string(), r.move_limit_reached.to_string()],
        ["games reaching a dead draw".to_string(), r.dead_draws.to_string()],
    ]);
    table(html, "Repetition rulings", ["ruling", "count"], &rulings);
}

/// A range of main-line lengths and its games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct LengthBin {
    /// The fewest plies in the range.
    pub from: u32,
    /// The most plies in it; `None` for the last range, of the longest
    /// games (`from` plies or more).
    pub to: Option<u32>,
    /// The games of that length.
    pub games: usize,
}

/// The main-line lengths `plies` in ranges of a round width (1, 2 or 5
/// times a power of ten) from 0, about 25 ranges up to the length that
/// 99% of the games do not pass; the longest games, past the last range,
/// in one more.
pub(crate) fn length_bins(plies: &[u32]) -> Vec<LengthBin> {
    if plies.is_empty() {
        return Vec::new();
    }
    let mut sorted = plies.to_vec();
    sorted.sort_unstable();
    let most = sorted[(sorted.len() - 1) * 99 / 100];
    let longest = *sorted.last().expect("not empty");
    let width = round_step((most as usize).div_ceil(25)).max(1) as u32;
    // Ranges up to the 99th percentile; the rest in one, unless that is
    // the next range anyway.
    let mut count = most / width + 1;
    if longest / width == count {
        count += 1;
    }
    let mut bins: Vec<LengthBin> = (0..count)
        .map(|i| LengthBin { from: i * width, to: Some(i * width + width - 1), games: 0 })
        .collect();
    let end = count * width;
    if longest >= end {
        bins.push(LengthBin { from: end, to: None, games: 0 });
    }
    for &p in &sorted {
        let i = ((p / width) as usize).min(bins.len() - 1);
        bins[i].games += 1;
    }
    bins
}

/// The histogram of main-line lengths.
fn lengths_chart(stats: &Stats) -> ColumnChart {
    let columns = length_bins(&stats.plies)
        .into_iter()
        .map(|bin| {
            let label = match bin.to {
                Some(to) if to == bin.from => bin.from.to_string(),
                Some(to) => format!("{}–{to}", bin.from),
                None => format!("≥{}", bin.from),
            };
            Column {
                key: label.clone(),
                title: format!("{label} plies: {}", games(bin.games)),
                label,
                values: vec![bin.games],
            }
        })
        .collect();
    ColumnChart {
        id: "lengths".into(),
        title: "Game lengths (main line)".into(),
        x_label: "plies".into(),
        y_label: "games".into(),
        series: vec![Series { name: "games".into(), color: "#8c5a2b" }],
        columns,
        empty: "no game could be read".into(),
    }
}

/// Whether every year from the first to the last is drawn (they span
/// fewer than [`YEAR_SPAN`] years, or there are none).
fn every_year(stats: &Stats) -> bool {
    match (stats.by_year.keys().next(), stats.by_year.keys().next_back()) {
        (Some(&first), Some(&last)) => last - first < YEAR_SPAN,
        _ => true,
    }
}

/// The years drawn: each year from the first to the last, or, when they
/// span [`YEAR_SPAN`] years or more, the years with games.
fn years_drawn(stats: &Stats) -> Vec<u16> {
    match (stats.by_year.keys().next(), stats.by_year.keys().next_back()) {
        (Some(&first), Some(&last)) if every_year(stats) => (first..=last).collect(),
        _ => stats.by_year.keys().copied().collect(),
    }
}

/// The results of each year, stacked.
fn years_chart(stats: &Stats) -> ColumnChart {
    let columns = years_drawn(stats)
        .into_iter()
        .map(|year| {
            let c = stats.by_year.get(&year).copied().unwrap_or_default();
            Column {
                key: year.to_string(),
                label: year.to_string(),
                values: vec![c.red_wins, c.draws, c.black_wins, c.unknown],
                title: format!(
                    "{year}: {}: {} Red wins, {} draws, {} Black wins, {} unknown",
                    games(c.total()),
                    c.red_wins,
                    c.draws,
                    c.black_wins,
                    c.unknown
                ),
            }
        })
        .collect();
    let series = RESULT_NAMES
        .iter()
        .zip(RESULT_COLORS)
        .map(|(name, color)| Series { name: name.to_string(), color })
        .collect();
    ColumnChart {
        id: "years".into(),
        title: "Results by year (Date tag)".into(),
        x_label: "year".into(),
        y_label: "games".into(),
        series,
        columns,
        empty: "no game has a year in its Date tag".into(),
    }
}

/// Red's most played first moves, with their games and Red's score.
fn first_moves_chart(stats: &Stats, top: usize) -> BarChart {
    let bars = stats
        .first_moves_red
        .iter()
        .take(top)
        .map(|(mv, s)| {
            let score = s.score().map(|score| format!("{:.1}%", 100.0 * score));
            let with_result = s.decided + s.draws;
            Bar {
                key: mv.clone(),
                label: mv.clone(),
                value: s.games,
                note: match &score {
                    Some(score) => format!("{}, Red scores {score}", games(s.games)),
                    None => format!("{}, no result", games(s.games)),
                },
                title: match &score {
                    Some(score) => format!(
                        "{mv}: {}; Red scores {score} over the {with_result} with a result ({} won or lost, {} drawn)",
                        games(s.games), s.decided, s.draws
                    ),
                    None => format!("{mv}: {}, none with a result", games(s.games)),
                },
            }
        })
        .collect();
    BarChart {
        id: "first-moves".into(),
        title: format!("Red's first moves (the {top} most played)"),
        x_label: "games".into(),
        color: "#b03a2e",
        bars,
        empty: "no game from the standard start position".into(),
    }
}

/// The games of each ECCO family.
fn families_chart(stats: &Stats) -> BarChart {
    let classified: usize = stats.by_ecco.values().sum();
    let english = |letter: char| {
        super::ecco::FAMILIES.iter().find(|(l, _, _)| *l == letter).map_or("", |(_, _, english)| english)
    };
    let bars = stats
        .ecco_families()
        .into_iter()
        .map(|(letter, name, games)| Bar {
            key: letter.to_string(),
            label: format!("{letter} {name}"),
            value: games,
            note: format!("{games} ({})", share(games, classified)),
            title: format!("{letter} {name} ({}): {}", english(letter), self::games(games)),
        })
        .collect();
    BarChart {
        id: "ecco-families".into(),
        title: format!("ECCO families ({} with a code)", games(classified)),
        x_label: "games".into(),
        color: "#2e6f8e",
        bars,
        empty: String::new(),
    }
}

/// The most played ECCO codes.
fn codes_chart(stats: &Stats, top: usize) -> BarChart {
    let classified: usize = stats.by_ecco.values().sum();
    let bars = stats
        .top_ecco(top)
        .into_iter()
        .map(|(code, name, games)| Bar {
            key: code.to_string(),
            label: format!("{code} {name}"),
            value: games,
            note: format!("{games} ({})", share(games, classified)),
            title: format!("{code} {name}: {}", self::games(games)),
        })
        .collect();
    BarChart {
        id: "ecco-codes".into(),
        title: format!("ECCO codes (the {top} most played)"),
        x_label: "games".into(),
        color: "#4a8a5c",
        bars,
        empty: "no game from the standard start position".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bins_as_its_docs_showed() {
        use crate::analysis::stats_html::{LengthBin, length_bins};
        let bins = length_bins(&[0, 3, 9, 10, 25]);
        assert_eq!(bins[0], LengthBin { from: 0, to: Some(0), games: 1 });
        assert_eq!(bins.iter().map(|b| b.games).sum::<usize>(), 5);
    }

    #[test]
    fn length_bins_cover_every_game() {
        let plies: Vec<u32> = (0..1000).map(|i| (i * 7 % 190) as u32).chain([900]).collect();
        let bins = length_bins(&plies);
        assert_eq!(bins.iter().map(|b| b.games).sum::<usize>(), plies.len());
        assert_eq!(bins[1].from - bins[0].from, 10);
        let last = bins.last().unwrap();
        assert_eq!((last.to, last.games), (None, 1), "{bins:?}");
        // Lengths within the ranges go where they belong.
        assert_eq!(
            length_bins(&[4, 5, 6]).iter().map(|b| b.games).collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1]
        );
    }

    #[test]
    fn years_over_a_long_span_keep_only_those_with_games() {
        let mut stats = Stats::default();
        for year in [1950, 1952, 2020] {
            stats.by_year.entry(year).or_default().add(None);
        }
        assert_eq!(years_drawn(&stats), [1950, 1952, 2020]);
        stats.by_year.remove(&2020);
        assert_eq!(years_drawn(&stats), [1950, 1951, 1952]);
    }
}
