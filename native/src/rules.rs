//! The YAML rule pack, run in-process with ast-grep's library crates on the tree the
//! metrics walk uses.
//!
//! Rules are compiled once per pack and dispatched by node kind (each rule's potential
//! kinds, as ast-grep's `CombinedScan` does) from the metrics walk itself, so a file is
//! traversed once. A file with ast-grep's own `ast-grep-ignore` comments is scanned with
//! `CombinedScan` instead, which honours them as the `ast-grep scan` command does.

use crate::record::HitRecord;
use ast_grep_config::{from_yaml_string, CombinedScan, GlobalRules, RuleConfig, Severity};
use ast_grep_core::matcher::MatcherExt;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{AstGrep, Matcher, Node, NodeMatch};
use ast_grep_language::SupportLang;
use std::collections::HashMap;

/// A compiled rule pack for one language.
pub struct RulePack {
    rules: Vec<RuleConfig<SupportLang>>,
    /// Rules whose message names metavariables (interpolated per hit).
    templated: Vec<bool>,
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
    pub fn compile(language: SupportLang, texts: &[String]) -> Result<Self, RuleError> {
        let globals = GlobalRules::default();
        let mut rules = Vec::with_capacity(texts.len());
        for (index, text) in texts.iter().enumerate() {
            let refuse = |message: String| RuleError { index, message };
            let mut parsed = from_yaml_string::<SupportLang>(text, &globals)
                .map_err(|error| refuse(describe(&error)))?;
            if parsed.len() != 1 {
                return Err(refuse(format!("expected one rule, found {}", parsed.len())));
            }
            let rule = parsed.remove(0);
            if rule.language != language {
                return Err(refuse(format!(
                    "rule language {} is not this pack's ({language})",
                    rule.language
                )));
            }
            rules.push(rule);
        }
        let templated = rules.iter().map(|r| r.message.contains('$')).collect();
        Ok(Self { rules, templated })
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
        let index = self
            .rules
            .iter()
            .enumerate()
            .map(|(i, rule)| (rule as *const RuleConfig<SupportLang> as usize, i))
            .collect();
        let mut by_kind: Vec<Vec<usize>> = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            if matches!(rule.severity, Severity::Off) {
                continue;
            }
            for kind in rule.matcher.potential_kinds().iter().flat_map(|k| k.iter()) {
                if by_kind.len() <= kind {
                    by_kind.resize(kind + 1, Vec::new());
                }
                by_kind[kind].push(i);
            }
        }
        Scanner {
            pack: self,
            scan: CombinedScan::new(active),
            index,
            by_kind,
        }
    }
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
    scan: CombinedScan<'p, SupportLang>,
    /// rule address → index in the pack
    index: HashMap<usize, usize>,
    /// kind id → indexes of the rules that may match a node of that kind
    by_kind: Vec<Vec<usize>>,
}

/// Text that turns a comment into an ast-grep suppression.
pub const AST_GREP_IGNORE: &str = "ast-grep-ignore";

impl Scanner<'_> {
    /// Whether some rule may match a node of this kind.
    pub fn wants(&self, kind: u16) -> bool {
        self.by_kind
            .get(usize::from(kind))
            .is_some_and(|rules| !rules.is_empty())
    }

    /// Match one node against the rules of its kind; hits go to `hits`.
    pub fn visit(&self, node: Node<'_, StrDoc<SupportLang>>, hits: &mut Vec<HitRecord>) {
        let Some(rules) = self.by_kind.get(usize::from(node.kind_id())) else {
            return;
        };
        for &index in rules {
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
            let Some(&index) = self.index.get(&address) else {
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
