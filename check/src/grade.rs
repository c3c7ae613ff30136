//! The probe's grading on whatever a server sends back: no panic, and no
//! false pass. A pass is held to an independent reading (serde_json's) of
//! the same answer: an error that passes is one error object with the
//! code and id wanted, what passes for no answer holds no response, and
//! ids that pass are each answered by one result.

use std::vec::Vec;

use serde_json::Value;

use mcp_envelope::Id;
use mcp_envelope::Revision;
use mcp_envelope_grade::{self as grade, Answer, Outcome, Verdict, Want};

/// The HTTP statuses an answer may carry, by class.
const STATUSES: [u16; 8] = [200, 202, 204, 400, 401, 404, 405, 500];

/// Input: a byte for the revision (`% 6`), whether the answer came over
/// HTTP (bit 6) and whether the server gave up (bit 7); a byte for the
/// status; then the answer's messages, separated by NUL.
pub fn grade(input: &[u8]) {
    let [config, status, rest @ ..] = input else { return };
    let revision = Revision::ALL.get(usize::from(*config) % Revision::ALL.len()).copied().unwrap_or_default();
    let http = config & 0x40 != 0;
    let answer = Answer {
        status: http.then(|| STATUSES.get(usize::from(*status) % STATUSES.len()).copied().unwrap_or(200)),
        messages: if rest.is_empty() { Vec::new() } else { rest.split(|&b| b == 0).map(<[u8]>::to_vec).collect() },
        failure: (config & 0x80 != 0).then(|| "the server exited".into()),
        ..Answer::default()
    };
    let _ = answer.describe();
    let values: Vec<Value> = answer.messages.iter().filter_map(|m| serde_json::from_slice(m).ok()).collect();

    let wants = [
        Want { code: -32700, id: None, also: &[], alike: &[] },
        Want { code: -32600, id: Some(Id::Int(7)), also: &[-32602], alike: &[] },
        Want { code: -32020, id: Some(Id::Str("7".into())), also: &[], alike: &[-32022] },
    ];
    for want in &wants {
        let outcome = grade::error(blank(), &answer, want, revision, http);
        if outcome.verdict == Verdict::Pass {
            assert!(answer.failure.is_none(), "a server that gave up passed");
            assert!(!http || !answer.success(), "an error over HTTP passed with a success status");
            let [value] = values.as_slice() else { panic!("{outcome:?}: not one message: {answer:?}") };
            let code = value.pointer("/error/code").and_then(Value::as_i64);
            assert!(code.is_some_and(|c| c == want.code || want.alike.contains(&c)), "{outcome:?}: the code: {value}");
            assert!(
                value.get("result").is_none() && value.get("method").is_none(),
                "{outcome:?}: not an error: {value}"
            );
            assert!(id_is(value.get("id"), want.id.as_ref()), "{outcome:?}: the id: {value}");
        }
    }

    let outcome = grade::nothing(blank(), &answer, revision, http);
    if outcome.verdict == Verdict::Pass {
        assert!(answer.failure.is_none(), "a server that gave up passed");
        let answered = values.iter().any(|v| {
            v.is_array()
                || v.get("result").is_some()
                || v.get("error").is_some_and(|_| v.get("id").is_some_and(|id| !id.is_null()))
        });
        assert!(!answered, "an answer passed for none: {answer:?}");
        if http {
            assert!(!answer.success() || (answer.status == Some(202) && answer.messages.is_empty()), "{answer:?}");
        }
    }

    let ids = [Id::Int(1), Id::Str("a".into())];
    if grade::results(&answer, &ids, revision).is_empty() {
        for id in &ids {
            let results = values
                .iter()
                .flat_map(|v| match v {
                    Value::Array(items) => items.iter().collect::<Vec<_>>(),
                    other => std::vec![other],
                })
                .filter(|v| v.get("result").is_some() && id_is(v.get("id"), Some(id)))
                .count();
            assert!(results >= 1, "id {id:?} passed without a result: {answer:?}");
        }
    }
}

fn blank() -> Outcome {
    Outcome::new(std::string::String::new(), "", &Answer::default())
}

/// Whether a JSON id is `want` (`None`: null or absent).
fn id_is(value: Option<&Value>, want: Option<&Id<'_>>) -> bool {
    match (value, want) {
        (None | Some(Value::Null), None) => true,
        (Some(Value::String(s)), Some(Id::Str(w))) => s == w.as_ref(),
        (Some(Value::Number(n)), Some(Id::Int(w))) => n.as_i64() == Some(*w) || n.as_f64() == Some(*w as f64),
        _ => false,
    }
}
