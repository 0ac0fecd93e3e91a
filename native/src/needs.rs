//! What must be around a node for a rule to match it ([`Needs`]), and what is around each
//! node of a walk ([`Surroundings`]): necessary conditions on the kinds of a node's
//! relatives and on its position among its siblings, read from a rule's relations, plain
//! patterns and `nthChild`, and tested before ast-grep matches the rule. A rule the reading
//! does not understand simply needs less; ast-grep still decides every match.

use crate::lang::{Kinds, Language};
use crate::rules::whole_pattern;
use ast_grep_config::RuleConfig;
use ast_grep_language::SupportLang;
use serde_json::Value;

/// A set of kinds, one bit each (see [`Bit`]): 128 bits, as the kinds rules' needs name in
/// Python's pack fit in them.
pub type Mask = u128;

/// A node's kind as the surroundings record it: its bit (0: no rule's needs name it) and
/// whether the kind is named (`nthChild` counts named siblings only).
#[derive(Clone, Copy, Debug)]
pub struct Bit {
    mask: Mask,
    named: bool,
}

impl Bit {
    /// The bit of a kind no rule's needs name.
    pub(crate) fn unnamed_by_rules(named: bool) -> Self {
        Self { mask: 0, named }
    }

    /// Whether no rule's needs name the kind (its mask is 0).
    pub fn is_unnamed_by_rules(self) -> bool {
        self.mask == 0
    }
}

/// What is around a node, as masks of [`Bit`]s: the kinds among its siblings (its parent's
/// children, itself included), among its children, of its parent and grandparent, among its
/// ancestors and its descendants, of its previous and next sibling (0: none), among the
/// siblings before it, and below its parent (`family`); and its place among its parent's
/// named children.
#[derive(Clone, Copy, Debug)]
pub struct Around {
    siblings: Mask,
    children: Mask,
    parent: Mask,
    grandparent: Mask,
    ancestors: Mask,
    descendants: Mask,
    prev: Mask,
    next: Mask,
    before: Mask,
    family: Mask,
    /// (index among its parent's named children, how many there are), for a named node
    /// that has a parent
    position: Option<(u32, u32)>,
}

impl Around {
    /// The surroundings with its siblings' order left open. ast-grep finds the siblings
    /// before or after a node from the first of its parent's children that ends past the
    /// node's start, which for a node of no width is a later sibling.
    pub fn unordered(self) -> Self {
        Self {
            prev: Mask::MAX,
            next: Mask::MAX,
            before: Mask::MAX,
            ..self
        }
    }

    fn at(&self, among: Among) -> Mask {
        match among {
            Among::Siblings => self.siblings,
            Among::Children => self.children,
            Among::Parent => self.parent,
            Among::GrandParent => self.grandparent,
            Among::Ancestors => self.ancestors,
            Among::Descendants => self.descendants,
            Among::Prev => self.prev,
            Among::Next => self.next,
            Among::Neighbours => self.prev | self.next,
            Among::Before => self.before,
            Among::Family => self.family,
        }
    }
}

/// What is around each node of a walk, recorded as the walk enters the nodes in pre-order.
#[derive(Debug)]
pub struct Surroundings {
    /// by slot: one per node entered, in pre-order (slot 0: the root's parent, where
    /// anything may be)
    slots: Vec<Slot>,
    /// the slots of the nodes from the root to the last one entered
    path: Vec<u32>,
}

/// What a node entered has around it.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// its kind bit
    bit: Mask,
    /// the kinds on the path from the root to it, itself included
    path: Mask,
    /// the kinds of the siblings entered before it
    before: Mask,
    /// the kinds of its children
    children: Mask,
    /// the kinds below its children (folded in as the walk leaves nodes)
    below: Mask,
    /// the kind of its next sibling (0: none, so far)
    next: Mask,
    /// the slots of its parent (0 for the root) and of its previous sibling (0: none) and
    /// of its last child entered so far (0: none)
    parent: u32,
    prev: u32,
    last: u32,
    /// its index among its parent's named children (UNNAMED: it is not named)
    index: u32,
    /// how many named children it has (so far)
    named: u32,
}

/// The index of a node that is not named (see [`Slot`]).
const UNNAMED: u32 = u32::MAX;

/// Where a node entered sits: its slot (see [`Surroundings::around`]).
#[derive(Clone, Copy, Debug)]
pub struct Place(u32);

impl Default for Surroundings {
    fn default() -> Self {
        Self {
            slots: vec![ANYTHING],
            path: Vec::new(),
        }
    }
}

/// Slot 0: the root's parent, where anything may be.
const ANYTHING: Slot = Slot {
    bit: Mask::MAX,
    path: Mask::MAX,
    before: Mask::MAX,
    children: Mask::MAX,
    below: Mask::MAX,
    next: Mask::MAX,
    parent: 0,
    prev: 0,
    last: 0,
    index: UNNAMED,
    named: 0,
};

impl Surroundings {
    /// How many nodes' slots the memory held holds.
    pub fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    /// Make room for the slots of `nodes` nodes more at once: slots growing by doubling
    /// would leave the memory of each smaller size behind (freed memory is kept, see
    /// `crate::use_one_allocator`), as much again as the slots themselves.
    pub fn reserve(&mut self, nodes: usize) {
        self.slots.reserve_exact(nodes);
    }

