//! TLS to a PostgreSQL store, as libpq does it. `sslmode` and `sslrootcert`
//! are read from the store's URL (`?sslmode=verify-full&sslrootcert=/ca.pem`)
//! or keyword/value string, else from `PGSSLMODE` and `PGSSLROOTCERT`, and
//! taken out before the rest goes to tokio-postgres, whose `SslMode` knows
//! only disable, prefer and require:
//!
//! - `disable`: plaintext.
//! - `allow`: plaintext; TLS (unverified) only when the server refuses that.
//! - `prefer` (the default, as in libpq): TLS when the server offers it,
//!   else plaintext; a failed handshake falls back to plaintext too.
//! - `require`: TLS or nothing, the certificate not checked, unless a root
//!   certificate is given: then it is `verify-ca`, as in libpq (and so is
//!   `prefer` with one).
//! - `verify-ca`: the server's certificate chain must lead to a root.
//! - `verify-full`: that, and the certificate must name the host connected
//!   to (its subjectAltName DNS name or IP address).
//!
//! The roots are the PEM certificates in the `sslrootcert` file, else (and
//! for `sslrootcert=system`, libpq's word for it) the system's store, read by
//! rustls-native-certs as OpenSSL would (`SSL_CERT_FILE`, `SSL_CERT_DIR`,
//! the distribution's bundle). libpq would look for `~/.postgresql/root.crt`
//! instead; versus does not. As in libpq, `sslrootcert=system` means
//! `verify-full` and refuses a weaker sslmode.
//!
//! The TLS library is rustls with the ring provider, not native-tls
//! (OpenSSL): a fresh machine needs no OpenSSL headers to build versus, the
//! TLS code is Rust on every platform, and ring builds faster than
//! aws-lc-rs, which needs cmake. tokio-postgres-rustls joins it to
//! tokio-postgres (including channel binding for SCRAM).

use std::error::Error as _;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use postgres::config::{Host, SslMode};
use postgres::{Client, Config, NoTls};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{verify_server_cert_signed_by_trust_anchor, verify_server_name};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres_rustls::MakeRustlsConnect;

/// libpq's sslmode values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    const ALL: [Mode; 6] = [
        Mode::Disable,
        Mode::Allow,
        Mode::Prefer,
        Mode::Require,
        Mode::VerifyCa,
        Mode::VerifyFull,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Mode::Disable => "disable",
            Mode::Allow => "allow",
            Mode::Prefer => "prefer",
            Mode::Require => "require",
            Mode::VerifyCa => "verify-ca",
            Mode::VerifyFull => "verify-full",
        }
    }

    fn parse(text: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == text)
    }
}

/// Where the root certificates come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Roots {
    /// A PEM file (`sslrootcert=FILE`).
    File(PathBuf),
    /// The system's store (`sslrootcert=system`, or verify-* without sslrootcert).
    System,
}

impl std::fmt::Display for Roots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Roots::File(p) => write!(f, "{} (sslrootcert)", p.display()),
            Roots::System => f.write_str("the system's store"),
        }
    }
}

/// What a store's location says of TLS, and the location without it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The location without `sslmode` and `sslrootcert`, for tokio-postgres.
    pub rest: String,
    pub mode: Mode,
    /// The roots the server's certificate chain is checked against; None: not checked.
    pub roots: Option<Roots>,
    /// Whether the host name is checked too (verify-full).
    pub names: bool,
}

/// The TLS settings of `location` (`shown`, the same with passwords hidden,
/// names it in errors); `env` gives libpq's environment variables.
pub(crate) fn settings(location: &str, shown: &str, env: impl Fn(&str) -> Option<String>) -> Result<Settings> {
    let (rest, taken) = if is_url(location) {
        take_from_url(location)
    } else {
        take_from_keywords(location)
    };
    let given = |key: &str| taken.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let (mode_text, from) = match given("sslmode") {
        Some(m) => (Some(m), "sslmode"),
        None => (env("PGSSLMODE").filter(|m| !m.is_empty()), "PGSSLMODE"),
    };
    let root = given("sslrootcert")
        .or_else(|| env("PGSSLROOTCERT"))
        .filter(|r| !r.is_empty());
    let system = root.as_deref() == Some("system");
    let mode = match mode_text.as_deref() {
        Some(text) => Mode::parse(text).ok_or_else(|| {
            anyhow!(
                "history store {shown}: {from}={text} is not an sslmode; it is one of {}",
                Mode::ALL.map(Mode::name).join(", ")
            )
        })?,
        None if system => Mode::VerifyFull,
        None => Mode::Prefer,
    };
    if system && mode != Mode::VerifyFull {
        bail!(
            "history store {shown}: sslrootcert=system needs sslmode=verify-full (as in libpq), not {}",
            mode.name()
        );
    }
    let roots = match (mode, root) {
        (Mode::Disable, _) => None,
        (_, Some(r)) if r == "system" => Some(Roots::System),
        (_, Some(file)) => Some(Roots::File(PathBuf::from(file))),
        (Mode::VerifyCa | Mode::VerifyFull, None) => Some(Roots::System),
        (_, None) => None,
    };
    Ok(Settings {
        rest,
        mode,
        roots,
        names: mode == Mode::VerifyFull,
    })
}

