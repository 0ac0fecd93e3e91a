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

use super::{has, Discovery, Language, LineSet, SlocStep};
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
        // by index: a cursor would be allocated, and its moves cost more than a few
        // `Node::child` calls
        let name = (0..node.child_count())
            .filter_map(|i| node.child(i))
            .find(|child| has(&ids().name, child.kind_id()))?;
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
        if has(&ids().string, node.kind_id()) {
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
            if has(&ids().escape_interpolation, child.kind_id()) {
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

    /// A coding cookie is a comment on line 1 or 2 naming `coding` (PEP 263): the word on
    /// one of those lines is enough to say the file may have one.
    fn may_declare_encoding(&self, text: &str) -> bool {
        text.split('\n').take(2).any(|line| line.contains("coding"))
    }

    /// The indentation levels past [`MAX_INDENTS`], and indentation wider than its scanner
    /// counts, as tree-sitter-python's scanner reads lines: spaces count 1, tabs 8, a
    /// carriage return or form feed starts again from 0; blank and comment-only lines
    /// leave the levels as they are. (Continuation lines inside brackets are read as
    /// indentation too: the answer only names the cause of a parse that failed.)
    fn beyond_parser(&self, text: &str) -> Option<(usize, String)> {
        let mut levels: Vec<u32> = Vec::new();
        for (row, line) in text.split('\n').enumerate() {
            let (width, rest) = indentation(line);
            if rest.is_empty() || rest.starts_with('#') {
                continue;
            }
            if width > u32::from(u16::MAX) {
                return Some((
                    row + 1,
                    format!("indented {width} columns, more than {FOLLOWS} counts (65,535)"),
                ));
            }
            while levels.last().is_some_and(|top| *top > width) {
                levels.pop();
            }
            if width > levels.last().copied().unwrap_or(0) {
                levels.push(width);
            }
            if levels.len() > MAX_INDENTS {
                return Some((
                    row + 1,
                    format!("over {MAX_INDENTS} indented blocks, the most {FOLLOWS} follows"),
                ));
            }
        }
        None
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
        ids()
            .condition
            .and_then(|field| node.child_by_field_id(field.get()))
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

/// The kind ids the hooks compare nodes with, by name (a name may stand for several ids;
/// `Node::kind` would read the name and check it is UTF-8 on every call).
struct Ids {
    /// `string`
    string: Vec<bool>,
    /// a callable's or class's name: `identifier` or `name`
    name: Vec<bool>,
    /// `{{` or `}}` in an f-string
    escape_interpolation: Vec<bool>,
    /// the field `condition` (found by name on every call otherwise)
    condition: Option<std::num::NonZeroU16>,
}

/// Nested indented blocks tree-sitter-python's scanner follows: it keeps its state in
/// tree-sitter's 1,024-byte buffer (`TREE_SITTER_SERIALIZATION_BUFFER_SIZE`), two bytes per
/// level after two bytes of its own (and one per open string), so deeper levels are lost
/// and the parse fails. Its widths are 16-bit, so wider indentation is lost as well.
const MAX_INDENTS: usize = 511;

/// Whose limits [`MAX_INDENTS`] and the 16-bit widths are.
const FOLLOWS: &str = "tree-sitter's Python grammar";

/// A line's indentation width as tree-sitter-python's scanner counts it, and the rest.
fn indentation(line: &str) -> (u32, &str) {
    let mut width = 0u32;
    for (at, byte) in line.bytes().enumerate() {
        match byte {
            b' ' => width = width.saturating_add(1),
            b'\t' => width = width.saturating_add(8),
            b'\r' | b'\x0c' => width = 0,
            _ => return (width, &line[at..]),
        }
    }
    (width, "")
}

fn ids() -> &'static Ids {
    static IDS: std::sync::OnceLock<Ids> = std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        let grammar = Python.grammar();
        let named = |names: &[&str]| -> Vec<bool> {
            (0..grammar.node_kind_count())
                .map(|id| {
                    u16::try_from(id)
                        .ok()
                        .and_then(|id| grammar.node_kind_for_id(id))
                        .is_some_and(|kind| names.contains(&kind))
                })
                .collect()
        };
        Ids {
            string: named(&["string"]),
            name: named(&["identifier", "name"]),
            escape_interpolation: named(&["escape_interpolation"]),
            condition: grammar.field_id_for_name("condition"),
        }
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
    if !has(&ids().string, literal.kind_id()) {
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
        let bytes = text.as_bytes();
        let mut lines = Vec::new();
        let mut start = 0;
        let mut at = 0;
        while let Some(found) = bytes[at..].iter().position(|b| MAY_BREAK[usize::from(*b)]) {
            at += found;
            let width = line_break(&bytes[at..]);
            if width == 0 {
                at += 1;
                continue;
            }
            lines.push((start, at));
            at += width;
            start = at;
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

/// Bytes that may start a line break of `str.splitlines()`: the ASCII separators and the
/// lead bytes of U+0085, U+2028 and U+2029.
const MAY_BREAK: [bool; 256] = {
    let mut table = [false; 256];
    let starts = [b'\n', b'\r', 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0xc2, 0xe2];
    let mut i = 0;
    while i < starts.len() {
        table[starts[i] as usize] = true;
        i += 1;
    }
    table
};

/// The length of the line break `rest` starts with (0: none), as `str.splitlines()`
/// breaks: `\r\n` is one break. The text is UTF-8 and a match starts with an ASCII byte
/// or a lead byte, so it is a whole character: U+0085 is `c2 85`, U+2028 and U+2029 are
/// `e2 80 a8` and `e2 80 a9`.
fn line_break(rest: &[u8]) -> usize {
    match rest {
        [b'\r', b'\n', ..] | [0xc2, 0x85, ..] => 2,
        [b'\n' | b'\r' | 0x0b | 0x0c | 0x1c | 0x1d | 0x1e, ..] => 1,
        [0xe2, 0x80, 0xa8 | 0xa9, ..] => 3,
        _ => 0,
    }
}

/// Python's `str.isspace()`.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{1c}'..='\u{1f}')
}

#[cfg(test)]
mod tests {
    use super::PyLines;

    /// The lines as `str.splitlines()` gives them, read char by char.
    fn by_chars(text: &str) -> Vec<&str> {
        let mut lines = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let Some((at, c)) = rest.char_indices().find(|(_, c)| {
                matches!(
                    c,
                    '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{1c}'
                        ..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}'
                )
            }) else {
                lines.push(rest);
                break;
            };
            lines.push(&rest[..at]);
            let mut next = at + c.len_utf8();
            if c == '\r' && rest[next..].starts_with('\n') {
                next += 1;
            }
            rest = &rest[next..];
        }
        lines
    }

    #[test]
    fn lines_break_where_splitlines_breaks() {
        let text = "a\r\nb\rc\n\u{b}d\u{c}e\u{1c}\u{1d}\u{1e}\u{1f}f\u{85}g\u{2028}h\u{2029}\
                    é\u{2027}ü\u{a0}\u{c2}\r\r\n\n";
        let lines = PyLines::new(text);
        let found: Vec<&str> = (0..lines.lines.len()).map(|row| lines.line(row)).collect();
        assert_eq!(found, by_chars(text));
        assert_eq!(found[..3], ["a", "b", "c"]);
        assert_eq!(PyLines::new("x\ny").lines.len(), 2);
        assert!(PyLines::new("").lines.is_empty());
    }
}
