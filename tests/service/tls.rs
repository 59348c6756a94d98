//! TLS to the PostgreSQL server, as a managed database across a network wants it
//! (`src/store/tls.rs`): `scripts/pg-test`'s server takes TCP connections on `localhost` with
//! TLS only (`hostnossl … reject`), its certificate naming `localhost` and signed by an
//! authority the script made (`JACKAL_TEST_PG_TLS_CA`), beside another authority that signed
//! nothing (`JACKAL_TEST_PG_OTHER_CA`). So a connection that gets in was encrypted.
//!
//! Without that server (a plain `cargo test`) these tests return at once, saying so;
//! `scripts/pg-test` always sets it.

use std::process::Command;

use super::*;

/// The server's TLS URL and the two authorities' files, or `None` (and a line saying why)
/// when no server is set up for TLS.
fn tls_server() -> Option<(String, String, String)> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match (
        var("JACKAL_TEST_PG_TLS_URL"),
        var("JACKAL_TEST_PG_TLS_CA"),
        var("JACKAL_TEST_PG_OTHER_CA"),
    ) {
        (Some(url), Some(ca), Some(other)) => Some((url, ca, other)),
        _ => {
            eprintln!("no PostgreSQL server with TLS (scripts/pg-test sets one up): not run");
            None
        }
    }
}

/// `url` with `host` in place of its host and `query` as its parameters.
fn at(url: &str, host: &str, query: &str) -> String {
    let url = url.replacen("@localhost:", &format!("@{host}:"), 1);
    if query.is_empty() {
        url
    } else {
        format!("{url}?{query}")
    }
}

/// Why connecting to `url` failed, in the words the bot would say it.
fn refusal(url: &str) -> String {
    match store::postgres::look_at(url) {
        Ok(found) => panic!("{url} was let in: {found:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_server_is_reached_over_tls_in_every_mode_that_asks_for_it() {
    let Some((url, ca, _)) = tls_server() else {
        return;
    };
    let with_ca = format!("sslrootcert={ca}");
    for (host, query) in [
        // libpq's default, `prefer`: TLS since the server offers it.
        ("localhost", String::new()),
        ("localhost", "sslmode=require".to_string()),
        ("localhost", format!("sslmode=require&{with_ca}")),
        // The certificate names `localhost`: an address is fine when the name is not checked.
        ("127.0.0.1", format!("sslmode=verify-ca&{with_ca}")),
        ("localhost", format!("sslmode=verify-full&{with_ca}")),
    ] {
        let admin = at(&url, host, &query);
        // A fresh database through the TLS URL; the store opened on it migrates it and
        // plays a game through the service.
        let database =
            store::postgres::fresh_database(&admin).unwrap_or_else(|e| panic!("{admin}: {e}"));
        let f = fixture_on(Database::Server(database.clone()), START_MS);
        let id = duel(&f);
        play_plies(&f, id, 4);
        assert_eq!(f.service.game(id).unwrap().ply, 4, "{admin}");
        let found = store::postgres::look_at(&database).unwrap();
        assert_eq!(
            found.version,
            store::postgres::MIGRATION_SQL.len(),
            "{admin}"
        );
        assert!(!found.shown.contains("sslrootcert"), "{}", found.shown);
    }
}

#[test]
fn a_connection_without_tls_or_with_a_certificate_that_does_not_check_out_is_one_line() {
    let Some((url, ca, other)) = tls_server() else {
        return;
    };
    let cases = [
        // The server takes no unencrypted connection over TCP.
        (at(&url, "localhost", "sslmode=disable"), "no encryption"),
        // The certificate names `localhost`, not the address.
        (
            at(
                &url,
                "127.0.0.1",
                &format!("sslmode=verify-full&sslrootcert={ca}"),
            ),
            "not valid for name",
        ),
        // Signed by an authority not trusted.
        (
            at(
                &url,
                "localhost",
                &format!("sslmode=verify-full&sslrootcert={other}"),
            ),
            "UnknownIssuer",
        ),
        (
            at(
                &url,
                "localhost",
                &format!("sslmode=verify-ca&sslrootcert={other}"),
            ),
            "UnknownIssuer",
        ),
        (
            at(
                &url,
                "localhost",
                &format!("sslmode=require&sslrootcert={other}"),
            ),
            "UnknownIssuer",
        ),
        // The authorities web browsers trust do not trust a private one.
        (at(&url, "localhost", "sslrootcert=system"), "UnknownIssuer"),
    ];
    for (url, why) in cases {
        let said = refusal(&url);
        assert!(
            said.starts_with("cannot connect to PostgreSQL at postgres://jackal@"),
            "{url}: {said}"
        );
        assert!(said.contains(why), "{url}: {said}");
        assert!(!said.contains('\n'), "{url}: {said}");
    }
}

/// The commands take the same URL: `jackal doctor` reads the database over TLS and `jackal
/// backup` copies it, `jackal run` refuses a wrong authority in one line before it does
/// anything else.
#[test]
fn the_commands_take_a_tls_url() {
    let Some((url, ca, other)) = tls_server() else {
        return;
    };
    let admin = at(
        &url,
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    );
    let database = store::postgres::fresh_database(&admin).unwrap();
    let f = fixture_on(Database::Server(database.clone()), START_MS);
    let id = duel(&f);
    play_plies(&f, id, 6);

    let out = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["doctor", "--db", &database])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.ends_with("1 game checked, no problems found\n"),
        "{stdout}"
    );
    // `pg_dump` (libpq) reads the same `sslmode` and `sslrootcert`.
    let copy = f._dir.path().join("over-tls.backup");
    let out = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args([
            "backup",
            "--db",
            &database,
            "-o",
            &copy.display().to_string(),
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("backed up "), "{said}");
    assert!(std::fs::metadata(&copy).unwrap().len() > 0);

    let untrusted = database.replace(
        &format!("sslrootcert={ca}"),
        &format!("sslrootcert={other}"),
    );
    let line = super::tools::refused_run(&f, &[("DATABASE_URL", &untrusted)]);
    assert!(
        line.contains("cannot connect to PostgreSQL") && line.contains("UnknownIssuer"),
        "{line}"
    );

    // A mode that is not one is named at once, with the modes; a weak one beside the
    // public authorities too.
    for (query, said) in [
        (
            "sslmode=verify",
            "sslmode=verify is not a mode; use disable, allow, prefer, require, verify-ca or \
             verify-full",
        ),
        (
            "sslmode=require&sslrootcert=system",
            "sslrootcert=system (the authorities web browsers trust) needs sslmode=verify-full, \
             not require",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_jackal"))
            .args(["doctor", "--db", &at(&url, "localhost", query)])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(stderr.contains(said), "{stderr}");
    }
}