fn is_url(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// The TLS parameters libpq takes that tokio-postgres does not.
const TAKEN: [&str; 2] = ["sslmode", "sslrootcert"];

/// `url` without its sslmode and sslrootcert query parameters, and those
/// (name and value, percent-decoded). The query starts at the first `?`
/// after the user information, as tokio-postgres reads it.
fn take_from_url(url: &str) -> (String, Vec<(String, String)>) {
    let after_user = url.find('@').map_or(0, |i| i + 1);
    let Some(q) = url[after_user..].find('?').map(|q| after_user + q) else {
        return (url.to_string(), vec![]);
    };
    let mut kept = Vec::new();
    let mut taken = Vec::new();
    for piece in url[q + 1..].split('&') {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        let name = crate::base::redact::decoded(name);
        if TAKEN.contains(&name.as_str()) {
            taken.push((name, crate::base::redact::decoded(value)));
        } else {
            kept.push(piece);
        }
    }
    let rest = match kept.is_empty() {
        true => url[..q].to_string(),
        false => format!("{}?{}", &url[..q], kept.join("&")),
    };
    (rest, taken)
}

/// A keyword/value string without its sslmode and sslrootcert, and those,
/// read as tokio-postgres (and libpq) reads the string: `key = value`, the
/// value quoted (`'a b'`) or not, `\` escaping the next character. A string
/// it cannot read is left whole, for tokio-postgres to refuse.
fn take_from_keywords(text: &str) -> (String, Vec<(String, String)>) {
    let mut rest = String::new();
    let mut taken = Vec::new();
    let mut at = 0;
    let mut chars = text.char_indices().peekable();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else { break };
        let mut key = String::new();
        while let Some((_, c)) = chars.next_if(|(_, c)| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        if chars.next_if(|(_, c)| *c == '=').is_none() {
            return (text.to_string(), vec![]);
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let quoted = chars.next_if(|(_, c)| *c == '\'').is_some();
        let mut value = String::new();
        let mut closed = !quoted;
        while let Some((_, c)) = chars.next_if(|(_, c)| quoted || !c.is_whitespace()) {
            match c {
                '\\' => value.extend(chars.next().map(|(_, c)| c)),
                '\'' if quoted => {
                    closed = true;
                    break;
                }
                c => value.push(c),
            }
        }
        if !closed {
            return (text.to_string(), vec![]);
        }
        let end = chars.peek().map_or(text.len(), |&(i, _)| i);
        if TAKEN.contains(&key.as_str()) {
            rest.push_str(&text[at..start]);
            at = end;
            taken.push((key, value));
        }
    }
    rest.push_str(&text[at..]);
    (rest.trim().to_string(), taken)
}

/// Connects with `config` as `tls` says; `shown` names the store in errors.
pub(crate) fn connect(config: &mut Config, tls: &Settings, shown: &str) -> Result<Client> {
    // libpq uses no TLS over Unix-domain sockets, whatever the sslmode.
    let unix_only = config.get_hostaddrs().is_empty()
        && !config.get_hosts().is_empty()
        && config.get_hosts().iter().all(|h| !matches!(h, Host::Tcp(_)));
    // An address without a host name: the address is the name TLS checks.
    if config.get_hosts().is_empty() {
        for addr in config.get_hostaddrs().to_vec() {
            config.host(&addr.to_string());
        }
    }
    let mode = if unix_only { Mode::Disable } else { tls.mode };
    let connector = match mode {
        Mode::Disable => None,
        _ => Some(MakeRustlsConnect::new(
            client_config(tls).with_context(|| format!("history store {shown}"))?,
        )),
    };
    let plain = |config: &mut Config| config.ssl_mode(SslMode::Disable).connect(NoTls);
    let with_tls = |config: &mut Config, ssl: SslMode| {
        let connector = connector.clone().expect("a connector for every sslmode but disable");
        config.ssl_mode(ssl).connect(connector)
    };
    let result = match mode {
        Mode::Disable => plain(config),
        Mode::Allow => match plain(config) {
            // The server answered, and refused: it may want TLS.
            Err(e) if e.as_db_error().is_some() => with_tls(config, SslMode::Require),
            other => other,
        },
        Mode::Prefer => match with_tls(config, SslMode::Prefer) {
            Err(e) if is_tls_failure(&e) => plain(config),
            other => other,
        },
        Mode::Require | Mode::VerifyCa | Mode::VerifyFull => with_tls(config, SslMode::Require),
    };
    result.map_err(|e| match is_tls_failure(&e) {
        true => anyhow!(
            "history store {shown}: TLS with the PostgreSQL server failed (sslmode={}): {}",
            tls.mode.name(),
            reason(&e, tls, config)
        ),
        false => anyhow::Error::new(e).context(format!(
            "history store {shown}: cannot connect to the PostgreSQL server"
        )),
    })
}

/// Whether `e` is a failed TLS handshake (or a server without TLS under
/// require). tokio-postgres tells it only by its message.
fn is_tls_failure(e: &postgres::Error) -> bool {
    e.to_string().starts_with("error performing TLS handshake")
}

/// Why the TLS handshake failed, in words.
fn reason(e: &postgres::Error, tls: &Settings, config: &Config) -> String {
    let roots = tls.roots.as_ref().map_or("none".to_string(), |r| r.to_string());
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .filter_map(|h| match h {
            Host::Tcp(name) => Some(name.clone()),
            #[cfg(unix)]
            Host::Unix(_) => None,
        })
        .collect();
    match rustls_error(e) {
        Some(rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer)) => {
            let hint = match tls.roots {
                Some(Roots::System) => "; name the server's CA with sslrootcert=FILE",
                _ => "",
            };
            format!(
                "the server's certificate is not signed by a trusted root \
                 (unknown issuer; root certificates: {roots}){hint}"
            )
        }
        Some(rustls::Error::InvalidCertificate(
            r @ (CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. }),
        )) => format!(
            "the server's certificate is not valid for the host name {} ({r})",
            hosts.join(", ")
        ),
        Some(r) => format!("{r} (root certificates: {roots})"),
        None => e.source().map_or_else(|| e.to_string(), |s| s.to_string()),
    }
}

