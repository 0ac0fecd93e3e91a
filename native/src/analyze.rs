//! One file's bytes → its record, and a batch of files analysed in parallel.
//!
//! A file is parsed once; the tree feeds the metrics walk, the clone digests and the
//! rule scan. Nothing derived from the input can panic across this boundary: a file that
//! is unreadable or not a regular file ([`crate::read`]), not UTF-8, does not parse, nests
//! too deep or is too big to parse within the step budget ([`MAX_PARSE_STEPS`]) becomes a
//! [`FileError`] record, and a defect in the core (a panic) is caught and recorded as well.
//!
//! [`FileError`]: crate::record::FileError

use crate::clones::fingerprints;
use crate::lang::{variance, Kinds, Language};
use crate::read::{regular_file, MAX_FILE_BYTES};
use crate::record::{ErrorKind, FileError, FileRecord, Outcome};
use crate::rules::{RulePack, Scanner, Surroundings, AST_GREP_IGNORE};
use crate::walk::{walk, TooDeep, DEEP};
use ast_grep_core::tree_sitter::{LanguageExt, StrDoc, TSLanguage};
use ast_grep_core::AstGrep;
use ast_grep_language::SupportLang;
use rayon::prelude::*;
use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use tree_sitter::{Node, ParseOptions, ParseState, Parser};

/// Knobs of the analysis.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Clone candidates must span at least this many SLOC lines.
    pub min_clone_sloc: usize,
    /// Files nesting deeper than this (syntax-tree levels) are reported, not measured.
    pub max_depth: usize,
    /// Files whose parse takes more steps than this are reported, not measured.
    pub max_parse_steps: u64,
    /// Files read by path that hold more bytes than this are reported, not measured.
    pub max_file_bytes: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            min_clone_sloc: 3,
            max_depth: MAX_DEPTH,
            max_parse_steps: MAX_PARSE_STEPS,
            max_file_bytes: MAX_FILE_BYTES,
        }
    }
}

impl Settings {
    /// These settings with a size limit of `max_file_bytes`. Past the default limit a caller
    /// measures generated files on purpose, and their parse has no step budget.
    pub fn with_max_file_bytes(self, max_file_bytes: u64) -> Self {
        let max_parse_steps = if max_file_bytes > MAX_FILE_BYTES {
            u64::MAX
        } else {
            MAX_PARSE_STEPS
        };
        Self {
            max_file_bytes,
            max_parse_steps,
            ..self
        }
    }
}

/// The default nesting limit. Real code stays far below it (CPython's `Lib/` and scipy:
/// under 150 levels, but for one test file at 809); CPython's own parser refuses 200
/// nested parentheses.
pub const MAX_DEPTH: usize = 1000;

/// The default budget of parse steps (tree-sitter's shifts and reductions: each makes a
/// node of the tree, hidden ones included, so the steps bound the parse's memory and the
/// nodes the walk and the rules go through). Of the 907 source files over 100 KB in CPython
/// 3.12's `Lib/`, two site-packages (sympy, moto and playwright's bundles among them), Go
/// 1.26's `src/` and `test/`, a cargo registry's 105 crates and the Google Cloud SDK, the
/// biggest take 4.1 million steps (encoding_rs's `data.rs`, a generated table) and 3.5
/// million (gcloud's 6 MB `gcloud_completions.py`), while a 10 MB one-line minified
/// JavaScript file takes 15 to 38 million. A parse over the budget is stopped there,
/// holding about 0.5 GiB; a file within it is measured in about 1 GiB at most.
pub const MAX_PARSE_STEPS: u64 = 8_000_000;

/// Parse steps between two calls of tree-sitter's progress callback
/// (`OP_COUNT_PER_PARSER_CALLBACK_CHECK` in its `parser.c`).
const STEPS_PER_CHECK: u64 = 100;

/// Where a file's bytes come from.
pub enum Input {
    Path(PathBuf),
    Bytes(Vec<u8>),
}

impl Input {
    /// Its size in bytes (0 when a file cannot be read: it fails fast anyway).
    fn size(&self) -> u64 {
        match self {
            Self::Path(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
            Self::Bytes(bytes) => bytes.len() as u64,
        }
    }
}

/// Everything a batch shares: the language, its kind tables and the rule scanner.
pub struct Analyzer<'p> {
    lang: &'static dyn Language,
    kinds: Kinds,
    scanner: Option<Scanner<'p>>,
    settings: Settings,
}

