//! The shape a node must have for a rule's `ast`-strictness patterns to match it
//! ([`Shape`]): its kind, how many named children it has and, by position among them, their
//! kinds and shapes. Tested before ast-grep matches the rule, it costs a few child lookups
//! where a failing match walks the node's children with a cursor for each alternative.
//!
//! Why counting named children is exact under `ast` strictness (ast-grep's
//! `match_tree`): there, an unnamed candidate child is skipped and a named one never is
//! (comments included), and every pattern child that is a node with children, a named leaf
//! or a named metavariable consumes exactly one named candidate child, in order, while
//! unnamed leaves of the pattern consume none. So when no pattern child is an ellipsis, an
//! unnamed metavariable (it may bind a named node or none), an error node (it matches any
//! kind) or an unnamed node with children, a match pairs the k-th such pattern child with
//! the k-th named child of the node. Anything else leaves the node's children unconstrained.

use crate::lang::Language;
use crate::pattern::whole_pattern;
use ast_grep_core::matcher::PatternNode;
use ast_grep_core::meta_var::MetaVariable;
use serde_json::Value;

/// A necessary condition on a node for a rule to match it: all of its parts hold, a part
/// being a pattern's form or a choice among the forms of a rule's `any` alternatives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shape(Vec<Vec<Form>>);

/// What a pattern node asks of the node paired with it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Form {
    kind: u16,
    /// how many named children the node has, and the forms of some of them by position
    /// among the named children (None: the children are not constrained)
    children: Option<(u32, Vec<(u32, Form)>)>,
}

impl Shape {
    /// The shape a rule (as JSON) asks of the nodes it matches: from its own `pattern`, its
    /// `any` alternatives when each has one, and the rules of its `all`.
    pub(crate) fn of_rule(lang: &'static dyn Language, rule: &Value) -> Self {
        let mut parts = Vec::new();
        Self::read(lang, rule, &mut parts);
        Self(parts)
    }

    fn read(lang: &'static dyn Language, rule: &Value, parts: &mut Vec<Vec<Form>>) {
        if let Some(form) = rule.get("pattern").and_then(|p| Form::of_pattern(lang, p)) {
            parts.push(vec![form]);
        }
        if let Some(alternatives) = rule.get("any").and_then(Value::as_array) {
            // each alternative offers a form it requires (None: one requires none)
            let choice: Option<Vec<Form>> = alternatives
                .iter()
                .map(|alternative| {
                    let mut own = Vec::new();
                    Self::read(lang, alternative, &mut own);
                    own.into_iter().find(|part| part.len() == 1)?.pop()
                })
                .collect();
            parts.extend(choice.filter(|forms| !forms.is_empty()));
        }
        for item in rule
            .get("all")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            Self::read(lang, item, parts);
        }
    }

    /// Whether a node may match: every part has a form the node has.
    pub(crate) fn holds(&self, node: tree_sitter::Node<'_>) -> bool {
        self.0
            .iter()
            .all(|choice| choice.iter().any(|form| form.fits(node)))
    }
}

impl Form {
    /// The form of a plain pattern (as JSON) under `ast` strictness.
    fn of_pattern(lang: &'static dyn Language, pattern: &Value) -> Option<Self> {
        let (pattern, true) = whole_pattern(lang.ast_grep(), pattern)? else {
            return None;
        };
        match &pattern.node {
            PatternNode::Internal { kind_id, children } if !is_error(*kind_id) => {
                Some(Self::of_internal(lang, *kind_id, children))
            }
            _ => None,
        }
    }

    /// The form of a pattern node with children (of a kind other than the error kind).
    fn of_internal(lang: &'static dyn Language, kind: u16, children: &[PatternNode]) -> Self {
        let mut named = 0u32;
        let mut forms = Vec::new();
        let mut counted = true;
        for child in children {
            // the child's form, None when it leaves the node's children unconstrained
            let form = match child {
                PatternNode::MetaVar { meta_var } => match meta_var {
                    MetaVariable::Capture(_, true) | MetaVariable::Dropped(true) => {
                        named += 1;
                        continue;
                    }
                    _ => None,
                },
                PatternNode::Terminal { kind_id, .. } if is_error(*kind_id) => None,
                PatternNode::Terminal {
                    kind_id, is_named, ..
                } => {
                    if !is_named {
                        continue;
                    }
                    Some(Self {
                        kind: *kind_id,
                        children: None,
                    })
                }
                PatternNode::Internal { kind_id, children } => {
                    let named_kind = lang.grammar().node_kind_is_named(*kind_id);
                    (!is_error(*kind_id) && named_kind)
                        .then(|| Self::of_internal(lang, *kind_id, children))
                }
            };
            match form {
                Some(form) => {
                    forms.push((named, form));
                    named += 1;
                }
                None => counted = false,
            }
        }
        Self {
            kind,
            children: counted.then_some((named, forms)),
        }
    }

    fn fits(&self, node: tree_sitter::Node<'_>) -> bool {
        if node.kind_id() != self.kind {
            return false;
        }
        let Some((named, forms)) = &self.children else {
            return true;
        };
        usize::try_from(*named).ok() == Some(node.named_child_count())
            && forms
                .iter()
                .all(|(at, form)| node.named_child(*at).is_some_and(|child| form.fits(child)))
    }
}

