//! The YAML rule pack, run in-process with ast-grep's library crates on the tree the
//! metrics walk uses.
//!
//! Rules are compiled once per pack and dispatched by node kind (each rule's potential
//! kinds, as ast-grep's `CombinedScan` does) from the metrics walk itself, so a file is
//! traversed once. Cheap necessary conditions narrow the rules tried on a node further,
//! ast-grep still deciding every match: a call rule whose pattern names the function or
//! method called is tried on calls of that name only ([`Callees`]); a rule whose
//! relations, pattern's nodes or `nthChild` need a relative of some kind or a position
//! among the siblings is tried only where they are ([`Needs`]); a rule whose pattern spells
//! out names or literals, or whose constraint spells out the text of a metavariable every
//! match binds, is tried only on nodes whose text holds them ([`Words`]); a rule whose
//! pattern captures one metavariable twice only where the two places are alike
//! ([`Twins`]); and a rule with `ast`-strictness patterns only on nodes of their shape:
//! kinds and numbers of named children ([`Shape`]). A pack works these out once, for its
//! first scanner. A file with
//! ast-grep's own `ast-grep-ignore` comments is scanned with `CombinedScan` instead, which
//! honours them as the `ast-grep scan` command does.

use crate::lang::{has, Kinds, Language};
pub use crate::needs::{Around, Place, Surroundings};
use crate::needs::{Bit, Needs, Twins};
use crate::record::HitRecord;
use crate::shape::Shape;
use ast_grep_config::{from_yaml_string, CombinedScan, GlobalRules, RuleConfig, Severity};
use ast_grep_core::matcher::MatcherExt;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{AstGrep, Matcher, Node, NodeMatch};
use ast_grep_language::SupportLang;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A compiled rule pack for one language.
pub struct RulePack {
    lang: &'static dyn Language,
    rules: Vec<RuleConfig<SupportLang>>,
    /// Rules whose message names metavariables (interpolated per hit).
    templated: Vec<bool>,
    /// what its scanners look the rules up by, made for the first of them
    lookup: OnceLock<Lookup>,
}

/// A rule ast-grep refuses: its index in the list given and ast-grep's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub index: usize,
    pub message: String,
}

impl RulePack {
    /// Compile `texts` (one rule each, YAML or JSON) for `language`; the first refused
    /// rule is the error.
    pub fn compile(lang: &'static dyn Language, texts: &[String]) -> Result<Self, RuleError> {
        let language = lang.ast_grep();
        let compiled: Vec<Result<_, RuleError>> = texts
            .par_iter()
            .enumerate()
            .map(|(index, text)| {
                compile_one(language, text).map_err(|message| RuleError { index, message })
            })
            .collect();
        let rules = compiled.into_iter().collect::<Result<Vec<_>, _>>()?;
        let templated = rules.iter().map(|r| r.message.contains('$')).collect();
        Ok(Self {
            lang,
            rules,
            templated,
            lookup: OnceLock::new(),
        })
    }

    /// The compiled rules, in the order given.
    pub fn configs(&self) -> &[RuleConfig<SupportLang>] {
        &self.rules
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// A scanner over the rules that are not switched off (`severity: off`).
    pub fn scanner(&self) -> Scanner<'_> {
        let active: Vec<&RuleConfig<SupportLang>> = self
            .rules
            .iter()
            .filter(|r| !matches!(r.severity, Severity::Off))
            .collect();
        Scanner {
            pack: self,
            lookup: self.lookup.get_or_init(|| self.make_lookup()),
            scan: CombinedScan::new(active),
        }
    }

