//! A Streamable HTTP endpoint as users have it: `https://mcp.example.com/mcp`,
//! `http://127.0.0.1:3001/mcp`, `http://[::1]:8080`. The scheme picks
//! TLS, the port defaults to the scheme's, the path is the MCP endpoint,
//! and a query (some servers take a key there) is sent with every request
//! to the endpoint but never printed.

use std::fmt;
use std::path::Path;

use hyper::Uri;
use hyper::header::HeaderValue;
use hyper::http::uri::PathAndQuery;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::ServerName;

use super::tls;

/// Where requests go, and how.
pub struct Endpoint {
    /// `scheme://authority/path`, the query left out.
    shown: String,
    /// The host to connect to (an IPv6 address without its brackets).
    pub(super) host: String,
    pub(super) port: u16,
    /// The `Host` header every request carries: the URL's authority.
    host_header: HeaderValue,
    /// The MCP endpoint's path; `None` when the URL has none (or `/`), in
    /// which case every path is the endpoint.
    path: Option<String>,
    query: Option<String>,
    /// For `https`: the connector and the name the certificate must carry.
    pub(super) tls: Option<(TlsConnector, ServerName<'static>)>,
}

/// Where one request to the tap goes upstream.
#[derive(Debug, PartialEq, Eq)]
pub struct RequestTarget {
    /// The request target: the path as the client sent it, with the
    /// endpoint's query added for the endpoint.
    pub path_and_query: PathAndQuery,
    /// Whether the request is to the MCP endpoint (and so judged).
    pub endpoint: bool,
}

impl Endpoint {
    /// Reads an endpoint URL; `ca` is a PEM file of extra roots to trust
    /// (a private CA), for `https` only. The error says what is wrong with
    /// the URL or the file, for the caller to prefix with the option.
    pub fn parse(url: &str, ca: Option<&Path>) -> Result<Endpoint, String> {
        let uri: Uri =
            url.parse().map_err(|e| format!("not a URL ({e}); give one such as https://mcp.example.com/mcp"))?;
        let secure = match uri.scheme_str() {
            Some(scheme) if scheme.eq_ignore_ascii_case("http") => false,
            Some(scheme) if scheme.eq_ignore_ascii_case("https") => true,
            Some(scheme) => return Err(format!("the scheme is {scheme}; the endpoint is reached over http or https")),
            None => return Err("give the whole URL, with its scheme, such as https://mcp.example.com/mcp".into()),
        };
        let authority = uri.authority().ok_or("the URL names no host")?;
        if authority.as_str().contains('@') {
            return Err("a user or password in the URL is not sent anywhere; the client's own headers \
                        (Authorization, say) are relayed as they are"
                .into());
        }
        let host = authority.host();
        let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
        if bare.is_empty() {
            return Err("the URL names no host".into());
        }
        let port = authority.port_u16().unwrap_or(if secure { 443 } else { 80 });
        let host_header = HeaderValue::from_str(authority.as_str()).map_err(|e| format!("the host: {e}"))?;
        let path = match uri.path() {
            "" | "/" => None,
            path => Some(path.to_owned()),
        };
        let tls = if secure {
            let name = ServerName::try_from(bare.to_owned()).map_err(|e| format!("the host {bare}: {e}"))?;
            Some((tls::connector(ca)?, name))
        } else {
            if ca.is_some() {
                return Err("--upstream-ca is for an https upstream; this one is plain http".into());
            }
            None
        };
        let scheme = if secure { "https" } else { "http" };
        let shown = format!("{scheme}://{}{}", authority.as_str(), path.as_deref().unwrap_or(""));
        Ok(Endpoint {
            shown,
            host: bare.to_owned(),
            port,
            host_header,
            path,
            query: uri.query().map(str::to_owned),
            tls,
        })
    }

    /// The `Host` header of every request: the URL's authority.
    pub fn host_header(&self) -> &HeaderValue {
        &self.host_header
    }

    /// Whether the endpoint is on this machine: a loopback address, or
    /// `localhost` (which resolves to one).
    pub fn is_loopback(&self) -> bool {
        let host = self.host.to_ascii_lowercase();
        host == "localhost"
            || host.ends_with(".localhost")
            || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }

    /// The endpoint's path, `/` when the URL gave none.
    pub fn path(&self) -> &str {
        self.path.as_deref().unwrap_or("/")
    }

    /// The endpoint's own path and query, for a client's requests.
    pub fn path_and_query(&self) -> PathAndQuery {
        let text = match &self.query {
            Some(query) => format!("{}?{query}", self.path()),
            None => self.path().to_owned(),
        };
        PathAndQuery::try_from(text).unwrap_or_else(|_| PathAndQuery::from_static("/"))
    }

