//! TLS to an `https` endpoint, through rustls: the roots this machine
//! trusts (its certificate store, as curl and the browsers use it), or
//! Mozilla's list compiled in (webpki-roots) on a machine without one,
//! plus any a user names with `--upstream-ca`: a private CA, or the very
//! certificate a server presents, trusted as it is ([`Pinned`]). HTTP/1.1
//! is offered by ALPN, since that is what the tap relays.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::client::WebPkiServerVerifier;
use tokio_rustls::rustls::{ClientConfig, RootCertStore, crypto};

use super::pinned::Pinned;

/// A connector trusting the platform's roots (or Mozilla's) and `ca`'s.
pub fn connector(ca: Option<&Path>) -> Result<TlsConnector, String> {
    let mut roots = RootCertStore::empty();
    // Certificates the platform's store holds but rustls cannot use are
    // passed over, as browsers do.
    let native = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(native.certs);
    if roots.is_empty() {
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    }
    let mut pinned = Vec::new();
    if let Some(file) = ca {
        let shown = file.display();
        let certificates = CertificateDer::pem_file_iter(file)
            .map_err(|e| format!("--upstream-ca {shown}: {e}"))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("--upstream-ca {shown}: {e}"))?;
        if certificates.is_empty() {
            return Err(format!("--upstream-ca {shown}: no PEM certificate in it"));
        }
        for certificate in certificates {
            roots.add(certificate.clone()).map_err(|e| format!("--upstream-ca {shown}: {e}"))?;
            pinned.push(certificate);
        }
    }
    let provider = Arc::new(crypto::aws_lc_rs::default_provider());
    let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), Arc::clone(&provider))
        .build()
        .map_err(|e| format!("TLS: {e}"))?;
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(Pinned::new(webpki, pinned)))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsConnector::from(Arc::new(config)))
}
