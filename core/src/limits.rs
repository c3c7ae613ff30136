//! How deep and how large a message may be: the same in every backend.

/// Resource limits. Both backends enforce exactly these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Limits {
    /// Deepest nesting of objects and arrays, counting the envelope object
    /// as 1. Default 128, serde_json's own long-standing default.
    pub max_depth: usize,
    /// Largest message in bytes. Default 64 MiB.
    pub max_size: usize,
    /// Most items in a batch. Default 1024: a batch's items are kept in
    /// memory together (its list of messages and its tape), so this bounds
    /// what one message can make the receiver hold beyond its own bytes.
    /// (jsonrpsee bounds batches for the same reason.)
    pub max_batch_len: usize,
}

impl Limits {
    /// 128 levels.
    pub const DEFAULT_MAX_DEPTH: usize = 128;
    /// 64 MiB.
    pub const DEFAULT_MAX_SIZE: usize = 64 << 20;
    /// 1024 items.
    pub const DEFAULT_MAX_BATCH_LEN: usize = 1024;
    /// The largest `max_size` accepted: offsets are kept in 32 bits by
    /// simd-json, so larger messages are refused whatever the setting.
    pub const MAX_SIZE_CEILING: usize = u32::MAX as usize;

    /// The defaults.
    #[must_use]
    pub const fn new() -> Limits {
        Limits {
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_size: Self::DEFAULT_MAX_SIZE,
            max_batch_len: Self::DEFAULT_MAX_BATCH_LEN,
        }
    }

    /// These limits with another depth limit (at least 1).
    #[must_use]
    pub const fn with_max_depth(mut self, depth: usize) -> Limits {
        self.max_depth = if depth == 0 { 1 } else { depth };
        self
    }

    /// These limits with another size limit (at most [`Self::MAX_SIZE_CEILING`]).
    #[must_use]
    pub const fn with_max_size(mut self, size: usize) -> Limits {
        self.max_size = if size > Self::MAX_SIZE_CEILING { Self::MAX_SIZE_CEILING } else { size };
        self
    }

    /// These limits with another batch length limit (at least 1).
    #[must_use]
    pub const fn with_max_batch_len(mut self, items: usize) -> Limits {
        self.max_batch_len = if items == 0 { 1 } else { items };
        self
    }

    /// The same limits with any out-of-range field brought into range
    /// (public fields can be set directly).
    pub(crate) const fn clamped(self) -> Limits {
        Limits::new().with_max_depth(self.max_depth).with_max_size(self.max_size).with_max_batch_len(self.max_batch_len)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::new()
    }
}