/// The rustls error under `e`, if any (tokio-rustls wraps it in an io::Error).
fn rustls_error(e: &postgres::Error) -> Option<&rustls::Error> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = e.source();
    while let Some(err) = cur {
        if let Some(r) = err.downcast_ref::<rustls::Error>() {
            return Some(r);
        }
        if let Some(r) = err
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            return Some(r);
        }
        cur = err.source();
    }
    None
}

/// The rustls client configuration for `tls`: ring, TLS 1.2 and 1.3, and
/// the certificate checked as the sslmode says.
fn client_config(tls: &Settings) -> Result<ClientConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = match &tls.roots {
        Some(r) => Some(Arc::new(load_roots(r)?)),
        None => None,
    };
    let verifier = Verifier {
        roots,
        names: tls.names,
        provider: provider.clone(),
    };
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("the TLS library's protocol versions")?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth())
}

/// The root certificates from `roots`.
fn load_roots(roots: &Roots) -> Result<RootCertStore> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::File(path) => {
            let shown = path.display();
            std::fs::metadata(path).with_context(|| format!("root certificate file {shown} (sslrootcert)"))?;
            let certs: Vec<CertificateDer> = CertificateDer::pem_file_iter(path)
                .and_then(|certs| certs.collect())
                .map_err(|e| anyhow!("root certificate file {shown} (sslrootcert): not PEM certificates: {e}"))?;
            let (added, _) = store.add_parsable_certificates(certs);
            if added == 0 {
                bail!("root certificate file {shown} (sslrootcert): no certificate in it");
            }
        }
        Roots::System => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = store.add_parsable_certificates(found.certs);
            if added == 0 {
                let why = found.errors.first().map(|e| format!(" ({e})")).unwrap_or_default();
                bail!(
                    "no root certificates in the system's store{why}; name a file with sslrootcert=FILE \
                     (or PGSSLROOTCERT)"
                );
            }
        }
    }
    Ok(store)
}

