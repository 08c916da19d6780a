//! The PostgreSQL store over TLS, against the test server that
//! scripts/ci/postgres.sh starts with `ssl=on` and a certificate from its own
//! CA (`VERSUS_TEST_POSTGRES_CA`) naming only `localhost`: each sslmode as
//! the server sees it (`pg_stat_ssl`), the certificate checks refusing what
//! they should with the reason, and a store round trip over a verified
//! connection. Each test skips, saying why, without the server.

use super::super::backend::Backend;
use super::super::postgres::Postgres;
use super::super::*;

/// The test server's URL (host 127.0.0.1) and its CA's certificate file, or
/// None (with the reason printed).
fn tls_server() -> Option<(String, String)> {
    match (
        std::env::var("VERSUS_TEST_POSTGRES_URL"),
        std::env::var("VERSUS_TEST_POSTGRES_CA"),
    ) {
        (Ok(url), Ok(ca)) => Some((url, ca)),
        _ => {
            eprintln!(
                "skipped: VERSUS_TEST_POSTGRES_URL or VERSUS_TEST_POSTGRES_CA is not set \
                 (scripts/ci/postgres.sh starts a server with TLS)"
            );
            None
        }
    }
}

/// `url` with `params` added to its query.
fn with(url: &str, params: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}{params}")
}

/// `url` with its host named `localhost`, the name the certificate holds,
/// and reached at 127.0.0.1 (`hostaddr`: localhost may also be ::1, where
/// the test server does not listen).
fn by_name(url: &str) -> String {
    with(&url.replacen("@127.0.0.1:", "@localhost:", 1), "hostaddr=127.0.0.1")
}

/// Whether the server reports the connection made with `url` as TLS.
fn tls_in_use(url: &str) -> bool {
    let mut db = Postgres::connect(url).unwrap_or_else(|e| panic!("{e:#}"));
    let rows = db
        .query("SELECT ssl::int FROM pg_stat_ssl WHERE pid = pg_backend_pid()", &[])
        .unwrap();
    rows[0][0].int() == Some(1)
}

