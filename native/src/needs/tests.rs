use super::around::Among;
use super::clauses::{Needs, Position};
use super::Twins;
use crate::analyze::Analyzer;
use crate::lang::by_name;
use crate::record::Outcome;
use crate::rules::RulePack;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;

pub(crate) fn rule(id: &str, body: &str) -> String {
    format!("id: {id}\nlanguage: python\nrule:\n{body}")
}

/// The surroundings of every node of a tree, each node entered in pre-order, or with
/// the leaves of no bit passed (`pass_leaves`): the places of the nodes entered.
fn surroundings_of(
    root: tree_sitter::Node<'_>,
    pass_leaves: bool,
) -> (super::Surroundings, Vec<(usize, super::Place)>) {
    let mut surroundings = super::Surroundings::default();
    let mut places = Vec::new();
    let mut stack = vec![(root, 0)];
    let mut order = 0;
    while let Some((node, depth)) = stack.pop() {
        // a few kinds get bits (identifiers and punctuation none), as a pack's needs do
        let kind = node.kind_id();
        let mask = if node.is_named() && node.kind() != "identifier" {
            1 << (kind % 9)
        } else {
            0
        };
        let bit = super::Bit {
            mask,
            named: node.is_named(),
        };
        if pass_leaves && node.child_count() == 0 && bit.is_unnamed_by_rules() {
            surroundings.pass(bit, depth);
        } else {
            places.push((order, surroundings.enter(bit, depth)));
        }
        order += 1;
        let mut cursor = node.walk();
        let children: Vec<_> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    surroundings.finish();
    (surroundings, places)
}

#[test]
fn leaves_passed_leave_every_other_nodes_surroundings_as_they_were() {
    let lang = by_name("python").expect("python");
    let text = "class A(B):\n    x: int = 1\n    def f(self, a, *b, c=2):\n        \
                if a and not b:\n            return [i for i in b if i]\n        \
                raise E(a, 'x')\n\n@d\ndef g():\n    pass\n";
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang.grammar()).expect("grammar loads");
    let tree = parser.parse(text, None).expect("parses");
    let (all, every) = surroundings_of(tree.root_node(), false);
    let (some, kept) = surroundings_of(tree.root_node(), true);
    assert!(
        kept.len() < every.len() / 2,
        "{} of {}",
        kept.len(),
        every.len()
    );
    let mut every = every.into_iter();
    for (order, place) in kept {
        let (_, same) = every.find(|(o, _)| *o == order).expect("entered in both");
        let (a, b) = (all.around(same), some.around(place));
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "node {order}");
    }
}

/// The places each rule of `texts` needs kinds at, and the position it needs.
fn needs(texts: &[String]) -> Vec<(Vec<Among>, Option<Position>)> {
    let lang = by_name("python").expect("python");
    let pack = RulePack::compile(lang, texts).expect("compiles");
    let (needs, _) = Needs::of_pack(lang, pack.configs());
    needs
        .into_iter()
        .map(|n| (n.masks.iter().map(|(a, _)| *a).collect(), n.position))
        .collect()
}

/// The hits of the prefiltered scan equal ast-grep's own scan's, and there are some.
pub(crate) fn same_hits(texts: &[String], source: &str) -> usize {
    let lang = by_name("python").expect("python");
    let pack = RulePack::compile(lang, texts).expect("compiles");
    let analyzer = Analyzer::new(lang, Some(&pack), Default::default());
    let Outcome::Measured(record) = analyzer.text(source) else {
        panic!("not measured");
    };
    let root = AstGrep::doc(StrDoc::try_new(source, lang.ast_grep()).expect("parses"));
    let expected = pack.scanner().hits(&root);
    let found: Vec<_> = record.hits.iter().map(|h| (h.rule, h.start)).collect();
    let wanted: Vec<_> = expected.iter().map(|h| (h.rule, h.start)).collect();
    assert_eq!(found, wanted);
    found.len()
}

const SOURCE: &str = "\
def f(x):
    y = 1
    if x:
        raise E
    if x:
        raise F
    else:
        y = 2
    g(x)
    return y

def h():
    z = 0
    return z
";

#[test]
fn nested_relations_need_what_the_related_nodes_need() {
    let texts = [
        rule("guard", "  kind: if_statement\n  has:\n    field: consequence\n    has: {kind: raise_statement}\n"),
        rule("in-def", "  kind: return_statement\n  inside:\n    kind: block\n    inside: {kind: function_definition}\n"),
        rule("before-else", "  kind: expression_statement\n  precedes:\n    kind: if_statement\n    has: {kind: else_clause}\n"),
        rule("then-return", "  kind: expression_statement\n  precedes: {pattern: return $X}\n"),
    ];
    let found = needs(&texts);
    assert!(found[0].0.contains(&Among::Descendants), "{found:?}");
    assert!(found[1].0.contains(&Among::GrandParent), "{found:?}");
    assert!(found[2].0.contains(&Among::Next) && found[2].0.contains(&Among::Family));
    assert!(found[3].0.contains(&Among::Next), "{found:?}");
    assert_eq!(same_hits(&texts, SOURCE), 6);
}

