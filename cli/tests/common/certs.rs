//! A certificate authority of the tests' own and a server certificate it
//! signs for `localhost` and 127.0.0.1, so an https upstream can run on
//! loopback and be trusted with `--upstream-ca` (and only with it).

use std::net::{IpAddr, Ipv4Addr};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, SanType};

/// PEM texts: the CA's certificate, the server's certificate and key.
pub struct Certs {
    pub ca: String,
    pub cert: String,
    pub key: String,
}

/// A fresh CA and a server certificate signed by it.
pub fn make() -> Result<Certs, rcgen::Error> {
    let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(DnType::CommonName, "mcp-envelope test CA");
    let ca_key = KeyPair::generate()?;
    let ca = ca_params.self_signed(&ca_key)?;
    let mut params = CertificateParams::new(vec!["localhost".to_owned()])?;
    params.subject_alt_names.push(SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    params.distinguished_name.push(DnType::CommonName, "localhost");
    let key = KeyPair::generate()?;
    let cert = params.signed_by(&key, &Issuer::from_params(&ca_params, &ca_key))?;
    Ok(Certs { ca: ca.pem(), cert: cert.pem(), key: key.serialize_pem() })
}

/// A server certificate made the way most local https servers have one
/// (`openssl req -x509 -newkey ... -subj /CN=localhost -addext
/// subjectAltName=IP:127.0.0.1,DNS:localhost`): its own issuer, and marked
/// a CA as well. `names`: the DNS names it is for, 127.0.0.1 besides when
/// `loopback`; `expired`: valid in 2020 only. `ca` is the certificate
/// itself, the file a user gives `--upstream-ca`.
pub fn self_signed(names: &[&str], loopback: bool, expired: bool) -> Result<Certs, rcgen::Error> {
    let mut params = CertificateParams::new(names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>())?;
    if loopback {
        params.subject_alt_names.push(SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    }
    params.distinguished_name.push(DnType::CommonName, names.first().copied().unwrap_or("localhost"));
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    if expired {
        params.not_before = rcgen::date_time_ymd(2020, 1, 1);
        params.not_after = rcgen::date_time_ymd(2020, 12, 31);
    }
    let key = KeyPair::generate()?;
    let cert = params.self_signed(&key)?;
    Ok(Certs { ca: cert.pem(), cert: cert.pem(), key: key.serialize_pem() })
}
