//! The stdio server as a process: nothing but messages on its standard
//! output, and an exit when its input ends.

use mcp_envelope_grade::{Outcome, Verdict};

use crate::probe::subject::Subject;

pub async fn stdout_only(s: &mut Subject) -> Outcome {
    let stray = s.stray();
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "the whole session".into(),
        expected: "nothing but messages on standard output, one a line".into(),
        got: if stray.is_empty() { "only messages".into() } else { stray.join(" | ") },
        why: None,
    };
    if stray.is_empty() { outcome } else { outcome.judge(Verdict::Fail, "lines that are no message") }
}

pub async fn end_of_input(s: &mut Subject) -> Outcome {
    let closed = s.close().await;
    let got = match &closed {
        Ok(status) => status.to_string(),
        Err(e) => e.clone(),
    };
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "end of input".into(),
        expected: "the server exits, with status 0".into(),
        got,
        why: None,
    };
    match closed {
        Ok(status) if status.success() => outcome,
        Ok(status) => outcome.judge(Verdict::Warn, format!("it exited with {status}")),
        Err(e) => outcome.judge(Verdict::Warn, e),
    }
}
