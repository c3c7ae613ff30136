//! The two charts, as SVG text. Written out rather than drawn with a chart
//! crate: plotters (the maintained choice) lays out text with a font it
//! must load from a file, while an SVG viewer renders text itself, so these
//! charts need no font in the repository.

use std::fmt::Write;

const PALETTE: [&str; 8] = ["#1b6ca8", "#5aa9e6", "#e07a5f", "#f2cc8f", "#81b29a", "#9d8189", "#3d405b", "#bbbbbb"];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn color(i: usize) -> &'static str {
    PALETTE.get(i % PALETTE.len()).copied().unwrap_or("#000000")
}

/// The start of a chart: the `<svg>` element, a white ground, the title
/// in bold (3 points above the text size, its baseline 2 text sizes down).
fn open(width: f64, height: f64, font_size: u32, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="{font_size}">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="10" y="{}" font-size="{}" font-weight="bold">{}</text>"#,
        2 * font_size - 2,
        font_size + 3,
        escape(title)
    );
    out
}

/// A series: its name and a value per category.
pub type Series = (String, Vec<Option<f64>>);

/// Our backends' colours: blues, each its own.
const OURS: [&str; 3] = ["#0b3d6b", "#1b6ca8", "#5aa9e6"];
/// The peers' colours: none of them blue, each its own.
const PEERS: [&str; 9] =
    ["#e07a5f", "#d4a017", "#81b29a", "#9d8189", "#3d405b", "#a0522d", "#8f5e99", "#5c946e", "#999999"];

