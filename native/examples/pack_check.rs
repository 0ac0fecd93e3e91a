//! The rule scan's prefilters against ast-grep's own combined scan, file by file:
//! `cargo run --release --example pack_check -- LANGUAGE RULES.json FILES.json` (RULES.json:
//! a JSON list of rule texts; FILES.json: a JSON list of paths). Prints the files whose hits
//! differ (none, when the prefilters only skip rules that cannot match) and the totals.
use _core::analyze::{Analyzer, Settings};
use _core::lang::by_name;
use _core::record::Outcome;
use _core::rules::RulePack;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let read = |path: &str| std::fs::read_to_string(path).expect("readable");
    let lang = by_name(&args[1]).expect("a language");
    let rules: Vec<String> = serde_json::from_str(&read(&args[2])).expect("rule list");
    let files: Vec<String> = serde_json::from_str(&read(&args[3])).expect("path list");
    _core::use_one_allocator();
    let pack = RulePack::compile(lang, &rules).expect("rules compile");
    let analyzer = Analyzer::new(lang, Some(&pack), Settings::default());
    let scanner = pack.scanner();
    let (mut hits, mut differ) = (0, 0);
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Outcome::Measured(record) = analyzer.text(&text) else {
            continue;
        };
        let root = AstGrep::doc(StrDoc::try_new(&text, lang.ast_grep()).expect("parses"));
        let expected = scanner.hits(&root);
        let key = |h: &_core::record::HitRecord| (h.rule, h.start, h.end);
        let found: Vec<_> = record.hits.iter().map(key).collect();
        let wanted: Vec<_> = expected.iter().map(key).collect();
        hits += wanted.len();
        if found != wanted {
            differ += 1;
            println!(
                "differ: {file} ({} found, {} expected)",
                found.len(),
                wanted.len()
            );
        }
    }
    println!("{} files, {hits} hits, {differ} differ", files.len());
}