    /// What a scanner looks the rules up by (it parses every rule's patterns: a pack makes
    /// it once, for its first scanner).
    fn make_lookup(&self) -> Lookup {
        let index = self
            .rules
            .iter()
            .enumerate()
            .map(|(i, rule)| (rule as *const RuleConfig<SupportLang> as usize, i))
            .collect();
        let calls = Callees::new(self.lang);
        let mut by_kind: Vec<Vec<usize>> = Vec::new();
        let mut by_callee: ByCallee = Default::default();
        for (i, rule) in self.rules.iter().enumerate() {
            if matches!(rule.severity, Severity::Off) {
                continue;
            }
            let Some(kinds) = rule.matcher.potential_kinds() else {
                continue;
            };
            let keys = calls.as_ref().and_then(|c| c.keys(&kinds, rule));

            for kind in kinds.iter() {
                if by_kind.len() <= kind {
                    by_kind.resize(kind + 1, Vec::new());
                }
                if keys.is_none() {
                    by_kind[kind].push(i);
                }
            }
            for (method, name) in keys.into_iter().flatten() {
                by_callee[usize::from(method)]
                    .entry(name)
                    .or_default()
                    .push(i);
            }
        }
        for rules in by_callee.iter_mut().flat_map(HashMap::values_mut) {
            rules.sort_unstable();
            rules.dedup();
        }
        let (needs, bits) = Needs::of_pack(self.lang, &self.rules);
        let lang = self.lang;
        let ((words, twins), shapes) = self
            .rules
            .par_iter()
            .map(|rule| {
                let json = serde_json::to_value(&rule.rule).unwrap_or_default();
                (
                    (
                        Words::of_rule(lang.ast_grep(), rule),
                        Twins::of_rule(lang.ast_grep(), &json),
                    ),
                    Shape::of_rule(lang, &json),
                )
            })
            .unzip();
        Lookup {
            index,
            by_kind,
            calls: calls.map(|c| (c, by_callee)),
            needs,
            bits,
            grammar: lang.grammar(),
            words,
            twins,
            shapes,
        }
    }
}