/// Checks the server's certificate as the sslmode says: nothing without
/// roots; with them, the chain, and the host name too for verify-full. The
/// handshake's signatures are always checked (the server holds the key of
/// the certificate it shows).
#[derive(Debug)]
struct Verifier {
    roots: Option<Arc<RootCertStore>>,
    names: bool,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Some(roots) = &self.roots {
            let cert = ParsedCertificate::try_from(end_entity)?;
            let algorithms = self.provider.signature_verification_algorithms.all;
            verify_server_cert_signed_by_trust_anchor(&cert, roots, intermediates, now, algorithms)?;
            if self.names {
                verify_server_name(&cert, server_name)?;
            }
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    fn of(location: &str) -> Settings {
        settings(location, location, env(&[])).unwrap()
    }

    #[test]
    fn sslmode_and_sslrootcert_are_taken_out_of_a_url() {
        let s = of(
            "postgres://u@h:5/db?connect_timeout=3&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=x",
        );
        assert_eq!(s.rest, "postgres://u@h:5/db?connect_timeout=3&application_name=x");
        assert_eq!(s.mode, Mode::VerifyFull);
        assert_eq!(s.roots, Some(Roots::File("/etc/ca.pem".into())));
        assert!(s.names);
        let s = of("postgresql://u:p?w@h/db?sslmode=require");
        assert_eq!(s.rest, "postgresql://u:p?w@h/db");
        assert_eq!((s.mode, s.roots, s.names), (Mode::Require, None, false));
        assert_eq!(of("postgres://h/db").rest, "postgres://h/db");
    }

    #[test]
    fn sslmode_and_sslrootcert_are_taken_out_of_a_keyword_string() {
        let s = of("host=h sslmode = 'verify-ca' dbname=d sslrootcert='/a b/c\\'s.pem' user=u");
        assert_eq!(s.rest, "host=h  dbname=d  user=u");
        assert_eq!(s.mode, Mode::VerifyCa);
        assert_eq!(s.roots, Some(Roots::File("/a b/c's.pem".into())));
        assert!(!s.names);
        let s = of("sslmode=disable host=h");
        assert_eq!((s.rest.as_str(), s.mode), ("host=h", Mode::Disable));
        // What cannot be read is left for tokio-postgres to refuse.
        assert_eq!(of("host=h sslmode='require").rest, "host=h sslmode='require");
    }

    #[test]
    fn the_default_is_prefer_and_the_environment_speaks_when_the_location_does_not() {
        let s = of("postgres://h/db");
        assert_eq!((s.mode, s.roots), (Mode::Prefer, None));
        let vars = env(&[("PGSSLMODE", "verify-full"), ("PGSSLROOTCERT", "/ca.pem")]);
        let s = settings("host=h", "host=h", &vars).unwrap();
        assert_eq!(
            (s.mode, s.roots),
            (Mode::VerifyFull, Some(Roots::File("/ca.pem".into())))
        );
        let s = settings("postgres://h/db?sslmode=require&sslrootcert=/mine.pem", "", &vars).unwrap();
        assert_eq!(
            (s.mode, s.roots),
            (Mode::Require, Some(Roots::File("/mine.pem".into())))
        );
        let s = settings("postgres://h/db", "", env(&[("PGSSLMODE", "")])).unwrap();
        assert_eq!(s.mode, Mode::Prefer, "an empty variable says nothing");
    }

    #[test]
    fn roots_follow_libpq() {
        // verify-* without a file: the system's store.
        assert_eq!(of("postgres://h/db?sslmode=verify-ca").roots, Some(Roots::System));
        assert_eq!(of("postgres://h/db?sslmode=disable&sslrootcert=/x").roots, None);
        // sslrootcert=system means verify-full, and refuses less.
        let s = of("postgres://h/db?sslrootcert=system");
        assert_eq!((s.mode, s.roots), (Mode::VerifyFull, Some(Roots::System)));
        let err = settings("postgres://h/db?sslmode=require&sslrootcert=system", "S", env(&[])).unwrap_err();
        assert!(err.to_string().contains("needs sslmode=verify-full"), "{err}");
    }

    #[test]
    fn an_unknown_sslmode_is_named_with_the_store() {
        let err = settings("host=h sslmode=verify_full", "shown-store", env(&[])).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("shown-store") && text.contains("sslmode=verify_full") && text.contains("verify-full"),
            "{text}"
        );
        let err = settings("host=h", "s", env(&[("PGSSLMODE", "on")])).unwrap_err();
        assert!(err.to_string().contains("PGSSLMODE=on"), "{err}");
    }

