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

/// Grouped horizontal bars: one block per category, one bar per series,
/// each labelled with its value and `unit`.
pub fn bars(title: &str, subtitle: &str, categories: &[&str], series: &[Series], unit: &str) -> String {
    let (width, left, bar, gap) = (920.0, 220.0, 14.0, 18.0);
    let legend_rows = series.len().div_ceil(3) as f64;
    let height = 88.0 + categories.len() as f64 * (series.len() as f64 * bar + gap) + 20.0 * legend_rows;
    let top = series.iter().flat_map(|(_, v)| v.iter().flatten()).copied().fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let mut out = open(width, height, 12, title);
    let _ = writeln!(out, r##"<text x="10" y="40" fill="#555555">{}</text>"##, escape(subtitle));
    let mut y = 62.0;
    for (i, (name, _)) in series.iter().enumerate() {
        let (lx, ly) = (10.0 + (i % 3) as f64 * 300.0, y + (i / 3) as f64 * 18.0);
        let _ = writeln!(out, r#"<rect x="{lx}" y="{}" width="12" height="12" fill="{}"/>"#, ly - 10.0, color(i));
        let _ = writeln!(out, r#"<text x="{}" y="{ly}">{}</text>"#, lx + 16.0, escape(name));
    }
    y += 18.0 * legend_rows + 8.0;
    let span = width - left - 120.0;
    for (c, category) in categories.iter().enumerate() {
        let label_y = y + series.len() as f64 * bar / 2.0 + 4.0;
        let _ = writeln!(out, r#"<text x="10" y="{label_y}" font-weight="bold">{}</text>"#, escape(category));
        for (i, (_, values)) in series.iter().enumerate() {
            if let Some(v) = values.get(c).copied().flatten().filter(|v| *v > 0.0) {
                let w = (span * v / top).max(1.0);
                let _ = writeln!(
                    out,
                    r#"<rect x="{left}" y="{y}" width="{w:.1}" height="{}" fill="{}"/>"#,
                    bar - 2.0,
                    color(i)
                );
                let _ = writeln!(
                    out,
                    r#"<text x="{:.1}" y="{}">{} {unit}</text>"#,
                    left + w + 4.0,
                    y + bar - 4.0,
                    crate::format::grouped(v)
                );
            }
            y += bar;
        }
        y += gap;
    }
    out.push_str("</svg>\n");
    out
}

/// Lines over commits: one per series, a point per commit that has a value.
pub fn lines(title: &str, commits: &[String], series: &[Series]) -> String {
    let (width, height, left, right, top, bottom) = (920.0, 380.0, 80.0, 260.0, 40.0, 70.0);
    let peak = series.iter().flat_map(|(_, v)| v.iter().flatten()).copied().fold(0.0, f64::max).max(1.0) * 1.1;
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
            writeln!(out, r#"<text x="{}" y="{:.1}" text-anchor="end">{:.0} M</text>"#, left - 6.0, y + 4.0, v / 1e6);
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

    #[test]
    fn bars_scale_to_the_largest_value_and_label_each_bar() {
        let series =
            vec![("ours".to_owned(), vec![Some(100.0), Some(50.0)]), ("peer <x>".to_owned(), vec![Some(25.0), None])];
        let svg = bars("T", "S", &["small", "medium"], &series, "MB/s");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<rect x=\"220\"").count(), 3, "one bar per value present");
        assert!(svg.contains(r#"width="580.0""#), "the largest value spans the plot: {svg}");
        assert!(svg.contains(r#"width="145.0""#), "a quarter of it, a quarter of the span");
        assert!(svg.contains("100 MB/s") && svg.contains("peer &lt;x&gt;"));
    }

    #[test]
    fn lines_join_the_commits_that_have_a_value() {
        let commits = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let series = vec![
            ("serde small".to_owned(), vec![Some(4e6), None, Some(2e6)]),
            ("simd small".to_owned(), vec![Some(3e6), None, None]),
        ];
        let svg = lines("T", &commits, &series);
        assert_eq!(svg.matches("<polyline").count(), 1, "a series with one point gets no line");
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("stroke-dasharray"), "simd series are dashed");
    }
}