impl<'p> Analyzer<'p> {
    pub fn new(
        lang: &'static dyn Language,
        pack: Option<&'p RulePack>,
        settings: Settings,
    ) -> Self {
        Self {
            lang,
            kinds: Kinds::new(lang),
            scanner: pack.map(RulePack::scanner),
            settings,
        }
    }

    /// Analyse `inputs` on `jobs` threads (0: one per core); outcomes in input order.
    pub fn batch(&self, inputs: &[Input], jobs: usize) -> Vec<Outcome> {
        let finished = std::sync::Mutex::new(Vec::with_capacity(inputs.len()));
        self.each(inputs, jobs, &|i, outcome| {
            if let Ok(mut finished) = finished.lock() {
                finished.push((i, outcome));
            }
            true
        });
        let mut outcomes: Vec<Option<Outcome>> = vec![None; inputs.len()];
        let finished = finished
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (i, outcome) in finished {
            outcomes[i] = Some(outcome);
        }
        outcomes.into_iter().flatten().collect()
    }

    /// Analyse `inputs` on `jobs` threads (0: one per core), handing each outcome to
    /// `sink` with its input's index as soon as it is made; once `sink` returns false
    /// (its reader is gone) the files not started yet are left alone.
    ///
    /// Big files go first, so that the last ones to finish are small, and every file is a
    /// job of its own: rayon's default splitting hands a thread a run of files it cannot
    /// share, and with the biggest files first one thread worked alone for most of `Lib/`.
    pub fn each(
        &self,
        inputs: &[Input],
        jobs: usize,
        sink: &(dyn Fn(usize, Outcome) -> bool + Sync),
    ) {
        let mut order: Vec<usize> = (0..inputs.len()).collect();
        order.sort_by_cached_key(|i| std::cmp::Reverse(inputs[*i].size()));
        let wanted = AtomicBool::new(true);
        let run = |i: &usize| {
            if wanted.load(Ordering::Relaxed) && !sink(*i, self.input(&inputs[*i])) {
                wanted.store(false, Ordering::Relaxed);
            }
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .stack_size(STACK_BYTES)
            .build();
        match pool {
            Ok(pool) => pool.install(|| order.par_iter().with_max_len(1).for_each(run)),
            Err(_) => order.iter().for_each(run),
        }
    }

    /// Analyse one input, whatever it holds (a file's bytes are read once and parsed where
    /// they were read, not copied).
    pub fn input(&self, input: &Input) -> Outcome {
        match input {
            Input::Bytes(bytes) => self.bytes(bytes),
            Input::Path(path) => match regular_file(path, self.settings.max_file_bytes) {
                Ok(bytes) => match String::from_utf8(bytes) {
                    Ok(text) => self.owned(text),
                    Err(error) => not_utf8(error.as_bytes(), error.utf8_error()),
                },
                Err(error) => Outcome::Failed(error),
            },
        }
    }

    /// Analyse source bytes: UTF-8 text, or a `NotUtf8` record naming the first bad byte.
    pub fn bytes(&self, bytes: &[u8]) -> Outcome {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.text(text),
            Err(error) => not_utf8(bytes, error),
        }
    }

    /// Analyse source text; a panic inside becomes an `Internal` record.
    pub fn text(&self, text: &str) -> Outcome {
        self.owned(text.to_owned())
    }

    /// Analyse source text the analysis may keep; a panic inside becomes an `Internal`
    /// record.
    fn owned(&self, text: String) -> Outcome {
        catch_unwind(AssertUnwindSafe(|| self.measure(text))).unwrap_or_else(|panic| {
            let reason = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Outcome::failed(
                ErrorKind::Internal,
                format!("analysis failed: {reason}"),
                0,
                0,
            )
        })
    }

