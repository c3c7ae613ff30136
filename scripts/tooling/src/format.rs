//! Numbers as the reports print them.

/// `1.23 ms`, three significant digits.
pub fn human_time(ns: f64) -> String {
    for (unit, scale) in [("s", 1e9), ("ms", 1e6), ("µs", 1e3)] {
        if ns >= scale {
            return format!("{} {unit}", significant(ns / scale));
        }
    }
    format!("{} ns", significant(ns))
}

/// Three significant digits, without trailing zeros (as `%.3g`).
fn significant(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = x.abs().log10().floor() as i32;
    let decimals = (2 - digits).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_owned() } else { text }
}

/// `12,345`, rounded.
pub fn grouped(x: f64) -> String {
    let rounded = format!("{:.0}", x.round());
    let (sign, digits) = rounded.strip_prefix('-').map_or(("", rounded.as_str()), |d| ("-", d));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// `1,234 MB/s, 56 msg/s`, or `-`.
pub fn rate(mb: Option<f64>, msgs: Option<f64>) -> String {
    let parts: Vec<String> =
        [mb.map(|m| format!("{} MB/s", grouped(m))), msgs.map(|m| format!("{} msg/s", grouped(m)))]
            .into_iter()
            .flatten()
            .collect();
    if parts.is_empty() { "-".to_owned() } else { parts.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_take_the_largest_unit_below_them_with_three_significant_digits() {
        assert_eq!(human_time(124_000.0), "124 µs");
        assert_eq!(human_time(1_234_567.0), "1.23 ms");
        assert_eq!(human_time(2e9), "2 s");
        assert_eq!(human_time(12.5), "12.5 ns");
    }

    #[test]
    fn large_numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(11_800.4), "11,800");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(-1234.0), "-1,234");
        assert_eq!(rate(Some(1561.2), Some(20_000.0)), "1,561 MB/s, 20,000 msg/s");
        assert_eq!(rate(None, None), "-");
    }
}
