//! DNS rebinding, for a server on this machine: "Servers MUST validate the
//! Origin header on all incoming connections" (Streamable HTTP, every
//! revision that has it), and from 2025-11-25 on "If the Origin header is
//! present and invalid, servers MUST respond with HTTP 403 Forbidden". A
//! page that rebinds a name to 127.0.0.1 sends its own origin, and its own
//! name as the `Host`.

use mcp_envelope_grade::{Outcome, Verdict};

use super::http_ping;
use crate::probe::subject::Subject;

/// The origin and name of a page elsewhere.
const FOREIGN_ORIGIN: &str = "http://evil.example.com";
const FOREIGN_HOST: &str = "evil.example.com";

/// A foreign `Origin`, the `Host` the server's own.
pub async fn foreign_origin(s: &mut Subject) -> Outcome {
    judged(s, &[("origin", FOREIGN_ORIGIN)], false).await
}

/// A foreign `Origin` and `Host`, as a rebinding page sends them: a server
/// that checks the `Host` first may refuse with another status (421, say),
/// which is a refusal, and warns where the `Origin` rule names 403.
pub async fn foreign_host_and_origin(s: &mut Subject) -> Outcome {
    judged(s, &[("host", FOREIGN_HOST), ("origin", FOREIGN_ORIGIN)], true).await
}

async fn judged(s: &mut Subject, set: &[(&str, &str)], host_too: bool) -> Outcome {
    if !s.is_local_http() {
        return Outcome::skip("not a server on this machine: DNS rebinding reaches servers on loopback");
    }
    let named = s.revision().names_origin_refusal();
    let (_, sent) = http_ping(s, set, &[]);
    let answer = s.provoke(sent.clone()).await;
    let expected = if named { "403 Forbidden, the request not run" } else { "a refusal, the request not run" };
    let outcome = Outcome::new(sent.describe(true), expected, &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    match answer.status {
        Some(403) => outcome,
        Some(status) if (200..300).contains(&status) => {
            outcome.judge(Verdict::Fail, format!("{status}: a page on any origin reaches the server"))
        }
        Some(status) if !named => outcome.judge(Verdict::Pass, format!("refused with {status}")),
        Some(status) if host_too => outcome.judge(Verdict::Warn, format!("refused with {status}, where 403 is named")),
        status => outcome.judge(Verdict::Fail, format!("refused with {}, not 403", status.unwrap_or_default())),
    }
}
