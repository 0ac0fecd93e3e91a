//! Go, as gocyclo measures it.
//!
//! Source of the CC definition: gocyclo 0.6.0 (github.com/fzipp/gocyclo), `complexity.go`
//! and `analyze.go`. Checked function by function against it on gin, cobra and
//! gorilla/mux (`benchmarks/lang_fidelity.py`; results in `docs/languages.md`).
//!
//! * **CC** = 1 + one for each
//!
//!   | go/ast node (gocyclo) | tree-sitter node |
//!   | --- | --- |
//!   | `IfStmt` (so `else if` counts) | `if_statement` |
//!   | `ForStmt`, `RangeStmt` | `for_statement` (every form) |
//!   | `CaseClause` with a list (not `default`) | `expression_case`, `type_case` |
//!   | `CommClause` with a communication (not `default`) | `communication_case` |
//!   | `BinaryExpr` with `&&` or `\|\|` | `binary_expression` with those operators |
//!
//!   `switch`, `select`, `default`, `goto`, `defer`, `go` and `fallthrough` add nothing.
//!   Function literals are part of the function they appear in: their decisions count there.
//! * **Callables**: function and method declarations, and function literals assigned by a
//!   package-level `var` (gocyclo's second kind of function, named after the first name of
//!   the `var` spec). Methods are named `Type.Method` (receiver type without `*` or type
//!   parameters). Other function literals are not callables.
//! * **SLOC**: lines where a token other than a comment starts.
//! * **Clone candidates**: function and method declarations, function literals, and `if`,
//!   `for`, `switch`, type `switch` and `select` statements; identifiers (names, fields,
//!   types, packages, labels) become `$VARn` by first appearance, strings `$STR`, numbers
//!   `$NUM`, runes `$CHAR`, `true`/`false` `$BOOL`, `nil` `$NIL`.

use super::{Discovery, Language};
use ast_grep_language::SupportLang;
use tree_sitter::{Language as Grammar, Node};

pub struct Go;

fn text(node: Node<'_>, source: &[u8]) -> Option<String> {
    Some(String::from_utf8_lossy(source.get(node.byte_range())?).into_owned())
}

/// The receiver's type name: `T` for `(t *T)`, `(t T[K])` and `(T)`.
fn receiver_type(method: Node<'_>, source: &[u8]) -> Option<String> {
    let receiver = method.child_by_field_name("receiver")?;
    let mut cursor = receiver.walk();
    let declaration = receiver
        .named_children(&mut cursor)
        .find(|child| child.kind() == "parameter_declaration")?;
    let mut ty = declaration.child_by_field_name("type")?;
    loop {
        ty = match ty.kind() {
            "pointer_type" | "parenthesized_type" => ty.named_child(0)?,
            "generic_type" => ty.child_by_field_name("type")?,
            _ => return text(ty, source),
        };
    }
}

/// `var name = func() {...}` at package level: the first name of the `var` spec.
fn package_var_name(literal: Node<'_>, source: &[u8]) -> Option<String> {
    let list = literal.parent().filter(|p| p.kind() == "expression_list")?;
    let spec = list.parent().filter(|p| p.kind() == "var_spec")?;
    if spec.child_by_field_name("value")?.id() != list.id() {
        return None;
    }
    let mut up = spec.parent();
    while let Some(node) = up {
        match node.kind() {
            "var_declaration" | "var_spec_list" => up = node.parent(),
            "source_file" => return text(spec.child_by_field_name("name")?, source),
            _ => return None,
        }
    }
    None
}

impl Language for Go {
    fn name(&self) -> &'static str {
        "go"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["go"]
    }
    fn ast_grep(&self) -> SupportLang {
        SupportLang::Go
    }
    fn grammar(&self) -> Grammar {
        tree_sitter_go::LANGUAGE.into()
    }

    fn measures_broken_files(&self) -> bool {
        true
    }

    fn decision_kinds(&self) -> &'static [&'static str] {
        &[
            "if_statement",
            "for_statement",
            "expression_case",
            "type_case",
            "communication_case",
        ]
    }
    fn decision_hook_kinds(&self) -> &'static [&'static str] {
        &["binary_expression"]
    }
    fn extra_decisions(&self, node: Node<'_>, _source: &[u8]) -> u32 {
        let operator = node.child_by_field_name("operator").map(|o| o.kind());
        u32::from(matches!(operator, Some("&&" | "||")))
    }

    fn callable_kinds(&self) -> &'static [&'static str] {
        &["function_declaration", "method_declaration", "func_literal"]
    }
    fn discovery(&self) -> Discovery {
        Discovery::Anywhere
    }
    fn scope_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    fn name_of(&self, node: Node<'_>, source: &[u8]) -> Option<String> {
        match node.kind() {
            "method_declaration" => {
                let name = text(node.child_by_field_name("name")?, source)?;
                Some(match receiver_type(node, source) {
                    Some(receiver) => format!("{receiver}.{name}"),
                    None => name,
                })
            }
            "func_literal" => package_var_name(node, source),
            _ => text(node.child_by_field_name("name")?, source),
        }
    }

    fn non_code_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }
    fn comment_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }
    fn directive_openers(&self) -> &'static [u8] {
        b"/*"
    }

    fn clone_kinds(&self) -> &'static [&'static str] {
        &[
            "function_declaration",
            "method_declaration",
            "func_literal",
            "if_statement",
            "for_statement",
            "expression_switch_statement",
            "type_switch_statement",
            "select_statement",
        ]
    }
    fn identifier_kinds(&self) -> &'static [&'static str] {
        &[
            "identifier",
            "field_identifier",
            "type_identifier",
            "package_identifier",
            "label_name",
        ]
    }
    fn literal_tokens(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("interpreted_string_literal", "$STR"),
            ("raw_string_literal", "$STR"),
            ("int_literal", "$NUM"),
            ("float_literal", "$NUM"),
            ("imaginary_literal", "$NUM"),
            ("rune_literal", "$CHAR"),
            ("true", "$BOOL"),
            ("false", "$BOOL"),
            ("nil", "$NIL"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::Go;
    use crate::lang::callables_of;

    #[test]
    fn closures_count_in_their_function_and_package_vars_are_callables() {
        let source = "package p\nvar h = func() bool { return a && b }\n\
                      func (s *S[T]) m(x int) { go func() { if x > 0 {} }(); switch x { case 1, 2: default: } }\n";
        let found = callables_of(&Go, source);
        assert_eq!(found, vec![("h".to_owned(), 2), ("S.m".to_owned(), 3)]);
    }
}
