//! Relaying: which headers belong to one hop only, and the bodies the
//! proxy hands on.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use http_body::{Body, Frame, SizeHint};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderMap, HeaderName};

/// Every body the proxy sends, either way.
pub type ProxyBody = crate::net::Body;

/// Removes the headers that describe one connection rather than the
/// message (RFC 9110, section 7.6.1), and those `Connection` names.
/// `Expect` goes too: the proxy has read the body before it relays it.
pub fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in [
        header::CONNECTION,
        header::TRANSFER_ENCODING,
        header::TE,
        header::TRAILER,
        header::UPGRADE,
        header::PROXY_AUTHORIZATION,
        header::EXPECT,
    ] {
        headers.remove(name);
    }
    headers.remove("keep-alive");
    headers.remove("proxy-connection");
}

/// A body the proxy wrote itself.
pub fn full(bytes: impl Into<Bytes>) -> ProxyBody {
    Full::new(bytes.into()).map_err(|never| match never {}).boxed()
}

/// A request body read up to the size limit.
pub enum Collected {
    /// All of it.
    Whole(Bytes),
    /// More than the limit: what was read, and the rest, still to come.
    Over { head: Bytes, rest: Incoming },
    /// The client's body failed (it went away mid-request).
    Failed(hyper::Error),
}

/// Reads `body` until its end or until it passes `max` bytes; memory stays
/// within `max` plus one frame.
pub async fn collect(mut body: Incoming, max: usize) -> Collected {
    let mut held = BytesMut::new();
    while let Some(frame) = body.frame().await {
        match frame {
            Ok(frame) => {
                if let Ok(data) = frame.into_data() {
                    held.extend_from_slice(&data);
                    if held.len() > max {
                        return Collected::Over { head: held.freeze(), rest: body };
                    }
                }
            }
            Err(e) => return Collected::Failed(e),
        }
    }
    Collected::Whole(held.freeze())
}

/// What was read of an oversized body, then the rest as it comes.
pub struct Prefixed {
    head: Option<Bytes>,
    rest: Incoming,
}

impl Prefixed {
    pub fn new(head: Bytes, rest: Incoming) -> Prefixed {
        Prefixed { head: Some(head), rest }
    }
}

impl Body for Prefixed {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        if let Some(head) = this.head.take() {
            return Poll::Ready(Some(Ok(Frame::data(head))));
        }
        Pin::new(&mut this.rest).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.head.is_none() && self.rest.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let head = self.head.as_ref().map_or(0, |h| h.len() as u64);
        let rest = self.rest.size_hint();
        let mut hint = SizeHint::new();
        hint.set_lower(rest.lower() + head);
        if let Some(upper) = rest.upper() {
            hint.set_upper(upper + head);
        }
        hint
    }
}
