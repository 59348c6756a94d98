//! TLS to a PostgreSQL server, set as libpq sets it: `sslmode` and `sslrootcert` in the URL.
//!
//! A server on another machine (a managed database, as a rule) wants TLS, and its certificate
//! checked. The `postgres` crate knows `sslmode=disable|prefer|require` and leaves the
//! certificate to the TLS connector; libpq's `verify-ca` and `verify-full`, and
//! `sslrootcert`, it refuses as unknown. So the store reads those two from the URL itself,
//! hands the rest on, and builds the connector (rustls, already the bot's TLS towards Discord)
//! to check what the mode says:
//!
//! | `sslmode`              | TLS                      | the server's certificate                 |
//! |------------------------|--------------------------|------------------------------------------|
//! | `disable`              | never                    | —                                        |
//! | `allow`, `prefer` (the default) | if the server offers it | not checked                      |
//! | `require`              | always                   | not checked (checked as `verify-ca` when `sslrootcert` names a file, as libpq does) |
//! | `verify-ca`            | always                   | signed by an authority of `sslrootcert`  |
//! | `verify-full`          | always                   | signed by a trusted authority, for the URL's host |
//!
//! The trusted authorities are those of the PEM file `sslrootcert` names, or with
//! `sslrootcert=system` the Mozilla roots web browsers trust (`webpki-roots`), which sign most
//! managed databases' certificates. As in libpq 16, `system` makes `verify-full` the default
//! and refuses any weaker mode (a certificate any website can get for its own name proves
//! nothing without the name checked); and a `verify-` mode without `sslrootcert` is refused
//! rather than checked against a file of the user's home (libpq's `~/.postgresql/root.crt`).
//! Unlike libpq, `prefer` does not fall back to an unencrypted connection when the TLS
//! handshake itself fails (a server rustls cannot talk to: TLS 1.1 or older, a DSA key).

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
    const NAMES: [(&'static str, SslMode); 6] = [
        ("disable", SslMode::Disable),
        ("prefer", SslMode::Prefer),
        // libpq's `allow` tries without TLS first; neither checks anything, and the `postgres`
        // crate has no such order: the same as `prefer` here.
        ("allow", SslMode::Prefer),
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

    /// The mode's name in a URL (`prefer`, not `allow`, which reads as it).
    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, mode)| *mode == self)
            .map_or("prefer", |(name, _)| *name)
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
    /// The Mozilla roots (`webpki-roots`): `sslrootcert=system`, or no `sslrootcert` in a
    /// mode that checks nothing.
    Public,
    /// A PEM file of one or more certificates.
    File(PathBuf),
}

/// What a URL says of TLS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsSettings {
    pub mode: SslMode,
    pub roots: Roots,
}

/// Why a URL's TLS settings cannot be used: one sentence each, for `StoreError::BadUrl`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TlsSettingsError {
    #[error(
        "sslmode={0} is not a mode; use disable, allow, prefer, require, verify-ca or verify-full"
    )]
    UnknownMode(String),
    #[error(
        "sslmode={0} needs sslrootcert: a PEM file of the authorities that sign the server's \
         certificate{1}"
    )]
    NoRoots(&'static str, &'static str),
    #[error(
        "sslrootcert=system (the authorities web browsers trust) needs sslmode=verify-full, \
         not {0}: without the host's name checked, any website's certificate would do"
    )]
    SystemNeedsFull(&'static str),
    #[error("sslrootcert={path}: {why}")]
    Roots { path: String, why: String },
}

/// Splits libpq's `sslmode` and `sslrootcert` off a `postgres://` URL: the URL left for the
/// `postgres` crate, and the settings. Other parameters stay as they are. The query is looked
/// for as the `postgres` crate finds it: after the user's part (up to the first `@`, so a `?`
/// in a password is not a query) and the hosts; keys are compared decoded, as it decodes them.
pub fn split_url(url: &str) -> Result<(String, TlsSettings), TlsSettingsError> {
    let mut mode = None;
    let mut roots = None;
    let query_at = {
        let body = url.find("://").map_or(0, |i| i + 3);
        let hosts = body + url[body..].find('@').map_or(0, |i| i + 1);
        url[hosts..].find('?').map(|i| hosts + i)
    };
    let (base, query) = match query_at {
        Some(at) => (&url[..at], &url[at + 1..]),
        None => (url, ""),
    };
    let decoded = |text: &str| {
        percent_encoding::percent_decode_str(text)
            .decode_utf8_lossy()
            .into_owned()
    };
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match decoded(key).as_str() {
            "sslmode" => {
                let value = decoded(value);
                mode = Some(SslMode::parse(&value).ok_or(TlsSettingsError::UnknownMode(value))?);
            }
            "sslrootcert" => {
                roots = Some(match decoded(value).as_str() {
                    "system" => Roots::Public,
                    path => Roots::File(PathBuf::from(path)),
                });
            }
            _ => kept.push(pair),
        }
    }
    let settings = TlsSettings::of(mode, roots)?;
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((url, settings))
}

