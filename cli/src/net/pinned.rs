//! A certificate named in `--upstream-ca` (or the probe's `--ca`) that is
//! the very certificate a server presents is trusted for that server, as
//! curl, Python and Node trust it: the self-signed certificate most local
//! https servers have is made a CA as well (`openssl req -x509` marks it
//! so), which the WebPKI rules refuse as a server's own
//! (`CaUsedAsEndEntity`). Everything else is still checked: the name the
//! server is reached by, the certificate's validity period and its own
//! signature, and, as for any server, the handshake's signature made with
//! its key. A chain to a CA in the file is verified as before.

use std::sync::Arc;

use rustls_pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::client::WebPkiServerVerifier;
use tokio_rustls::rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use tokio_rustls::rustls::{CertificateError, DigitallySignedStruct, Error, SignatureScheme};
use x509_parser::prelude::{ASN1Time, FromDer, X509Certificate};

/// The WebPKI verifier, and the certificates trusted as they are.
#[derive(Debug)]
pub struct Pinned {
    webpki: Arc<WebPkiServerVerifier>,
    pinned: Vec<CertificateDer<'static>>,
}

impl Pinned {
    pub fn new(webpki: Arc<WebPkiServerVerifier>, pinned: Vec<CertificateDer<'static>>) -> Pinned {
        Pinned { webpki, pinned }
    }
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        match self.webpki.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Ok(verified) => Ok(verified),
            Err(refused) if self.pinned.iter().any(|p| p.as_ref() == end_entity.as_ref()) => {
                check_pinned(end_entity, server_name, now).map_err(|why| match why {
                    // The reason the pinned check found, else the WebPKI one.
                    Some(error) => error,
                    None => refused,
                })?;
                Ok(ServerCertVerified::assertion())
            }
            Err(refused) => Err(refused),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

/// What the WebPKI rules check of a server's certificate but its place in
/// a chain: the name, the validity period, the signature (its own key's,
/// the certificate being its own issuer). `Err(None)`: it could not be
/// read as one.
fn check_pinned(der: &CertificateDer<'_>, server_name: &ServerName<'_>, now: UnixTime) -> Result<(), Option<Error>> {
    let named = webpki::EndEntityCert::try_from(der).map_err(|_| None)?;
    named
        .verify_is_valid_for_subject_name(server_name)
        .map_err(|_| Some(Error::InvalidCertificate(CertificateError::NotValidForName)))?;
    let (_, parsed) = X509Certificate::from_der(der.as_ref()).map_err(|_| None)?;
    let seconds = i64::try_from(now.as_secs()).map_err(|_| None)?;
    let at = ASN1Time::from_timestamp(seconds).map_err(|_| None)?;
    if at < parsed.validity().not_before {
        return Err(Some(Error::InvalidCertificate(CertificateError::NotValidYet)));
    }
    if at > parsed.validity().not_after {
        return Err(Some(Error::InvalidCertificate(CertificateError::Expired)));
    }
    parsed.verify_signature(None).map_err(|_| Some(Error::InvalidCertificate(CertificateError::BadSignature)))
}
