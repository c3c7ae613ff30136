//! What a 2026-07-28 server's answer to a request holds: `resultType` on
//! every result, `input_required` only where a method allows it, log
//! messages only for a request that asked for them, and a
//! `subscriptions/listen` stream that opens with its acknowledgement and
//! tags every notification with the subscription's id.

use super::Rule;
use super::due::{self, Method, Posted};
use crate::envelope::{Notification, ResultResponse};

const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// What a result to a request of `method` breaks. `resultType` is read
/// from the result itself, whatever revision it was parsed under.
pub(super) fn result(result: &ResultResponse<'_>, method: Method) -> Option<Rule> {
    let Ok(Some(value)) = result.result.member("resultType") else {
        return Some(Rule::ResultTypeMissing);
    };
    match value.as_str().as_deref() {
        Some("complete") => None,
        Some("input_required") if method == Method::TakesInput => None,
        Some("input_required") => Some(Rule::InputRequiredNotAllowed),
        // Not a string: the parser's verdict on the message already says so.
        None => None,
        Some(_) => Some(Rule::ResultTypeUnknown),
    }
}

/// What a notification on the stream answering `request` breaks, when
/// `before` messages came before it.
pub(super) fn notification(notification: &Notification<'_>, request: &Posted, before: u64) -> Option<Rule> {
    let log = notification.method == "notifications/message";
    if request.method != Method::Listen {
        return (log && !request.log_level).then_some(Rule::LogMessageUnrequested);
    }
    if before == 0 && notification.method != ACKNOWLEDGED {
        return Some(Rule::ListenNotAcknowledged);
    }
    let meta = notification.params.as_ref().and_then(|p| p.member("_meta").ok().flatten());
    let tagged = meta.and_then(|m| due::as_id(m.member(SUBSCRIPTION_ID).ok().flatten()?.get()));
    if tagged.as_ref() != Some(&request.id) {
        return Some(Rule::ListenWithoutSubscriptionId);
    }
    // Log messages belong to a request's own stream, never to a listen one.
    log.then_some(Rule::LogMessageUnrequested)
}
