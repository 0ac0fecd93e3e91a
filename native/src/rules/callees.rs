//! Rules keyed by the name they call ([`Callees`]).

use super::words::spelled_out_literally;
use crate::lang::{has, Kinds, Language};
use ast_grep_config::RuleConfig;
use ast_grep_language::SupportLang;

/// Rules keyed by the name they call. A rule whose pattern is a call of a plain name
/// (`dict()`, `set($L)`, `range(0, $N)`) or of a method by name (`$D.keys()`,
/// `$S.join($$$A)`) can only match a call of that very name: with ast-grep's default
/// strictness a pattern's identifiers match by text. Such a rule is tried on calls of that
/// name only, instead of on every call.
pub(super) struct Callees {
    lang: &'static dyn Language,
    /// kind ids of the call node, and the id of its field naming what is called (looked
    /// up once: by name, tree-sitter compares every field name on each call)
    call: Vec<bool>,
    field: u16,
    identifier: Vec<bool>,
    /// kind ids of the member-access node and the id of the field naming the member
    member: Vec<bool>,
    member_field: Option<u16>,
}

/// What a call calls, as rules are keyed by it: a plain name (`f(...)`) or a method name
/// (`x.f(...)`), never the two mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Callee<'s> {
    Name(&'s [u8]),
    Method(&'s [u8]),
}

impl<'s> Callee<'s> {
    /// (is a method name, the name)
    pub(super) fn parts(self) -> (bool, &'s [u8]) {
        match self {
            Self::Name(name) => (false, name),
            Self::Method(name) => (true, name),
        }
    }
}

impl Callees {
    pub(super) fn new(lang: &'static dyn Language) -> Option<Self> {
        let (call, field) = lang.call_shape()?;
        let (member, member_field) = lang.member_shape().unwrap_or(("", ""));
        let kinds = Kinds::new(lang);
        let grammar = lang.grammar();
        let field_id = |name: &str| grammar.field_id_for_name(name).map(u16::from);
        let table = |name: &str| {
            kinds
                .names
                .iter()
                .map(|n| !name.is_empty() && n == name)
                .collect::<Vec<_>>()
        };
        Some(Self {
            lang,
            call: table(call),
            field: field_id(field)?,
            identifier: kinds.identifier.clone(),
            member: table(member),
            member_field: field_id(member_field),
        })
    }

    pub(super) fn is_call(&self, kind: u16) -> bool {
        has(&self.call, kind)
    }

    /// The name a call node calls, when it is a plain name or a method named plainly.
    pub(super) fn callee<'s>(
        &self,
        node: tree_sitter::Node<'_>,
        source: &'s str,
    ) -> Option<Callee<'s>> {
        if !self.is_call(node.kind_id()) {
            return None;
        }
        let function = node.child_by_field_id(self.field)?;
        if has(&self.identifier, function.kind_id()) {
            return source
                .as_bytes()
                .get(function.byte_range())
                .map(Callee::Name);
        }
        if !has(&self.member, function.kind_id()) {
            return None;
        }
        let name = function.child_by_field_id(self.member_field?)?;
        if !has(&self.identifier, name.kind_id()) {
            return None;
        }
        source.as_bytes().get(name.byte_range()).map(Callee::Method)
    }

    /// The names a rule can only match calls of, when it can only match calls by name.
    pub(super) fn keys(
        &self,
        kinds: &bit_set::BitSet,
        rule: &RuleConfig<SupportLang>,
    ) -> Option<Vec<Key>> {
        if !kinds
            .iter()
            .all(|k| u16::try_from(k).is_ok_and(|k| self.is_call(k)))
        {
            return None;
        }
        let constraints = serde_json::to_value(&rule.constraints).ok()?;
        self.rule_keys(&serde_json::to_value(&rule.rule).ok()?, &constraints)
    }

    /// A necessary condition of a rule (as JSON) in called names: its pattern's (a plain
    /// string: default strictness), else every alternative's of its `any`, else one of
    /// its `all`.
    fn rule_keys(
        &self,
        rule: &serde_json::Value,
        constraints: &serde_json::Value,
    ) -> Option<Vec<Key>> {
        if let Some(keys) = rule
            .get("pattern")
            .and_then(|p| p.as_str())
            .and_then(|p| self.pattern_keys(p, constraints))
        {
            return Some(keys);
        }
        if let Some(alternatives) = rule.get("any").and_then(|a| a.as_array()) {
            let keys: Option<Vec<Vec<Key>>> = alternatives
                .iter()
                .map(|r| self.rule_keys(r, constraints))
                .collect();
            if let Some(keys) = keys {
                return Some(keys.into_iter().flatten().collect());
            }
        }
        let all = rule.get("all").and_then(|a| a.as_array())?;
        all.iter().find_map(|r| self.rule_keys(r, constraints))
    }

    /// The names a pattern calls, when the whole pattern is one call of a plain name or of
    /// a method named plainly, or named by a metavariable whose constraint spells out its
    /// names (`regex: ^(any|all)$`).
    fn pattern_keys(&self, pattern: &str, constraints: &serde_json::Value) -> Option<Vec<Key>> {
        let expando = ast_grep_core::Language::expando_char(&self.lang.ast_grep());
        let text = pattern.trim().replace('$', &expando.to_string());
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&self.lang.grammar()).ok()?;
        let tree = parser.parse(&text, None)?;
        let mut node = tree.root_node();
        while node.named_child_count() == 1 && !self.is_call(node.kind_id()) {
            node = node.named_child(0)?;
        }
        if node.has_error() || node.byte_range() != (0..text.len()) {
            return None;
        }
        let (method, name) = self.callee(node, &text)?.parts();
        let name = std::str::from_utf8(name).ok()?;
        let Some(variable) = name.strip_prefix(expando) else {
            return Some(vec![(method, name.as_bytes().to_vec())]);
        };
        let regex = constraints.get(variable)?.get("regex")?.as_str()?;
        let names = spelled_out(regex)?;
        Some(
            names
                .into_iter()
                .map(|n| (method, n.into_bytes()))
                .collect(),
        )
    }
}

/// A called name as rules are keyed by it: (is a method name, the name).
type Key = (bool, Vec<u8>);

/// The words a regex matches when it spells them out: `^(a|b)$`, `^__(len|str)__$`, `^a$`.
pub(super) fn spelled_out(regex: &str) -> Option<Vec<String>> {
    let word = |s: &String| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    spelled_out_literally(regex).filter(|words| words.iter().all(word))
}