    /// Forget every node entered, keeping the memory for the next walk.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.slots.push(ANYTHING);
        self.path.clear();
    }

    /// Pass a leaf of kind bit `bit` at `depth` that no rule may match and no rule's needs
    /// name (its mask is 0): it takes no slot, as nothing is ever asked of its own
    /// surroundings, and to its relatives it is what its slot would say, a kind of no bit
    /// (its next sibling sees no previous one, its previous sibling no next one) that
    /// counts among its parent's named children when it is named.
    pub fn pass(&mut self, bit: Bit, depth: usize) {
        debug_assert!(bit.mask == 0, "a leaf passed has no bit");
        self.leave_to(depth);
        let Some(&parent) = self.path.last() else {
            return;
        };
        let of_parent = &mut self.slots[parent as usize];
        if bit.named {
            of_parent.named += 1;
        }
        let prev = std::mem::replace(&mut of_parent.last, 0);
        if prev != 0 {
            self.slots[prev as usize].next = 0;
        }
    }

    /// Enter a node of kind bit `bit` (see [`crate::rules::Scanner::bit`]) at `depth` (the
    /// root's is 0).
    pub fn enter(&mut self, bit: Bit, depth: usize) -> Place {
        self.leave_to(depth);
        let own = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        let slot = match self.path.last() {
            Some(&parent) => self.adopt(parent, own, bit),
            None => Slot {
                bit: bit.mask,
                path: bit.mask,
                before: Mask::MAX,
                index: UNNAMED,
                ..Slot::default()
            },
        };
        self.slots.push(slot);
        self.path.push(own);
        Place(own)
    }

    /// A child of the node in slot `parent` enters, in slot `own`: its slot, and its
    /// parent's and previous sibling's updated.
    fn adopt(&mut self, parent: u32, own: u32, bit: Bit) -> Slot {
        let of_parent = &mut self.slots[parent as usize];
        let before = of_parent.children;
        of_parent.children |= bit.mask;
        let prev = std::mem::replace(&mut of_parent.last, own);
        let index = if bit.named {
            of_parent.named += 1;
            of_parent.named - 1
        } else {
            UNNAMED
        };
        let path = of_parent.path | bit.mask;
        if prev != 0 {
            self.slots[prev as usize].next = bit.mask;
        }
        Slot {
            bit: bit.mask,
            path,
            before,
            parent,
            prev,
            index,
            ..Slot::default()
        }
    }

    /// Leave the nodes entered deeper than `depth`, folding what is below each into its
    /// parent's.
    fn leave_to(&mut self, depth: usize) {
        while self.path.len() > depth {
            let Some(own) = self.path.pop() else {
                return;
            };
            let slot = self.slots[own as usize];
            if slot.parent != 0 {
                self.slots[slot.parent as usize].below |= slot.children | slot.below;
            }
        }
    }

    /// The walk is over: leave every node still entered.
    pub fn finish(&mut self) {
        self.leave_to(0);
    }

    /// What is around a node entered (complete once [`Surroundings::finish`] is called).
    /// Around the root (it has no parent, no siblings, no position) ast-grep looks at its
    /// own children for its siblings: that is left open.
    pub fn around(&self, place: Place) -> Around {
        let own = self.slots[place.0 as usize];
        let parent = self.slots[own.parent as usize];
        let root = own.parent == 0;
        let prev = match own.prev {
            _ if root => Mask::MAX,
            0 => 0,
            prev => self.slots[prev as usize].bit,
        };
        Around {
            siblings: parent.children,
            children: own.children,
            parent: parent.bit,
            grandparent: self.slots[parent.parent as usize].bit,
            ancestors: parent.path,
            descendants: own.children | own.below,
            prev,
            next: own.next,
            before: own.before,
            family: parent.children | parent.below,
            position: (own.index != UNNAMED && !root).then_some((own.index, parent.named)),
        }
    }
}

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
    masks: Vec<(Among, Mask)>,
    position: Option<Position>,
}

/// Where around a node a rule looks (see [`Around`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Among {
    Siblings,
    Children,
    Parent,
    GrandParent,
    Ancestors,
    Descendants,
    Prev,
    Next,
    /// the previous or the next sibling
    Neighbours,
    Before,
    Family,
}

impl Among {
    const ALL: [Self; 11] = [
        Self::Siblings,
        Self::Children,
        Self::Parent,
        Self::GrandParent,
        Self::Ancestors,
        Self::Descendants,
        Self::Prev,
        Self::Next,
        Self::Neighbours,
        Self::Before,
        Self::Family,
    ];

    /// Whether kinds found at this place are also at `wider` (so alternatives needing
    /// kinds at either pool them there).
    fn within(self, wider: Self) -> bool {
        use Among::*;
        self == wider
            || matches!(
                (self, wider),
                (Prev | Next, Neighbours)
                    | (Prev | Next | Neighbours | Before, Siblings)
                    | (Children, Descendants)
                    | (Parent | GrandParent, Ancestors)
            )
    }
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
struct Position {
    nth: u32,
    reverse: bool,
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

/// A metavariable a rule's pattern captures at two places: ast-grep compares the node at
/// the second place with the one the first bound (`$X = $X`), so the two must be alike
/// (see [`alike`]). Read from the rule's own plain pattern, else from the patterns of the
/// alternatives of its `any` when nothing before them can bind a metavariable; only
/// through pattern nodes without an ellipsis, where ast-grep pairs a node's children with
/// the pattern's one by one when there are as many. A node passes when one alternative's
/// pairs are all alike (or cannot be told: the numbers of children differ), and no node
/// on their ways has another kind than the pattern's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Twins(Vec<Vec<(Steps, Steps)>>);

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

#[cfg(test)]
pub(crate) mod tests {
    use super::{Among, Needs, Position, Twins};
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
}
