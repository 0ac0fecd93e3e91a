//! The words a node's text must contain for a rule to match it ([`Words`]).

use crate::pattern::whole_pattern;
use ast_grep_config::RuleConfig;
use ast_grep_language::SupportLang;

/// The words a node's text must contain for a rule to match it: the text of every named
/// leaf of its (plain string) patterns that is not a metavariable. With ast-grep's default
/// `smart` strictness each such leaf of the pattern matches a leaf of the node with exactly
/// that text, so a node whose text lacks one cannot match; and the literals its regexes
/// need ([`Words::of_regex`]). Read from the rule's `pattern` and `regex`, its `all` and
/// `has` rules (a descendant's text is inside the node's) and its `any`
/// alternatives (one of them must be found); `not`, `inside`, `follows`, `precedes` and
/// `matches` require nothing of the node's own text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Words {
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
pub(super) struct Needle(Box<memchr::memmem::Finder<'static>>);

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
    pub(super) fn of_rule(lang: SupportLang, rule: &RuleConfig<SupportLang>) -> Option<Self> {
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
    pub(super) fn of_constraints(
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
    pub(super) fn of_regex(regex: &str, own: bool) -> Vec<Self> {
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
    pub(super) fn of_json(lang: SupportLang, rule: &serde_json::Value, own: bool) -> Option<Self> {
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

    pub(super) fn word(word: &[u8]) -> Self {
        Self::Word(Needle::new(word))
    }

    pub(super) fn found_in(&self, text: &[u8]) -> bool {
        match self {
            Self::All(words) => words.iter().all(|w| w.found_in(text)),
            Self::Any(words) => words.iter().any(|w| w.found_in(text)),
            Self::Word(word) => word.0.find(text).is_some(),
            Self::Starts(word) => text.starts_with(word),
            Self::Ends(word) => text.ends_with(word),
        }
    }
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
pub(super) fn spelled_out_literally(regex: &str) -> Option<Vec<String>> {
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
