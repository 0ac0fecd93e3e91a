//! What must be around a node for a rule to match it ([`Needs`]), read from the rule's
//! clauses.

use super::around::{Among, Around, Bit, Mask};
use crate::lang::{Kinds, Language};
use crate::pattern::whole_pattern;
use ast_grep_config::RuleConfig;
use ast_grep_language::SupportLang;
use serde_json::Value;

/// A necessary condition of a rule on what is around a node (see [`Around`]): the kinds
/// some relative must have, read from the rule's relations (`has`, `inside`, `precedes`,
/// `follows`, followed into the related rules' own relations), its plain patterns' nodes
/// and its local utilities (`matches`), and the position its `nthChild` asks for. A rule
/// that `follows: {kind: raise_statement, stopBy: end}` can only match a node with a
/// `raise_statement` among the siblings before it; one with `inside: {kind: block, inside:
/// {kind: function_definition}}` only a node whose grandparent is a function definition.
/// Tested before ast-grep matches the rule; a rule without such clauses needs nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct Needs {
    /// (where, mask): the kinds there must meet every mask
    pub(super) masks: Vec<(Among, Mask)>,
    pub(super) position: Option<Position>,
}

/// A relation of a rule to another node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relation {
    Has,
    Inside,
    Precedes,
    Follows,
}

impl Relation {
    const ALL: [(Self, &'static str); 4] = [
        (Self::Has, "has"),
        (Self::Inside, "inside"),
        (Self::Precedes, "precedes"),
        (Self::Follows, "follows"),
    ];

    /// Where the node this relation reaches lies, seen from a node at `at` (None: the node
    /// a rule is tried on); `direct`: the relation stops at the neighbour. None where the
    /// masks of [`Around`] say nothing about it.
    fn reaches(self, at: Option<Among>, direct: bool) -> Option<Among> {
        use Among::*;
        let Some(at) = at else {
            return Some(self.at_node(direct));
        };
        match (at, self) {
            (Children | Descendants, Self::Has) => Some(Descendants),
            (Children | Descendants | Family, Self::Precedes | Self::Follows) => Some(at),
            (Parent, Self::Inside) if direct => Some(GrandParent),
            (Parent | GrandParent | Ancestors, Self::Inside) => Some(Ancestors),
            (Parent, Self::Has) if direct => Some(Siblings),
            (Parent | Prev | Next | Neighbours | Before | Siblings | Family, Self::Has) => {
                Some(Family)
            }
            (Prev | Next | Neighbours | Before | Siblings, Self::Precedes | Self::Follows) => {
                Some(Siblings)
            }
            (Prev | Next | Neighbours | Before | Siblings, Self::Inside) => {
                Some(Self::Inside.at_node(direct))
            }
            _ => None,
        }
    }

    /// Where the node this relation reaches from the node a rule is tried on lies.
    fn at_node(self, direct: bool) -> Among {
        use Among::*;
        match (self, direct) {
            (Self::Has, true) => Children,
            (Self::Has, false) => Descendants,
            (Self::Inside, true) => Parent,
            (Self::Inside, false) => Ancestors,
            (Self::Precedes, true) => Next,
            (Self::Precedes, false) => Siblings,
            (Self::Follows, true) => Prev,
            (Self::Follows, false) => Before,
        }
    }
}

/// The place an `nthChild` asks for: the `nth` (from 1) of its parent's named children,
/// counted from the last one when `reverse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Position {
    pub(super) nth: u32,
    pub(super) reverse: bool,
}

impl Position {
    /// The place a rule's own `nthChild` (or one in its `all`) asks for, when it is a plain
    /// number without `ofRule`.
    fn of_rule(rule: &Value) -> Option<Self> {
        if let Some(nth) = rule.get("nthChild") {
            if let Some(position) = Self::of_nth_child(nth) {
                return Some(position);
            }
        }
        let all = rule.get("all")?.as_array()?;
        all.iter().find_map(Self::of_rule)
    }

