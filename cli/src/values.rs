//! The value parsers the subcommands' options share: a revision, a number
//! of seconds.

use mcp_envelope::Revision;

/// A protocol revision by its name (`2025-11-25`, or `jsonrpc`).
pub fn revision(text: &str) -> Result<Revision, String> {
    text.parse().map_err(|e: mcp_envelope::UnknownRevision| e.to_string())
}

/// A number of seconds from 0 to a day.
pub fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && (0.0..=86_400.0).contains(&seconds) => Ok(seconds),
        _ => Err(format!("{text:?} is not a number of seconds from 0 to 86400")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_finite_and_within_a_day() {
        assert_eq!(seconds("2.5"), Ok(2.5));
        assert_eq!(seconds("0"), Ok(0.0));
        for bad in ["-1", "86401", "NaN", "inf", "x", ""] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_revision_is_read_by_its_name() {
        assert_eq!(revision("2025-11-25"), Ok(Revision::V2025_11_25));
        assert!(revision("2025-11-26").is_err());
    }
}
