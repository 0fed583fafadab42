//! The `qipu` command end to end: every test here runs the binary this build made (through
//! `common::qipu`), one module per former test file.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_analyse;
mod cli_ccbridge_write;
mod cli_convert_files;
mod cli_convert_lines;
mod cli_damaged;
mod cli_duplicates;
mod cli_evals;
mod cli_explore_html;
#[cfg(feature = "parquet")]
mod cli_export;
mod cli_face;
mod cli_fen_convert;
mod cli_fen_epd;
mod cli_fen_sfplain;
mod cli_html;
mod cli_index;
mod cli_inputs_once;
mod cli_lines;
mod cli_messages;
mod cli_output;
#[cfg(target_os = "linux")]
mod cli_output_full;
mod cli_rulings;
mod cli_search_out;
mod cli_select;
mod cli_shape;
mod cli_shard;
mod cli_show;
mod cli_stats_html;
mod cli_stream_text;
mod cli_suite;
mod cli_validate;
mod cli_wxf;
mod cli_zip;
mod eleeye_book;
mod hostile;
mod hostile_writes;
mod trust;
