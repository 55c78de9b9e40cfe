//! Inline SVG charts for the HTML view: bars and lines drawn from plain
//! series of numbers, with every label HTML-escaped. No script is needed to
//! read them; each data point carries a `<title>` (shown on hover) and the
//! class `pt`, so a test can count the points a chart drew.

use std::fmt::Write;
use tera::escape_html as esc;

/// The drawing area of every chart, in SVG user units.
const W: f64 = 640.0;
const H: f64 = 220.0;
/// Room for the axis labels.
const LEFT: f64 = 40.0;
const BOTTOM: f64 = 56.0;
const TOP: f64 = 12.0;

/// Colours of the series, in order (chosen to stay apart for common
/// colour-vision deficiencies).
pub(crate) const PALETTE: [&str; 8] = [
    "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000",
];

/// One named series of values, one per category.
pub(crate) struct Series<'a> {
    pub name: &'a str,
    pub values: Vec<f64>,
}

/// The largest value of `series`, at least 1 (so an empty chart still has
/// an axis).
fn top(series: &[Series<'_>]) -> f64 {
    series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .fold(1.0_f64, f64::max)
}

fn open_svg(o: &mut String, id: &str, title: &str) {
    let _ = write!(
        o,
        r#"<svg id="{id}" class="chart" viewBox="0 0 {W} {H}" role="img" aria-label="{t}"><title>{t}</title>"#,
        id = esc(id),
        t = esc(title),
    );
}

/// The vertical axis: a baseline, the top value and zero.
fn axis(o: &mut String, max: f64) {
    let base = H - BOTTOM;
    let _ = write!(
        o,
        r#"<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}"/><line class="axis" x1="{LEFT}" y1="{base}" x2="{W}" y2="{base}"/><text class="tick" x="{x}" y="{y}" text-anchor="end">{max}</text><text class="tick" x="{x}" y="{base}" text-anchor="end">0</text>"#,
        x = LEFT - 4.0,
        y = TOP + 8.0,
    );
}

/// Category labels under the axis, at most about twelve (every n-th).
fn labels(o: &mut String, cats: &[String], slot: f64) {
    let every = cats.len().div_ceil(12).max(1);
    for (n, c) in cats.iter().enumerate().filter(|(n, _)| n % every == 0) {
        let x = LEFT + slot * (n as f64 + 0.5);
        let _ = write!(
            o,
            r#"<text class="label" x="{x:.1}" y="{y}" text-anchor="middle">{c}</text>"#,
            y = H - BOTTOM + 16.0,
            c = esc(c),
        );
    }
}

fn legend(o: &mut String, series: &[Series<'_>]) {
    for (n, s) in series.iter().enumerate() {
        let x = LEFT + 8.0 + 150.0 * (n % 4) as f64;
        let y = H - 20.0 + 14.0 * (n / 4) as f64;
        let _ = write!(
            o,
            r#"<rect x="{x}" y="{ry}" width="10" height="10" fill="{c}"/><text class="legend" x="{tx}" y="{y}">{name}</text>"#,
            ry = y - 9.0,
            c = PALETTE[n % PALETTE.len()],
            tx = x + 14.0,
            name = esc(s.name),
        );
    }
}

/// Grouped bars: one group per category, one bar per series.
pub(crate) fn bars(id: &str, title: &str, cats: &[String], series: &[Series<'_>]) -> String {
    let mut o = String::new();
    open_svg(&mut o, id, title);
    let max = top(series);
    axis(&mut o, max);
    let slot = (W - LEFT) / cats.len().max(1) as f64;
    let bar = (slot * 0.8) / series.len().max(1) as f64;
    let base = H - BOTTOM;
    for (k, s) in series.iter().enumerate() {
        for (n, v) in s.values.iter().enumerate() {
            let h = (base - TOP) * v / max;
            let x = LEFT + slot * n as f64 + slot * 0.1 + bar * k as f64;
            let _ = write!(
                o,
                r#"<rect class="pt" x="{x:.1}" y="{y:.1}" width="{bar:.1}" height="{h:.1}" fill="{c}"><title>{cat}: {name} {v}</title></rect>"#,
                y = base - h,
                c = PALETTE[k % PALETTE.len()],
                cat = esc(&cats[n]),
                name = esc(s.name),
            );
        }
    }
    labels(&mut o, cats, slot);
    if series.len() > 1 {
        legend(&mut o, series);
    }
    o.push_str("</svg>");
    o
}

/// Lines: one polyline per series over the categories, a dot per point.
pub(crate) fn lines(id: &str, title: &str, cats: &[String], series: &[Series<'_>]) -> String {
    let mut o = String::new();
    open_svg(&mut o, id, title);
    let max = top(series);
    axis(&mut o, max);
    let slot = (W - LEFT) / cats.len().max(1) as f64;
    let base = H - BOTTOM;
    for (k, s) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let points: Vec<(f64, f64)> = s
            .values
            .iter()
            .enumerate()
            .map(|(n, v)| {
                (
                    LEFT + slot * (n as f64 + 0.5),
                    base - (base - TOP) * v / max,
                )
            })
            .collect();
        let path: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = write!(
            o,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            path.join(" ")
        );
        for (n, (x, y)) in points.iter().enumerate() {
            let _ = write!(
                o,
                r#"<circle class="pt" cx="{x:.1}" cy="{y:.1}" r="3" fill="{colour}"><title>{cat}: {name} {v}</title></circle>"#,
                cat = esc(&cats[n]),
                name = esc(s.name),
                v = s.values[n],
            );
        }
    }
    labels(&mut o, cats, slot);
    legend(&mut o, series);
    o.push_str("</svg>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_names_are_escaped() {
        let cats = vec!["<b>".to_string()];
        let s = [Series {
            name: "a&b",
            values: vec![2.0],
        }];
        let svg = bars("c", "t\"", &cats, &s);
        assert!(!svg.contains("<b>"), "{svg}");
        assert!(svg.contains("&lt;b&gt;"), "{svg}");
        assert!(svg.contains("a&amp;b"), "{svg}");
        assert!(svg.contains("t&quot;"), "{svg}");
    }

    #[test]
    fn every_value_is_a_point() {
        let cats: Vec<String> = (0..5).map(|n| n.to_string()).collect();
        let s = [
            Series {
                name: "x",
                values: vec![1.0; 5],
            },
            Series {
                name: "y",
                values: vec![0.0; 5],
            },
        ];
        assert_eq!(
            bars("b", "t", &cats, &s).matches("class=\"pt\"").count(),
            10
        );
        assert_eq!(
            lines("l", "t", &cats, &s).matches("class=\"pt\"").count(),
            10
        );
    }
}
