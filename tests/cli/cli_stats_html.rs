//! `qipu stats --format html`: the page reads as XML (XHTML), holds one
//! `<svg>` per chart, its histogram and its year columns count what the
//! records hold, text from records is escaped; and the text and JSON
//! statistics are what they were before the page (and the new JSON keys)
//! came.

use crate::common::qipu;

use std::collections::BTreeMap;

use crate::common::scratch;
use quick_xml::XmlVersion;
use quick_xml::events::Event;

const HU_RONGHUA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");

/// A name with every character HTML and XML treat specially.
const AWKWARD: &str = "<b>Tom & \"Jerry\"</b> 'x'";

/// Games with dates in several forms (and none), results, and a player
/// and an event whose names need escaping.
fn games() -> String {
    let dated = [
        ("1990.05.12", "1-0"),
        ("1990", "0-1"),
        ("1990年10月", "1/2-1/2"),
        ("1992-03-04", "1-0"),
        ("1992.??.??", "*"),
        ("", "1-0"),
        ("????.??.??", "0-1"),
        ("1995/7/1", "1-0"),
    ];
    let mut text = String::new();
    for (i, (date, result)) in dated.iter().enumerate() {
        let red = if i == 0 { AWKWARD } else { "许银川" };
        let date = if date.is_empty() { String::new() } else { format!("[Date \"{date}\"]\n") };
        let opening = if i % 2 == 0 {
            "1. 炮二平五 马８进７ 2. 马二进三 车９平８"
        } else {
            "1. 兵七进一 卒７进１"
        };
        text += &format!(
            "[Event \"A&B <cup>\"]\n[Red \"{}\"]\n[Black \"吕钦\"]\n{date}[Result \"{result}\"]\n{opening} {result}\n\n",
            red.replace('"', "\\\"")
        );
    }
    text
}

/// What a PGN text's games say, read here without qipu: for each game, the
/// year of its `Date` tag (the first run of four digits) and its result.
fn years_and_results(text: &str) -> Vec<(Option<u16>, String)> {
    text.split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(|game| {
            let tag = |name: &str| {
                game.lines()
                    .find_map(|l| l.strip_prefix(&format!("[{name} \"")).map(|v| v.trim_end_matches("\"]")))
            };
            let year = tag("Date").and_then(|d| {
                let digits: Vec<char> = d.chars().collect();
                digits
                    .windows(4)
                    .find(|w| w.iter().all(char::is_ascii_digit))
                    .map(|w| w.iter().collect::<String>().parse().unwrap())
            });
            (year, tag("Result").unwrap_or("*").to_string())
        })
        .collect()
}

/// An element of the page: its name, attributes and the text inside it.
#[derive(Debug)]
struct Element {
    name: String,
    attributes: BTreeMap<String, String>,
    /// The `id` of the `<svg>` it is in, if any.
    svg: Option<String>,
    text: String,
}

/// Every element of `page`, read as XML; panics when it is not well-formed.
fn elements(page: &str) -> Vec<Element> {
    let mut reader = quick_xml::Reader::from_str(page);
    reader.config_mut().check_end_names = true;
    let mut found: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut svg: Option<String> = None;
    loop {
        let event =
            reader.read_event().unwrap_or_else(|e| panic!("not XML at {}: {e}", reader.buffer_position()));
        let text = match &event {
            Event::Start(e) | Event::Empty(e) => {
                let name = e.name().as_ref().to_string();
                let attributes = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        let value = a.normalized_value(XmlVersion::Implicit1_0).unwrap().into_owned();
                        (a.key.as_ref().to_string(), value)
                    })
                    .collect::<BTreeMap<_, _>>();
                if name == "svg" {
                    svg = attributes.get("id").cloned();
                }
                found.push(Element { name, attributes, svg: svg.clone(), text: String::new() });
                if matches!(event, Event::Start(_)) {
                    open.push(found.len() - 1);
                }
                continue;
            }
            Event::End(e) => {
                open.pop();
                if e.name().as_ref() == "svg" {
                    svg = None;
                }
                continue;
            }
            Event::Text(t) => t.xml10_content().into_owned(),
            // &amp; and the like come apart from the text around them.
            Event::GeneralRef(r) => match r.resolve_char_ref().unwrap() {
                Some(c) => c.to_string(),
                None => quick_xml::escape::resolve_predefined_entity(&r.xml10_content()).unwrap().to_string(),
            },
            Event::Eof => break,
            _ => continue,
        };
        for &i in &open {
            found[i].text.push_str(&text);
        }
    }
    assert!(open.is_empty(), "elements left open");
    found
}

