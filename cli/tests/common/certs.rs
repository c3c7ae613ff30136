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