impl TlsSettings {
    /// The settings of a mode and roots as given (`None`: not in the URL), with libpq's rules
    /// for what goes together.
    fn of(mode: Option<SslMode>, roots: Option<Roots>) -> Result<TlsSettings, TlsSettingsError> {
        let mode = match (mode, &roots) {
            (None, Some(Roots::Public)) => SslMode::VerifyFull,
            (Some(mode), Some(Roots::Public)) if mode != SslMode::VerifyFull => {
                return Err(TlsSettingsError::SystemNeedsFull(mode.name()));
            }
            (Some(mode @ (SslMode::VerifyCa | SslMode::VerifyFull)), None) => {
                let or_system = if mode == SslMode::VerifyFull {
                    " (or sslrootcert=system, the authorities web browsers trust)"
                } else {
                    ""
                };
                return Err(TlsSettingsError::NoRoots(mode.name(), or_system));
            }
            (mode, _) => mode.unwrap_or(SslMode::Prefer),
        };
        Ok(TlsSettings {
            mode,
            roots: roots.unwrap_or(Roots::Public),
        })
    }

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
            // `require` with a root file checks the chain, as libpq's does (`require` with the
            // public roots is refused in `TlsSettings::of`).
            SslMode::Require if self.roots == Roots::Public => Check::Nothing,
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

    fn settings(url: &str) -> TlsSettings {
        split_url(url).unwrap().1
    }

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
        assert_eq!(settings.mode, SslMode::Require);

        let (url, settings) = split_url("postgres://u@h/db").unwrap();
        assert_eq!(url, "postgres://u@h/db");
        assert_eq!(settings.mode, SslMode::Prefer, "libpq's default");
        assert_eq!(
            self::settings("postgres://h/db?sslmode=allow").mode,
            SslMode::Prefer
        );
    }

    /// A `?` in a password is not the query's start (the user's part runs to the first
    /// `@`), and a key percent-encoded is the key: neither hides a mode, which would leave
    /// the default `prefer` in its place.
    #[test]
    fn the_query_is_found_after_the_password_and_its_keys_decoded() {
        let (url, settings) =
            split_url("postgres://u:pa?ss@h:5432/db?sslmode=require&application_name=x").unwrap();
        assert_eq!(url, "postgres://u:pa?ss@h:5432/db?application_name=x");
        assert_eq!(settings.mode, SslMode::Require);
        let (url, settings) = split_url("postgres://u:pa?sslmode=disable@h/db").unwrap();
        assert_eq!(
            url, "postgres://u:pa?sslmode=disable@h/db",
            "a password, kept"
        );
        assert_eq!(settings.mode, SslMode::Prefer);
        assert_eq!(
            self::settings("postgres://h/db?ssl%6Dode=require").mode,
            SslMode::Require
        );
    }

    /// libpq 16's rules: `sslrootcert=system` means `verify-full` and allows nothing weaker;
    /// a `verify-` mode names its authorities.
    #[test]
    fn the_system_roots_go_with_verify_full_only_and_the_verify_modes_need_roots() {
        let system = settings("postgres://h/db?sslrootcert=system");
        assert_eq!(
            (system.mode, system.roots),
            (SslMode::VerifyFull, Roots::Public)
        );
        for weaker in ["disable", "allow", "prefer", "require", "verify-ca"] {
            let error = split_url(&format!(
                "postgres://h/db?sslrootcert=system&sslmode={weaker}"
            ))
            .unwrap_err()
            .to_string();
            assert!(
                error.starts_with("sslrootcert=system (the authorities web browsers trust) needs sslmode=verify-full"),
                "{weaker}: {error}"
            );
        }
        assert_eq!(
            split_url("postgres://h/db?sslmode=verify-full")
                .unwrap_err()
                .to_string(),
            "sslmode=verify-full needs sslrootcert: a PEM file of the authorities that sign the \
             server's certificate (or sslrootcert=system, the authorities web browsers trust)"
        );
        assert_eq!(
            split_url("postgres://h/db?sslmode=verify-ca")
                .unwrap_err()
                .to_string(),
            "sslmode=verify-ca needs sslrootcert: a PEM file of the authorities that sign the \
             server's certificate"
        );
    }

    #[test]
    fn an_unknown_mode_is_named_with_the_modes() {
        let error = split_url("postgres://h/db?sslmode=verify").unwrap_err();
        assert_eq!(
            error.to_string(),
            "sslmode=verify is not a mode; use disable, allow, prefer, require, verify-ca or \
             verify-full"
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
    fn every_mode_sets_the_clients_own() {
        for (query, mode) in [
            ("sslmode=disable", postgres::config::SslMode::Disable),
            ("sslmode=prefer", postgres::config::SslMode::Prefer),
            ("sslmode=require", postgres::config::SslMode::Require),
            ("sslrootcert=system", postgres::config::SslMode::Require),
        ] {
            let (url, settings) = split_url(&format!("postgres://h/db?{query}")).unwrap();
            let mut config: postgres::Config = url.parse().unwrap();
            settings.apply(&mut config).unwrap();
            assert_eq!(config.get_ssl_mode(), mode, "{query}");
        }
    }
}