#[test]
fn siblings_before_and_after_are_told_apart() {
    let texts = [
        rule(
            "after-if",
            "  kind: expression_statement\n  follows: {kind: if_statement}\n",
        ),
        rule(
            "after-raise",
            "  kind: return_statement\n  follows: {kind: if_statement, stopBy: end}\n",
        ),
        rule(
            "before-if",
            "  kind: expression_statement\n  precedes: {kind: if_statement}\n",
        ),
    ];
    let found = needs(&texts);
    assert_eq!(found[0].0, [Among::Prev]);
    assert_eq!(found[1].0, [Among::Before]);
    assert_eq!(found[2].0, [Among::Next]);
    assert_eq!(same_hits(&texts, SOURCE), 3);
}

#[test]
fn utilities_and_alternatives_need_what_all_of_them_need() {
    let utils = "utils:\n  guard:\n    kind: if_statement\n    has: {field: consequence, has: {kind: raise_statement}}\n";
    let ladder = format!(
        "{}{utils}",
        rule("ladder", "  matches: guard\n  any:\n    - precedes: {matches: guard}\n    - follows: {matches: guard}\n")
    );
    let looping = format!(
        "{}utils:\n  loop:\n    any:\n      - has: {{kind: raise_statement, stopBy: end}}\n      - inside: {{matches: loop}}\n",
        rule("looping", "  kind: if_statement\n  matches: loop\n")
    );
    let texts = [ladder, looping];
    let found = needs(&texts);
    assert!(found[0].0.contains(&Among::Descendants), "{found:?}");
    assert!(found[0].0.contains(&Among::Neighbours), "{found:?}");
    assert_eq!(found[1].0, [] as [Among; 0], "a cycle needs nothing");
    assert_eq!(same_hits(&texts, SOURCE), 4);
}

#[test]
fn nth_child_needs_a_position_among_the_named_siblings() {
    let texts = [
        rule(
            "last",
            "  kind: return_statement\n  nthChild: {position: 1, reverse: true}\n",
        ),
        rule("first", "  kind: expression_statement\n  nthChild: 1\n"),
        rule(
            "second",
            "  kind: if_statement\n  all:\n    - nthChild: 2\n",
        ),
        rule(
            "of-rule",
            "  kind: if_statement\n  nthChild: {position: 1, ofRule: {kind: if_statement}}\n",
        ),
    ];
    let found = needs(&texts);
    assert_eq!(
        found[0].1,
        Some(Position {
            nth: 1,
            reverse: true
        })
    );
    assert_eq!(
        found[1].1,
        Some(Position {
            nth: 1,
            reverse: false
        })
    );
    assert_eq!(
        found[2].1,
        Some(Position {
            nth: 2,
            reverse: false
        })
    );
    assert_eq!(found[3].1, None);
    let commented = "def f(x):\n    # first\n    g(x)\n    return x\n    # last\n";
    assert_eq!(same_hits(&texts, SOURCE), 7);
    assert_eq!(
        same_hits(&texts, commented),
        1,
        "comments are named siblings"
    );
}

#[test]
fn a_metavariable_captured_twice_needs_alike_nodes() {
    let lang = by_name("python").expect("python");
    let twins = |rule: serde_json::Value| Twins::of_rule(lang.ast_grep(), &rule);
    assert_eq!(twins(serde_json::json!({"pattern": "$X = $X"})).0.len(), 1);
    assert_eq!(
        twins(serde_json::json!({"pattern": "$X = $Y"})),
        Twins::default()
    );
    assert_eq!(
        twins(serde_json::json!({"pattern": "f($X, $$$, $X)"})),
        Twins::default()
    );
    let any =
        serde_json::json!({"any": [{"pattern": "$X = $X + $Y"}, {"pattern": "$X = $X - $Y"}]});
    assert_eq!(twins(any.clone()).0.len(), 2);
    let mut bound_first = any.clone();
    bound_first["all"] = serde_json::json!([{"pattern": "$X = $Z"}]);
    assert_eq!(
        twins(bound_first),
        Twins::default(),
        "X may be bound before"
    );
    let one_plain =
        serde_json::json!({"any": [{"pattern": "$X = $X + $Y"}, {"kind": "assignment"}]});
    assert_eq!(
        twins(one_plain),
        Twins::default(),
        "an alternative without twins"
    );
    let texts = [
        rule("self", "  kind: assignment\n  pattern: $X = $X\n"),
        rule("augment", "  kind: assignment\n  any:\n    - pattern: $X = $X + $Y\n    - pattern: $X = $X - $Y\n"),
        rule("same-branches", "  kind: conditional_expression\n  pattern: $A if $C else $A\n"),
    ];
    let source = "x = x\na.b = a.b\na.b = a . b\nx = y\nx = x + 1\nx = y + 1\nx = f(x)\nx: int = x\ny = x.a if c else x.a\ny = x if c else z\n";
    assert_eq!(same_hits(&texts, source), 5);
}
