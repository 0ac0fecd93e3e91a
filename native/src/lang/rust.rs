//! Rust, as Mozilla's rust-code-analysis measures it.
//!
//! Source of the CC definition: rust-code-analysis 0.0.25, `src/metrics/cyclomatic.rs`
//! (`impl Cyclomatic for RustCode`) and its function spaces (`src/checker.rs`); the tool
//! parses with tree-sitter-rust 0.20.3, this core with 0.24.0. Checked function by function
//! against `rust-code-analysis-cli` on regex-syntax, semver, serde_json and anyhow
//! (`benchmarks/lang_fidelity.py`; results in `docs/languages.md`).
//!
//! * **CC** = 1 per function or closure (each on its own: a closure or nested `fn` is not
//!   part of the function around it), + 1 for each
//!
//!   | rust-code-analysis token or node | tree-sitter node |
//!   | --- | --- |
//!   | `if` (so `else if`, `if let` and match-arm guards count) | the `if` keyword |
//!   | `for` (loops, and higher-ranked `for<'a>` bounds in a signature) | the `for` keyword |
//!   | `while` (and `while let`) | the `while` keyword |
//!   | `loop` | the `loop` keyword |
//!   | `MatchArm` (every arm, `_` included) | `match_arm` |
//!   | `?` (the try operator, and `?Sized` bounds) | the `?` token |
//!   | `&&`, `\|\|` | those tokens |
//!
//!   The keywords count inside macro arguments too, but `?`, `&&` and `||` do not: the
//!   tool's grammar keeps keywords in a macro's token tree and drops its punctuation, so
//!   `assert!(a && b)` adds nothing while `ensure!(while x {} ...)` adds one.
//! * **Callables**: `fn` items with a body (free functions, methods, nested functions) and
//!   closures. Qualified names join the enclosing `impl` (its type as written), `trait`,
//!   `mod` and functions; a closure is named after the `let` pattern it initialises, else
//!   `<closure>`.
//! * **SLOC**: lines where a token other than a comment starts (doc comments are comments;
//!   this grammar gives comments child tokens, so a comment is read as one opaque token).
//! * **Clone candidates**: functions, closures, and `if`, `match`, `for`, `while` and
//!   `loop` expressions; identifiers (names, fields, types) become `$VARn` by first
//!   appearance, strings `$STR`, characters `$CHAR`, numbers `$NUM`, `true`/`false` `$BOOL`.

use super::{Discovery, Language, LineSet, SlocStep};
use ast_grep_language::SupportLang;
use tree_sitter::{Language as Grammar, Node};

pub struct Rust;

fn text(node: Node<'_>, source: &[u8]) -> Option<String> {
    Some(String::from_utf8_lossy(source.get(node.byte_range())?).into_owned())
}

fn in_macro_arguments(node: Node<'_>) -> bool {
    let mut up = node.parent();
    while let Some(parent) = up {
        if parent.kind() == "token_tree" {
            return true;
        }
        up = parent.parent();
    }
    false
}

impl Language for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["rs"]
    }
    fn ast_grep(&self) -> SupportLang {
        SupportLang::Rust
    }
    fn grammar(&self) -> Grammar {
        tree_sitter_rust::LANGUAGE.into()
    }

    fn measures_broken_files(&self) -> bool {
        true
    }

    fn decision_kinds(&self) -> &'static [&'static str] {
        &["if", "for", "while", "loop", "match_arm"]
    }
    fn decision_hook_kinds(&self) -> &'static [&'static str] {
        &["?", "&&", "||"]
    }
    fn extra_decisions(&self, node: Node<'_>, _source: &[u8]) -> u32 {
        u32::from(!node.is_named() && !in_macro_arguments(node))
    }

    fn boundary_kinds(&self) -> &'static [&'static str] {
        // An `impl` or `trait` is a space of its own in the tool: the `for` of
        // `impl Trait for Type` inside a function is not the function's.
        &[
            "function_item",
            "closure_expression",
            "impl_item",
            "trait_item",
            "mod_item",
        ]
    }
    fn callable_kinds(&self) -> &'static [&'static str] {
        &["function_item", "closure_expression"]
    }
    fn discovery(&self) -> Discovery {
        Discovery::Anywhere
    }
    fn scope_kinds(&self) -> &'static [&'static str] {
        &[
            "impl_item",
            "trait_item",
            "mod_item",
            "function_item",
            "closure_expression",
        ]
    }
    fn name_of(&self, node: Node<'_>, source: &[u8]) -> Option<String> {
        match node.kind() {
            "impl_item" => text(node.child_by_field_name("type")?, source),
            "closure_expression" => Some(
                node.parent()
                    .filter(|p| p.kind() == "let_declaration")
                    .and_then(|p| text(p.child_by_field_name("pattern")?, source))
                    .unwrap_or_else(|| "<closure>".to_owned()),
            ),
            _ => text(node.child_by_field_name("name")?, source),
        }
    }

    fn non_code_kinds(&self) -> &'static [&'static str] {
        &["line_comment", "block_comment"]
    }
    fn comment_kinds(&self) -> &'static [&'static str] {
        &["line_comment", "block_comment"]
    }
    /// Comments have child tokens in this grammar (`//`, doc markers): none is code.
    fn sloc_kinds(&self) -> &'static [&'static str] {
        &["line_comment", "block_comment"]
    }
    fn sloc_node(&self, _node: Node<'_>, _source: &[u8], _lines: &mut LineSet) -> SlocStep {
        SlocStep::Opaque
    }
    fn directive_openers(&self) -> &'static [u8] {
        b"/*"
    }

    fn clone_kinds(&self) -> &'static [&'static str] {
        &[
            "function_item",
            "closure_expression",
            "if_expression",
            "match_expression",
            "for_expression",
            "while_expression",
            "loop_expression",
        ]
    }
    fn identifier_kinds(&self) -> &'static [&'static str] {
        &[
            "identifier",
            "field_identifier",
            "type_identifier",
            "shorthand_field_identifier",
        ]
    }
    fn literal_tokens(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("string_literal", "$STR"),
            ("raw_string_literal", "$STR"),
            ("char_literal", "$CHAR"),
            ("integer_literal", "$NUM"),
            ("float_literal", "$NUM"),
            ("boolean_literal", "$BOOL"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::Rust;
    use crate::lang::callables_of;

    #[test]
    fn macro_punctuation_is_not_counted_but_keywords_are() {
        let source = "fn f(a: bool, b: bool) -> Option<u8> { assert!(a && b); \
                      tri!(if a { 1 } else { 2 }); let c = |x: u8| x?; match a { true => None, _ => Some(1) } }";
        let found = callables_of(&Rust, source);
        assert_eq!(found, vec![("f".to_owned(), 4), ("f.c".to_owned(), 2)]);
    }

    #[test]
    fn an_impl_for_inside_a_function_is_not_its_decision() {
        let source = "fn outer() { struct V; impl Iterator for V { type Item = u8; \
                      fn next(&mut self) -> Option<u8> { None } } }";
        let found = callables_of(&Rust, source);
        let expected = vec![("outer".to_owned(), 1), ("outer.V.next".to_owned(), 1)];
        assert_eq!(found, expected);
    }
}
