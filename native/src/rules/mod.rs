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

mod callees;
mod words;

use crate::lang::Language;
pub use crate::needs::{Around, Place, Surroundings};
use crate::needs::{Bit, Needs, Twins};
use crate::record::HitRecord;
use crate::shape::Shape;
use ast_grep_config::{from_yaml_string, CombinedScan, GlobalRules, RuleConfig, Severity};
use ast_grep_core::matcher::MatcherExt;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{AstGrep, Matcher, Node, NodeMatch};
use ast_grep_language::SupportLang;
use callees::Callees;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;
use words::Words;

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
mod tests;
