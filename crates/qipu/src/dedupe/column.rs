//! A column of per-game values, kept in chunks of a fixed size so that
//! growing it never holds two copies at once (a `Vec` that doubles does,
//! for a moment).

/// How many values a chunk holds (a power of two).
const CHUNK: usize = 1 << 16;

/// Values numbered from 0 in the order pushed, in chunks of [`CHUNK`].
#[derive(Clone, Debug, Default)]
pub(super) struct Column<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T: Copy + Default> Column<T> {
    /// Adds `value` as the next one.
    pub(super) fn push(&mut self, value: T) {
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(value);
        }
        self.len += 1;
    }

    /// The `i`-th value; the default past the end.
    pub(super) fn get(&self, i: usize) -> T {
        self.chunks.get(i / CHUNK).and_then(|c| c.get(i % CHUNK)).copied().unwrap_or_default()
    }

    /// How many values.
    pub(super) fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_by_number_across_chunks() {
        let mut c = Column::default();
        for i in 0..(2 * CHUNK as u32 + 5) {
            c.push(i * 3);
        }
        assert_eq!(c.len(), 2 * CHUNK + 5);
        assert_eq!(c.chunks.len(), 3);
        assert_eq!(c.get(0), 0);
        assert_eq!(c.get(CHUNK), CHUNK as u32 * 3);
        assert_eq!(c.get(2 * CHUNK + 4), (2 * CHUNK as u32 + 4) * 3);
        assert_eq!(c.get(2 * CHUNK + 5), 0);
    }
}
