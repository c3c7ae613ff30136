//! Writes a fresh test CA and a server certificate it signs for `localhost`
//! and 127.0.0.1 (the ones the tests make), so a script can run an https
//! server on loopback and trust it with `--upstream-ca DIR/ca.pem` alone;
//! and a self-signed one for the same names, marked a CA as `openssl req
//! -x509` marks it, trusted as itself (`--upstream-ca DIR/self.pem`).
//!
//!     test_certs DIR    (writes DIR/ca.pem, DIR/cert.pem, DIR/key.pem,
//!                        DIR/self.pem, DIR/self-key.pem)

use std::path::Path;
use std::process::ExitCode;

// The tests' own generator, so the script and the tests trust the same kind
// of chain.
#[path = "../tests/common/certs.rs"]
mod certs;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(dir), None) = (args.next(), args.next()) else {
        eprintln!("usage: test_certs DIR");
        return ExitCode::from(2);
    };
    match write(Path::new(&dir)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("test_certs: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let made = certs::make()?;
    let own = certs::self_signed(&["localhost"], true, false)?;
    std::fs::create_dir_all(dir)?;
    let files = [
        ("ca.pem", &made.ca),
        ("cert.pem", &made.cert),
        ("key.pem", &made.key),
        ("self.pem", &own.cert),
        ("self-key.pem", &own.key),
    ];
    for (name, pem) in files {
        let path = dir.join(name);
        std::fs::write(&path, pem).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(())
}
