//! What must be around a node for a rule to match it ([`Needs`]), and what is around each
//! node of a walk ([`Surroundings`]): necessary conditions on the kinds of a node's
//! relatives and on its position among its siblings, read from a rule's relations, plain
//! patterns and `nthChild`, and tested before ast-grep matches the rule. A rule the reading
//! does not understand simply needs less; ast-grep still decides every match.

mod around;
mod clauses;
mod twins;

pub use around::{Around, Bit, Mask, Place, Surroundings};
#[cfg(test)]
pub(crate) use clauses::pattern_kinds;
pub(crate) use clauses::Needs;
pub(crate) use twins::Twins;

#[cfg(test)]
pub(crate) mod tests;
