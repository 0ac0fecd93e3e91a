//! A bare tree-sitter parse of every file of a tree: the floor under `code measure`.
//!
//! `cargo run --release --example parse_files -- LANGUAGE TREE [EXCLUDED_DIR,...]` reads
//! every file of TREE with one of LANGUAGE's extensions (folders named in the
//! comma-separated list left out, as slopmark's discovery leaves them out) and parses it
//! with the same grammar, allocator (with mimalloc's default options: the core keeps freed
//! memory and small pages, see `_core::use_one_allocator`, which make no difference to a
//! bare parse) and thread pool (one thread per core) as the core, doing nothing else. Prints `{"parsed": N, "with_errors": M, "bytes": B}`.
//! `benchmarks/code_measure.py` times it beside `slopmark code measure`.

use _core::lang::by_name;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: parse_files LANGUAGE TREE [EXCLUDED_DIR,...]");
        std::process::exit(2);
    }
    let Some(lang) = by_name(&args[1]) else {
        eprintln!("parse_files: unknown language {}", args[1]);
        std::process::exit(2);
    };
    let excluded: Vec<&str> = args.get(3).map_or(Vec::new(), |s| s.split(',').collect());
    let mut files = Vec::new();
    collect(
        Path::new(&args[2]),
        lang.extensions(),
        &excluded,
        &mut files,
    );
    _core::share_allocator();
    let results: Vec<(bool, usize)> = files
        .par_iter()
        .filter_map(|path| {
            let text = std::fs::read(path).ok()?;
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&lang.grammar()).ok()?;
            let tree = parser.parse(&text, None)?;
            Some((tree.root_node().has_error(), text.len()))
        })
        .collect();
    let with_errors = results.iter().filter(|(error, _)| *error).count();
    let bytes: usize = results.iter().map(|(_, size)| size).sum();
    println!(
        "{{\"parsed\": {}, \"with_errors\": {with_errors}, \"bytes\": {bytes}}}",
        results.len()
    );
}

/// Every file under `folder` with one of `extensions`, skipping folders named in `excluded`.
fn collect(folder: &Path, extensions: &[&str], excluded: &[&str], files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name();
        if kind.is_dir() {
            if !excluded.iter().any(|e| name.to_str() == Some(*e)) {
                collect(&path, extensions, excluded, files);
            }
        } else if kind.is_file()
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.iter().any(|x| x.trim_start_matches('.') == e))
        {
            files.push(path);
        }
    }
}
