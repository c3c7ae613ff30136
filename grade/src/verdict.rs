//! A check's outcome, and the judgements the checks share: an error that
//! answers what was sent, no answer at all, the results that answer ids.

use crate::answer::{Answer, Read, id_json};
use crate::shape::{Shape, shape};
use mcp_envelope::{Id, Message, Revision};

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// What the rules want.
    Pass,
    /// A MUST broken.
    Fail,
    /// A SHOULD broken, or something the text leaves open done otherwise
    /// than it recommends.
    Warn,
    /// Not run: why is in the outcome.
    Skip,
}

impl Verdict {
    /// `pass`, `fail`, `warn` or `skip`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Warn => "warn",
            Verdict::Skip => "skip",
        }
    }
}

/// One check's outcome.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How it came out.
    pub verdict: Verdict,
    /// What was sent.
    pub sent: String,
    /// What the rules want.
    pub expected: String,
    /// What came back.
    pub got: String,
    /// Why it failed, warned or was skipped.
    pub why: Option<String>,
}

impl Outcome {
    /// Not run, and why.
    pub fn skip(why: impl Into<String>) -> Outcome {
        Outcome {
            verdict: Verdict::Skip,
            sent: String::new(),
            expected: String::new(),
            got: String::new(),
            why: Some(why.into()),
        }
    }

    /// A pass, until [`Outcome::judge`] says otherwise.
    #[must_use]
    pub fn new(sent: String, expected: impl Into<String>, answer: &Answer) -> Outcome {
        Outcome { verdict: Verdict::Pass, sent, expected: expected.into(), got: answer.describe(), why: None }
    }

    /// Sets the verdict, keeping the worst one given (fail over warn over
    /// pass) and its reason.
    pub fn judge(mut self, verdict: Verdict, why: impl Into<String>) -> Outcome {
        let rank = |v: Verdict| match v {
            Verdict::Pass | Verdict::Skip => 0,
            Verdict::Warn => 1,
            Verdict::Fail => 2,
        };
        if rank(verdict) > rank(self.verdict) {
            self.verdict = verdict;
            self.why = Some(why.into());
        }
        self
    }
}

/// The error a faulty message should get.
#[derive(Clone, Debug)]
pub struct Want {
    /// Its code.
    pub code: i64,
    /// The id it carries: the message's, or null (`None`) when it could
    /// not be read.
    pub id: Option<Id<'static>>,
    /// Other codes that answer the fault where the text is loose (a warning).
    pub also: &'static [i64],
    /// Other codes as good as `code` (where faults meet and the text
    /// gives none precedence).
    pub alike: &'static [i64],
}

impl Want {
    /// What the rules want, for the scorecard.
    #[must_use]
    pub fn describe(&self, http: bool) -> String {
        let id = self.id.as_ref().map_or_else(|| "null".to_owned(), id_json);
        let status = if http { ", an HTTP error status" } else { "" };
        format!("error {} with id {id}{status}", self.code)
    }
}