    fn of_nth_child(nth: &Value) -> Option<Self> {
        if let Some(nth) = nth.as_u64() {
            return Some(Self {
                nth: u32::try_from(nth).ok()?,
                reverse: false,
            });
        }
        if nth.get("ofRule").is_some_and(|r| !r.is_null()) {
            return None;
        }
        let reverse = match nth.get("reverse") {
            None | Some(Value::Null) => false,
            Some(reverse) => reverse.as_bool()?,
        };
        let nth = u32::try_from(nth.get("position")?.as_u64()?).ok()?;
        Some(Self { nth, reverse })
    }

    /// Whether a node at `position` (see [`Around`]) is at this place.
    fn holds(self, position: Option<(u32, u32)>) -> bool {
        let Some((index, count)) = position else {
            return false;
        };
        let from_one = if self.reverse {
            count - index
        } else {
            index + 1
        };
        from_one == self.nth
    }
}

/// How deep the reading of a rule follows its relations and utilities (utilities may
/// refer to themselves).
const DEPTH: usize = 8;

/// A clause of a rule's needs: one of the kinds must be at that place.
type Clause = (Among, Vec<String>);

/// Reads the needs of one rule.
struct Reader<'r> {
    lang: &'static dyn Language,
    /// the rule's local utilities (`utils`), by name
    utils: Option<&'r serde_json::Map<String, Value>>,
}

impl Reader<'_> {
    /// The clauses a rule (as JSON) describing a node at `at` (None: the node it is tried
    /// on) implies: the kinds the node must have, those of its pattern's nodes, and those
    /// of its relations, its `all`, its utilities and (pooled) its `any`.
    fn clauses(&self, rule: &Value, at: Option<Among>, depth: usize, found: &mut Vec<Clause>) {
        if depth > DEPTH {
            return;
        }
        if let Some(kinds) = at.and_then(|at| Some((at, required_kinds(self.lang, rule)?))) {
            found.push(kinds);
        }
        self.pattern(rule, at, found);
        for (relation, key) in Relation::ALL {
            let Some(related) = rule.get(key) else {
                continue;
            };
            let direct = related
                .get("stopBy")
                .is_none_or(|stop| stop.is_null() || stop.as_str() == Some("neighbor"));
            if let Some(there) = relation.reaches(at, direct) {
                self.clauses(related, Some(there), depth + 1, found);
            }
        }
        for item in rule
            .get("all")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.clauses(item, at, depth + 1, found);
        }
        let util = rule.get("matches").and_then(Value::as_str);
        if let Some(util) = util.and_then(|name| self.utils?.get(name)) {
            self.clauses(util, at, depth + 1, found);
        }
        self.pooled(rule, at, depth, found);
    }

    /// The kinds a rule's plain pattern puts among the children and below the node.
    fn pattern(&self, rule: &Value, at: Option<Among>, found: &mut Vec<Clause>) {
        let Some(pattern) = rule.get("pattern") else {
            return;
        };
        let (children, below) = pattern_kinds(self.lang, pattern);
        let places = [(children, true), (below, false)];
        for (kinds, direct) in places {
            let Some(there) = Relation::Has.reaches(at, direct) else {
                continue;
            };
            found.extend(kinds.into_iter().map(|kind| (there, vec![kind])));
        }
    }

    /// What every alternative of a rule's `any` needs at one place, their kinds pooled (an
    /// alternative's own clause there, else one at a narrower place within it).
    fn pooled(&self, rule: &Value, at: Option<Among>, depth: usize, found: &mut Vec<Clause>) {
        let Some(alternatives) = rule.get("any").and_then(Value::as_array) else {
            return;
        };
        if alternatives.is_empty() {
            return;
        }
        let each: Vec<Vec<Clause>> = alternatives
            .iter()
            .map(|alternative| {
                let mut own = Vec::new();
                self.clauses(alternative, at, depth + 1, &mut own);
                own
            })
            .collect();
        for among in Among::ALL {
            let pooled: Option<Vec<Vec<String>>> = each
                .iter()
                .map(|own| {
                    let exact = own.iter().find(|(a, _)| *a == among);
                    let there = exact.or_else(|| own.iter().find(|(a, _)| a.within(among)));
                    there.map(|(_, k)| k.clone())
                })
                .collect();
            if let Some(kinds) = pooled {
                found.push((among, kinds.concat()));
            }
        }
    }
}