fn page_of(args: &[&str]) -> String {
    let out = qipu().arg("stats").args(args).args(["--format", "html"]).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The `data-values` of each column of the chart `svg`, by `data-key`.
fn columns(found: &[Element], svg: &str) -> Vec<(String, Vec<usize>)> {
    found
        .iter()
        .filter(|e| e.svg.as_deref() == Some(svg) && e.name == "g")
        .filter_map(|e| {
            let values = e.attributes.get("data-values")?;
            Some((e.attributes["data-key"].clone(), values.split(' ').map(|v| v.parse().unwrap()).collect()))
        })
        .collect()
}

#[test]
fn the_page_is_xhtml_with_one_svg_per_chart() {
    let page = page_of(&[HU_RONGHUA]);
    assert!(page.starts_with("<!DOCTYPE html>\n"));
    assert!(page.contains("<meta charset=\"utf-8\"/>"));
    assert!(page.contains("Noto Sans CJK SC"), "a CJK font stack");
    // Self-contained: nothing fetched, no script.
    for outside in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!page.contains(outside), "{outside}");
    }
    let found = elements(&page);
    let svgs: Vec<&str> =
        found.iter().filter(|e| e.name == "svg").map(|e| e.attributes["id"].as_str()).collect();
    assert_eq!(svgs, ["lengths", "years", "first-moves", "ecco-families", "ecco-codes"]);
    for id in &svgs {
        // Each chart has its title and axis labels.
        let texts: Vec<&Element> =
            found.iter().filter(|e| e.svg.as_deref() == Some(*id) && e.name == "text").collect();
        let class =
            |c: &str| texts.iter().filter(|e| e.attributes.get("class").is_some_and(|k| k == c)).count();
        assert_eq!(class("title"), 1, "{id}");
        assert!(class("axis-label") >= 1 && class("tick") >= 2, "{id}");
    }
    // The histogram counts every game with a length: all 1,391.
    let lengths = columns(&found, "lengths");
    assert!(lengths.len() >= 10, "{lengths:?}");
    assert_eq!(lengths.iter().map(|(_, v)| v[0]).sum::<usize>(), 1391);
    // No game has a Date tag: no year is drawn, and the page says so.
    assert!(columns(&found, "years").is_empty());
    assert!(page.contains("1391 games without a year"));
    // Red's first moves: the most played first, with its count.
    let bars: Vec<(&str, usize)> = found
        .iter()
        .filter(|e| e.svg.as_deref() == Some("first-moves") && e.name == "g")
        .map(|e| (e.attributes["data-key"].as_str(), e.attributes["data-value"].parse().unwrap()))
        .collect();
    assert_eq!(bars.len(), 10);
    assert_eq!(bars[0], ("炮二平五", 792));
    // The families of the codes add up to the games with a code.
    let families: usize = found
        .iter()
        .filter(|e| e.svg.as_deref() == Some("ecco-families") && e.name == "g")
        .map(|e| e.attributes["data-value"].parse::<usize>().unwrap())
        .sum();
    assert_eq!(families, 1391);
}

#[test]
fn year_columns_count_the_dated_games_by_result() {
    let dir = scratch("stats-html-years");
    let text = games();
    std::fs::write(dir.join("games.pgn"), &text).unwrap();
    let page = page_of(&[dir.join("games.pgn").to_str().unwrap()]);
    let found = elements(&page);
    let mut expected: BTreeMap<u16, [usize; 4]> = BTreeMap::new();
    let mut undated = 0;
    for (year, result) in years_and_results(&text) {
        let Some(year) = year else {
            undated += 1;
            continue;
        };
        let slot = match result.as_str() {
            "1-0" => 0,
            "1/2-1/2" => 1,
            "0-1" => 2,
            _ => 3,
        };
        expected.entry(year).or_default()[slot] += 1;
    }
    assert_eq!(expected.len(), 3, "the fixture has three years");
    let drawn = columns(&found, "years");
    // Every year from the first to the last, those without games empty.
    let keys: Vec<&str> = drawn.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["1990", "1991", "1992", "1993", "1994", "1995"]);
    for (key, values) in &drawn {
        let want = expected.get(&key.parse().unwrap()).copied().unwrap_or_default();
        assert_eq!(values[..], want[..], "{key}");
    }
    assert!(page.contains(&format!("{undated} games without a year")), "{undated}");
    // The histogram counts every game.
    assert_eq!(columns(&found, "lengths").iter().map(|(_, v)| v[0]).sum::<usize>(), 8);
}

#[test]
fn text_from_records_is_escaped() {
    let dir = scratch("stats-html-escape");
    std::fs::write(dir.join("games.pgn"), games()).unwrap();
    let page = page_of(&[dir.join("games.pgn").to_str().unwrap()]);
    assert!(!page.contains("<b>Tom"), "the name's markup is not the page's");
    assert!(page.contains("&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt; &#39;x&#39;"));
    let found = elements(&page);
    let cells: Vec<&str> = found.iter().filter(|e| e.name == "td").map(|e| e.text.as_str()).collect();
    assert!(cells.contains(&AWKWARD), "the name reads back whole: {cells:?}");
    assert!(cells.contains(&"A&B <cup>"), "{cells:?}");
    assert!(!found.iter().any(|e| e.name == "b" || e.name == "cup"));
}

#[test]
fn text_and_json_are_as_they_were() {
    // Written by `qipu stats` before the page came (commit 95355b5); the terminations and the
    // text's section of repetition rulings since.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let text = qipu().args(["stats", HU_RONGHUA]).output().unwrap();
    assert_eq!(
        String::from_utf8(text.stdout).unwrap(),
        std::fs::read_to_string(format!("{dir}/stats-hu-ronghua.txt")).unwrap()
    );
    let json = qipu().args(["stats", "--format", "json", HU_RONGHUA]).output().unwrap();
    let mut value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let map = value.as_object_mut().unwrap();
    let added = [
        "results_by_year",
        "results_undated",
        "by_ecco",
        "ecco_families",
        "ecco_unclassified",
        "top_ecco",
        "repetition_rulings",
    ];
    for key in added {
        assert!(map.remove(key).is_some(), "{key}");
    }
    let before = std::fs::read_to_string(format!("{dir}/stats-hu-ronghua.json")).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap() + "\n", before);
    // The new keys hold what the page draws.
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["results_undated"]["unknown"], 1391);
    // The repetitions ruled: the text's section (written since).
    let rulings = &value["repetition_rulings"];
    let by_kind: u64 = rulings["by_kind"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(Some(by_kind), rulings["rulings"].as_u64());
    assert!(rulings["games_ending_in_ruling"].as_u64() <= rulings["games_with_rulings"].as_u64());
    assert_eq!(
        value["ecco_families"].as_array().unwrap().iter().map(|f| f["games"].as_u64().unwrap()).sum::<u64>(),
        1391
    );
}
