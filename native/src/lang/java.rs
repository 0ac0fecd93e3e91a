//! Java, as PMD measures it.
//!
//! Source of the CC definition: PMD 7.9.0, the CYCLO metric of rule
//! `category/java/design.xml/CyclomaticComplexity` with its default options
//! (`net.sourceforge.pmd.lang.java.metrics.internal.CycloVisitor`). Checked method by
//! method against that rule on commons-lang3 and gson (`benchmarks/lang_fidelity.py`;
//! results in `docs/languages.md`).
//!
//! * **CC** = 1 per method or constructor, + for each
//!
//!   | PMD (CycloVisitor) | tree-sitter node | adds |
//!   | --- | --- | --- |
//!   | `if`, `while`, `do`, `for (;;)` | `if_statement`, `while_statement`, `do_statement`, `for_statement` | 1 + the boolean paths of its condition |
//!   | `?:` | `ternary_expression` | 1 + the boolean paths of its condition |
//!   | for-each | `enhanced_for_statement` | 1 |
//!   | `catch` | `catch_clause` | 1 |
//!   | `throw` | `throw_statement` | 1 |
//!   | `switch` statement or expression | `switch_expression` | the boolean paths of the tested expression + one per expression in each non-`default` label (`case 1, 2 ->` adds 2; a type pattern such as `case Integer i` adds 0; its `when` guard adds nothing) |
//!
//!   The *boolean paths* of a condition (PMD's `booleanExpressionComplexity`): when the
//!   condition, parentheses aside, is a `?:`, the paths of its three operands + 2;
//!   otherwise the number of `&&` and `||` operators in it. `&&`/`||` elsewhere (in an
//!   assignment, a `return`, an argument outside a condition) add nothing; neither do
//!   `assert`, `break`, `continue`, `else`, `finally` and `default`.
//! * **Boundaries** (PMD's find boundaries): a lambda, an anonymous class body and a local
//!   class are not part of the method around them; nothing inside them counts there.
//! * **Callables**: methods (with or without a body: abstract, interface and annotation
//!   methods count 1, as PMD reports them), constructors, compact record constructors and
//!   lambdas. Qualified names join the enclosing types (an anonymous class is
//!   `<anonymous>`) and callables; a lambda is named after the variable it initialises,
//!   else `<lambda>`. A callable starts on its first token after its annotations (the
//!   line PMD reports it on).
//! * **SLOC**: lines where a token other than a comment starts.
//! * **Clone candidates**: methods, constructors, lambdas, and `if`, `for`, for-each,
//!   `while`, `do`, `switch` and `try` statements; identifiers and type names become
//!   `$VARn` by first appearance, strings and text blocks `$STR`, numbers `$NUM`, characters
//!   `$CHAR`, `true`/`false` `$BOOL`, `null` `$NULL`.

use super::{Discovery, Language};
use ast_grep_language::SupportLang;
use tree_sitter::{Language as Grammar, Node};

pub struct Java;

/// Where PMD's traversal of a condition stops: lambdas and class bodies.
fn is_boundary(kind: &str) -> bool {
    matches!(
        kind,
        "lambda_expression"
            | "class_body"
            | "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
    )
}

