//! Reaching a Streamable HTTP server as users name it: its endpoint URL
//! ([`Endpoint`]: `http` or `https`, a host, a port or none, a path), TLS
//! through rustls ([`tls`], a certificate trusted as it is: [`pinned`]), and one HTTP/1.1 connection to it that
//! reconnects when the server closes it ([`Link`]).

mod endpoint;
mod link;
mod pinned;
mod tls;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;

pub use endpoint::{Endpoint, RequestTarget, redacted};
pub use link::Link;

/// Every body sent over a [`Link`].
pub type Body = BoxBody<Bytes, hyper::Error>;
