//! Columns built from plain vectors, many rows at a time, and sized by the
//! batch before: what the table of positions appends most (a game's FENs
//! in one copy, its source and result once for all its rows). The columns
//! of few texts (moves, sides, results, sources) keep each row as a number
//! and are finished either as Arrow dictionaries, for a Parquet writer, or
//! as plain text.
//!
//! Arrow's builders append a row at a time and start each batch empty,
//! growing by doubling: for the table of positions that was a tenth of the
//! consuming thread's time in copies and reallocations, and the fresh
//! pages of each regrown buffer cost page faults besides.

use std::sync::{Arc, OnceLock};

use arrow_array::types::{Int32Type, UInt16Type};
use arrow_array::{
    Array, ArrayRef, DictionaryArray, Int32Array, ListArray, StringArray, UInt16Array, UInt32Array,
};
use arrow_buffer::{Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef};

use crate::{Move, Square};

/// What `column` holds, leaving it empty with room for the next batch: as
/// much as this one took, and an eighth more (batches differ by a game's
/// rows).
fn take<T>(column: &mut Vec<T>) -> Vec<T> {
    let last = column.len();
    std::mem::replace(column, Vec::with_capacity(last + last / 8))
}

/// A text (`Utf8`) column with no null row: the texts one after another,
/// and where each ends.
#[derive(Debug)]
pub(crate) struct Texts {
    values: Vec<u8>,
    /// Where each row starts, and then where the last one ends.
    offsets: Vec<i32>,
}

impl Default for Texts {
    fn default() -> Texts {
        Texts { values: Vec::new(), offsets: vec![0] }
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
    }

    /// A row of each text of `text`, the texts one after another, where
    /// `ends` says each ends (ASCII, checked when the batch is finished).
    pub(crate) fn push_all(&mut self, text: &[u8], ends: &[usize]) {
        let base = self.values.len();
        self.values.extend_from_slice(text);
        self.end();
        // Each end is at most the end just checked.
        self.offsets.extend(ends.iter().map(|&e| (base + e) as i32));
    }

    /// The text of the last row, if there is one.
    fn last(&self) -> Option<&[u8]> {
        let (&end, rest) = self.offsets.split_last()?;
        let &start = rest.last()?;
        Some(&self.values[start as usize..end as usize])
    }

    /// The rows so far as an array; the column is then empty, with the
    /// room they took.
    pub(crate) fn finish(&mut self) -> StringArray {
        let values = take(&mut self.values);
        let offsets = take(&mut self.offsets);
        self.offsets.push(0);
        StringArray::try_new(OffsetBuffer::new(ScalarBuffer::from(offsets)), Buffer::from_vec(values), None)
            .expect("the column holds ASCII and UTF-8 text, in order")
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

/// The rows of `values` that `keys` name, as plain text (a null key, a
/// null row).
fn gather(
    values: &StringArray,
    keys: impl ExactSizeIterator<Item = usize>,
    nulls: Option<NullBuffer>,
) -> StringArray {
    let mut text = Vec::new();
    let mut offsets = Vec::with_capacity(keys.len() + 1);
    offsets.push(0i32);
    for (row, key) in keys.enumerate() {
        if nulls.as_ref().is_none_or(|n| n.is_valid(row)) {
            text.extend_from_slice(values.value(key).as_bytes());
        }
        offsets.push(i32::try_from(text.len()).expect("a batch's text fits 32-bit offsets"));
    }
    StringArray::try_new(OffsetBuffer::new(ScalarBuffer::from(offsets)), Buffer::from_vec(text), nulls)
        .expect("the values are text, in order")
}

/// The type of a column of texts finished as a dictionary with `key`s.
fn dictionary_of(key: DataType) -> DataType {
    DataType::Dictionary(Box::new(key), Box::new(DataType::Utf8))
}

/// The 8,100 moves from a point to a point in lower-case ICCS (`a0a0` to
/// `i9i9`), each at [`move_key`]: the values of the columns of moves.
fn iccs_values() -> Arc<StringArray> {
    static VALUES: OnceLock<Arc<StringArray>> = OnceLock::new();
    VALUES
        .get_or_init(|| {
            let squares = || (0..90).filter_map(Square::from_index);
            let moves = squares().flat_map(|from| squares().map(move |to| Move::new(from, to)));
            let texts: Vec<String> =
                moves.map(|m| String::from_utf8_lossy(&m.iccs_bytes()).into_owned()).collect();
            Arc::new(StringArray::from(texts))
        })
        .clone()
}

/// The place of `m` among [`iccs_values`].
fn move_key(m: Move) -> u16 {
    // At most 89 * 90 + 89.
    (m.from.index() * 90 + m.to.index()) as u16
}

/// A text column whose rows are each one of a fixed list of texts,
/// kept as their places in it: finished either as an Arrow dictionary
/// (`Dictionary<UInt16, Utf8>`), which a Parquet writer encodes without
/// hashing each row's text, or as the plain text.
pub(crate) struct Keyed {
    keys: Vec<u16>,
    nulls: NullBufferBuilder,
    values: Arc<StringArray>,
}

impl std::fmt::Debug for Keyed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keyed").field("rows", &self.keys.len()).field("values", &self.values.len()).finish()
    }
}

impl Keyed {
    /// A column of moves (in ICCS).
    pub(crate) fn moves() -> Keyed {
        Keyed::of(iccs_values())
    }