fn strip_parentheses(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

fn is_conditional_operator(node: Node<'_>) -> bool {
    node.kind() == "binary_expression"
        && matches!(
            node.child_by_field_name("operator").map(|o| o.kind()),
            Some("&&" | "||")
        )
}

/// `&&` and `||` operators in `node` and below, not crossing a boundary (iteratively).
fn conditional_operators(node: Node<'_>) -> u32 {
    let mut count = 0;
    let mut pending = vec![node];
    while let Some(current) = pending.pop() {
        count += u32::from(is_conditional_operator(current));
        let mut cursor = current.walk();
        pending.extend(
            current
                .children(&mut cursor)
                .filter(|child| !is_boundary(child.kind())),
        );
    }
    count
}

/// PMD's `booleanExpressionComplexity` of an expression.
fn boolean_paths(expression: Option<Node<'_>>) -> u32 {
    let Some(expression) = expression.map(strip_parentheses) else {
        return 0;
    };
    if expression.kind() == "ternary_expression" {
        return boolean_paths(expression.child_by_field_name("condition"))
            + boolean_paths(expression.child_by_field_name("consequence"))
            + boolean_paths(expression.child_by_field_name("alternative"))
            + 2;
    }
    conditional_operators(expression)
}

/// One per expression of every non-`default` label of a switch.
fn switch_alternatives(switch: Node<'_>) -> u32 {
    let Some(block) = switch.child_by_field_name("body") else {
        return 0;
    };
    let mut total = 0;
    let mut branches = block.walk();
    for branch in block.named_children(&mut branches) {
        let mut labels = branch.walk();
        for label in branch
            .named_children(&mut labels)
            .filter(|child| child.kind() == "switch_label")
        {
            total += label_alternatives(label);
        }
    }
    total
}

fn label_alternatives(label: Node<'_>) -> u32 {
    let mut cursor = label.walk();
    if label
        .children(&mut cursor)
        .any(|child| child.kind() == "default")
    {
        return 0;
    }
    let mut cursor = label.walk();
    let expressions = label.named_children(&mut cursor).filter(|child| {
        !matches!(
            child.kind(),
            "pattern" | "guard" | "line_comment" | "block_comment"
        )
    });
    u32::try_from(expressions.count()).unwrap_or(u32::MAX)
}

fn text(node: Node<'_>, source: &[u8]) -> Option<String> {
    Some(String::from_utf8_lossy(source.get(node.byte_range())?).into_owned())
}

impl Language for Java {
    fn name(&self) -> &'static str {
        "java"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["java"]
    }
    fn ast_grep(&self) -> SupportLang {
        SupportLang::Java
    }
    fn grammar(&self) -> Grammar {
        tree_sitter_java::LANGUAGE.into()
    }

    fn measures_broken_files(&self) -> bool {
        true
    }

    fn decision_kinds(&self) -> &'static [&'static str] {
        &["enhanced_for_statement", "catch_clause", "throw_statement"]
    }
    fn decision_hook_kinds(&self) -> &'static [&'static str] {
        &[
            "if_statement",
            "while_statement",
            "do_statement",
            "for_statement",
            "ternary_expression",
            "switch_expression",
            "switch_statement",
        ]
    }
    fn extra_decisions(&self, node: Node<'_>, _source: &[u8]) -> u32 {
        let condition = boolean_paths(node.child_by_field_name("condition"));
        match node.kind() {
            "switch_expression" | "switch_statement" => condition + switch_alternatives(node),
            _ => 1 + condition,
        }
    }

    fn boundary_kinds(&self) -> &'static [&'static str] {
        &[
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
            "annotation_type_element_declaration",
            "lambda_expression",
            "class_body",
        ]
    }
    fn callable_kinds(&self) -> &'static [&'static str] {
        &[
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
            "annotation_type_element_declaration",
            "lambda_expression",
        ]
    }
    /// PMD puts a method on its first token after its annotations.
    fn callable_start(&self, node: Node<'_>) -> usize {
        let mut cursor = node.walk();
        let first = node
            .children(&mut cursor)
            .find_map(|child| match child.kind() {
                "modifiers" => {
                    let mut inner = child.walk();
                    let keyword = child.children(&mut inner).find(|m| {
                        !matches!(
                            m.kind(),
                            "marker_annotation" | "annotation" | "line_comment" | "block_comment"
                        )
                    });
                    keyword
                }
                "line_comment" | "block_comment" => None,
                _ => Some(child),
            });
        first.unwrap_or(node).start_position().row + 1
    }
    fn discovery(&self) -> Discovery {
        Discovery::Anywhere
    }
    fn scope_kinds(&self) -> &'static [&'static str] {
        &[
            "class_declaration",
            "interface_declaration",
            "enum_declaration",
            "record_declaration",
            "annotation_type_declaration",
            "class_body",
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
            "lambda_expression",
        ]
    }
    fn name_of(&self, node: Node<'_>, source: &[u8]) -> Option<String> {
        match node.kind() {
            "class_body" => {
                let parent = node.parent()?;
                matches!(
                    parent.kind(),
                    "object_creation_expression" | "enum_constant"
                )
                .then(|| "<anonymous>".to_owned())
            }
            "lambda_expression" => Some(
                node.parent()
                    .filter(|p| p.kind() == "variable_declarator")
                    .and_then(|p| text(p.child_by_field_name("name")?, source))
                    .unwrap_or_else(|| "<lambda>".to_owned()),
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
    fn directive_openers(&self) -> &'static [u8] {
        b"/*"
    }

    fn clone_kinds(&self) -> &'static [&'static str] {
        &[
            "method_declaration",
            "constructor_declaration",
            "lambda_expression",
            "if_statement",
            "for_statement",
            "enhanced_for_statement",
            "while_statement",
            "do_statement",
            "switch_expression",
            "try_statement",
            "try_with_resources_statement",
        ]
    }
    fn identifier_kinds(&self) -> &'static [&'static str] {
        &["identifier", "type_identifier"]
    }
    fn literal_tokens(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("string_literal", "$STR"),
            ("text_block", "$STR"),
            ("decimal_integer_literal", "$NUM"),
            ("hex_integer_literal", "$NUM"),
            ("octal_integer_literal", "$NUM"),
            ("binary_integer_literal", "$NUM"),
            ("decimal_floating_point_literal", "$NUM"),
            ("hex_floating_point_literal", "$NUM"),
            ("character_literal", "$CHAR"),
            ("true", "$BOOL"),
            ("false", "$BOOL"),
            ("null_literal", "$NULL"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::Java;
    use crate::lang::callables_of;

    #[test]
    fn boolean_paths_count_only_in_conditions() {
        let source = "class A { int f(boolean a, boolean b) { boolean c = a && b; \
                      if (a && b || c) { throw new E(); } return c ? 1 : 0; } }";
        assert_eq!(callables_of(&Java, source), vec![("A.f".to_owned(), 6)]);
    }

    #[test]
    fn lambdas_are_boundaries_and_labels_count_their_expressions() {
        let source = "class A { void g(int k) { Runnable r = () -> { if (k > 0) {} }; \
                      switch (k) { case 1, 2 -> {} default -> {} } } abstract void h(); }";
        let found = callables_of(&Java, source);
        let expected = [("A.g", 3), ("A.g.r", 2), ("A.h", 1)];
        let expected: Vec<_> = expected
            .iter()
            .map(|(n, c)| ((*n).to_owned(), *c))
            .collect();
        assert_eq!(found, expected);
    }
}