/// Judges an answer that should be `want` (an error response, once).
pub fn error(outcome: Outcome, answer: &Answer, want: &Want, revision: Revision, http: bool) -> Outcome {
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    let reads = answer.read(revision);
    let errors: Vec<_> = reads
        .iter()
        .filter_map(|r| match r {
            Read::Message(Message::Error(e)) => Some(e),
            _ => None,
        })
        .collect();
    let others =
        reads.iter().any(|r| !matches!(r, Read::Message(Message::Error(_)) | Read::Message(Message::Notification(_))));
    let mut outcome = outcome;
    if http && answer.status == Some(202) {
        return outcome.judge(Verdict::Fail, "accepted (202) without the error json-rpc gives it");
    }
    let Some(first) = errors.first() else {
        if others {
            return outcome.judge(Verdict::Fail, "answered with something other than an error");
        }
        if http && !answer.success() {
            return outcome.judge(Verdict::Warn, "refused by its status alone, without the json-rpc error");
        }
        return outcome.judge(Verdict::Fail, "no error came");
    };
    if errors.len() > 1 || others {
        outcome = outcome.judge(Verdict::Fail, "more than one answer");
    }
    let code = first.error.code;
    if code != want.code && !want.alike.contains(&code) {
        let confused = matches!((want.code, code), (-32600, -32700) | (-32700, -32600));
        outcome = if want.also.contains(&code) && !confused {
            outcome.judge(Verdict::Warn, format!("code {code}, where {} is due", want.code))
        } else {
            outcome.judge(Verdict::Fail, format!("code {code}, where {} is due", want.code))
        };
    }
    if first.id != want.id {
        let got = first.id.as_ref().map_or_else(|| "null".to_owned(), id_json);
        outcome = outcome.judge(Verdict::Fail, format!("id {got}, not the one the rules give"));
    }
    if http && answer.success() {
        outcome = outcome.judge(Verdict::Warn, "a success status for input the server could not accept");
    }
    outcome
}

/// Judges an answer that should be nothing (a notification, a response):
/// no message on stdio; over HTTP 202 with no body, or a refusal without a
/// JSON-RPC response.
pub fn nothing(outcome: Outcome, answer: &Answer, revision: Revision, http: bool) -> Outcome {
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    let shapes: Vec<Shape> = answer
        .read(revision)
        .iter()
        .zip(&answer.messages)
        .map(|(read, bytes)| match read {
            Read::Message(Message::Result(_)) | Read::Batch(_) => Shape::Response,
            Read::Message(Message::Error(e)) if e.id.is_some() => Shape::Response,
            Read::Message(Message::Error(_)) => Shape::IdlessError,
            Read::Message(_) => Shape::Other,
            // A malformed response is still a response to what gets none.
            Read::Invalid(_) => shape(bytes),
        })
        .collect();
    if !http {
        let answered = shapes.iter().any(|s| *s != Shape::Other);
        return if answered { outcome.judge(Verdict::Fail, "it was answered") } else { outcome };
    }
    match answer.status {
        Some(202) if answer.messages.is_empty() && answer.text.is_none() => outcome,
        Some(202) => outcome.judge(Verdict::Fail, "202 with a body"),
        Some(s) if (200..300).contains(&s) => outcome.judge(Verdict::Fail, format!("{s}, not 202 Accepted")),
        // A refusal may carry an error without an id (the transport says
        // so of input the server cannot accept); anything else answers.
        Some(_) if shapes.contains(&Shape::Response) => {
            outcome.judge(Verdict::Fail, "a json-rpc answer to what gets none")
        }
        _ => outcome,
    }
}

/// The results answering each of `ids`, once: a list of faults.
pub fn results(answer: &Answer, ids: &[Id<'static>], revision: Revision) -> Vec<String> {
    let mut seen: Vec<Id<'static>> = Vec::new();
    let mut faults = Vec::new();
    for read in answer.read(revision) {
        let messages = match read {
            Read::Message(m) => vec![m],
            Read::Batch(items) => items,
            Read::Invalid(why) => {
                faults.push(format!("an invalid answer ({why})"));
                continue;
            }
        };
        for message in messages {
            match &message {
                Message::Result(r) => seen.push(r.id.clone().into_owned()),
                Message::Error(e) => faults.push(format!("an error {} ({})", e.error.code, e.error.message)),
                Message::Request(_) | Message::Notification(_) => {}
            }
        }
    }
    for id in ids {
        match seen.iter().filter(|s| *s == id).count() {
            1 => {}
            0 => faults.push(format!("no result for id {}", id_json(id))),
            n => faults.push(format!("{n} results for id {}", id_json(id))),
        }
    }
    if let Some(stray) = seen.iter().find(|s| !ids.contains(s)) {
        faults.push(format!("a result for id {} that was not sent", id_json(stray)));
    }
    faults
}
