//! Metavariables a rule's pattern captures twice ([`Twins`]).

use crate::pattern::whole_pattern;
use ast_grep_language::SupportLang;
use serde_json::Value;

/// A metavariable a rule's pattern captures at two places: ast-grep compares the node at
/// the second place with the one the first bound (`$X = $X`), so the two must be alike
/// (see [`alike`]). Read from the rule's own plain pattern, else from the patterns of the
/// alternatives of its `any` when nothing before them can bind a metavariable; only
/// through pattern nodes without an ellipsis, where ast-grep pairs a node's children with
/// the pattern's one by one when there are as many. A node passes when one alternative's
/// pairs are all alike (or cannot be told: the numbers of children differ), and no node
/// on their ways has another kind than the pattern's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Twins(pub(super) Vec<Vec<(Steps, Steps)>>);

/// The way from a pattern's root to one of its nodes: at each pattern node on the way, its
/// kind, how many children it has, and which of them leads on.
type Steps = Vec<(u16, usize, usize)>;

impl Twins {
    /// The twins of a rule (as JSON).
    pub(crate) fn of_rule(lang: SupportLang, rule: &Value) -> Self {
        if let Some(pattern) = rule.get("pattern") {
            return Self(Vec::from_iter(pairs(lang, pattern)));
        }
        let binds_first = ["all", "nthChild"]
            .iter()
            .any(|k| rule.get(k).is_some_and(|v| !v.is_null()));
        let Some(alternatives) = rule.get("any").and_then(Value::as_array) else {
            return Self::default();
        };
        let each: Option<Vec<_>> = alternatives
            .iter()
            .map(|alternative| pairs(lang, alternative.get("pattern")?))
            .collect();
        match each {
            Some(each) if !binds_first && !each.is_empty() => Self(each),
            _ => Self::default(),
        }
    }

    /// Whether a node may match: some alternative has all its pairs alike.
    pub(crate) fn hold(&self, node: tree_sitter::Node<'_>, source: &[u8]) -> bool {
        self.0.is_empty()
            || self.0.iter().any(|pairs| {
                pairs
                    .iter()
                    .all(|(a, b)| match (reach(node, a), reach(node, b)) {
                        (Err(()), _) | (_, Err(())) => false,
                        (Ok(Some(a)), Ok(Some(b))) => alike(a, b, source),
                        _ => true,
                    })
            })
    }
}

/// The pairs of places a plain pattern (as JSON; `smart` or `cst` strictness) captures
/// one metavariable at (None: no metavariable is captured twice).
fn pairs(lang: SupportLang, pattern: &Value) -> Option<Vec<(Steps, Steps)>> {
    let (pattern, false) = whole_pattern(lang, pattern)? else {
        return None;
    };
    let mut places = Vec::new();
    captures(&pattern.node, &mut Vec::new(), &mut places);
    let mut pairs = Vec::new();
    for (at, (name, first)) in places.iter().enumerate() {
        let earlier = places[..at].iter().any(|(n, _)| n == name);
        let later = places[at + 1..].iter().filter(|(n, _)| n == name);
        if !earlier {
            pairs.extend(later.map(|(_, other)| (first.clone(), other.clone())));
        }
    }
    (!pairs.is_empty()).then_some(pairs)
}

/// The places of the captures under a pattern node reached by `way`.
fn captures(
    node: &ast_grep_core::matcher::PatternNode,
    way: &mut Steps,
    found: &mut Vec<(String, Steps)>,
) {
    use ast_grep_core::matcher::PatternNode;
    use ast_grep_core::meta_var::MetaVariable;
    match node {
        PatternNode::MetaVar {
            meta_var: MetaVariable::Capture(name, _),
        } => found.push((name.clone(), way.clone())),
        PatternNode::Internal { kind_id, children } => {
            let ellipsis = children.iter().any(|child| {
                matches!(
                    child,
                    PatternNode::MetaVar {
                        meta_var: MetaVariable::Multiple | MetaVariable::MultiCapture(_)
                    }
                )
            });
            for (index, child) in children.iter().enumerate().filter(|_| !ellipsis) {
                way.push((*kind_id, children.len(), index));
                captures(child, way, found);
                way.pop();
            }
        }
        _ => {}
    }
}

/// Where `way` from `node` leads: Err when a node on the way has another kind than the
/// pattern node's (the pattern cannot match: ast-grep pairs the pattern's nodes with the
/// children of a node with as many one by one, and a pattern node with children matches
/// only its own kind); Ok(None) when a node on the way has another number of children
/// (the pairing cannot be told); else the node reached.
fn reach<'t>(
    node: tree_sitter::Node<'t>,
    way: &Steps,
) -> Result<Option<tree_sitter::Node<'t>>, ()> {
    let mut node = node;
    for &(kind, children, index) in way {
        if kind == u16::MAX {
            return Ok(None);
        }
        if node.kind_id() != kind {
            return Err(());
        }
        if usize::try_from(node.child_count()).ok() != Some(children) {
            return Ok(None);
        }
        let Some(child) = u32::try_from(index).ok().and_then(|i| node.child(i)) else {
            return Ok(None);
        };
        node = child;
    }
    Ok(Some(node))
}

/// Whether two nodes pass the first test of ast-grep's exact comparison of a repeated
/// metavariable: the same text when either has no named children, else the same kind and
/// as many children.
fn alike(a: tree_sitter::Node<'_>, b: tree_sitter::Node<'_>, source: &[u8]) -> bool {
    if a.named_child_count() == 0 || b.named_child_count() == 0 {
        return source.get(a.byte_range()) == source.get(b.byte_range());
    }
    a.kind_id() == b.kind_id() && a.child_count() == b.child_count()
}
