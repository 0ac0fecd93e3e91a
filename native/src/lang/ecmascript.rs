//! JavaScript, TypeScript and TSX, as ESLint's `complexity` rule measures them.
//!
//! Source of the CC definition: ESLint 10.15.0, `lib/rules/complexity.js`, default
//! ("classic") variant; TypeScript is parsed for it by typescript-eslint 8.74.0, whose tree
//! uses the same ESTree node types, so one table serves the three grammars. Checked
//! function by function against that rule on express, lodash, axios, rxjs and TanStack
//! Query (`benchmarks/lang_fidelity.py`; results in `docs/languages.md`).
//!
//! * **CC** = 1 per code path ESLint scores (every function, method, getter, setter and
//!   arrow function, each on its own: a nested function's decisions are not its parent's),
//!   + 1 for each of
//!
//!   | ESLint node | tree-sitter node |
//!   | --- | --- |
//!   | `IfStatement` | `if_statement` (so `else if` counts) |
//!   | `ForStatement`, `ForInStatement`, `ForOfStatement` | `for_statement`, `for_in_statement` |
//!   | `WhileStatement`, `DoWhileStatement` | `while_statement`, `do_statement` |
//!   | `CatchClause` | `catch_clause` |
//!   | `ConditionalExpression` | `ternary_expression` |
//!   | `SwitchCase` with a test (not `default`) | `switch_case` |
//!   | `LogicalExpression` (`&&`, `\|\|`, `??`) | `binary_expression` with those operators |
//!   | logical `AssignmentExpression` (`&&=`, `\|\|=`, `??=`) | `augmented_assignment_expression` with those operators |
//!   | `AssignmentPattern` (default values of parameters and destructuring) | `assignment_pattern`, `object_assignment_pattern`, a TypeScript parameter with a value |
//!   | optional `MemberExpression` / `CallExpression` (`a?.b`, `a?.[i]`, `f?.()`) | each `?.` |
//!
//!   `try`, `finally`, `default:`, `break`, `continue`, `return` and TypeScript type-level
//!   constructs (conditional types, optional properties, `!`) add nothing. Class-field
//!   initialisers and `static { }` blocks are code paths of their own in ESLint: their
//!   decisions go to no callable (and they are not callables here).
//! * **Callables**: function declarations and expressions, generator functions, arrow
//!   functions and methods (including getters, setters and constructors), anywhere in the
//!   file. Overload signatures, abstract and interface methods have no body and are not
//!   callables (ESLint sees no code path there). A callable is named by its own name, or by
//!   what it is assigned to (variable, property key, assignment target, class field);
//!   otherwise `<anonymous>`. Qualified names join enclosing classes, namespaces and
//!   functions with `.`.
//! * **SLOC**: lines where a token other than a comment (or a `#!` line) starts.
//! * **Clone candidates**: functions, methods, arrow functions and `if`, `for`, `while`,
//!   `do`, `switch` and `try` statements; identifiers (names, properties, types, labels)
//!   become `$VARn` by first appearance, strings and template strings `$STR`, numbers
//!   `$NUM`, regular expressions `$REGEX`, `true`/`false` `$BOOL`, `null` `$NULL`.

use super::{Discovery, Language};
use ast_grep_language::SupportLang;
use tree_sitter::{Language as Grammar, Node};

/// One of the three ECMAScript grammars, sharing every definition.
pub struct Ecma {
    name: &'static str,
    extensions: &'static [&'static str],
    reported_as: &'static str,
    extends: &'static [&'static str],
    support: SupportLang,
}

pub static JAVASCRIPT: Ecma = Ecma {
    name: "javascript",
    extensions: &["js", "mjs", "cjs", "jsx"],
    reported_as: "javascript",
    extends: &[],
    support: SupportLang::JavaScript,
};
pub static TYPESCRIPT: Ecma = Ecma {
    name: "typescript",
    extensions: &["ts", "mts", "cts"],
    reported_as: "typescript",
    extends: &["javascript"],
    support: SupportLang::TypeScript,
};
pub static TSX: Ecma = Ecma {
    name: "tsx",
    extensions: &["tsx"],
    reported_as: "typescript",
    extends: &["javascript"],
    support: SupportLang::Tsx,
};

const FUNCTIONS: &[&str] = &[
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "generator_function",
    "arrow_function",
    "method_definition",
];

fn field_text(node: Node<'_>, field: &str, source: &[u8]) -> Option<String> {
    let child = node.child_by_field_name(field)?;
    let text = source.get(child.byte_range())?;
    Some(String::from_utf8_lossy(text).into_owned())
}

fn operator<'t>(node: Node<'t>) -> &'t str {
    node.child_by_field_name("operator")
        .map_or("", |o| o.kind())
}

/// The name a function value is known by: its own, else what it is assigned to.
fn function_name(node: Node<'_>, source: &[u8]) -> String {
    if let Some(name) = field_text(node, "name", source) {
        return name;
    }
    let assigned = node.parent().and_then(|parent| match parent.kind() {
        "variable_declarator" => field_text(parent, "name", source),
        "pair" => field_text(parent, "key", source),
        "assignment_expression" => field_text(parent, "left", source),
        "field_definition" => field_text(parent, "property", source),
        "public_field_definition" => field_text(parent, "name", source),
        _ => None,
    });
    assigned.unwrap_or_else(|| "<anonymous>".to_owned())
}

