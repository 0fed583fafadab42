//! Every game of the files and folders named: `cargo run --example read_folder -- fixtures`.
use qipu::batch::{Games, Item};
fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args_os().skip(1).map(Into::into).collect();
    for item in Games::of(&paths) {
        match item {
            Item::Game { meta, index, game } => {
                println!("{} {index}: {} plies", meta.source, game.replayed().moves.len())
            }
            Item::Unreadable { meta, reason } => eprintln!("{}: {reason}", meta.source),
            _ => {}
        }
    }
}
