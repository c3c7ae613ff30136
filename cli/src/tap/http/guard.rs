//! What the tap's own listener accepts. The tap writes the upstream's
//! authority into `Host`, so the upstream's own DNS-rebinding check never
//! sees the name a browser used: the tap makes that check itself, before
//! anything is relayed. On a loopback address it accepts a `Host` that
//! names that address or `localhost`, with the tap's port; anywhere, an
//! `Origin`, when there is one, must be a loopback origin. `--allow-host`
//! and `--allow-origin` widen both. `Origin` itself is relayed unchanged,
//! so the upstream's own check still sees it.

use std::net::SocketAddr;

use hyper::header::{HOST, HeaderMap, ORIGIN};

/// The hosts and origins the listener accepts.
pub struct Guard {
    /// The tap's own address: its port, and whether it is on loopback.
    listen: SocketAddr,
    /// `--allow-host`: a name (any port) or `name:port`, lowercase.
    hosts: Vec<String>,
    /// `--allow-origin`: an origin as a browser sends it, lowercase.
    origins: Vec<String>,
}

/// Why a request is refused, for its note and its 403.
pub struct Refused {
    /// The note's stable name: `foreign-host` or `foreign-origin`.
    pub note: &'static str,
    pub detail: String,
}

impl Guard {
    pub fn new(listen: SocketAddr, hosts: &[String], origins: &[String]) -> Guard {
        let lower =
            |list: &[String]| list.iter().map(|h| h.trim().trim_end_matches('/').to_ascii_lowercase()).collect();
        Guard { listen, hosts: lower(hosts), origins: lower(origins) }
    }

    /// Whether the tap is reachable only from this machine.
    pub fn is_loopback(&self) -> bool {
        self.listen.ip().is_loopback()
    }

    /// Why the request with `headers` is refused, if it is.
    pub fn refuses(&self, headers: &HeaderMap) -> Option<Refused> {
        let text = |name| headers.get(name).map(|v| String::from_utf8_lossy(v.as_bytes()).to_ascii_lowercase());
        if self.is_loopback() {
            let host = text(HOST).unwrap_or_default();
            if !self.accepts_host(&host) {
                let shown = if host.is_empty() { "no Host" } else { &host };
                return Some(Refused {
                    note: "foreign-host",
                    detail: format!(
                        "Host {shown} is not this tap's ({}): refused, as a page that rebinds a name to it would be \
                         (--allow-host NAME accepts another)",
                        self.listen
                    ),
                });
            }
        }
        let origin = text(ORIGIN)?;
        if self.accepts_origin(&origin) {
            return None;
        }
        Some(Refused {
            note: "foreign-origin",
            detail: format!(
                "Origin {origin} is no loopback origin: refused, as a web page elsewhere would be (--allow-origin \
                 ORIGIN accepts another)"
            ),
        })
    }

    /// A `Host` naming the tap: its loopback address or `localhost`, with
    /// its port (without one only on port 80), or one allowed.
    fn accepts_host(&self, host: &str) -> bool {
        let (name, port) = split_port(host);
        let port_fits = match port {
            Some(port) => port == self.listen.port().to_string(),
            None => self.listen.port() == 80,
        };
        let allowed = self.hosts.iter().any(|h| h == host || (split_port(h).1.is_none() && h == name));
        allowed || (port_fits && is_loopback_name(name))
    }

    /// An origin on this machine (any port), or one allowed.
    fn accepts_origin(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/');
        if self.origins.iter().any(|o| o == origin) {
            return true;
        }
        let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) else {
            return false;
        };
        is_loopback_name(split_port(rest).0)
    }
}

/// `name:port`, `[v6]:port`, or a name alone.
fn split_port(host: &str) -> (&str, Option<&str>) {
    if let Some(v6) = host.strip_prefix('[') {
        return match v6.split_once(']') {
            Some((address, rest)) => (address, rest.strip_prefix(':')),
            None => (host, None),
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') => (name, Some(port)),
        _ => (host, None),
    }
}

/// `localhost`, or an address on loopback (127.0.0.0/8, ::1).
fn is_loopback_name(name: &str) -> bool {
    name == "localhost" || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(
                hyper::header::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    fn refused(guard: &Guard, pairs: &[(&str, &str)]) -> Option<&'static str> {
        guard.refuses(&headers(pairs)).map(|r| r.note)
    }

    #[test]
    fn a_loopback_tap_takes_its_own_host_and_loopback_origins_only() {
        let guard = Guard::new("127.0.0.1:8931".parse().unwrap(), &[], &[]);
        assert_eq!(refused(&guard, &[("host", "127.0.0.1:8931")]), None);
        assert_eq!(refused(&guard, &[("host", "LocalHost:8931"), ("origin", "http://localhost:6274")]), None);
        assert_eq!(refused(&guard, &[("host", "[::1]:8931"), ("origin", "https://127.0.0.1")]), None);
        assert_eq!(refused(&guard, &[("host", "evil.example.com:8931")]), Some("foreign-host"));
        assert_eq!(refused(&guard, &[("host", "127.0.0.1:9999")]), Some("foreign-host"));
        assert_eq!(refused(&guard, &[("host", "127.0.0.1")]), Some("foreign-host"));
        assert_eq!(refused(&guard, &[]), Some("foreign-host"));
        assert_eq!(
            refused(&guard, &[("host", "127.0.0.1:8931"), ("origin", "http://evil.example.com")]),
            Some("foreign-origin")
        );
        assert_eq!(refused(&guard, &[("host", "127.0.0.1:8931"), ("origin", "null")]), Some("foreign-origin"));
        assert_eq!(
            refused(&guard, &[("host", "127.0.0.1:8931"), ("origin", "http://localhost.evil.com")]),
            Some("foreign-origin")
        );
    }

    #[test]
    fn allow_host_and_allow_origin_widen_it() {
        let hosts = ["dev.internal".to_owned(), "Box.Lan:8931".to_owned()];
        let origins = ["https://app.example.com/".to_owned()];
        let guard = Guard::new("127.0.0.1:8931".parse().unwrap(), &hosts, &origins);
        assert_eq!(refused(&guard, &[("host", "dev.internal:1234")]), None);
        assert_eq!(refused(&guard, &[("host", "box.lan:8931")]), None);
        assert_eq!(refused(&guard, &[("host", "box.lan:80")]), Some("foreign-host"));
        assert_eq!(refused(&guard, &[("host", "localhost:8931"), ("origin", "https://app.example.com")]), None);
        assert_eq!(
            refused(&guard, &[("host", "localhost:8931"), ("origin", "http://app.example.com")]),
            Some("foreign-origin")
        );
    }

    #[test]
    fn a_tap_on_the_network_takes_any_host_and_still_checks_the_origin() {
        let guard = Guard::new("0.0.0.0:8931".parse().unwrap(), &[], &[]);
        assert!(!guard.is_loopback());
        assert_eq!(refused(&guard, &[("host", "box.lan:8931")]), None);
        assert_eq!(
            refused(&guard, &[("host", "box.lan:8931"), ("origin", "http://evil.example.com")]),
            Some("foreign-origin")
        );
    }
}
