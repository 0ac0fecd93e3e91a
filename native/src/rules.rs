//! The YAML rule pack, run in-process with ast-grep's library crates on the tree the
//! metrics walk uses.
//!
//! Rules are compiled once per pack. A scan of a file goes through ast-grep's
//! `CombinedScan` (every rule in one traversal, dispatched by node kind), which also
//! honours ast-grep's own `ast-grep-ignore` comments, as the `ast-grep scan` command does.

use crate::record::HitRecord;
use ast_grep_config::{from_yaml_string, CombinedScan, GlobalRules, RuleConfig, Severity};
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;
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
        Scanner {
            pack: self,
            scan: CombinedScan::new(active),
            index,
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
}

impl Scanner<'_> {
    /// The hits in a parsed file, in order of position.
    pub fn hits(&self, root: &AstGrep<StrDoc<SupportLang>>) -> Vec<HitRecord> {
        let result = self.scan.scan(root, false);
        let mut hits = Vec::new();
        for (rule, matches) in result.matches {
            let address = rule as *const RuleConfig<SupportLang> as usize;
            let Some(&index) = self.index.get(&address) else {
                continue;
            };
            let templated = self.pack.templated.get(index).copied().unwrap_or(false);
            for found in matches {
                hits.push(HitRecord {
                    rule: u32::try_from(index).unwrap_or(u32::MAX),
                    start: found.start_pos().line() + 1,
                    end: found.end_pos().line() + 1,
                    message: templated.then(|| rule.get_message(&found)),
                });
            }
        }
        hits.sort_by_key(|a| (a.start, a.rule, a.end));
        hits
    }
}
