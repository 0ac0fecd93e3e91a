//! A rule's pattern as ast-grep compiles it, read by the rule filters ([`crate::rules`],
//! [`crate::needs`], [`crate::shape`]) from a rule's JSON.

use ast_grep_language::SupportLang;

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