impl Needs {
    pub(crate) fn met(&self, around: &Around) -> bool {
        self.masks
            .iter()
            .all(|&(among, mask)| mask & around.at(among) != 0)
            && self.position.is_none_or(|p| p.holds(around.position))
    }

    /// Each rule's needs, and the kind id → bit table they are written in (the first 128
    /// kinds named; a clause naming a kind beyond them, or one the grammar lacks, needs
    /// nothing).
    pub(crate) fn of_pack(
        lang: &'static dyn Language,
        rules: &[RuleConfig<SupportLang>],
    ) -> (Vec<Self>, Vec<Bit>) {
        let kinds = Kinds::new(lang);
        let grammar = lang.grammar();
        let mut bits: Vec<Bit> = (0..kinds.names.len())
            .map(|id| {
                Bit::unnamed_by_rules(
                    u16::try_from(id).is_ok_and(|id| grammar.node_kind_is_named(id)),
                )
            })
            .collect();
        let mut named: Vec<String> = Vec::new();
        let needs = rules
            .iter()
            .map(|rule| {
                let (clauses, position) = Self::read(lang, rule);
                let mut masks = Vec::new();
                for (among, names) in clauses {
                    let mask = mask_of(&kinds, &mut bits, &mut named, &names);
                    if let Some(need) = mask.map(|mask| (among, mask)) {
                        if !masks.contains(&need) {
                            masks.push(need);
                        }
                    }
                }
                Self { masks, position }
            })
            .collect();
        (needs, bits)
    }

    /// A rule's clauses (see [`Reader::clauses`]) and the position it asks for.
    fn read(
        lang: &'static dyn Language,
        rule: &RuleConfig<SupportLang>,
    ) -> (Vec<Clause>, Option<Position>) {
        let Ok(json) = serde_json::to_value(&rule.rule) else {
            return (Vec::new(), None);
        };
        let utils = serde_json::to_value(&rule.utils).ok();
        let reader = Reader {
            lang,
            utils: utils.as_ref().and_then(Value::as_object),
        };
        let mut clauses = Vec::new();
        reader.clauses(&json, None, 0, &mut clauses);
        (clauses, Position::of_rule(&json))
    }
}

/// The mask of kinds `names`, their bits given in `bits` (None when one is beyond the
/// 128 bits or no kind of the grammar).
fn mask_of(
    kinds: &Kinds,
    bits: &mut [Bit],
    named: &mut Vec<String>,
    names: &[String],
) -> Option<Mask> {
    let mut mask = 0;
    for name in names {
        let ids: Vec<usize> = (0..kinds.names.len())
            .filter(|&id| kinds.names[id] == *name)
            .collect();
        if ids.is_empty() {
            return None;
        }
        let bit = bit_of(name, named)?;
        for id in ids {
            bits[id].mask |= bit;
        }
        mask |= bit;
    }
    (mask != 0).then_some(mask)
}

/// The bit of kind `name` (given to kinds in order of first use; None past 128 kinds).
fn bit_of(name: &str, named: &mut Vec<String>) -> Option<Mask> {
    let at = match named.iter().position(|n| n == name) {
        Some(at) => at,
        None => {
            named.push(name.to_owned());
            named.len() - 1
        }
    };
    (at < Mask::BITS as usize).then(|| 1 << at)
}

