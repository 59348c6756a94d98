//! TLS to a PostgreSQL server, set as libpq sets it: `sslmode` and `sslrootcert` in the URL.
//!
//! A server on another machine (a managed database, as a rule) wants TLS, and its certificate
//! checked. The `postgres` crate knows `sslmode=disable|prefer|require` and leaves the
//! certificate to the TLS connector; libpq's `verify-ca` and `verify-full`, and
//! `sslrootcert`, it refuses as unknown. So the store reads those two from the URL itself,
//! hands the rest on, and builds the connector (rustls, already the bot's TLS towards Discord)
//! to check what the mode says:
//!
//! | `sslmode`            | TLS                      | the server's certificate                 |
//! |----------------------|--------------------------|------------------------------------------|
//! | `disable`            | never                    | —                                        |
//! | `prefer` (the default) | if the server offers it | not checked                              |
//! | `require`            | always                   | not checked (checked as `verify-ca` when `sslrootcert` is given, as libpq does) |
//! | `verify-ca`          | always                   | signed by a trusted authority            |
//! | `verify-full`        | always                   | signed by a trusted authority, for the URL's host |
//!
//! The trusted authorities are those of the PEM file `sslrootcert` names, or, without it (or
//! with `sslrootcert=system`), the Mozilla roots web browsers trust (`webpki-roots`): what a
//! managed server's certificate is signed by, where libpq would look for `~/.postgresql/root.crt`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore};
use rustls::{Error as TlsError, SignatureScheme};
pub use tokio_postgres_rustls::MakeRustlsConnect;

/// libpq's `sslmode`: whether the connection is encrypted, and what is checked of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    const NAMES: [(&'static str, SslMode); 5] = [
        ("disable", SslMode::Disable),
        ("prefer", SslMode::Prefer),
        ("require", SslMode::Require),
        ("verify-ca", SslMode::VerifyCa),
        ("verify-full", SslMode::VerifyFull),
    ];

    fn parse(text: &str) -> Option<SslMode> {
        Self::NAMES
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, mode)| *mode)
    }

    /// What the `postgres` crate is told: whether to ask for TLS, and whether to go on
    /// without it. The checks of the `verify-` modes are the connector's.
    fn of_the_client(self) -> postgres::config::SslMode {
        match self {
            SslMode::Disable => postgres::config::SslMode::Disable,
            SslMode::Prefer => postgres::config::SslMode::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => {
                postgres::config::SslMode::Require
            }
        }
    }
}

/// Where the trusted authorities come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// The Mozilla roots (`webpki-roots`): no `sslrootcert`, or `sslrootcert=system`.
    Public,
    /// A PEM file of one or more certificates.
    File(PathBuf),
}

/// What a URL says of TLS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsSettings {
    pub mode: SslMode,
    pub roots: Roots,
    /// Whether `sslrootcert` was given (`require` then checks the chain, as libpq's does).
    roots_given: bool,
}

/// Why a URL's TLS settings cannot be used: one sentence each, for `StoreError::BadUrl`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TlsSettingsError {
    #[error("sslmode={0} is not a mode; use disable, prefer, require, verify-ca or verify-full")]
    UnknownMode(String),
    #[error("sslrootcert={path}: {why}")]
    Roots { path: String, why: String },
}

/// Splits libpq's `sslmode` and `sslrootcert` off a `postgres://` URL: the URL left for the
/// `postgres` crate, and the settings. Other parameters stay as they are.
pub fn split_url(url: &str) -> Result<(String, TlsSettings), TlsSettingsError> {
    let mut settings = TlsSettings {
        mode: SslMode::Prefer,
        roots: Roots::Public,
        roots_given: false,
    };
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.to_string(), settings));
    };
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_encoding::percent_decode_str(value)
            .decode_utf8_lossy()
            .into_owned();
        match key {
            "sslmode" => {
                settings.mode =
                    SslMode::parse(&value).ok_or(TlsSettingsError::UnknownMode(value))?;
            }
            "sslrootcert" => {
                settings.roots_given = true;
                settings.roots = if value == "system" {
                    Roots::Public
                } else {
                    Roots::File(PathBuf::from(value))
                };
            }
            _ => kept.push(pair),
        }
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((url, settings))
}

impl TlsSettings {
    /// Sets the client's own mode in `config` and builds the connector that checks the
    /// server's certificate as the mode says. A root file that cannot be read, or holds no
    /// certificate, is refused here, before any connection.
    pub fn apply(
        &self,
        config: &mut postgres::Config,
    ) -> Result<MakeRustlsConnect, TlsSettingsError> {
        config.ssl_mode(self.mode.of_the_client());
        // ring, the provider the bot's TLS towards Discord is built with already; rustls now
        // steers to aws-lc-rs (post-quantum key exchange), a C library built with CMake,
        // more than a database link is worth.
        #[allow(deprecated)]
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let check = match self.mode {
            SslMode::Disable | SslMode::Prefer => Check::Nothing,
            SslMode::Require if !self.roots_given => Check::Nothing,
            SslMode::Require | SslMode::VerifyCa => Check::Chain,
            SslMode::VerifyFull => Check::Full,
        };
        let verifier: Arc<dyn ServerCertVerifier> = match check {
            Check::Nothing => Arc::new(Unchecked(provider.clone())),
            Check::Chain | Check::Full => {
                let roots = Arc::new(self.roots()?);
                let full = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                    .build()
                    .map_err(|e| self.roots_error(e.to_string()))?;
                if check == Check::Full {
                    full
                } else {
                    Arc::new(ChainOnly(full))
                }
            }
        };
        let client = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("ring offers the default protocol versions")
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(MakeRustlsConnect::new(client))
    }

