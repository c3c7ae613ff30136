//! The core's integration suite: one binary, one module per subject.
