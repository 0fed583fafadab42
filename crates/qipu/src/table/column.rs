//! Columns built from plain vectors, many rows at a time, and sized by the
//! batch before: what the table of positions appends most (a game's FENs
//! in one copy, its source and result once for all its rows).
//!
//! Arrow's builders append a row at a time and start each batch empty,
//! growing by doubling: for the table of positions that was a tenth of the
//! consuming thread's time in copies and reallocations, and the fresh
//! pages of each regrown buffer cost page faults besides.

use std::sync::Arc;

use arrow_array::{Int32Array, ListArray, StringArray, UInt32Array};
use arrow_buffer::{Buffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::FieldRef;

/// What `column` holds, leaving it empty with room for the next batch: as
/// much as this one took, and an eighth more (batches differ by a game's
/// rows).
fn take<T>(column: &mut Vec<T>) -> Vec<T> {
    let last = column.len();
    std::mem::replace(column, Vec::with_capacity(last + last / 8))
}

/// A text (`Utf8`) column: the texts one after another, where each ends,
/// and which rows are null.
#[derive(Debug)]
pub(crate) struct Texts {
    values: Vec<u8>,
    /// Where each row starts, and then where the last one ends.
    offsets: Vec<i32>,
    nulls: NullBufferBuilder,
}

impl Default for Texts {
    fn default() -> Texts {
        Texts { values: Vec::new(), offsets: vec![0], nulls: NullBufferBuilder::new(0) }
    }
}

impl Texts {
    /// How many rows.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The end of the texts so far, as an offset.
    fn end(&self) -> i32 {
        // As Arrow's builders do: a batch holds less than 2 GB of text.
        i32::try_from(self.values.len()).expect("a batch's text fits 32-bit offsets")
    }

    /// A row of `text`.
    pub(crate) fn push(&mut self, text: &str) {
        self.values.extend_from_slice(text.as_bytes());
        self.offsets.push(self.end());
        self.nulls.append_non_null();
    }

    /// A row of `text`, given as the bytes of ASCII text (checked as text
    /// when the batch is finished).
    pub(crate) fn push_ascii(&mut self, text: &[u8]) {
        self.values.extend_from_slice(text);
        self.offsets.push(self.end());
        self.nulls.append_non_null();
    }

    /// `n` rows of `text`.
    pub(crate) fn push_n(&mut self, text: &str, n: usize) {
        for _ in 0..n {
            self.push(text);
        }
    }

    /// A row of each text of `text`, the texts one after another, where
    /// `ends` says each ends (ASCII, checked when the batch is finished).
    pub(crate) fn push_all(&mut self, text: &[u8], ends: &[usize]) {
        let base = self.values.len();
        self.values.extend_from_slice(text);
        self.end();
        // Each end is at most the end just checked.
        self.offsets.extend(ends.iter().map(|&e| (base + e) as i32));
        self.nulls.append_n_non_nulls(ends.len());
    }

    /// A null row.
    pub(crate) fn push_null(&mut self) {
        self.offsets.push(self.end());
        self.nulls.append_null();
    }

    /// The rows so far as an array; the column is then empty, with the
    /// room they took.
    pub(crate) fn finish(&mut self) -> StringArray {
        let values = take(&mut self.values);
        let offsets = take(&mut self.offsets);
        self.offsets.push(0);
        let nulls = self.nulls.finish();
        StringArray::try_new(OffsetBuffer::new(ScalarBuffer::from(offsets)), Buffer::from_vec(values), nulls)
            .expect("the column holds ASCII and UTF-8 text, in order")
    }
}

/// A column of lists of texts (`List<Utf8>`) with no null list and no
/// null item.
#[derive(Debug)]
pub(crate) struct TextLists {
    items: Texts,
    /// Where each list starts in `items`, and then where the last one ends.
    offsets: Vec<i32>,
}

impl Default for TextLists {
    fn default() -> TextLists {
        TextLists { items: Texts::default(), offsets: vec![0] }
    }
}

impl TextLists {
    /// The column of the items, to which a list's are pushed before the
    /// list is ended ([`TextLists::end_list`]).
    pub(crate) fn items(&mut self) -> &mut Texts {
        &mut self.items
    }

    /// A row: the list of the items pushed since the last one.
    pub(crate) fn end_list(&mut self) {
        let end = i32::try_from(self.items.len()).expect("a batch's items fit 32-bit offsets");
        self.offsets.push(end);
    }

    /// The rows so far as an array of lists of `item`; the column is then
    /// empty, with the room they took.
    pub(crate) fn finish(&mut self, item: FieldRef) -> ListArray {
        let items = self.items.finish();
        let offsets = take(&mut self.offsets);
        self.offsets.push(0);
        ListArray::try_new(item, OffsetBuffer::new(ScalarBuffer::from(offsets)), Arc::new(items), None)
            .expect("the lists hold texts, none null")
    }
}

/// A column of numbers (`UInt32`) with no null.
#[derive(Debug, Default)]
pub(crate) struct Counts(pub(crate) Vec<u32>);

impl Counts {
    /// The rows so far as an array; the column is then empty, with the
    /// room they took.
    pub(crate) fn finish(&mut self) -> UInt32Array {
        let rows = take(&mut self.0);
        UInt32Array::new(ScalarBuffer::from(rows), None)
    }
}

/// A column of numbers (`Int32`) that may be null.
#[derive(Debug)]
pub(crate) struct Ints {
    values: Vec<i32>,
    nulls: NullBufferBuilder,
}

impl Default for Ints {
    fn default() -> Ints {
        Ints { values: Vec::new(), nulls: NullBufferBuilder::new(0) }
    }
}

impl Ints {
    /// A row of `value`, or a null one.
    pub(crate) fn push(&mut self, value: Option<i32>) {
        match value {
            Some(v) => {
                self.values.push(v);
                self.nulls.append_non_null();
            }
            None => self.push_nulls(1),
        }
    }

    /// `n` null rows.
    pub(crate) fn push_nulls(&mut self, n: usize) {
        self.values.resize(self.values.len() + n, 0);
        self.nulls.append_n_nulls(n);
    }

    /// The rows so far as an array; the column is then empty, with the
    /// room they took.
    pub(crate) fn finish(&mut self) -> Int32Array {
        let rows = take(&mut self.values);
        Int32Array::new(ScalarBuffer::from(rows), self.nulls.finish())
    }
}