/// The kinds one of which every node a rule (as JSON) matches has: its `kind`, else its
/// plain pattern's (see [`pattern_kind`]), else those of one rule of its `all`, else those
/// of all the alternatives of its `any`.
fn required_kinds(lang: &'static dyn Language, rule: &Value) -> Option<Vec<String>> {
    if let Some(kind) = rule.get("kind").and_then(Value::as_str) {
        let plain =
            !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        return plain.then(|| vec![kind.to_owned()]);
    }
    if let Some(kind) = rule.get("pattern").and_then(|p| pattern_kind(lang, p)) {
        return Some(vec![kind]);
    }
    let all = rule.get("all").and_then(Value::as_array);
    if let Some(kinds) = all
        .into_iter()
        .flatten()
        .find_map(|r| required_kinds(lang, r))
    {
        return Some(kinds);
    }
    let any = rule.get("any").and_then(Value::as_array)?;
    let kinds: Option<Vec<Vec<String>>> = any.iter().map(|r| required_kinds(lang, r)).collect();
    kinds.map(|k| k.concat())
}

/// The kind of the node a pattern (as JSON) matches, when its root is a node with
/// children: ast-grep matches it to a node of that kind (an error node matches any).
fn pattern_kind(lang: &'static dyn Language, pattern: &Value) -> Option<String> {
    use ast_grep_core::matcher::PatternNode;
    let (pattern, _) = whole_pattern(lang.ast_grep(), pattern)?;
    let PatternNode::Internal { kind_id, .. } = pattern.node else {
        return None;
    };
    let grammar = lang.grammar();
    let name = grammar.node_kind_for_id(kind_id)?;
    (kind_id != u16::MAX && name != "ERROR").then(|| name.to_owned())
}

/// The kinds a node matched by `pattern` (a plain string: ast-grep's default `smart`
/// strictness) has among its children, and deeper below: those of the pattern's nodes that
/// are not metavariables, as ast-grep matches each of them to a node of the same kind at
/// the same place. Left out: unnamed leaves (ast-grep skips those after an ellipsis `$$$`;
/// among the root's children they count when no ellipsis is there) and error nodes (they
/// match any kind).
pub(crate) fn pattern_kinds(
    lang: &'static dyn Language,
    pattern: &serde_json::Value,
) -> (Vec<String>, Vec<String>) {
    use ast_grep_core::matcher::PatternNode;
    use ast_grep_core::meta_var::MetaVariable;
    let Some((pattern, ast)) = whole_pattern(lang.ast_grep(), pattern) else {
        return (Vec::new(), Vec::new());
    };
    let PatternNode::Internal { children, .. } = &pattern.node else {
        return (Vec::new(), Vec::new());
    };
    let ellipsis = ast
        || children.iter().any(|child| {
            matches!(
                child,
                PatternNode::MetaVar {
                    meta_var: MetaVariable::Multiple | MetaVariable::MultiCapture(_)
                }
            )
        });
    let grammar = lang.grammar();
    let add = |kind: u16, kinds: &mut Vec<String>| {
        let Some(name) = grammar.node_kind_for_id(kind) else {
            return;
        };
        if kind != u16::MAX && name != "ERROR" && !kinds.iter().any(|k| k == name) {
            kinds.push(name.to_owned());
        }
    };
    let (mut own, mut below) = (Vec::new(), Vec::new());
    let mut deeper: Vec<&PatternNode> = Vec::new();
    for child in children {
        match child {
            PatternNode::Internal {
                kind_id,
                children: grandchildren,
            } => {
                add(*kind_id, &mut own);
                deeper.extend(grandchildren);
            }
            PatternNode::Terminal {
                kind_id, is_named, ..
            } if *is_named || !ellipsis => add(*kind_id, &mut own),
            _ => {}
        }
    }
    while let Some(node) = deeper.pop() {
        match node {
            PatternNode::Internal { kind_id, children } => {
                add(*kind_id, &mut below);
                deeper.extend(children);
            }
            PatternNode::Terminal {
                kind_id,
                is_named: true,
                ..
            } => add(*kind_id, &mut below),
            _ => {}
        }
    }
    below.retain(|k| !own.contains(k));
    (own, below)
}
