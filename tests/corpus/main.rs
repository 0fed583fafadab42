//! Tests over the real corpus beside the checkout (`../shared/corpus`): each is skipped with
//! a line on standard error when it is not there, or fails with `QIPU_REQUIRE_CORPUS=1`.

#[path = "../common/mod.rs"]
mod common;

mod corpus_ccbridge;
mod corpus_ccbridge_write;
mod corpus_duplicates;
mod corpus_ecco;
mod corpus_index;
mod corpus_moves;
mod corpus_mxq;
mod corpus_sg;
mod corpus_validate;
mod corpus_xqf;
mod dhtmlxq_xqf_twin;
mod stream_corpus;
mod xqf_cchess;
mod xqf_roundtrip;
