//! Python, as the paper's reference tool measures it.
//!
//! Source of every definition here: SlopCodeBench's reference checker, `scb-check` 0.1.0
//! (Orlanski et al., "SlopCodeBench", seed 000, Section 3), which parses with tree-sitter
//! 0.25 and the tree-sitter-python 0.25.0 grammar, the grammar compiled in here. The
//! numbers below were checked file by file against that tool on CPython's `Lib/`, scipy
//! and flask (see `benchmarks/README.md`).
//!
//! * **CC** = 1 + one per node of these kinds in the function's whole subtree (nested
//!   functions, lambdas and f-string fields included): `if_statement`, `elif_clause`,
//!   `for_statement`, `while_statement`, `except_clause`, `assert_statement`, the four
//!   comprehensions (`list_`, `set_`, `dictionary_comprehension`, `generator_expression`),
//!   `boolean_operator` (so `a and b and c` adds 2), `conditional_expression` and
//!   `if_clause` (a comprehension's `if`, a `case` guard). `match`/`case`, `with`,
//!   `try`/`else` and loop `else` add nothing.
//! * **Callables** are `function_definition` nodes reached from the module through class
//!   bodies, decorators and function bodies only: a `def` inside an `if`, `with` or `try`
//!   is not a callable. A callable's lines run from `def` (decorators excluded) to its
//!   last token; its qualified name joins the enclosing classes and functions with `.`.
//! * **SLOC** = the lines on which Python 3.12's tokenizer starts a token other than a
//!   comment, NEWLINE, NL, INDENT, DEDENT or ENDMARKER; a string literal is one token (an
//!   f-string is split into its start, middle parts, replacement fields and end, and a
//!   middle part restarts after each `{{` or `}}`); a byte-order mark is a token on line 1.
//!   Then the lines of each expression statement that is a single plain string (no `b` or
//!   `f` prefix) and owns its lines are removed: docstrings and bare strings. Like the
//!   reference, "owns its lines" reads the lines as `str.splitlines()` splits the text
//!   (which also breaks at form feeds and other separators), indexed by tree-sitter's row,
//!   with byte columns used as character counts.
//! * **Clone candidates**: `function_definition`, `if_statement`, `for_statement`,
//!   `while_statement`, `with_statement`, `try_statement`, `match_statement` at any depth,
//!   except a statement whose condition is `TYPE_CHECKING` or `typing.TYPE_CHECKING`. The
//!   normal form is the node's kind with its children in parentheses; identifiers become
//!   `$VAR1`, `$VAR2`... by first appearance, literals become `$STR`, `$INT`, `$FLOAT`,
//!   `$BOOL`, `$NONE`; comments and plain-string statements are left out.

use super::{Discovery, Language, LineSet, SlocStep};
use ast_grep_language::SupportLang;
use tree_sitter::{Language as Grammar, Node};

pub struct Python;

const FSTRING_PARTS: &[&str] = &["string", "string_content"];