/// Whether a kind is tree-sitter's error kind, which a pattern node matches any node with.
fn is_error(kind: u16) -> bool {
    ast_grep_core::matcher::kind_utils::is_error_kind(kind)
}

#[cfg(test)]
mod tests {
    use super::Shape;
    use crate::lang::by_name;
    use crate::needs::tests::{rule, same_hits};
    use ast_grep_core::tree_sitter::StrDoc;
    use ast_grep_core::AstGrep;
    use serde_json::json;

    /// A rule whose pattern is `context` under `ast` strictness.
    fn ast(context: &str) -> serde_json::Value {
        json!({"pattern": {"context": context, "strictness": "ast"}})
    }

    /// Whether the shape of `rule` holds at the first node of `kind` in `source`.
    fn holds_at(rule: &serde_json::Value, source: &str, kind: &str) -> bool {
        let lang = by_name("python").expect("python");
        let tree = AstGrep::doc(StrDoc::try_new(source, lang.ast_grep()).expect("parses"));
        let node = tree
            .root()
            .dfs()
            .find(|n| n.kind() == kind)
            .expect("a node of that kind");
        Shape::of_rule(lang, rule).holds(node.get_inner_node())
    }

    /// Whether the shape of `rule` holds at the first function definition in `source`.
    fn holds_def(rule: &serde_json::Value, source: &str) -> bool {
        holds_at(rule, source, "function_definition")
    }

    const WRAPPER: &str = "def $N($A):\n    return $F($A)";

    #[test]
    fn named_children_are_counted_and_paired_by_position() {
        let rule = ast(WRAPPER);
        assert!(holds_def(&rule, "def f(x):\n    return g(x)\n"));
        assert!(holds_def(&rule, "def f(x):\n    return g(y)\n"));
        assert!(holds_def(&rule, "def f(x):\n    return g.h(x)\n"));
        assert!(!holds_def(&rule, "def f(x):\n    y = 1\n    return g(x)\n"));
        assert!(!holds_def(&rule, "def f(x, y):\n    return g(x)\n"));
        assert!(!holds_def(&rule, "def f(x) -> int:\n    return g(x)\n"));
        assert!(!holds_def(&rule, "def f(x):\n    return x\n"));
        assert!(!holds_def(&rule, "def f(x):\n    # why\n    return g(x)\n"));
    }

    #[test]
    fn ellipses_and_other_strictnesses_leave_the_children_open() {
        let open = ast("def $N($$$A):\n    return $F($$$A)");
        assert!(holds_def(&open, "def f(x, y):\n    return g(x)\n"));
        assert!(!holds_def(&open, "def f(x, y) -> int:\n    return g(x)\n"));
        assert!(
            !holds_at(&open, "class C:\n    pass\n", "class_definition"),
            "kind"
        );
        let smart = json!({"pattern": {"context": WRAPPER, "strictness": "smart"}});
        assert_eq!(
            Shape::of_rule(by_name("python").expect("python"), &smart),
            Shape::default()
        );
        assert!(holds_def(&smart, "def f(x, y):\n    y = 1\n"));
    }

    #[test]
    fn alternatives_need_one_of_their_forms_and_all_needs_each() {
        let any = json!({"any": [ast(WRAPPER), ast("def $N($A, $B):\n    return $F($A, $B)")]});
        assert!(holds_def(&any, "def f(x, y):\n    return g(x, y)\n"));
        assert!(!holds_def(&any, "def f(x, y, z):\n    return g(x, y, z)\n"));
        let loose = json!({"any": [ast(WRAPPER), {"kind": "function_definition"}]});
        assert!(holds_def(&loose, "def f(x, y, z):\n    pass\n"));
        let all = json!({"all": [ast(WRAPPER), {"not": ast("def $N($A):\n    return $A")}]});
        assert!(!holds_def(&all, "def f(x, y):\n    return g(x, y)\n"));
        assert!(holds_def(&all, "def f(x):\n    return x(x)\n"));
    }

    #[test]
    fn the_shape_keeps_every_hit_of_ast_grep() {
        let texts = [
            rule("wrapper", "  kind: function_definition\n  pattern:\n    context: |\n      def $N($A):\n          return $F($A)\n    strictness: ast\n"),
            rule("count", "  kind: if_statement\n  pattern:\n    context: |\n      if $K in $D:\n          $D[$K] += 1\n      else:\n          $D[$K] = 1\n    strictness: ast\n"),
            rule("same", "  kind: if_statement\n  pattern:\n    context: |\n      if $C:\n          $$$B\n      else:\n          $$$B\n    strictness: ast\n"),
        ];
        let source = "\
def f(x):
    return g(x)

def h(x):  # note
    return g(x)

@d
def k(x):
    return g(x)

def m(x):
    return (
        g(x)  # inside
    )

if k in d:
    d[k] += 1
else:
    d[k] = 1

if k in d:
    # counted
    d[k] += 1
else:
    d[k] = 1

if c:
    a()
    b()
else:
    a()
    b()
";
        assert_eq!(same_hits(&texts, source), 4);
    }
}