    /// Where a request to the tap for `uri` goes: its own path, with the
    /// endpoint's query added when it is the endpoint's path (every path is,
    /// when the URL has none).
    pub fn target(&self, uri: &Uri) -> RequestTarget {
        let sent = uri.path_and_query().cloned().unwrap_or_else(|| PathAndQuery::from_static("/"));
        let Some(path) = &self.path else {
            return RequestTarget { path_and_query: sent, endpoint: true };
        };
        if uri.path() != path {
            return RequestTarget { path_and_query: sent, endpoint: false };
        }
        let query = match (self.query.as_deref(), uri.query()) {
            (Some(ours), Some(theirs)) => Some(format!("{ours}&{theirs}")),
            (ours, theirs) => ours.or(theirs).map(str::to_owned),
        };
        let text = match query {
            Some(query) => format!("{path}?{query}"),
            None => path.clone(),
        };
        // Both halves came from parsed URIs, so this parses too.
        let path_and_query = PathAndQuery::try_from(text).unwrap_or(sent);
        RequestTarget { path_and_query, endpoint: true }
    }
}

/// `url` as it may be printed: a user and password before the host are
/// left out.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest.get(..host_end).and_then(|authority| authority.rfind('@')) {
        Some(at) => format!("{scheme}://…{}", rest.get(at..).unwrap_or_default()),
        None => url.to_owned(),
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)?;
        if self.query.is_some() {
            // A query may hold a key: it is sent, never shown.
            f.write_str("?…")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests fail loudly")]

    use super::*;

    fn parse(url: &str) -> Endpoint {
        Endpoint::parse(url, None).unwrap()
    }

    #[test]
    fn an_endpoint_url_gives_host_port_path_and_the_host_header() {
        let e = parse("http://127.0.0.1:3001/mcp");
        assert_eq!(
            (e.host.as_str(), e.port, e.path(), e.host_header.to_str().unwrap()),
            ("127.0.0.1", 3001, "/mcp", "127.0.0.1:3001")
        );
        assert!(e.tls.is_none());
        let e = parse("https://mcp.example.com/v1/mcp");
        assert_eq!(
            (e.host.as_str(), e.port, e.path(), e.host_header.to_str().unwrap()),
            ("mcp.example.com", 443, "/v1/mcp", "mcp.example.com")
        );
        assert!(e.tls.is_some());
        let e = parse("http://[::1]:8080");
        assert_eq!((e.host.as_str(), e.port, e.path()), ("::1", 8080, "/"));
        assert_eq!(parse("HTTP://localhost").port, 80);
    }

    #[test]
    fn urls_the_tap_cannot_reach_are_refused_with_the_reason() {
        let error = |url: &str| Endpoint::parse(url, None).err().unwrap();
        assert!(error("ftp://example.com/mcp").contains("http or https"), "{}", error("ftp://x/"));
        assert!(error("127.0.0.1:3001").contains("scheme"), "{}", error("127.0.0.1:3001"));
        assert!(error("/mcp").contains("scheme"));
        assert!(error("https://user:pw@example.com/mcp").contains("password"));
        assert!(error("http://a b/").contains("not a URL"));
        let ca = Endpoint::parse("http://127.0.0.1:1/mcp", Some(Path::new("ca.pem"))).err().unwrap();
        assert!(ca.contains("https"), "{ca}");
    }

    #[test]
    fn a_user_and_password_in_a_url_are_never_printed() {
        assert_eq!(redacted("https://user:pw@example.com/mcp?a=b@c"), "https://…@example.com/mcp?a=b@c");
        assert_eq!(redacted("https://example.com/a@b"), "https://example.com/a@b");
        assert_eq!(redacted("not a url"), "not a url");
    }

    #[test]
    fn requests_to_the_endpoint_path_are_judged_and_carry_its_query_and_others_pass_as_sent() {
        let uri = |text: &str| text.parse::<Uri>().unwrap();
        let e = parse("https://mcp.example.com/mcp?key=secret");
        assert_eq!(e.to_string(), "https://mcp.example.com/mcp?…");
        assert_eq!(
            e.target(&uri("/mcp")),
            RequestTarget { path_and_query: PathAndQuery::from_static("/mcp?key=secret"), endpoint: true }
        );
        assert_eq!(e.target(&uri("/mcp?a=1")).path_and_query, "/mcp?key=secret&a=1");
        let discovery = e.target(&uri("/.well-known/oauth-protected-resource/mcp"));
        assert_eq!(
            (discovery.path_and_query.as_str(), discovery.endpoint),
            ("/.well-known/oauth-protected-resource/mcp", false)
        );
        assert!(!e.target(&uri("/mcp/")).endpoint);
        // Without a path, every path is the endpoint, relayed as sent.
        let root = parse("http://127.0.0.1:3001");
        assert_eq!(root.to_string(), "http://127.0.0.1:3001");
        assert_eq!(
            root.target(&uri("/anything?x=1")),
            RequestTarget { path_and_query: PathAndQuery::from_static("/anything?x=1"), endpoint: true }
        );
    }
}