    fn measure(&self, text: String) -> Outcome {
        let lang = self.lang;
        let doc = match self.parsed(text) {
            Ok(doc) => doc,
            Err(unparsed) => return Outcome::Failed(unparsed),
        };
        let root = AstGrep::doc(doc);
        let text = root.root().get_doc().src.as_str();
        let tree = root.root().get_inner_node();
        let source = text.as_bytes();
        if let Some(too_deep) = past_the_parser(lang, tree, text) {
            return too_deep;
        }
        let syntax = tree.has_error().then(|| syntax_error(tree, text));
        if let Some(error) = syntax.clone().filter(|_| !lang.measures_broken_files()) {
            return Outcome::Failed(error);
        }
        // the nodes some rule may match, kept for after the walk: rules run only once the
        // nesting is known to be within bounds (their cost grows with its square); each
        // with the kinds around it, which rule out the rules that cannot match there
        let mut matchable = Vec::new();
        let mut surroundings = SURROUNDINGS.take();
        if self.scanner.is_some() {
            surroundings.reserve(tree.descendant_count());
        }
        let limit = self.settings.max_depth;
        let walked = match &self.scanner {
            Some(scanner) => walk(
                lang,
                &self.kinds,
                tree,
                source,
                limit,
                &mut |node, kind, depth, leaf| {
                    let bit = scanner.bit(kind);
                    if scanner.wants(kind) {
                        matchable.push((node, surroundings.enter(bit, depth)));
                    } else if leaf && bit.is_unnamed_by_rules() {
                        surroundings.pass(bit, depth);
                    } else {
                        surroundings.enter(bit, depth);
                    }
                },
            ),
            None => walk(lang, &self.kinds, tree, source, limit, &mut |_, _, _, _| {}),
        };
        let walked = match walked {
            Ok(walked) if walked.deep_weight <= MAX_DEEP_WEIGHT => walked,
            Ok(_) => {
                return too_deep(format!("too many nodes nest deeper than {DEEP} levels"), 0);
            }
            Err(TooDeep { depth, line }) => {
                let what =
                    format!("nesting is over {limit} levels at line {line} (reached {depth})");
                return too_deep(what, line);
            }
        };
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
            &walked.tokens,
            &lines,
            source,
            self.settings.min_clone_sloc,
        );
        let hits = match &self.scanner {
            Some(scanner) if text.contains(AST_GREP_IGNORE) => scanner.hits(&root),
            Some(scanner) => {
                surroundings.finish();
                let mut hits = Vec::new();
                for (node, place) in matchable {
                    let around = surroundings.around(place);
                    scanner.visit(root.adopt(node), around, &mut hits);
                }
                Scanner::sort(&mut hits);
                hits
            }
            None => Vec::new(),
        };
        keep_for_the_next_walk(surroundings);
        Outcome::Measured(FileRecord {
            sloc: lines.into_marks(),
            callables,
            clones,
            hits,
            ignores: walked.ignores,
            syntax,
            declares_encoding: lang.may_declare_encoding(text),
        })
    }

    /// `text` parsed, or why it gave no tree.
    fn parsed(&self, text: String) -> Result<StrDoc<SupportLang>, FileError> {
        let steps = self.settings.max_parse_steps;
        parse(text, self.lang.ast_grep(), steps).map_err(|unparsed| match unparsed {
            Unparsed::OverBudget(text) => too_big_to_parse(&text, steps),
            Unparsed::Refused(message) => FileError {
                kind: ErrorKind::Internal,
                message,
                line: 0,
                column: 0,
            },
        })
    }
}

/// The `TooDeep` record of a tree with errors whose text nests deeper than the grammar's
/// own parser follows (see [`Language::beyond_parser`]).
fn past_the_parser(lang: &dyn Language, tree: Node<'_>, text: &str) -> Option<Outcome> {
    if !tree.has_error() {
        return None;
    }
    let (line, why) = lang.beyond_parser(text)?;
    let what = format!("nesting too deep to parse at line {line}: {why}");
    Some(too_deep(what, line))
}

/// The `NotUtf8` record of `bytes`, naming the first bad byte.
fn not_utf8(bytes: &[u8], error: std::str::Utf8Error) -> Outcome {
    let at = error.valid_up_to();
    let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
    let column = at
        - bytes[..at]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |p| p + 1);
    let message = format!("byte 0x{:02x} is not UTF-8", bytes[at]);
    Outcome::failed(ErrorKind::NotUtf8, message, line, column + 1)
}