impl Language for Ecma {
    fn name(&self) -> &'static str {
        self.name
    }
    fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }
    fn reported_as(&self) -> &'static str {
        self.reported_as
    }
    fn extends(&self) -> &'static [&'static str] {
        self.extends
    }
    fn ast_grep(&self) -> SupportLang {
        self.support
    }
    fn grammar(&self) -> Grammar {
        match self.support {
            SupportLang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            SupportLang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            _ => tree_sitter_javascript::LANGUAGE.into(),
        }
    }

    fn measures_broken_files(&self) -> bool {
        true
    }

    fn decision_kinds(&self) -> &'static [&'static str] {
        &[
            "if_statement",
            "for_statement",
            "for_in_statement",
            "while_statement",
            "do_statement",
            "catch_clause",
            "ternary_expression",
            "switch_case",
            "assignment_pattern",
            "object_assignment_pattern",
            "?.",
        ]
    }
    fn decision_hook_kinds(&self) -> &'static [&'static str] {
        &[
            "binary_expression",
            "augmented_assignment_expression",
            "required_parameter",
            "optional_parameter",
            "optional_chain",
        ]
    }
    fn extra_decisions(&self, node: Node<'_>, _source: &[u8]) -> u32 {
        let counts = match node.kind() {
            "binary_expression" => matches!(operator(node), "&&" | "||" | "??"),
            "augmented_assignment_expression" => matches!(operator(node), "&&=" | "||=" | "??="),
            // TypeScript's grammar writes a default value as a field of the parameter.
            "required_parameter" | "optional_parameter" => {
                node.child_by_field_name("value").is_some()
            }
            // JavaScript's grammar makes `?.` a named leaf; TypeScript's wraps the token.
            "optional_chain" => node.child_count() == 0,
            _ => false,
        };
        u32::from(counts)
    }

    fn boundary_kinds(&self) -> &'static [&'static str] {
        &[
            "function_declaration",
            "generator_function_declaration",
            "function_expression",
            "generator_function",
            "arrow_function",
            "method_definition",
            "field_definition",
            "public_field_definition",
            "class_static_block",
        ]
    }
    fn callable_kinds(&self) -> &'static [&'static str] {
        FUNCTIONS
    }
    fn discovery(&self) -> Discovery {
        Discovery::Anywhere
    }
    fn scope_kinds(&self) -> &'static [&'static str] {
        &[
            "class_declaration",
            "abstract_class_declaration",
            "class",
            "internal_module",
            "function_declaration",
            "generator_function_declaration",
            "function_expression",
            "generator_function",
            "arrow_function",
            "method_definition",
        ]
    }
    fn name_of(&self, node: Node<'_>, source: &[u8]) -> Option<String> {
        Some(function_name(node, source))
    }

    fn non_code_kinds(&self) -> &'static [&'static str] {
        &["comment", "html_comment", "hash_bang_line"]
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
            "generator_function_declaration",
            "function_expression",
            "generator_function",
            "arrow_function",
            "method_definition",
            "if_statement",
            "for_statement",
            "for_in_statement",
            "while_statement",
            "do_statement",
            "switch_statement",
            "try_statement",
        ]
    }
    fn identifier_kinds(&self) -> &'static [&'static str] {
        &[
            "identifier",
            "property_identifier",
            "private_property_identifier",
            "shorthand_property_identifier",
            "shorthand_property_identifier_pattern",
            "statement_identifier",
            "type_identifier",
        ]
    }
    fn literal_tokens(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("string", "$STR"),
            ("template_string", "$STR"),
            ("number", "$NUM"),
            ("regex", "$REGEX"),
            ("true", "$BOOL"),
            ("false", "$BOOL"),
            ("null", "$NULL"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::{JAVASCRIPT, TSX, TYPESCRIPT};
    use crate::lang::callables_of;

    fn named(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
        pairs.iter().map(|(n, cc)| ((*n).to_owned(), *cc)).collect()
    }

    #[test]
    fn nested_functions_and_field_initialisers_are_scored_apart() {
        let source = "class K { x = a || b; m(p = 1) { const f = (y) => y ?? 0; return p?.q; } }";
        let expected = named(&[("K.m", 3), ("K.m.f", 2)]);
        assert_eq!(callables_of(&JAVASCRIPT, source), expected);
        assert_eq!(callables_of(&TYPESCRIPT, source), expected);
        assert_eq!(callables_of(&TSX, source), expected);
    }

    #[test]
    fn typescript_defaults_and_optional_calls_count() {
        let source = "function f(a: number = 1, g?: () => void) { g?.(); return a > 0 ? 1 : 0; }";
        assert_eq!(callables_of(&TYPESCRIPT, source), named(&[("f", 4)]));
    }

    #[test]
    fn a_broken_file_is_still_measured() {
        let source = "function ok(a) { return a && 1; }\nfunction broken( {\n";
        assert_eq!(callables_of(&JAVASCRIPT, source)[0], ("ok".to_owned(), 2));
    }
}