/// The message of a refused connection with `url`.
fn refused(url: &str) -> String {
    match Postgres::connect(url) {
        Ok(_) => panic!("{url} connected"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn sslmode_require_encrypts_the_connection() {
    let Some((url, _)) = tls_server() else { return };
    assert!(tls_in_use(&with(&url, "sslmode=require")));
}

#[test]
fn sslmode_disable_stays_plaintext() {
    let Some((url, _)) = tls_server() else { return };
    assert!(!tls_in_use(&with(&url, "sslmode=disable")));
}

#[test]
fn without_sslmode_tls_is_preferred() {
    let Some((url, _)) = tls_server() else { return };
    assert!(
        tls_in_use(&url),
        "libpq's default, prefer, takes TLS when the server offers it"
    );
}

#[test]
fn verify_full_with_the_ca_and_the_certificates_host_name_connects() {
    let Some((url, ca)) = tls_server() else { return };
    assert!(tls_in_use(&with(
        &by_name(&url),
        &format!("sslmode=verify-full&sslrootcert={ca}")
    )));
}

#[test]
fn a_keyword_value_string_takes_sslmode_and_sslrootcert() {
    let Some((url, ca)) = tls_server() else { return };
    let port = url.rsplit_once(':').unwrap().1.split('/').next().unwrap();
    assert!(tls_in_use(&format!(
        "host=localhost hostaddr=127.0.0.1 port={port} user=postgres dbname=postgres \
         sslmode = 'verify-full' sslrootcert={ca}"
    )));
}

#[test]
fn verify_full_refuses_a_host_name_the_certificate_does_not_hold() {
    let Some((url, ca)) = tls_server() else { return };
    // The certificate names localhost only; the URL's host is 127.0.0.1.
    let text = refused(&with(&url, &format!("sslmode=verify-full&sslrootcert={ca}")));
    assert!(text.contains("127.0.0.1") && text.contains("localhost"), "{text}");
    assert!(text.contains("not valid for the host name"), "{text}");
    assert!(text.contains("history store postgres://"), "{text}");
}

#[test]
fn verify_ca_checks_the_chain_but_not_the_host_name() {
    let Some((url, ca)) = tls_server() else { return };
    assert!(tls_in_use(&with(&url, &format!("sslmode=verify-ca&sslrootcert={ca}"))));
}

#[test]
fn require_with_a_root_certificate_checks_the_chain_as_libpq_does() {
    let Some((url, ca)) = tls_server() else { return };
    assert!(tls_in_use(&with(&url, &format!("sslmode=require&sslrootcert={ca}"))));
    // A CA that did not sign the server's certificate: refused.
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.pem");
    std::fs::write(&other, OTHER_CA).unwrap();
    let text = refused(&with(&url, &format!("sslmode=require&sslrootcert={}", other.display())));
    assert!(text.contains("unknown issuer"), "{text}");
}

#[test]
fn verify_full_without_a_root_certificate_uses_the_systems_and_refuses_the_test_ca() {
    let Some((url, _)) = tls_server() else { return };
    let text = refused(&with(&by_name(&url), "sslmode=verify-full"));
    assert!(
        text.contains("unknown issuer") || text.contains("no root certificates"),
        "{text}"
    );
    assert!(text.contains("system"), "{text}");
}

#[test]
fn the_store_records_and_reads_back_over_verified_tls() {
    let Some((url, ca)) = tls_server() else { return };
    let name = format!("versus_tls_{}_{}", std::process::id(), rand::random::<u32>());
    let mut admin = Postgres::connect(&url).unwrap();
    admin.batch(&format!("CREATE DATABASE {name}")).unwrap();
    let root = url.rsplit_once('/').unwrap().0;
    let loc = Location::Postgres(with(
        &by_name(&format!("{root}/{name}")),
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let results = crate::results::read(&path).unwrap();
    let meta = RunMeta {
        suite_hash: "abc".into(),
        exit_status: Some(0),
        git: Git::default(),
        source: "run".into(),
        machine_id: None,
    };
    let mut s = open(&loc).unwrap();
    let id = s
        .record(&results, &Document::from_text(&text, Packing::Bzip2), &meta)
        .unwrap();
    drop(s);
    let mut s = open(&loc).unwrap();
    assert_eq!(s.document(id).unwrap().text().unwrap(), text);
    assert_eq!(s.list(&Filter::default(), 10).unwrap()[0].id, id);
}

/// A CA certificate that signed nothing the test server holds.
const OTHER_CA: &str = "-----BEGIN CERTIFICATE-----
MIIBqjCCAVGgAwIBAgIUHcSt1Jyg7uOZQw544F1SVgidns4wCgYIKoZIzj0EAwIw
IjEgMB4GA1UEAwwXdmVyc3VzIHRlc3Q6IGFub3RoZXIgQ0EwIBcNMjYxMTI5MDgw
ODU2WhgPMjEyNjExMDUwODA4NTZaMCIxIDAeBgNVBAMMF3ZlcnN1cyB0ZXN0OiBh
bm90aGVyIENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEviiXaMuw9kikRLrM
2hBtzTtw2U0vrRtzZ+m1EbpyxfPthrhtcM2/UwQ7OL4aW0I4FyvwQA1oT3SFZT4d
J+q+w6NjMGEwHQYDVR0OBBYEFAd472X8crOSLrUbqY0QX4sv1tP1MB8GA1UdIwQY
MBaAFAd472X8crOSLrUbqY0QX4sv1tP1MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0P
AQH/BAQDAgEGMAoGCCqGSM49BAMCA0cAMEQCICw4aXErTbFS92XTJJcI87Zuls+l
3ukHA+LIEIMDSSzTAiBg7ww8edpuBP7O4Hp2hmKBuxIB3dP/nL5m8tS88WccXw==
-----END CERTIFICATE-----
";
