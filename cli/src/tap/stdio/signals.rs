//! A signal to the tap is meant for the session: SIGINT, SIGTERM and
//! SIGHUP are passed on to the server (in a process group of its own, so a
//! terminal's Ctrl-C reaches it once, through the tap), which is given
//! `grace` to exit before it is killed. The tap itself lives on until the
//! server is reaped, and exits with its status.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Starts passing signals on to the process `pid` until `exited` is set.
pub fn forward(pid: u32, exited: Arc<AtomicBool>, grace: Duration) -> io::Result<()> {
    let pid = Pid::from_raw(i32::try_from(pid).map_err(io::Error::other)?);
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    thread::spawn(move || {
        let mut deadline_set = false;
        for number in signals.forever() {
            if exited.load(Ordering::SeqCst) {
                return;
            }
            if let Ok(signal) = Signal::try_from(number) {
                let _ = kill(pid, signal);
            }
            if !deadline_set {
                deadline_set = true;
                let exited = Arc::clone(&exited);
                thread::spawn(move || kill_after(pid, &exited, grace));
            }
        }
    });
    Ok(())
}

/// Kills `pid` if it has not exited within `grace`.
fn kill_after(pid: Pid, exited: &AtomicBool, grace: Duration) {
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if exited.load(Ordering::SeqCst) {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
    if !exited.load(Ordering::SeqCst) {
        eprintln!("mcp-envelope tap: the server outlived {} s after the signal: killing it", grace.as_secs_f64());
        let _ = kill(pid, Signal::SIGKILL);
    }
}