thread_local! {
    /// The thread's parser and the grammar it is set to (None before its first parse; set
    /// again when a batch of another language runs on the thread).
    static PARSER: RefCell<(Option<TSLanguage>, Parser)> = RefCell::new((None, Parser::new()));
}

/// Why a text gave no tree.
enum Unparsed {
    /// The parse went over its budget of steps (the text is handed back).
    OverBudget(String),
    /// tree-sitter gave no tree, for this reason.
    Refused(String),
}

/// `text` parsed into the document ast-grep matches on, which keeps the text as it is
/// (ast-grep's own `StrDoc::try_new` copies it first); the parse is stopped once it takes
/// more than `max_steps` steps.
fn parse(text: String, lang: SupportLang, max_steps: u64) -> Result<StrDoc<SupportLang>, Unparsed> {
    let grammar = lang.get_ts_language();
    // TypeScript's variance annotations, which the grammar lacks, are read as spaces
    let view = match lang {
        SupportLang::TypeScript | SupportLang::Tsx => variance::blanked(&text),
        _ => None,
    };
    let checks_allowed = max_steps / STEPS_PER_CHECK;
    let mut checks = 0;
    let parsed = PARSER.with_borrow_mut(|(set, parser)| {
        if set.as_ref() != Some(&grammar) {
            parser
                .set_language(&grammar)
                .map_err(|error| error.to_string())?;
            *set = Some(grammar);
        }
        // a parse that failed midway can leave state behind: every parse starts clean
        parser.reset();
        let bytes = view.as_deref().unwrap_or(text.as_bytes());
        let mut progress = |_: &ParseState| {
            checks += 1;
            if checks > checks_allowed {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = ParseOptions::new().progress_callback(&mut progress);
        let mut read = |at: usize, _| bytes.get(at..).unwrap_or_default();
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        if tree.is_none() {
            // a stopped parse keeps its stacks until the next one: free them now
            parser.reset();
        }
        Ok(tree)
    });
    match parsed {
        Ok(Some(tree)) => Ok(StrDoc {
            src: text,
            lang,
            tree,
        }),
        Ok(None) if checks > checks_allowed => Err(Unparsed::OverBudget(text)),
        Ok(None) => Err(Unparsed::Refused("tree-sitter returned no tree".to_owned())),
        Err(reason) => Err(Unparsed::Refused(reason)),
    }
}

/// The error of a text whose parse went over `max_steps`: its size and lines say what it
/// likely is (a text whose lines average over [`LONG_LINE`] bytes is likely minified).
fn too_big_to_parse(text: &str, max_steps: u64) -> FileError {
    let bytes = text.len();
    let breaks = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    let lines = breaks + usize::from(!text.ends_with('\n'));
    let likely = if bytes / lines.max(1) > LONG_LINE {
        "minified?"
    } else {
        "generated?"
    };
    let size = if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{} KiB", bytes.div_ceil(1 << 10))
    };
    let plural = if lines == 1 { "" } else { "s" };
    let message = format!(
        "{size} on {} line{plural} ({likely}): over the limit of {} parse steps; such code \
         is not measured",
        grouped(lines as u64),
        grouped(max_steps)
    );
    FileError {
        kind: ErrorKind::TooBig,
        message,
        line: 0,
        column: 0,
    }
}

/// Average bytes per line above which a text is likely minified.
const LONG_LINE: usize = 1000;

/// `n` with its digits in groups of three (8,000,000).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

thread_local! {
    /// The surroundings of the thread's last walk, emptied: their memory serves the next
    /// one (the walk writes a slot per node, and a file's slots growing from nothing cost a
    /// copy at every doubling and fresh pages from the system).
    static SURROUNDINGS: Cell<Surroundings> = Cell::new(Surroundings::default());
}

/// Slots of surroundings a thread keeps for its next walk, at most (a few megabytes: the
/// nodes of a big source file; a bigger walk's memory is given back).
const KEPT_SLOTS: usize = 1 << 16;

/// Keep a walk's surroundings, emptied, for the thread's next walk (unless they grew past
/// [`KEPT_SLOTS`]).
fn keep_for_the_next_walk(mut surroundings: Surroundings) {
    if surroundings.capacity() <= KEPT_SLOTS {
        surroundings.clear();
        SURROUNDINGS.set(surroundings);
    }
}

/// Worker threads get a large stack: the rule engine recurses on some rules.
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Σ depth² of the nodes nested deeper than [`DEEP`] above which a file is not measured:
/// in CPython's `Lib/` and scipy one test file reaches 5.5e8 and every other file is at 0,
/// while a file of nested parentheses crafted to reach the bound takes seconds to scan.
pub const MAX_DEEP_WEIGHT: u64 = 1_000_000_000;

/// The `TooDeep` record saying `what` (at `line`, 0 for no line).
fn too_deep(what: String, line: usize) -> Outcome {
    let message = format!("{what}; such code is generated or pathological and is not measured");
    Outcome::failed(ErrorKind::TooDeep, message, line, 0)
}

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
    let message = format!(
        "syntax error at line {}, column {column}: {what}",
        point.row + 1
    );
    FileError {
        kind: ErrorKind::Syntax,
        message,
        line: point.row + 1,
        column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::by_name;
    use crate::record::FileRecord;
    use std::sync::atomic::AtomicUsize;

    fn python() -> &'static dyn Language {
        by_name("python").expect("python is built in")
    }

    fn measure(text: &str) -> FileRecord {
        match Analyzer::new(python(), None, Settings::default()).text(text) {
            Outcome::Measured(record) => record,
            Outcome::Failed(error) => panic!("not measured: {error:?}"),
        }
    }

    fn failure(bytes: &[u8]) -> crate::record::FileError {
        match Analyzer::new(python(), None, Settings::default()).bytes(bytes) {
            Outcome::Failed(error) => error,
            Outcome::Measured(_) => panic!("measured"),
        }
    }

    fn sloc_lines(record: &FileRecord) -> Vec<usize> {
        (0..record.sloc.len())
            .filter(|n| record.sloc[*n] == 1)
            .collect()
    }

    #[test]
    fn a_coding_word_on_line_one_or_two_may_declare_an_encoding() {
        assert!(measure("# -*- coding: latin-1 -*-\nx = 1\n").declares_encoding);
        assert!(
            measure("#!/usr/bin/env python\n# vim: set fileencoding=utf-8\n").declares_encoding
        );
        assert!(!measure("x = 1\ny = 2\n# coding: latin-1\n").declares_encoding);
        assert!(!measure("x = 1\n").declares_encoding);
    }

    #[test]
    fn cc_counts_the_table_in_the_whole_subtree() {
        let text = "def f(a, b):\n    if a and b or a:\n        return [x for x in a if x]\n    \
                    elif b:\n        g = lambda: 1 if a else 2\n    assert a\n    return 0\n";
        let record = measure(text);
        // if, 2 boolean operators, comprehension, its if clause, elif, conditional, assert
        assert_eq!(record.callables[0].cc, 9);
        assert_eq!(record.callables[0].sloc, 7);
    }

    #[test]
    fn callables_are_reached_through_classes_decorators_and_bodies_only() {
        let text = "class A:\n    @staticmethod\n    def m():\n        def inner():\n            \
                    pass\n\nif True:\n    def hidden():\n        pass\n";
        let names: Vec<String> = measure(text)
            .callables
            .into_iter()
            .map(|c| c.qualname)
            .collect();
        assert_eq!(names, ["A.m", "A.m.inner"]);
    }

    #[test]
    fn docstrings_leave_sloc_and_fstring_parts_count() {
        let text = "def f():\n    \"\"\"Doc\n    string.\"\"\"\n    return f\"\"\"a\nb {{\nc\n{x}\n\"\"\"\n";
        // Python 3.12's tokenizer: line 4 opens the f-string, a middle part restarts after
        // the `{{` of line 5, line 7 holds a field, line 8 closes the string; the
        // docstring's lines 2-3 are gone
        assert_eq!(sloc_lines(&measure(text)), [1, 4, 5, 7, 8]);
    }

    #[test]
    fn a_byte_order_mark_is_a_token_on_line_one() {
        assert_eq!(sloc_lines(&measure("\u{feff}# comment\nx = 1\n")), [1, 2]);
    }

    #[test]
    fn docstring_ownership_reads_lines_as_python_splits_them() {
        // the form feed makes `splitlines` see one line more, so the docstring's own row
        // reads the `def` line before it: it does not own its line and stays SLOC
        let text = "\u{c}\ndef f():\n    \"doc\"\n    return 1\n";
        assert_eq!(sloc_lines(&measure(text)), [2, 3, 4]);
        assert_eq!(sloc_lines(&measure(&text[2..])), [1, 3]);
    }

    #[test]
    fn empty_file_is_measured_with_nothing_in_it() {
        let record = measure("");
        assert!(record.callables.is_empty() && sloc_lines(&record).is_empty());
    }

    #[test]
    fn syntax_error_names_its_line_and_column() {
        let error = failure(b"x = 1\ny = (2,\n");
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert!(
            error.message.starts_with("syntax error at line "),
            "{error:?}"
        );
        assert!(error.line >= 2 && error.column >= 1);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_a_record_not_a_panic() {
        let error = failure(b"x = 1\ny = '\xff'\n");
        assert_eq!(
            (error.kind, error.line, error.column),
            (ErrorKind::NotUtf8, 2, 6)
        );
    }

    #[test]
    fn deep_nesting_is_reported_before_rules_run() {
        let text = format!("x = {}1{}\n", "(".repeat(3000), ")".repeat(3000));
        assert_eq!(failure(text.as_bytes()).kind, ErrorKind::TooDeep);
        let chain = format!("x = {}\n", vec!["a"; 100_000].join(" + "));
        assert_eq!(failure(chain.as_bytes()).kind, ErrorKind::TooDeep);
    }

    fn nested_ifs(levels: usize) -> String {
        let mut text: String = (0..levels)
            .map(|level| format!("{}if x:\n", " ".repeat(level)))
            .collect();
        text.push_str(&" ".repeat(levels));
        text.push_str("pass\n");
        text
    }

    #[test]
    fn indentation_deeper_than_the_grammar_follows_is_too_deep_not_a_syntax_error() {
        let settings = Settings {
            max_depth: 5000,
            ..Settings::default()
        };
        let analyzer = Analyzer::new(python(), None, settings);
        let deepest = nested_ifs(511);
        assert!(matches!(analyzer.text(&deepest), Outcome::Measured(_)));
        // the block of `pass` is the 511th level: one more is past the grammar
        let past = analyzer.text(&nested_ifs(512));
        assert_eq!(past.kind(), Some(ErrorKind::TooDeep));
        let Outcome::Failed(error) = analyzer.text(&nested_ifs(3000)) else {
            panic!("measured");
        };
        assert_eq!((error.kind, error.line), (ErrorKind::TooDeep, 513));
        assert!(
            error.message.starts_with(
                "nesting too deep to parse at line 513: over 511 indented blocks, the most \
                 tree-sitter's Python grammar follows;"
            ),
            "{error:?}"
        );
        let broken = format!("{deepest}x = (\n");
        assert_eq!(analyzer.text(&broken).kind(), Some(ErrorKind::Syntax));
    }

    #[test]
    fn nesting_past_the_walk_names_its_line() {
        let text = format!("x = 1\ny = {}1{}\n", "[".repeat(3000), "]".repeat(3000));
        let error = failure(text.as_bytes());
        assert_eq!((error.kind, error.line), (ErrorKind::TooDeep, 2));
        assert!(
            error
                .message
                .starts_with("nesting is over 1000 levels at line 2 (reached 1001);"),
            "{error:?}"
        );
    }

    #[test]
    fn a_parse_over_its_step_budget_is_stopped_and_named() {
        let settings = Settings {
            max_parse_steps: 10_000,
            ..Settings::default()
        };
        let analyzer = Analyzer::new(python(), None, settings);
        let one_line = "x = 1; ".repeat(3000);
        let Outcome::Failed(error) = analyzer.text(&one_line) else {
            panic!("measured");
        };
        assert_eq!(error.kind, ErrorKind::TooBig);
        assert_eq!(
            error.message,
            "21 KiB on 1 line (minified?): over the limit of 10,000 parse steps; such code is \
             not measured"
        );
        let many_lines = "x = 1\n".repeat(3000);
        let Outcome::Failed(error) = analyzer.text(&many_lines) else {
            panic!("measured");
        };
        assert!(
            error
                .message
                .starts_with("18 KiB on 3,000 lines (generated?)"),
            "{error:?}"
        );
        // the thread's parser is clean for the next file
        assert_eq!(analyzer.text("x = 1\n").kind(), None);
    }

    #[test]
    fn a_size_limit_past_the_default_lifts_the_step_budget() {
        let default = Settings::default().with_max_file_bytes(MAX_FILE_BYTES);
        assert_eq!(default.max_parse_steps, MAX_PARSE_STEPS);
        let raised = Settings::default().with_max_file_bytes(MAX_FILE_BYTES + 1);
        assert_eq!(raised.max_parse_steps, u64::MAX);
    }

    #[test]
    fn token_form_equals_the_form_read_from_the_tree() {
        use crate::clones::{NormalForm, TokenForm};
        use crate::walk::walk;
        let text = "def f(a, b=1):\n    # note\n    \"doc\"\n    if a:\n        return \
                    g(a, 'x', [1.5, None, True])\n    return f\"{b}\"\n";
        let lang = python();
        let kinds = Kinds::new(lang);
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&lang.grammar()).expect("grammar loads");
        let tree = parser.parse(text, None).expect("parses");
        let walked = walk(
            lang,
            &kinds,
            tree.root_node(),
            text.as_bytes(),
            100,
            &mut |_, _, _, _| {},
        );
        let walked = walked.unwrap_or_else(|_| panic!("too deep"));
        let mut from_tree = NormalForm::new(lang, &kinds, text.as_bytes());
        let mut from_tokens = TokenForm::new(&kinds);
        for candidate in &walked.candidates {
            let (start, end) = candidate.tokens.expect("in the stream");
            let expected = from_tree.text(candidate.node);
            assert_eq!(from_tokens.text(&walked.tokens[start..end]), expected);
        }
        let first = from_tree.text(walked.candidates[0].node);
        assert!(first.starts_with("function_definition(def,$VAR1,parameters((,$VAR2,"));
        assert!(!first.contains("comment") && !first.contains("expression_statement($STR)"));
    }

    #[test]
    fn rules_hit_and_ast_grep_ignore_is_honoured() {
        let rule = "id: no-print\nlanguage: python\nrule: {pattern: print($A)}\n".to_owned();
        let pack = RulePack::compile(python(), &[rule]).expect("compiles");
        let analyzer = Analyzer::new(python(), Some(&pack), Settings::default());
        let hits = |text: &str| match analyzer.text(text) {
            Outcome::Measured(record) => record.hits.iter().map(|h| h.start).collect::<Vec<_>>(),
            Outcome::Failed(error) => panic!("{error:?}"),
        };
        assert_eq!(hits("print(1)\nx = 2\nprint(3)\n"), [1, 3]);
        assert_eq!(hits("# ast-grep-ignore\nprint(1)\nprint(3)\n"), [3]);
    }

    #[test]
    fn each_leaves_the_files_not_started_once_the_sink_is_gone() {
        let inputs: Vec<Input> = (0..20)
            .map(|n| Input::Bytes(format!("x = {n}\n").into_bytes()))
            .collect();
        let analyzer = Analyzer::new(python(), None, Settings::default());
        let calls = AtomicUsize::new(0);
        analyzer.each(&inputs, 1, &|_, _| {
            calls.fetch_add(1, Ordering::Relaxed) < 2
        });
        assert_eq!(calls.load(Ordering::Relaxed), 3);
        let all = analyzer.batch(&inputs, 2);
        assert_eq!(all.len(), 20);
    }

    #[test]
    fn a_rule_ast_grep_refuses_is_named_by_its_index() {
        let good = "id: a\nlanguage: python\nrule: {kind: call}\n".to_owned();
        let bad = "id: b\nlanguage: python\nrule: {kind: no_such_kind}\n".to_owned();
        let error = RulePack::compile(python(), &[good, bad])
            .err()
            .expect("refused");
        assert_eq!(error.index, 1);
        assert!(error.message.contains("no_such_kind"), "{}", error.message);
    }
}
