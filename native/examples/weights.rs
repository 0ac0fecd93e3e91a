//! Σ depth² of each file's tree: `cargo run --release --example weights -- FILES.json`.
use _core::lang::{by_name, Kinds};
use _core::walk::walk;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let files: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    let lang = by_name("python").unwrap();
    let kinds = Kinds::new(lang);
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang.grammar()).unwrap();
    let mut rows = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read(file) else {
            continue;
        };
        let tree = parser.parse(&text, None).unwrap();
        if let Ok(w) = walk(
            lang,
            &kinds,
            tree.root_node(),
            &text,
            100_000,
            &mut |_, _, _, _| {},
        ) {
            rows.push((w.deep_weight, text.len(), file.clone()));
        }
    }
    rows.sort();
    for (w, n, f) in rows.iter().rev().take(8) {
        println!("{w:>14} {n:>9} {:>8.1} {f}", *w as f64 / *n as f64);
    }
    let worst = rows
        .iter()
        .map(|(w, n, _)| *w as f64 / *n as f64)
        .fold(0.0, f64::max);
    println!("max weight per byte {worst:.1}");
}
