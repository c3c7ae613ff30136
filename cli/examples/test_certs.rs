//! Writes a fresh test CA and a server certificate it signs for `localhost`
//! and 127.0.0.1 (the ones the tests make), so a script can run an https
//! server on loopback and trust it with `--upstream-ca DIR/ca.pem` alone.
//!
//!     test_certs DIR    (writes DIR/ca.pem, DIR/cert.pem, DIR/key.pem)

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
    std::fs::create_dir_all(dir)?;
    for (name, pem) in [("ca.pem", &made.ca), ("cert.pem", &made.cert), ("key.pem", &made.key)] {
        let path = dir.join(name);
        std::fs::write(&path, pem).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(())
}
