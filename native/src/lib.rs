//! slopmark's native analysis core.
//!
//! Per file, one tree-sitter parse feeds everything `slopmark code measure` needs: the
//! callables with their cyclomatic complexity and SLOC, the SLOC lines, the clone
//! candidates' normal-form digests, the `slopmark: ignore[...]` comments, and the hits of
//! the YAML rule pack run in-process through ast-grep's library crates. Files are analysed
//! in parallel ([`analyze::Analyzer::batch`]); each yields a plain [`record::Outcome`].
//!
//! Languages live in [`lang`], one module each; the walk ([`walk`], [`clones`]) is shared.

pub mod analyze;
pub mod clones;
pub mod lang;
pub mod record;
pub mod rules;
pub mod walk;

#[cfg(feature = "python")]
mod python;
