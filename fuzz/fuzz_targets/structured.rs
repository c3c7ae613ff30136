#![no_main]
// Raw bytes, decoded by `arbitrary` inside the check, so that a crash file
// replays through the same function under `cargo test`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_envelope_check::structured_bytes(data));