    #[test]
    fn a_root_certificate_file_that_cannot_be_read_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.pem");
        let err = load_roots(&Roots::File(missing.clone())).unwrap_err();
        assert!(format!("{err:#}").contains(&missing.display().to_string()), "{err:#}");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let err = load_roots(&Roots::File(empty.clone())).unwrap_err();
        let text = format!("{err:#}");
        assert!(
            text.contains(&empty.display().to_string()) && text.contains("no certificate"),
            "{text}"
        );
    }

    /// What each connection to a fake server on loopback sent first
    /// ("ssl request" or "startup"), the server answering an SSLRequest with
    /// `answer` ('N': no TLS here, then reading what follows; 'S': yes, then
    /// hanging up, so the handshake fails); and the error connecting with
    /// `params` gave.
    fn against_a_fake_server(answer: u8, params: &str) -> (Vec<Vec<&'static str>>, String) {
        use std::io::{Read, Write};
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{Mutex, mpsc};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let done = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (ready, started) = mpsc::channel();
        let server = {
            let (done, seen) = (done.clone(), seen.clone());
            std::thread::spawn(move || {
                ready.send(()).unwrap();
                while !done.load(Ordering::SeqCst) {
                    let Ok((mut conn, _)) = listener.accept() else {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                        continue;
                    };
                    conn.set_nonblocking(false).unwrap();
                    conn.set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
                    let mut sent = Vec::new();
                    let mut first = [0u8; 8];
                    while conn.read_exact(&mut first).is_ok() {
                        match u32::from_be_bytes(first[4..8].try_into().unwrap()) {
                            80877103 => sent.push("ssl request"),
                            196608 => sent.push("startup"),
                            _ => sent.push("other"),
                        }
                        if sent.last() != Some(&"ssl request") || conn.write_all(&[answer]).is_err() || answer != b'N' {
                            break;
                        }
                    }
                    seen.lock().unwrap().push(sent);
                }
            })
        };
        started.recv().unwrap();
        let url = format!("postgres://u@127.0.0.1:{port}/db?connect_timeout=5&{params}");
        let err = match crate::history::store::postgres::Postgres::connect(&url) {
            Ok(_) => panic!("a fake server cannot be connected to"),
            Err(e) => format!("{e:#}"),
        };
        done.store(true, Ordering::SeqCst);
        server.join().unwrap();
        let seen = seen.lock().unwrap().clone();
        (seen, err)
    }

    #[test]
    fn prefer_goes_on_in_plaintext_with_a_server_without_tls() {
        let (seen, err) = against_a_fake_server(b'N', "sslmode=prefer");
        assert_eq!(seen, [vec!["ssl request", "startup"]], "{err}");
        assert!(!err.contains("TLS"), "{err}");
    }

    #[test]
    fn prefer_falls_back_to_plaintext_when_the_handshake_fails() {
        let (seen, err) = against_a_fake_server(b'S', "");
        assert_eq!(seen, [vec!["ssl request"], vec!["startup"]], "{err}");
    }

    #[test]
    fn require_refuses_a_server_without_tls() {
        let (seen, err) = against_a_fake_server(b'N', "sslmode=require");
        assert_eq!(seen, [vec!["ssl request"]], "{err}");
        assert!(
            err.contains("TLS with the PostgreSQL server failed (sslmode=require): server does not support TLS"),
            "{err}"
        );
    }

    #[test]
    fn a_failed_handshake_under_require_is_named_not_retried() {
        let (seen, err) = against_a_fake_server(b'S', "sslmode=require");
        assert_eq!(seen, [vec!["ssl request"]], "{err}");
        assert!(err.contains("history store postgres://u@127.0.0.1:"), "{err}");
        assert!(
            err.contains("TLS with the PostgreSQL server failed (sslmode=require)"),
            "{err}"
        );
    }

    #[test]
    fn disable_starts_in_plaintext() {
        let (seen, err) = against_a_fake_server(b'S', "sslmode=disable");
        assert_eq!(seen, [vec!["startup"]], "{err}");
    }
}
