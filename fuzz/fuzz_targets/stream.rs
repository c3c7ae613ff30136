#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_envelope_check::stream(data));