    /// A column of the texts `values`.
    pub(crate) fn of(values: Arc<StringArray>) -> Keyed {
        Keyed { keys: Vec::new(), nulls: NullBufferBuilder::new(0), values }
    }

    /// A column of the texts `values` (at most 65,536).
    pub(crate) fn of_texts(values: &[&str]) -> Keyed {
        debug_assert!(values.len() <= usize::from(u16::MAX) + 1);
        Keyed::of(Arc::new(StringArray::from(values.to_vec())))
    }

    /// How many rows.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// A row of the move `m` (in a column of [`moves`](Self::moves)).
    pub(crate) fn push_move(&mut self, m: Move) {
        self.push_n(move_key(m), 1);
    }

    /// `n` rows of the value at `key`.
    pub(crate) fn push_n(&mut self, key: u16, n: usize) {
        debug_assert!(usize::from(key) < self.values.len());
        self.keys.resize(self.keys.len() + n, key);
        self.nulls.append_n_non_nulls(n);
    }

    /// A null row.
    pub(crate) fn push_null(&mut self) {
        self.keys.push(0);
        self.nulls.append_null();
    }

    /// The rows so far, as a dictionary when `dictionary`; the column is
    /// then empty, with the room they took.
    pub(crate) fn finish(&mut self, dictionary: bool) -> ArrayRef {
        let keys = take(&mut self.keys);
        let nulls = self.nulls.finish();
        if !dictionary {
            return Arc::new(gather(&self.values, keys.iter().map(|&k| usize::from(k)), nulls));
        }
        let keys = UInt16Array::new(ScalarBuffer::from(keys), nulls);
        // Every key was pushed as a place among the values.
        Arc::new(
            DictionaryArray::<UInt16Type>::try_new(keys, self.values.clone()).expect("keys among the values"),
        )
    }

    /// The type of the column [`finish`](Self::finish) makes.
    pub(crate) fn data_type(dictionary: bool) -> DataType {
        if dictionary { dictionary_of(DataType::UInt16) } else { DataType::Utf8 }
    }
}

/// A column of lists of moves (`List<Utf8>` of ICCS, or of a dictionary
/// of them, as [`Keyed`]) with no null list and no null item.
#[derive(Debug)]
pub(crate) struct MoveLists {
    items: Keyed,
    /// Where each list starts in `items`, and then where the last one ends.
    offsets: Vec<i32>,
}

impl Default for MoveLists {
    fn default() -> MoveLists {
        MoveLists { items: Keyed::moves(), offsets: vec![0] }
    }
}

impl MoveLists {
    /// A row: the list of `moves`.
    pub(crate) fn push(&mut self, moves: &[Move]) {
        for &m in moves {
            self.items.push_move(m);
        }
        let end = i32::try_from(self.items.len()).expect("a batch's items fit 32-bit offsets");
        self.offsets.push(end);
    }

    /// The field of a list's items.
    pub(crate) fn item(dictionary: bool) -> FieldRef {
        Arc::new(Field::new("item", Keyed::data_type(dictionary), false))
    }

    /// The rows so far as an array of lists (of a dictionary when
    /// `dictionary`); the column is then empty, with the room they took.
    pub(crate) fn finish(&mut self, dictionary: bool) -> ListArray {
        let items = self.items.finish(dictionary);
        let offsets = take(&mut self.offsets);
        self.offsets.push(0);
        ListArray::try_new(
            MoveLists::item(dictionary),
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            items,
            None,
        )
        .expect("the lists hold moves, none null")
    }
}

/// A text column with no null row whose rows come in runs of one text
/// (the source of a game's rows, of an input's games): each text once a
/// run, and each row's run. Finished either as an Arrow dictionary
/// (`Dictionary<Int32, Utf8>`, a text told twice if its runs are apart),
/// which a Parquet writer encodes hashing each run's text once rather than
/// each row's, or as the plain text.
#[derive(Debug, Default)]
pub(crate) struct Runs {
    texts: Texts,
    keys: Vec<i32>,
}

impl Runs {
    /// `n` rows of `text`.
    pub(crate) fn push_n(&mut self, text: &str, n: usize) {
        if self.texts.last() != Some(text.as_bytes()) {
            self.texts.push(text);
        }
        let key = i32::try_from(self.texts.len() - 1).expect("a batch's runs fit 32-bit keys");
        self.keys.resize(self.keys.len() + n, key);
    }

    /// The rows so far, as a dictionary when `dictionary`; the column is
    /// then empty, with the room they took.
    pub(crate) fn finish(&mut self, dictionary: bool) -> ArrayRef {
        let texts = self.texts.finish();
        let keys = take(&mut self.keys);
        if !dictionary {
            return Arc::new(gather(&texts, keys.iter().map(|&k| k as usize), None));
        }
        let keys = Int32Array::new(ScalarBuffer::from(keys), None);
        // Each key is the place of a text pushed.
        Arc::new(DictionaryArray::<Int32Type>::try_new(keys, Arc::new(texts)).expect("keys among the texts"))
    }

    /// The type of the column [`finish`](Self::finish) makes.
    pub(crate) fn data_type(dictionary: bool) -> DataType {
        if dictionary { dictionary_of(DataType::Int32) } else { DataType::Utf8 }
    }
}