    fn roots(&self) -> Result<RootCertStore, TlsSettingsError> {
        match &self.roots {
            Roots::Public => Ok(RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            }),
            Roots::File(path) => read_roots(path).map_err(|why| self.roots_error(why)),
        }
    }

    fn roots_error(&self, why: String) -> TlsSettingsError {
        let path = match &self.roots {
            Roots::Public => "system".to_string(),
            Roots::File(path) => path.display().to_string(),
        };
        TlsSettingsError::Roots { path, why }
    }
}

/// The certificates of a PEM file, as trusted authorities.
fn read_roots(path: &Path) -> Result<RootCertStore, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&bytes) {
        let cert = cert.map_err(|e| format!("not a PEM file of certificates ({e})"))?;
        roots
            .add(cert)
            .map_err(|e| format!("a certificate that cannot be used: {e}"))?;
    }
    if roots.is_empty() {
        return Err("no certificate in it (a PEM file of certificates is needed)".to_string());
    }
    Ok(roots)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    Nothing,
    Chain,
    Full,
}

/// `prefer` and `require` as libpq has them: encrypted, but any certificate is taken (the
/// handshake's own signatures are still checked, so the connection is with the key the
/// certificate names).
#[derive(Debug)]
struct Unchecked(Arc<CryptoProvider>);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, TlsError> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca`: the chain is checked up to a trusted authority, the host name is not (a
/// server reached by an address its certificate does not name). rustls checks the chain
/// before the name, so a certificate refused only for its name has a good chain.
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, TlsError> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(TlsError::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            checked => checked,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tls_parameters_are_taken_off_the_url_and_the_rest_kept() {
        let (url, settings) = split_url(
            "postgres://u@db.example:5432/jackal?connect_timeout=5&sslmode=verify-full\
             &sslrootcert=%2Fetc%2Fca%20file.pem&application_name=bot",
        )
        .unwrap();
        assert_eq!(
            url,
            "postgres://u@db.example:5432/jackal?connect_timeout=5&application_name=bot"
        );
        assert_eq!(settings.mode, SslMode::VerifyFull);
        assert_eq!(
            settings.roots,
            Roots::File(PathBuf::from("/etc/ca file.pem"))
        );

        let (url, settings) = split_url("postgres://u@h/db?sslmode=require").unwrap();
        assert_eq!(url, "postgres://u@h/db");
        assert_eq!(
            (settings.mode, settings.roots),
            (SslMode::Require, Roots::Public)
        );

        let (url, settings) = split_url("postgres://u@h/db").unwrap();
        assert_eq!(url, "postgres://u@h/db");
        assert_eq!(settings.mode, SslMode::Prefer, "libpq's default");

        let (_, settings) = split_url("postgres://h/db?sslrootcert=system").unwrap();
        assert_eq!(settings.roots, Roots::Public);
    }

    #[test]
    fn an_unknown_mode_is_named_with_the_modes() {
        let error = split_url("postgres://h/db?sslmode=verify").unwrap_err();
        assert_eq!(
            error.to_string(),
            "sslmode=verify is not a mode; use disable, prefer, require, verify-ca or verify-full"
        );
    }

    #[test]
    fn a_root_file_that_cannot_serve_is_refused_before_connecting() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.pem");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "no certificate here\n").unwrap();
        for (path, why) in [(&missing, "No such file"), (&empty, "no certificate in it")] {
            let url = format!(
                "postgres://h/db?sslmode=verify-full&sslrootcert={}",
                path.display()
            );
            let (url, settings) = split_url(&url).unwrap();
            let mut config: postgres::Config = url.parse().unwrap();
            let error = settings.apply(&mut config).err().unwrap().to_string();
            assert!(
                error.starts_with(&format!("sslrootcert={}: ", path.display()))
                    && error.contains(why),
                "{error}"
            );
        }
    }

    #[test]
    fn every_mode_builds_a_connector_with_the_public_roots() {
        for (_, mode) in SslMode::NAMES {
            let settings = TlsSettings {
                mode,
                roots: Roots::Public,
                roots_given: false,
            };
            let mut config = postgres::Config::new();
            settings.apply(&mut config).unwrap();
            assert_eq!(config.get_ssl_mode(), mode.of_the_client());
        }
    }
}