/// A colour for each series: ours (per `is_ours`) from [`OURS`], the peers
/// from [`PEERS`], in order, so no two series share one while there are
/// colours enough.
fn bar_colors(series: &[Series], is_ours: &dyn Fn(&str) -> bool) -> Vec<&'static str> {
    let (mut ours, mut peers) = (0, 0);
    series
        .iter()
        .map(|(name, _)| {
            let (palette, next): (&[&'static str], &mut usize) =
                if is_ours(name) { (&OURS, &mut ours) } else { (&PEERS, &mut peers) };
            let color = palette.get(*next % palette.len()).copied().unwrap_or("#000000");
            *next += 1;
            color
        })
        .collect()
}

/// Grouped horizontal bars: one block per category, one bar per series,
/// each named at its left (ours in bold, in blues; the peers in other
/// colours) and labelled with its value and `unit` at its right.
pub fn bars(
    title: &str,
    subtitle: &str,
    categories: &[&str],
    series: &[Series],
    unit: &str,
    is_ours: &dyn Fn(&str) -> bool,
) -> String {
    let (width, left, bar, heading) = (960.0, 250.0, 16.0, 22.0);
    let present = |c: usize| series.iter().filter(move |(_, v)| v.get(c).copied().flatten().is_some_and(|v| v > 0.0));
    let rows: usize = (0..categories.len()).map(|c| present(c).count()).sum();
    let height = 70.0 + categories.len() as f64 * (heading + 8.0) + rows as f64 * bar;
    let top = series.iter().flat_map(|(_, v)| v.iter().flatten()).copied().fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let colors = bar_colors(series, is_ours);
    let mut out = open(width, height, 12, title);
    let _ =
        writeln!(out, r##"<text x="10" y="40" fill="#555555">{} (ours in blue, in bold)</text>"##, escape(subtitle));
    let mut y = 62.0;
    let span = width - left - 130.0;
    for (c, category) in categories.iter().enumerate() {
        let _ = writeln!(out, r#"<text x="10" y="{}" font-weight="bold">{}</text>"#, y + 14.0, escape(category));
        y += heading;
        for (i, (name, values)) in series.iter().enumerate() {
            let Some(v) = values.get(c).copied().flatten().filter(|v| *v > 0.0) else { continue };
            let color = colors.get(i).copied().unwrap_or("#000000");
            let weight = if is_ours(name) { r#" font-weight="bold""# } else { "" };
            let text_y = y + bar - 5.0;
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{text_y}" text-anchor="end"{weight}>{}</text>"#,
                left - 6.0,
                escape(name)
            );
            let w = (span * v / top).max(1.0);
            let _ = writeln!(out, r#"<rect x="{left}" y="{y}" width="{w:.1}" height="{}" fill="{color}"/>"#, bar - 3.0);
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{text_y}">{} {unit}</text>"#,
                left + w + 4.0,
                crate::format::grouped(v)
            );
            y += bar;
        }
        y += 8.0;
    }
    out.push_str("</svg>\n");
    out
}

/// A stacked bar: its name, its segments' shares in percent (summing to
/// 100), and what to write at its right.
pub type Stack = (String, Vec<f64>, String);

/// Panels of stacked horizontal bars, each bar 100 % wide and cut into the
/// `legend`'s segments in order, each segment wide enough labelled with its
/// share.
pub fn stacked(title: &str, subtitle: &str, panels: &[(String, Vec<Stack>)], legend: &[&str]) -> String {
    let (width, left, bar, heading) = (960.0, 90.0, 22.0, 24.0);
    let span = width - left - 300.0;
    let bars: usize = panels.iter().map(|(_, b)| b.len()).sum();
    let height = 90.0 + panels.len() as f64 * (heading + 10.0) + bars as f64 * (bar + 4.0);
    let mut out = open(width, height, 12, title);
    let _ = writeln!(out, r##"<text x="10" y="40" fill="#555555">{}</text>"##, escape(subtitle));
    let mut x = 10.0;
    for (i, name) in legend.iter().enumerate() {
        let _ = writeln!(out, r#"<rect x="{x}" y="52" width="12" height="12" fill="{}"/>"#, color(i));
        let _ = writeln!(out, r#"<text x="{}" y="62">{}</text>"#, x + 16.0, escape(name));
        x += 16.0 + 8.0 * name.chars().count() as f64 + 20.0;
    }
    let mut y = 76.0;
    for (panel, stacks) in panels {
        let _ = writeln!(out, r#"<text x="10" y="{}" font-weight="bold">{}</text>"#, y + 16.0, escape(panel));
        y += heading;
        for (name, shares, right) in stacks {
            let text_y = y + bar - 7.0;
            let _ = writeln!(out, r#"<text x="{}" y="{text_y}" text-anchor="end">{}</text>"#, left - 6.0, escape(name));
            let mut at = left;
            for (i, share) in shares.iter().enumerate() {
                let w = span * share.max(0.0) / 100.0;
                if w <= 0.0 {
                    continue;
                }
                let _ =
                    writeln!(out, r#"<rect x="{at:.1}" y="{y}" width="{w:.1}" height="{bar}" fill="{}"/>"#, color(i));
                if w >= 34.0 {
                    let _ = writeln!(
                        out,
                        r#"<text x="{:.1}" y="{text_y}" text-anchor="middle" fill="white">{share:.0} %</text>"#,
                        at + w / 2.0
                    );
                }
                at += w;
            }
            let _ = writeln!(out, r#"<text x="{:.1}" y="{text_y}">{}</text>"#, left + span + 8.0, escape(right));
            y += bar + 4.0;
        }
        y += 10.0;
    }
    out.push_str("</svg>\n");
    out
}

/// The vertical axis of [`lines`]: its top (by default a tenth above the
/// largest value) and how a tick's value reads.
pub struct Axis {
    pub top: Option<f64>,
    pub tick: fn(f64) -> String,
}

/// Millions, for instruction counts.
pub const MILLIONS: Axis = Axis { top: None, tick: |v| format!("{:.0} M", v / 1e6) };
/// Time a message: nanoseconds, or microseconds from ten of them.
pub const NANOSECONDS: Axis =
    Axis { top: None, tick: |v| if v >= 10_000.0 { format!("{:.0} µs", v / 1e3) } else { format!("{v:.0} ns") } };
/// Percent, 0 to 100.
pub const PERCENT: Axis = Axis { top: Some(100.0), tick: |v| format!("{v:.0} %") };

/// Lines over commits: one per series, a point per commit that has a value.
pub fn lines(title: &str, commits: &[String], series: &[Series], axis: &Axis) -> String {
    let (width, height, left, right, top, bottom) = (920.0, 380.0, 80.0, 260.0, 40.0, 70.0);
    let largest = series.iter().flat_map(|(_, v)| v.iter().flatten()).copied().fold(0.0, f64::max);
    let peak = axis.top.unwrap_or(largest.max(1.0) * 1.1);
    let (plot_w, plot_h) = (width - left - right, height - top - bottom);
    let y_of = |v: f64| top + plot_h * (1.0 - v / peak);
    let x_of = |i: usize| left + plot_w * (i as f64 / (commits.len().max(2) - 1) as f64);
    let mut out = open(width, height, 11, title);
    for i in 0..5 {
        let v = peak * f64::from(i) / 4.0;
        let y = y_of(v);
        let _ =
            writeln!(out, r##"<line x1="{left}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#dddddd"/>"##, left + plot_w);
        let _ =
            writeln!(out, r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#, left - 6.0, y + 4.0, (axis.tick)(v));
    }
    for (i, commit) in commits.iter().enumerate() {
        let (x, y) = (x_of(i), height - bottom + 16.0);
        let short: String = commit.chars().take(10).collect();
        let _ =
            writeln!(out, r#"<text x="{x:.0}" y="{y}" transform="rotate(30 {x:.0} {y})">{}</text>"#, escape(&short));
    }
    for (s, (name, values)) in series.iter().enumerate() {
        let points: Vec<(f64, f64)> =
            values.iter().enumerate().filter_map(|(i, v)| v.map(|v| (x_of(i), y_of(v)))).collect();
        let dash = if name.contains("simd") { r#" stroke-dasharray="6 3""# } else { "" };
        if points.len() > 1 {
            let path: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = writeln!(
                out,
                r#"<polyline fill="none" stroke="{}" stroke-width="2"{dash} points="{}"/>"#,
                color(s),
                path.join(" ")
            );
        }
        for (x, y) in &points {
            let _ = writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{}"/>"#, color(s));
        }
        let ly = top + 16.0 * s as f64 + 10.0;
        let lx = width - right + 20.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"{dash}/>"#,
            ly - 4.0,
            lx + 24.0,
            ly - 4.0,
            color(s)
        );
        let _ = writeln!(out, r#"<text x="{}" y="{ly}">{}</text>"#, lx + 30.0, escape(name));
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(name: &str) -> bool {
        name.starts_with("ours")
    }

    #[test]
    fn bars_scale_to_the_largest_value_and_label_each_bar() {
        let series =
            vec![("ours".to_owned(), vec![Some(100.0), Some(50.0)]), ("peer <x>".to_owned(), vec![Some(25.0), None])];
        let svg = bars("T", "S", &["small", "medium"], &series, "MB/s", &ours);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<rect x=\"250\"").count(), 3, "one bar per value present");
        assert!(svg.contains(r#"width="580.0""#), "the largest value spans the plot: {svg}");
        assert!(svg.contains(r#"width="145.0""#), "a quarter of it, a quarter of the span");
        assert!(svg.contains("100 MB/s") && svg.contains("peer &lt;x&gt;"));
    }

    #[test]
    fn every_bar_is_named_and_eleven_contenders_get_eleven_colours_ours_blue() {
        let names = ["ours-reference", "ours-simd", "ours-serde", "a", "b", "c", "d", "e", "f", "g", "h"];
        let series: Vec<Series> = names.iter().map(|n| ((*n).to_owned(), vec![Some(1.0), Some(2.0)])).collect();
        let svg = bars("T", "S", &["small", "medium"], &series, "MB/s", &ours);
        let colors = bar_colors(&series, &ours);
        let distinct: std::collections::BTreeSet<_> = colors.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{colors:?}");
        for (name, color) in names.iter().zip(&colors) {
            assert_eq!(OURS.contains(color), ours(name), "{name} is {color}");
            // Named beside each of its bars, in bold when it is ours.
            let weight = if ours(name) { r#" font-weight="bold""# } else { "" };
            let label = format!(r#"text-anchor="end"{weight}>{name}</text>"#);
            assert_eq!(svg.matches(&label).count(), 2, "{name}: {svg}");
            assert_eq!(svg.matches(&format!(r#"fill="{color}""#)).count(), 2, "{name}'s two bars");
        }
    }

    #[test]
    fn stacked_bars_cut_each_bar_by_share_and_label_the_wide_segments() {
        let panels = vec![("P".to_owned(), vec![("small".to_owned(), vec![10.0, 2.0, 88.0], "whole".to_owned())])];
        let svg = stacked("T", "S", &panels, &["a", "b", "c"]);
        // The bar spans 570 units: 57, 11.4 and 501.6 wide, in legend order.
        assert!(svg.contains(r##"x="90.0" y="100" width="57.0" height="22" fill="#1b6ca8"##), "{svg}");
        assert!(svg.contains(r##"x="147.0" y="100" width="11.4" height="22" fill="#5aa9e6"##), "{svg}");
        assert!(svg.contains(r##"x="158.4" y="100" width="501.6" height="22" fill="#e07a5f"##), "{svg}");
        // Shares wide enough are written in; 2 % is too narrow to hold one.
        assert!(svg.contains(">10 %</text>") && svg.contains(">88 %</text>") && !svg.contains(">2 %</text>"), "{svg}");
        assert!(svg.contains(">whole</text>") && svg.contains(">small</text>"), "{svg}");
    }

    #[test]
    fn lines_join_the_commits_that_have_a_value() {
        let commits = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let series = vec![
            ("serde small".to_owned(), vec![Some(4e6), None, Some(2e6)]),
            ("simd small".to_owned(), vec![Some(3e6), None, None]),
        ];
        let svg = lines("T", &commits, &series, &MILLIONS);
        assert_eq!(svg.matches("<polyline").count(), 1, "a series with one point gets no line");
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("stroke-dasharray"), "simd series are dashed");
        assert!(svg.contains(">4 M<") && svg.contains(">0 M<"), "ticks up to a tenth above the largest: {svg}");
    }

    #[test]
    fn a_percent_axis_runs_from_0_to_100_whatever_the_values() {
        let commits = vec!["a".to_owned(), "b".to_owned()];
        let svg = lines("T", &commits, &[("all".to_owned(), vec![Some(50.0), Some(100.0)])], &PERCENT);
        assert!(svg.contains(">100 %<") && svg.contains(">75 %<") && svg.contains(">0 %<"), "{svg}");
        // 100 % sits on the plot's top edge (y = 40), 50 % halfway down.
        assert!(svg.contains(r#"cx="660.0" cy="40.0""#) && svg.contains(r#"cx="80.0" cy="175.0""#), "{svg}");
    }
}