/// Rules keyed by the name they call. A rule whose pattern is a call of a plain name
/// (`dict()`, `set($L)`, `range(0, $N)`) or of a method by name (`$D.keys()`,
/// `$S.join($$$A)`) can only match a call of that very name: with ast-grep's default
/// strictness a pattern's identifiers match by text. Such a rule is tried on calls of that
/// name only, instead of on every call.
struct Callees {
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
enum Callee<'s> {
    Name(&'s [u8]),
    Method(&'s [u8]),
}

impl<'s> Callee<'s> {
    /// (is a method name, the name)
    fn parts(self) -> (bool, &'s [u8]) {
        match self {
            Self::Name(name) => (false, name),
            Self::Method(name) => (true, name),
        }
    }
}

impl Callees {
    fn new(lang: &'static dyn Language) -> Option<Self> {
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

    fn is_call(&self, kind: u16) -> bool {
        has(&self.call, kind)
    }

    /// The name a call node calls, when it is a plain name or a method named plainly.
    fn callee<'s>(&self, node: tree_sitter::Node<'_>, source: &'s str) -> Option<Callee<'s>> {
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
    fn keys(&self, kinds: &bit_set::BitSet, rule: &RuleConfig<SupportLang>) -> Option<Vec<Key>> {
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
fn spelled_out(regex: &str) -> Option<Vec<String>> {
    let word = |s: &String| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    spelled_out_literally(regex).filter(|words| words.iter().all(word))
}

/// Whether every match of a rule (as JSON) binds the metavariable `name` to a node inside
/// the matched one: its `pattern` (matching the whole node) holds `$name` as a single
/// capture, every alternative of its `any` binds it, or one item of its `all` does.
fn binds(lang: SupportLang, rule: &serde_json::Value, name: &str) -> bool {
    let in_pattern = rule
        .get("pattern")
        .and_then(|p| whole_pattern(lang, p))
        .is_some_and(|(pattern, _)| captures(&pattern.node, name));
    let in_any = rule
        .get("any")
        .and_then(|a| a.as_array())
        .is_some_and(|a| !a.is_empty() && a.iter().all(|r| binds(lang, r, name)));
    let in_all = rule
        .get("all")
        .and_then(|a| a.as_array())
        .is_some_and(|a| a.iter().any(|r| binds(lang, r, name)));
    in_pattern || in_any || in_all
}

/// Whether a pattern holds `$name` as a single capture.
fn captures(node: &ast_grep_core::matcher::PatternNode, name: &str) -> bool {
    use ast_grep_core::matcher::PatternNode;
    use ast_grep_core::meta_var::MetaVariable;
    match node {
        PatternNode::MetaVar {
            meta_var: MetaVariable::Capture(id, _),
        } => id == name,
        PatternNode::Internal { children, .. } => children.iter().any(|c| captures(c, name)),
        _ => false,
    }
}

/// The texts a regex matches when it spells them out as literals (no regex syntax inside
/// an alternative): `^(""|'')$`, `^(a|b)$`.
fn spelled_out_literally(regex: &str) -> Option<Vec<String>> {
    let literal = |s: &str| !s.is_empty() && !s.contains(|c| "\\.+*?()[]{}|^$".contains(c));
    let body = regex.strip_prefix('^')?.strip_suffix('$')?;
    let Some(open) = body.find('(') else {
        return literal(body).then(|| vec![body.to_owned()]);
    };
    let close = body.rfind(')')?;
    let (prefix, suffix) = (&body[..open], body.get(close + 1..)?);
    let inner = body.get(open + 1..close)?;
    let inner = inner.strip_prefix("?:").unwrap_or(inner);
    let affix = |s: &str| s.is_empty() || literal(s);
    if !affix(prefix) || !affix(suffix) {
        return None;
    }
    inner
        .split('|')
        .map(|alt| literal(alt).then(|| format!("{prefix}{alt}{suffix}")))
        .collect()
}

/// The words a node's text must contain for a rule to match it: the text of every named
/// leaf of its (plain string) patterns that is not a metavariable. With ast-grep's default
/// `smart` strictness each such leaf of the pattern matches a leaf of the node with exactly
/// that text, so a node whose text lacks one cannot match; and the literals its regexes
/// need ([`Words::of_regex`]). Read from the rule's `pattern` and `regex`, its `all` and
/// `has` rules (a descendant's text is inside the node's) and its `any`
/// alternatives (one of them must be found); `not`, `inside`, `follows`, `precedes` and
/// `matches` require nothing of the node's own text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Words {
    All(Vec<Words>),
    Any(Vec<Words>),
    Word(Needle),
    /// the text starts with it (a regex anchored at `^`)
    Starts(Vec<u8>),
    /// the text ends with it (a regex anchored at `$`)
    Ends(Vec<u8>),
}

/// At most how many literals a regex's words may be (each is searched for in turn).
const REGEX_WORDS: usize = 8;

/// At most how many literals a regex anchored at the start or end may give (each is
/// compared with the text's start or end only).
const ANCHORED_WORDS: usize = 32;

/// A word with its searcher, built once per pack (building one costs more than searching
/// a node's text with it).
#[derive(Clone, Debug)]
struct Needle(Box<memchr::memmem::Finder<'static>>);

impl Needle {
    fn new(word: &[u8]) -> Self {
        Self(Box::new(memchr::memmem::Finder::new(word).into_owned()))
    }
}

impl PartialEq for Needle {
    fn eq(&self, other: &Self) -> bool {
        self.0.needle() == other.0.needle()
    }
}

impl Eq for Needle {}

impl Words {
    fn of_rule(lang: SupportLang, rule: &RuleConfig<SupportLang>) -> Option<Self> {
        let json = serde_json::to_value(&rule.rule).ok()?;
        let constraints = serde_json::to_value(&rule.constraints).ok();
        let mut all: Vec<Self> = Self::of_json(lang, &json, true).into_iter().collect();
        all.extend(Self::of_constraints(lang, &json, constraints.as_ref()));
        match all.len() {
            0 => None,
            1 => all.pop(),
            _ => Some(Self::All(all)),
        }
    }

    /// The words of the metavariables every match binds (see [`binds`]) whose constraint
    /// spells out their whole text (`regex: ^(""|'')$`): the bound node lies inside the
    /// matched one, so its text holds one of them.
    fn of_constraints(
        lang: SupportLang,
        rule: &serde_json::Value,
        constraints: Option<&serde_json::Value>,
    ) -> Vec<Self> {
        let Some(constraints) = constraints.and_then(|c| c.as_object()) else {
            return Vec::new();
        };
        constraints
            .iter()
            .filter(|(name, _)| binds(lang, rule, name))
            .flat_map(|(_, constraint)| {
                let regex = constraint.get("regex").and_then(|r| r.as_str());
                regex.map_or_else(Vec::new, |regex| match spelled_out_literally(regex) {
                    Some(words) => vec![Self::Any(
                        words.iter().map(|w| Self::word(w.as_bytes())).collect(),
                    )],
                    None => Self::of_regex(regex, false),
                })
            })
            .collect()
    }

    /// The words a regex needs in every text it matches somewhere in: one of the literals
    /// each of its matches starts with, and one of those each ends with, as regex-syntax
    /// extracts them (parsed as the regex crate ast-grep matches with parses it), when
    /// there are at most [`REGEX_WORDS`] of them and none is empty. When the regex is the
    /// node's `own` (not a descendant's or a metavariable's) and anchored at `^` or `$`, the
    /// node's text starts or ends with one of them.
    fn of_regex(regex: &str, own: bool) -> Vec<Self> {
        use regex_syntax::hir::literal::{ExtractKind, Extractor};
        use regex_syntax::hir::Look;
        let Ok(hir) = regex_syntax::Parser::new().parse(regex) else {
            return Vec::new();
        };
        let props = hir.properties();
        let ends = [
            (
                ExtractKind::Prefix,
                own && props.look_set_prefix().contains(Look::Start),
            ),
            (
                ExtractKind::Suffix,
                own && props.look_set_suffix().contains(Look::End),
            ),
        ];
        ends.into_iter()
            .filter_map(|(kind, anchored)| {
                let seq = Extractor::new().kind(kind.clone()).extract(&hir);
                let literals = seq.literals()?;
                let limit = if anchored {
                    ANCHORED_WORDS
                } else {
                    REGEX_WORDS
                };
                let words: Vec<&[u8]> = literals.iter().map(|l| l.as_bytes()).collect();
                let usable = words.len() <= limit && !words.iter().any(|w| w.is_empty());
                let word = |w: &[u8]| match (anchored, &kind) {
                    (false, _) => Self::word(w),
                    (true, ExtractKind::Prefix) => Self::Starts(w.to_vec()),
                    (true, _) => Self::Ends(w.to_vec()),
                };
                let words: Vec<Self> = words.into_iter().map(word).collect();
                (usable && !words.is_empty()).then_some(Self::Any(words))
            })
            .collect()
    }

    /// The words of a rule (as JSON) describing the node itself (`own`) or a descendant.
    fn of_json(lang: SupportLang, rule: &serde_json::Value, own: bool) -> Option<Self> {
        let mut all = Vec::new();
        if let Some((pattern, _)) = rule.get("pattern").and_then(|p| whole_pattern(lang, p)) {
            let mut words = Vec::new();
            named_leaves(&pattern.node, &mut words);
            all.extend(words.iter().map(|w| Self::word(w)));
        }
        if let Some(regex) = rule.get("regex").and_then(|r| r.as_str()) {
            all.extend(Self::of_regex(regex, own));
        }
        for item in rule
            .get("all")
            .and_then(|a| a.as_array())
            .into_iter()
            .flatten()
        {
            all.extend(Self::of_json(lang, item, own));
        }
        if let Some(has) = rule.get("has") {
            all.extend(Self::of_json(lang, has, false));
        }
        if let Some(alternatives) = rule.get("any").and_then(|a| a.as_array()) {
            let each: Option<Vec<Self>> = alternatives
                .iter()
                .map(|r| Self::of_json(lang, r, own))
                .collect();
            all.extend(each.filter(|e| !e.is_empty()).map(Self::Any));
        }
        match all.len() {
            0 => None,
            1 => all.pop(),
            _ => Some(Self::All(all)),
        }
    }

    fn word(word: &[u8]) -> Self {
        Self::Word(Needle::new(word))
    }

    fn found_in(&self, text: &[u8]) -> bool {
        match self {
            Self::All(words) => words.iter().all(|w| w.found_in(text)),
            Self::Any(words) => words.iter().any(|w| w.found_in(text)),
            Self::Word(word) => word.0.find(text).is_some(),
            Self::Starts(word) => text.starts_with(word),
            Self::Ends(word) => text.ends_with(word),
        }
    }
}

/// A rule's `pattern` (as JSON) as ast-grep compiles it, when it matches the whole node:
/// a plain string, or a `context` without `selector`; with whether its strictness is `ast`
/// (unnamed leaves of the pattern may be skipped). None for the strictnesses that may
/// match a named leaf by kind alone or ignore kinds (`relaxed`, `signature`, `template`).
pub(crate) fn whole_pattern(
    lang: SupportLang,
    pattern: &serde_json::Value,
) -> Option<(ast_grep_core::Pattern, bool)> {
    if let Some(text) = pattern.as_str() {
        return Some((ast_grep_core::Pattern::try_new(text, lang).ok()?, false));
    }
    if pattern.get("selector").is_some_and(|s| !s.is_null()) {
        return None;
    }
    let context = pattern.get("context")?.as_str()?;
    let ast = match pattern.get("strictness").filter(|s| !s.is_null()) {
        None => false,
        Some(strictness) => match strictness.as_str()? {
            "smart" | "cst" => false,
            "ast" => true,
            _ => return None,
        },
    };
    Some((ast_grep_core::Pattern::try_new(context, lang).ok()?, ast))
}

/// The texts of the named leaves of a pattern that are not metavariables.
fn named_leaves(node: &ast_grep_core::matcher::PatternNode, found: &mut Vec<Vec<u8>>) {
    use ast_grep_core::matcher::PatternNode;
    match node {
        PatternNode::Terminal {
            text,
            is_named: true,
            ..
        } if !text.is_empty() && !found.iter().any(|w| w == text.as_bytes()) => {
            found.push(text.as_bytes().to_vec());
        }
        PatternNode::Internal { children, .. } => {
            for child in children {
                named_leaves(child, found);
            }
        }
        _ => {}
    }
}

/// One rule's text compiled for `language`, or why ast-grep refuses it.
fn compile_one(language: SupportLang, text: &str) -> Result<RuleConfig<SupportLang>, String> {
    let mut parsed =
        from_yaml_string::<SupportLang>(text, &GlobalRules::default()).map_err(|e| describe(&e))?;
    if parsed.len() != 1 {
        return Err(format!("expected one rule, found {}", parsed.len()));
    }
    let rule = parsed.remove(0);
    if rule.language != language {
        return Err(format!(
            "rule language {} is not this pack's ({language})",
            rule.language
        ));
    }
    Ok(rule)
}

/// Every error ast-grep gives, causes included, on one line.
fn describe(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message.replace('\n', " ")
}

/// One combined scan of a pack, shared by the files of a batch.
pub struct Scanner<'p> {
    pack: &'p RulePack,
    lookup: &'p Lookup,
    scan: CombinedScan<'p, SupportLang>,
}

/// What a pack's scanners look its rules up by.
struct Lookup {
    /// rule address → index in the pack
    index: HashMap<usize, usize>,
    /// kind id → indexes of the rules that may match a node of that kind (rules tried
    /// only on calls of one name are in `calls` instead)
    by_kind: Vec<Vec<usize>>,
    /// the call shape and, by called name, the rules whose pattern calls that name
    calls: Option<(Callees, ByCallee)>,
    /// by rule: what must be around a node for the rule to match it
    needs: Vec<Needs>,
    /// kind id → its bit in an [`Around`] mask (0: no rule's needs name it)
    bits: Vec<Bit>,
    /// the grammar, for the kinds beyond the table (error nodes)
    grammar: tree_sitter::Language,
    /// by rule: the words a node's text must contain for the rule to match it
    words: Vec<Option<Words>>,
    /// by rule: the places its pattern captures one metavariable at
    twins: Vec<Twins>,
    /// by rule: the shape its `ast`-strictness patterns ask of a node
    shapes: Vec<Shape>,
}

/// Called name → indexes of the rules tried on calls of that name: plain names, then
/// method names.
type ByCallee = [HashMap<Vec<u8>, Vec<usize>>; 2];

/// Text that turns a comment into an ast-grep suppression.
pub const AST_GREP_IGNORE: &str = "ast-grep-ignore";

impl Scanner<'_> {
    /// Whether some rule may match a node of this kind.
    pub fn wants(&self, kind: u16) -> bool {
        let calls = self.lookup.calls.as_ref();
        calls.is_some_and(|(c, _)| c.is_call(kind))
            || self
                .lookup
                .by_kind
                .get(usize::from(kind))
                .is_some_and(|rules| !rules.is_empty())
    }

    /// The bit of a node of this kind in an [`Around`] mask.
    pub fn bit(&self, kind: u16) -> Bit {
        let beyond = || Bit::unnamed_by_rules(self.lookup.grammar.node_kind_is_named(kind));
        self.lookup
            .bits
            .get(usize::from(kind))
            .copied()
            .unwrap_or_else(beyond)
    }

    /// Match one node against the rules of its kind; hits go to `hits`. `around` holds
    /// what is around it (see [`Scanner::bit`]).
    pub fn visit(
        &self,
        node: Node<'_, StrDoc<SupportLang>>,
        around: Around,
        hits: &mut Vec<HitRecord>,
    ) {
        let kind = node.kind_id();
        let range = node.get_inner_node().byte_range();
        let around = if range.is_empty() {
            around.unordered()
        } else {
            around
        };
        let text = node.get_doc().src.as_bytes().get(range).unwrap_or_default();
        if let Some(rules) = self.lookup.by_kind.get(usize::from(kind)) {
            self.try_rules(rules, &node, &around, text, hits);
        }
        if let Some((calls, by_callee)) = &self.lookup.calls {
            let callee = calls.callee(node.get_inner_node(), &node.get_doc().src);
            let rules = callee.and_then(|callee| {
                let (method, name) = callee.parts();
                by_callee[usize::from(method)].get(name)
            });
            if let Some(rules) = rules {
                self.try_rules(rules, &node, &around, text, hits);
            }
        }
    }

    fn try_rules(
        &self,
        rules: &[usize],
        node: &Node<'_, StrDoc<SupportLang>>,
        around: &Around,
        text: &[u8],
        hits: &mut Vec<HitRecord>,
    ) {
        for &index in rules {
            if !self.lookup.needs[index].met(around) {
                continue;
            }
            if self.lookup.words[index]
                .as_ref()
                .is_some_and(|w| !w.found_in(text))
            {
                continue;
            }
            let inner = node.get_inner_node();
            if !self.lookup.shapes[index].holds(inner) {
                continue;
            }
            if !self.lookup.twins[index].hold(inner, node.get_doc().src.as_bytes()) {
                continue;
            }
            let rule = &self.pack.rules[index];
            if let Some(found) = rule.matcher.match_node(node.clone()) {
                hits.push(self.hit(index, rule, &found));
            }
        }
    }

    fn hit(
        &self,
        index: usize,
        rule: &RuleConfig<SupportLang>,
        found: &NodeMatch<'_, StrDoc<SupportLang>>,
    ) -> HitRecord {
        let templated = self.pack.templated.get(index).copied().unwrap_or(false);
        HitRecord {
            rule: u32::try_from(index).unwrap_or(u32::MAX),
            start: found.start_pos().line() + 1,
            end: found.end_pos().line() + 1,
            message: templated.then(|| rule.get_message(found)),
        }
    }

    /// The rules tried only on calls of one name (for tests and diagnostics).
    pub fn keyed_rules(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self
            .lookup
            .calls
            .iter()
            .flat_map(|(_, by)| by.iter().flat_map(HashMap::values).flatten())
            .map(|i| self.pack.rules[*i].id.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Put hits in order of position.
    pub fn sort(hits: &mut [HitRecord]) {
        hits.sort_by_key(|a| (a.start, a.rule, a.end));
    }

    /// The hits in a parsed file by ast-grep's combined scan (ast-grep-ignore honoured).
    pub fn hits(&self, root: &AstGrep<StrDoc<SupportLang>>) -> Vec<HitRecord> {
        let result = self.scan.scan(root, false);
        let mut hits = Vec::new();
        for (rule, matches) in result.matches {
            let address = rule as *const RuleConfig<SupportLang> as usize;
            let Some(&index) = self.lookup.index.get(&address) else {
                continue;
            };
            for found in matches {
                hits.push(self.hit(index, rule, &found));
            }
        }
        Self::sort(&mut hits);
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::{spelled_out, RulePack, Words};
    use crate::lang::by_name;
    use crate::needs::pattern_kinds;

    fn rule(id: &str, body: &str) -> String {
        format!("id: {id}\nlanguage: python\nrule:\n{body}")
    }

    #[test]
    fn the_scanners_of_a_pack_share_one_lookup() {
        let lang = by_name("python").expect("python");
        let pack =
            RulePack::compile(lang, &[rule("dict-call", "  pattern: dict()\n")]).expect("compiles");
        let (first, second) = (pack.scanner(), pack.scanner());
        assert!(std::ptr::eq(first.lookup, second.lookup));
        assert_eq!(second.keyed_rules(), ["dict-call"]);
    }

    #[test]
    fn rules_calling_a_plain_name_or_method_are_keyed_by_it() {
        let texts = [
            rule("dict-call", "  pattern: dict()\n"),
            rule("set-call", "  kind: call\n  pattern: set($L)\n"),
            rule(
                "casts",
                "  any:\n    - pattern: list($X)\n    - pattern: tuple($X)\n",
            ),
            rule("any-callee", "  pattern: $F()\n"),
            rule("method", "  pattern: dict().get($K)\n"),
            rule("any-method", "  pattern: $D.$M()\n"),
            rule("compare", "  pattern: $A == None\n"),
            rule(
                "mixed",
                "  any:\n    - pattern: list($X)\n    - kind: call\n",
            ),
        ];
        let lang = by_name("python").expect("python");
        let pack = RulePack::compile(lang, &texts).expect("compiles");
        let scanner = pack.scanner();
        assert_eq!(
            scanner.keyed_rules(),
            ["casts", "dict-call", "method", "set-call"]
        );
    }

    #[test]
    fn regexes_that_spell_out_words_give_them() {
        assert_eq!(spelled_out("^(any|all)$").expect("words"), ["any", "all"]);
        assert_eq!(
            spelled_out("^__(?:len|str)__$").expect("words"),
            ["__len__", "__str__"]
        );
        assert_eq!(spelled_out("^open$").expect("word"), ["open"]);
        for open_ended in [
            "^(any|all)",
            "(any|all)$",
            "^(a|b.*)$",
            "^(?i)(a)$",
            "^(a|)$",
        ] {
            assert!(spelled_out(open_ended).is_none(), "{open_ended}");
        }
    }

    #[test]
    fn rules_are_tried_only_where_their_relations_can_hold() {
        let lang = by_name("python").expect("python");
        let texts = [
            rule("after-raise", "  kind: expression_statement\n  follows: {kind: raise_statement, stopBy: end}\n"),
            rule("in-class", "  kind: argument_list\n  inside: {kind: class_definition}\n"),
            rule("either", "  kind: expression_statement\n  any:\n    - precedes: {kind: return_statement}\n    - precedes: {kind: raise_statement}\n"),
        ];
        let pack = RulePack::compile(lang, &texts).expect("compiles");
        let analyzer = crate::analyze::Analyzer::new(lang, Some(&pack), Default::default());
        let ids = |text: &str| match analyzer.text(text) {
            crate::record::Outcome::Measured(r) => r
                .hits
                .iter()
                .map(|h| (texts_id(h.rule), h.start))
                .collect::<Vec<_>>(),
            crate::record::Outcome::Failed(e) => panic!("{e:?}"),
        };
        let text = "def f(x):\n    g(x)\n    raise E\n    h(x)\n\nclass A(B):\n    pass\n\ndef k():\n    y = 1\n    return y\n";
        assert_eq!(
            ids(text),
            [
                ("either", 2),
                ("after-raise", 4),
                ("in-class", 6),
                ("either", 10)
            ]
        );
    }

    #[test]
    fn constraints_that_spell_out_a_bound_metavariable_give_words() {
        let lang = by_name("python").expect("python").ast_grep();
        let of = |rule: &str, constraints: &str| {
            let rule: serde_json::Value = serde_json::from_str(rule).expect("rule");
            let constraints: serde_json::Value = serde_json::from_str(constraints).expect("c");
            Words::of_constraints(lang, &rule, Some(&constraints))
        };
        let empty = r#"{"S": {"regex": "^(\"\"|'')$"}}"#;
        let both = Words::Any(vec![Words::word(b"\"\""), Words::word(b"''")]);
        let every = r#"{"any": [{"pattern": "$X == $S"}, {"pattern": "$S != $X"}]}"#;
        assert_eq!(of(every, empty), std::slice::from_ref(&both));
        let all = r#"{"all": [{"kind": "call"}, {"pattern": "f($S)"}]}"#;
        assert_eq!(of(all, empty), [both]);
        let one = r#"{"any": [{"pattern": "$X == $S"}, {"pattern": "$X != $Y"}]}"#;
        assert!(of(one, empty).is_empty(), "an alternative binds no S");
        let around = r#"{"pattern": "$X", "has": {"pattern": "$S"}}"#;
        assert!(of(around, empty).is_empty(), "S bound by a relation only");
        let open = r#"{"S": {"regex": "^(a|b.)$"}}"#;
        let literals = Words::of_regex("^(a|b.)$", false);
        assert_eq!(
            of(every, open),
            literals,
            "not spelled out: the regex's literals"
        );
    }

    #[test]
    fn words_are_the_named_leaves_every_match_contains() {
        let lang = by_name("python").expect("python").ast_grep();
        let words = |yaml: &str| {
            let json = serde_json::to_value(
                serde_json::from_str::<serde_json::Value>(yaml).expect("json"),
            )
            .expect("value");
            Words::of_json(lang, &json, true)
        };
        let word = |w: &str| Words::word(w.as_bytes());
        assert_eq!(
            words(r#"{"pattern": "len($X) == 0"}"#),
            Some(Words::All(vec![word("len"), word("0")]))
        );
        assert_eq!(
            words(
                r#"{"any": [{"pattern": "$A is None"}, {"has": {"pattern": "print($$$)"}}], "not": {"pattern": "x"}}"#
            ),
            Some(Words::Any(vec![word("None"), word("print")]))
        );
        assert_eq!(
            words(r#"{"any": [{"pattern": "$A is None"}, {"kind": "call"}]}"#),
            None
        );
        assert_eq!(
            words(r#"{"inside": {"pattern": "foo()"}, "kind": "call"}"#),
            None
        );
        let found = Words::All(vec![word("len"), word("0")]);
        assert!(found.found_in(b"len(items) == 0"));
        assert!(!found.found_in(b"len(items) == 1"));
    }

    #[test]
    fn a_plain_pattern_needs_the_kinds_of_its_nodes() {
        let lang = by_name("python").expect("python");
        let children = |pattern: &str| pattern_kinds(lang, &serde_json::json!(pattern)).0;
        assert_eq!(children("$X = $X + $Y"), ["=", "binary_operator"]);
        assert_eq!(children("$V = $D[$K]"), ["=", "subscript"]);
        // after an ellipsis ast-grep skips unnamed leaves: only named children count
        assert_eq!(children("[$$$A, 1]"), ["integer"]);
        assert_eq!(children("[$A, 1]"), ["[", ",", "integer", "]"]);
        assert_eq!(children("f($$$)"), ["identifier", "argument_list"]);
        assert!(children("$X").is_empty());
        let (own, below) = pattern_kinds(
            lang,
            &serde_json::json!("if $C:\n    return True\nelse:\n    return False\n"),
        );
        assert_eq!(own, ["if", ":", "block", "else_clause"]);
        let mut below = below;
        below.sort();
        assert_eq!(below, ["false", "return_statement", "true"]);
        // a context pattern as the compiled rule gives it back: with `ast` strictness
        // unnamed leaves may be skipped
        let texts = [rule(
            "ctx",
            "  pattern:\n    context: \"if $C:\\n    $V = True\\n\"\n    strictness: ast\n",
        )];
        let pack = RulePack::compile(lang, &texts).expect("compiles");
        let json = serde_json::to_value(&pack.configs()[0].rule).expect("json");
        let (own, below) = pattern_kinds(lang, &json["pattern"]);
        assert_eq!(own, ["block"]);
        assert_eq!(below, ["expression_statement", "assignment", "true"]);
        let words = Words::of_json(lang.ast_grep(), &json, true);
        assert_eq!(words, Some(Words::word(b"True")));
    }

    #[test]
    fn regexes_give_the_literals_their_matches_start_or_end_with() {
        let word = |w: &str| Words::word(w.as_bytes());
        let starts = |w: &str| Words::Starts(w.as_bytes().to_vec());
        let ends = |w: &str| Words::Ends(w.as_bytes().to_vec());
        assert_eq!(
            Words::of_regex("^return\\s+None$", true),
            [
                Words::Any(vec![starts("return")]),
                Words::Any(vec![ends("None")])
            ]
        );
        assert_eq!(
            Words::of_regex("^return\\s+None$", false),
            [
                Words::Any(vec![word("return")]),
                Words::Any(vec![word("None")])
            ]
        );
        assert_eq!(
            Words::of_regex("get[\\s\\S]*get", true),
            [Words::Any(vec![word("get")]), Words::Any(vec![word("get")])]
        );
        assert!(Words::of_regex("[-+*]", true).len() == 2);
        assert!(Words::of_regex("^[^\\n]*$", true).is_empty(), "no literal");
        assert!(
            Words::of_regex("(?i)^(a|b|c|d|e|f|g|h|i)", false).is_empty(),
            "too many"
        );
        assert!(Words::of_regex("(", true).is_empty(), "not a regex");
    }

    #[test]
    fn regex_words_keep_the_hits() {
        let lang = by_name("python").expect("python");
        let texts = [
            rule("own", "  kind: return_statement\n  regex: ^return\\s+None$\n"),
            rule("bound", "  kind: function_definition\n  pattern: {context: \"def $N(self):\\n    return 1\\n\", strictness: ast}\nconstraints:\n  N: {regex: ^get_}\n"),
            rule("below", "  kind: if_statement\n  has: {field: condition, regex: None$}\n"),
        ];
        let text =
            "def get_x(self):\n    return 1\n\ndef f(x):\n    if x is None:\n        return None\n";
        let pack = RulePack::compile(lang, &texts).expect("compiles");
        let analyzer = crate::analyze::Analyzer::new(lang, Some(&pack), Default::default());
        let crate::record::Outcome::Measured(record) = analyzer.text(text) else {
            panic!("not measured");
        };
        let found: Vec<_> = record.hits.iter().map(|h| (h.rule, h.start)).collect();
        assert_eq!(found, [(1, 1), (2, 5), (0, 6)]);
    }

    fn texts_id(index: u32) -> &'static str {
        ["after-raise", "in-class", "either"][index as usize]
    }
}
