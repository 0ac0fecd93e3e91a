//! One file's bytes → its record, and a batch of files analysed in parallel.
//!
//! A file is parsed once; the tree feeds the metrics walk, the clone digests and the
//! rule scan. Nothing derived from the input can panic across this boundary: a file that
//! is unreadable, not UTF-8, does not parse or nests too deep becomes a [`FileError`]
//! record, and a defect in the core (a panic) is caught and recorded as well.
//!
//! [`FileError`]: crate::record::FileError

use crate::clones::fingerprints;
use crate::lang::{Kinds, Language};
use crate::record::{ErrorKind, FileError, FileRecord, Outcome};
use crate::rules::{RulePack, Scanner};
use crate::walk::walk;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;
use ast_grep_language::SupportLang;
use rayon::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use tree_sitter::Node;

/// Knobs of the analysis.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Clone candidates must span at least this many SLOC lines.
    pub min_clone_sloc: usize,
    /// Files nesting deeper than this (syntax-tree levels) are reported, not measured.
    pub max_depth: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            min_clone_sloc: 3,
            max_depth: 4000,
        }
    }
}

/// Where a file's bytes come from.
pub enum Input {
    Path(PathBuf),
    Bytes(Vec<u8>),
}

/// Everything a batch shares: the language, its kind tables and the rule scanner.
pub struct Analyzer<'p> {
    lang: &'static dyn Language,
    kinds: Kinds,
    scanner: Option<Scanner<'p>>,
    settings: Settings,
}

impl<'p> Analyzer<'p> {
    pub fn new(lang: &'static dyn Language, pack: Option<&'p RulePack>, settings: Settings) -> Self {
        Self {
            lang,
            kinds: Kinds::new(lang),
            scanner: pack.map(RulePack::scanner),
            settings,
        }
    }

    /// Analyse `inputs` on `jobs` threads (0: one per core); outcomes in input order.
    pub fn batch(&self, inputs: &[Input], jobs: usize) -> Vec<Outcome> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .stack_size(STACK_BYTES)
            .build();
        match pool {
            Ok(pool) => pool.install(|| inputs.par_iter().map(|i| self.input(i)).collect()),
            Err(_) => inputs.iter().map(|i| self.input(i)).collect(),
        }
    }

    /// Analyse one input, whatever it holds.
    pub fn input(&self, input: &Input) -> Outcome {
        match input {
            Input::Bytes(bytes) => self.bytes(bytes),
            Input::Path(path) => match std::fs::read(path) {
                Ok(bytes) => self.bytes(&bytes),
                Err(error) => Outcome::failed(ErrorKind::Unreadable, error.to_string(), 0, 0),
            },
        }
    }

    /// Analyse source bytes: UTF-8 text, or a `NotUtf8` record naming the first bad byte.
    pub fn bytes(&self, bytes: &[u8]) -> Outcome {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.text(text),
            Err(error) => {
                let at = error.valid_up_to();
                let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
                let column = at - bytes[..at].iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1);
                let message = format!("byte 0x{:02x} is not UTF-8", bytes[at]);
                Outcome::failed(ErrorKind::NotUtf8, message, line, column + 1)
            }
        }
    }

    /// Analyse source text; a panic inside becomes an `Internal` record.
    pub fn text(&self, text: &str) -> Outcome {
        catch_unwind(AssertUnwindSafe(|| self.measure(text))).unwrap_or_else(|panic| {
            let reason = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Outcome::failed(ErrorKind::Internal, format!("analysis failed: {reason}"), 0, 0)
        })
    }

    fn measure(&self, text: &str) -> Outcome {
        let lang = self.lang;
        let doc = match StrDoc::try_new(text, lang.ast_grep()) {
            Ok(doc) => doc,
            Err(reason) => return Outcome::failed(ErrorKind::Internal, reason, 0, 0),
        };
        let root = AstGrep::doc(doc);
        let tree = root.root().get_inner_node();
        let source = text.as_bytes();
        let syntax = tree.has_error().then(|| syntax_error(tree, text));
        if let Some(error) = syntax.clone().filter(|_| !lang.measures_broken_files()) {
            return Outcome::Failed(error);
        }
        let walked = walk(lang, &self.kinds, tree, source);
        if walked.depth > self.settings.max_depth {
            let message = format!(
                "nesting is {} syntax-tree levels deep, over the limit of {}",
                walked.depth, self.settings.max_depth
            );
            return Outcome::failed(ErrorKind::TooDeep, message, 0, 0);
        }
        let mut lines = walked.lines;
        lang.extra_lines(text, &mut lines);
        for (start, end) in lang.doc_ranges(text, &walked.docs) {
            lines.clear(start, end);
        }
        let mut callables = walked.callables;
        for callable in &mut callables {
            callable.sloc = lines.count_between(callable.start, callable.end);
        }
        let clones = fingerprints(
            lang,
            &self.kinds,
            &walked.candidates,
            &lines,
            source,
            self.settings.min_clone_sloc,
        );
        let hits = self.scan(&root);
        Outcome::Measured(FileRecord {
            sloc: lines.into_marks(),
            callables,
            clones,
            hits,
            ignores: walked.ignores,
            syntax,
        })
    }

    fn scan(&self, root: &AstGrep<StrDoc<SupportLang>>) -> Vec<crate::record::HitRecord> {
        self.scanner.as_ref().map(|s| s.hits(root)).unwrap_or_default()
    }
}

/// Worker threads get a large stack: the rule engine recurses on some rules.
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// The first error or missing node, as a `Syntax` error with its position.
fn syntax_error(root: Node<'_>, text: &str) -> FileError {
    let mut cursor = root.walk();
    let mut node = root;
    loop {
        if node.is_error() || node.is_missing() {
            break;
        }
        let mut found = false;
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if child.has_error() {
                    node = child;
                    found = true;
                    break;
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        if !found {
            break;
        }
    }
    let point = node.start_position();
    let line_text = text.split('\n').nth(point.row).unwrap_or("");
    let column = line_text
        .get(..point.column.min(line_text.len()))
        .map_or(point.column, |before| before.chars().count())
        + 1;
    let what = if node.is_missing() {
        format!("missing `{}`", node.kind())
    } else {
        let snippet: String = text
            .get(node.byte_range())
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(40)
            .collect();
        if snippet.trim().is_empty() {
            "unexpected input".to_owned()
        } else {
            format!("unexpected `{}`", snippet.trim())
        }
    };
    let message = format!("syntax error at line {}, column {column}: {what}", point.row + 1);
    FileError {
        kind: ErrorKind::Syntax,
        message,
        line: point.row + 1,
        column,
    }
}