impl Language for Python {
    fn name(&self) -> &'static str {
        "python"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["py"]
    }
    fn ast_grep(&self) -> SupportLang {
        SupportLang::Python
    }
    fn grammar(&self) -> Grammar {
        tree_sitter_python::LANGUAGE.into()
    }

    fn decision_kinds(&self) -> &'static [&'static str] {
        &[
            "if_statement",
            "elif_clause",
            "for_statement",
            "while_statement",
            "except_clause",
            "assert_statement",
            "list_comprehension",
            "set_comprehension",
            "dictionary_comprehension",
            "generator_expression",
            "boolean_operator",
            "conditional_expression",
            "if_clause",
        ]
    }

    fn callable_kinds(&self) -> &'static [&'static str] {
        &["function_definition"]
    }
    fn discovery(&self) -> Discovery {
        Discovery::Through(&[
            "function_definition",
            "class_definition",
            "decorated_definition",
            "block",
        ])
    }
    fn scope_kinds(&self) -> &'static [&'static str] {
        &["function_definition", "class_definition"]
    }
    fn name_of(&self, node: Node<'_>, source: &[u8]) -> Option<String> {
        let mut cursor = node.walk();
        let name = node
            .children(&mut cursor)
            .find(|child| matches!(child.kind(), "identifier" | "name"))?;
        Some(String::from_utf8_lossy(source.get(name.byte_range())?).into_owned())
    }

    fn non_code_kinds(&self) -> &'static [&'static str] {
        &["comment", "line_continuation"]
    }
    fn comment_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }
    fn directive_openers(&self) -> &'static [u8] {
        b"#"
    }
    fn sloc_kinds(&self) -> &'static [&'static str] {
        FSTRING_PARTS
    }
    fn sloc_node(&self, node: Node<'_>, source: &[u8], lines: &mut LineSet) -> SlocStep {
        if node.kind() == "string" {
            if is_fstring(node, source) {
                return SlocStep::Generic;
            }
            lines.insert(node.start_position().row + 1);
            return SlocStep::Opaque;
        }
        // the literal text between an f-string's fields: one token, restarted after `{{`/`}}`
        lines.insert(node.start_position().row + 1);
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.kind() == "escape_interpolation" {
                lines.insert(child.start_position().row + 1);
            }
        }
        SlocStep::Opaque
    }
    fn doc_kinds(&self) -> &'static [&'static str] {
        &["expression_statement"]
    }
    fn doc_span<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Node<'t>> {
        plain_string_statement(node, source)
    }
    fn doc_ranges(&self, text: &str, spans: &[Node<'_>]) -> Vec<(usize, usize)> {
        if spans.is_empty() {
            return Vec::new();
        }
        let lines = PyLines::new(text);
        spans
            .iter()
            .filter(|literal| lines.owned_by(**literal))
            .map(|literal| {
                (
                    literal.start_position().row + 1,
                    literal.end_position().row + 1,
                )
            })
            .collect()
    }
    fn extra_lines(&self, text: &str, lines: &mut LineSet) {
        if text.starts_with('\u{feff}') {
            lines.insert(1);
        }
    }

    fn clone_kinds(&self) -> &'static [&'static str] {
        &[
            "function_definition",
            "if_statement",
            "for_statement",
            "while_statement",
            "with_statement",
            "try_statement",
            "match_statement",
        ]
    }
    fn clone_labels(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("function_definition", "def"),
            ("if_statement", "if"),
            ("for_statement", "for"),
            ("while_statement", "while"),
            ("with_statement", "with"),
            ("try_statement", "try"),
            ("match_statement", "match"),
        ]
    }
    fn excluded_candidate(&self, node: Node<'_>, source: &[u8]) -> bool {
        node.child_by_field_name("condition")
            .and_then(|c| source.get(c.byte_range()))
            .is_some_and(|text| text == b"TYPE_CHECKING" || text == b"typing.TYPE_CHECKING")
    }
    fn identifier_kinds(&self) -> &'static [&'static str] {
        &["identifier"]
    }
    fn literal_tokens(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("string", "$STR"),
            ("string_content", "$STR"),
            ("f_string", "$STR"),
            ("string_fragment", "$STR"),
            ("bytes", "$STR"),
            ("integer", "$INT"),
            ("float", "$FLOAT"),
            ("imaginary", "$FLOAT"),
            ("true", "$BOOL"),
            ("false", "$BOOL"),
            ("none", "$NONE"),
        ]
    }
    fn call_shape(&self) -> Option<(&'static str, &'static str)> {
        Some(("call", "function"))
    }
    fn member_shape(&self) -> Option<(&'static str, &'static str)> {
        Some(("attribute", "attribute"))
    }
    fn skipped_kinds(&self) -> &'static [&'static str] {
        &["expression_statement"]
    }
    fn skipped_in_normal_form(&self, node: Node<'_>, source: &[u8]) -> bool {
        node.kind_id() == expression_statement() && plain_string_statement(node, source).is_some()
    }
}

/// The kind id of `expression_statement` (compared by id: `Node::kind` reads the kind's
/// name and checks it is UTF-8, on every node the walk emits).
fn expression_statement() -> u16 {
    static ID: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
    *ID.get_or_init(|| {
        Python
            .grammar()
            .id_for_node_kind("expression_statement", true)
    })
}

/// The prefix letters of a string literal's text (before its first quote), lowercased.
fn prefix(text: &[u8]) -> impl Iterator<Item = u8> + '_ {
    text.iter()
        .take_while(|b| **b != b'"' && **b != b'\'')
        .map(u8::to_ascii_lowercase)
}

fn is_fstring(string: Node<'_>, source: &[u8]) -> bool {
    source
        .get(string.byte_range())
        .is_some_and(|text| prefix(text).any(|b| b == b'f'))
}

/// The literal of an expression statement that is one plain string (not bytes, not f).
fn plain_string_statement<'t>(statement: Node<'t>, source: &[u8]) -> Option<Node<'t>> {
    if statement.named_child_count() != 1 {
        return None;
    }
    let literal = statement.named_child(0)?;
    if literal.kind() != "string" {
        return None;
    }
    let text = source.get(literal.byte_range())?;
    prefix(text)
        .all(|b| b != b'b' && b != b'f')
        .then_some(literal)
}

/// The text's lines as Python's `str.splitlines()` makes them (byte ranges, no ends).
struct PyLines<'a> {
    text: &'a str,
    lines: Vec<(usize, usize)>,
}

impl<'a> PyLines<'a> {
    fn new(text: &'a str) -> Self {
        let mut lines = Vec::new();
        let mut start = 0;
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let breaks = matches!(
                c,
                '\n' | '\r'
                    | '\u{0b}'
                    | '\u{0c}'
                    | '\u{1c}'
                    | '\u{1d}'
                    | '\u{1e}'
                    | '\u{85}'
                    | '\u{2028}'
                    | '\u{2029}'
            );
            if !breaks {
                continue;
            }
            lines.push((start, at));
            start = at + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|(_, next)| *next == '\n') {
                chars.next();
                start += 1;
            }
        }
        if start < text.len() {
            lines.push((start, text.len()));
        }
        Self { text, lines }
    }

    fn line(&self, row: usize) -> &str {
        self.lines
            .get(row)
            .and_then(|(start, end)| self.text.get(*start..*end))
            .unwrap_or("")
    }

    /// Nothing but whitespace before the literal's start and after its end, with the
    /// columns (bytes) used as character counts, as the reference does.
    fn owned_by(&self, literal: Node<'_>) -> bool {
        let (start, end) = (literal.start_position(), literal.end_position());
        let before = self.line(start.row).chars().take(start.column);
        let after = self.line(end.row).chars().skip(end.column);
        before.chain(after).all(is_py_space)
    }
}

/// Python's `str.isspace()`.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{1c}'..='\u{1f}')
}
