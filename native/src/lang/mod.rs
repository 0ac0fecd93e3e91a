//! Languages: one module per language, each holding its definitions with their source.
//!
//! A language module says, in tables of tree-sitter node kinds plus a few hooks:
//!
//! * which nodes add one to cyclomatic complexity (its CC table),
//! * which nodes are callables, where callables are looked for, and how they are named,
//! * which tokens make a line count as SLOC, and which lines are documentation,
//! * which nodes are clone candidates and how their normal form abstracts names and literals.
//!
//! The walk in [`crate::walk`] and [`crate::clones`] is shared by every language; it only
//! reads these definitions. Adding a language touches the core and the Python package
//! alike: the recipe "A language" in `docs/extending.md` lists every file, in order
//! (`tests/test_extending.py` holds the list to the tree).

pub mod ecmascript;
pub mod go;
pub mod java;
pub mod python;
pub mod rust;
pub mod variance;

use ast_grep_language::SupportLang;
use tree_sitter::{Language as Grammar, Node};

/// How a language's callables are found.
pub enum Discovery {
    /// Only through these node kinds (below the root): a callable nested in any other
    /// node (an `if`, a call argument...) is not a callable.
    Through(&'static [&'static str]),
    /// Anywhere in the tree.
    Anywhere,
}

/// What the SLOC walk does with one node (see [`Language::sloc_node`]).
pub enum SlocStep {
    /// The generic rule: a leaf's start line counts (unless it is a comment); descend otherwise.
    Generic,
    /// The node is one token: the language marked its lines, and nothing inside it is
    /// read by any measure (no decisions, callables or clone candidates in it).
    Opaque,
}

/// The definitions of one language.
pub trait Language: Sync + Send {
    /// The name users write (`--language`, a rule's `language:`).
    fn name(&self) -> &'static str;
    /// File name extensions measured as this language (without the dot).
    fn extensions(&self) -> &'static [&'static str];
    /// The language its files are reported under, as `--language` and reports name it: its
    /// own name, unless the grammar reads a dialect of another language (TSX files are
    /// TypeScript).
    fn reported_as(&self) -> &'static str {
        self.name()
    }
    /// The languages whose grammar this one extends: rules written for them (a rule's
    /// `language:`) run on its files too, besides those of [`Language::reported_as`].
    fn extends(&self) -> &'static [&'static str] {
        &[]
    }
    /// ast-grep's handle for the grammar (rules are matched on the same tree).
    fn ast_grep(&self) -> SupportLang;
    /// The tree-sitter grammar.
    fn grammar(&self) -> Grammar;

    /// Whether a file with syntax errors is still measured (its error nodes are walked like
    /// any other node and the first error's place is reported with the record). False: such
    /// a file is reported as a syntax error and not measured (Python, as its reference does).
    fn measures_broken_files(&self) -> bool {
        false
    }

    /// Node kinds that add one decision point each (the CC table).
    fn decision_kinds(&self) -> &'static [&'static str];
    /// Node kinds on which [`Language::extra_decisions`] is called.
    fn decision_hook_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// Decision points a node adds beyond the table (e.g. by its operator); 0 by default.
    fn extra_decisions(&self, _node: Node<'_>, _source: &[u8]) -> u32 {
        0
    }

    /// Node kinds whose decisions stay inside them: at the end of such a node the decisions
    /// counted within it are taken back, so they never reach an enclosing callable. A
    /// language whose tool scores nested functions on their own lists its callables here
    /// (and regions the tool scores apart, such as class-field initialisers). Empty by
    /// default: a callable's CC then includes everything nested in it.
    fn boundary_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// Node kinds that are callables.
    fn callable_kinds(&self) -> &'static [&'static str];
    /// The 1-based line a callable starts on (its node's first line by default).
    fn callable_start(&self, node: Node<'_>) -> usize {
        node.start_position().row + 1
    }
    /// Where callables are looked for.
    fn discovery(&self) -> Discovery;
    /// Node kinds whose names prefix the qualified names of the callables inside them.
    fn scope_kinds(&self) -> &'static [&'static str];
    /// The name of a callable or scope node; None leaves a callable out.
    fn name_of(&self, node: Node<'_>, source: &[u8]) -> Option<String>;

    /// Leaf kinds that never make a line count (comments, line continuations).
    fn non_code_kinds(&self) -> &'static [&'static str];
    /// Comment kinds (read for `slopmark: ignore[...]`).
    fn comment_kinds(&self) -> &'static [&'static str];
    /// Bytes that open a comment: a directive must follow one (whitespace aside).
    fn directive_openers(&self) -> &'static [u8];
    /// Node kinds with a SLOC rule of their own ([`Language::sloc_node`] is called on them).
    fn sloc_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// A language's own SLOC rule for a node (multi-line literals, ...).
    fn sloc_node(&self, _node: Node<'_>, _source: &[u8], _lines: &mut LineSet) -> SlocStep {
        SlocStep::Generic
    }
    /// Node kinds that may be documentation ([`Language::doc_span`] is called on them).
    fn doc_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// The node holding documentation, when this node is documentation (a docstring).
    fn doc_span<'t>(&self, _node: Node<'t>, _source: &[u8]) -> Option<Node<'t>> {
        None
    }
    /// Lines to drop from SLOC after the token walk, as inclusive 1-based ranges, from the
    /// documentation nodes found (`text` is the source).
    fn doc_ranges(&self, _text: &str, _docs: &[Node<'_>]) -> Vec<(usize, usize)> {
        Vec::new()
    }
    /// Where the text nests deeper than the grammar's own parser can follow, if it does:
    /// the 1-based line and what is too deep there. Asked only of a text that parsed with
    /// errors, so that such a text is reported as too deep, not as a syntax error.
    fn beyond_parser(&self, _text: &str) -> Option<(usize, String)> {
        None
    }
    /// Lines that count whatever the tree says (a byte-order mark on line 1, ...).
    fn extra_lines(&self, _text: &str, _lines: &mut LineSet) {}
    /// Whether the text may declare an encoding of its own, which its reader must then
    /// check it is valid in (Python: a PEP 263 cookie on line 1 or 2).
    fn may_declare_encoding(&self, _text: &str) -> bool {
        false
    }

    /// Node kinds that are clone candidates.
    fn clone_kinds(&self) -> &'static [&'static str];
    /// The name a clone group's kind shows in reports, when not the node kind itself.
    fn clone_labels(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// A clone candidate left out (e.g. `if TYPE_CHECKING:`).
    fn excluded_candidate(&self, _node: Node<'_>, _source: &[u8]) -> bool {
        false
    }
    /// Identifier kinds: renamed to `$VARn` by first appearance in a candidate.
    fn identifier_kinds(&self) -> &'static [&'static str];
    /// Literal kinds and the token that replaces each (its subtree is not read).
    fn literal_tokens(&self) -> &'static [(&'static str, &'static str)];
    /// The call node kind and the field naming the called function: rules whose pattern
    /// calls a plain name (`dict()`, `set($L)`) are tried only on calls of that name.
    fn call_shape(&self) -> Option<(&'static str, &'static str)> {
        None
    }
    /// The member-access node kind and the field naming the member: rules whose pattern
    /// calls a method by name (`$D.keys()`) are tried only on calls of that method name.
    fn member_shape(&self) -> Option<(&'static str, &'static str)> {
        None
    }
    /// Node kinds on which [`Language::skipped_in_normal_form`] is called (it would be
    /// asked about every node the normal form reaches otherwise).
    fn skipped_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// A child left out of the normal form besides comments (e.g. a docstring statement).
    fn skipped_in_normal_form(&self, _node: Node<'_>, _source: &[u8]) -> bool {
        false
    }
}

/// A set of 1-based line numbers, as a byte per line (index 0 unused).
#[derive(Clone, Debug, Default)]
pub struct LineSet {
    marks: Vec<u8>,
}

impl LineSet {
    /// An empty set for a text of `lines` lines.
    pub fn with_lines(lines: usize) -> Self {
        Self {
            marks: vec![0; lines + 1],
        }
    }
    /// Add a line (grows when the line is beyond the end).
    pub fn insert(&mut self, line: usize) {
        if line >= self.marks.len() {
            self.marks.resize(line + 1, 0);
        }
        self.marks[line] = 1;
    }
    /// Remove the lines `start..=end`.
    pub fn clear(&mut self, start: usize, end: usize) {
        let end = end.min(self.marks.len().saturating_sub(1));
        if start <= end {
            self.marks[start..=end].fill(0);
        }
    }
    pub fn contains(&self, line: usize) -> bool {
        self.marks.get(line).is_some_and(|m| *m == 1)
    }
    /// Lines in `start..=end`.
    pub fn count_between(&self, start: usize, end: usize) -> usize {
        let end = end.min(self.marks.len().saturating_sub(1));
        if start > end {
            return 0;
        }
        self.marks[start..=end].iter().filter(|m| **m == 1).count()
    }
    pub fn count(&self) -> usize {
        self.marks.iter().filter(|m| **m == 1).count()
    }
    /// The byte-per-line map (index 0 unused).
    pub fn into_marks(self) -> Vec<u8> {
        self.marks
    }
}

/// Every language the core measures.
pub static LANGUAGES: &[&dyn Language] = &[
    &python::Python,
    &ecmascript::JAVASCRIPT,
    &ecmascript::TYPESCRIPT,
    &ecmascript::TSX,
    &go::Go,
    &java::Java,
    &rust::Rust,
];

/// The language named `name` (case-insensitive).
pub fn by_name(name: &str) -> Option<&'static dyn Language> {
    LANGUAGES
        .iter()
        .copied()
        .find(|lang| lang.name().eq_ignore_ascii_case(name))
}

/// Node-kind tables of one language, resolved to kind ids once.
///
/// Kinds are compared by name over every id of the grammar, so a name shared by several
/// ids (aliases, a named node and an anonymous token) is in the table under each of them.
pub struct Kinds {
    /// kind names by id
    pub names: Vec<String>,
    pub decision: Vec<bool>,
    pub decision_hook: Vec<bool>,
    pub boundary: Vec<bool>,
    pub callable: Vec<bool>,
    pub container: Vec<bool>,
    pub scope: Vec<bool>,
    pub non_code: Vec<bool>,
    pub sloc: Vec<bool>,
    pub doc: Vec<bool>,
    pub comment: Vec<bool>,
    pub clone: Vec<bool>,
    /// kinds [`Language::skipped_in_normal_form`] may leave out
    pub skipped: Vec<bool>,
    pub identifier: Vec<bool>,
    pub literal: Vec<Option<&'static str>>,
    pub discover_anywhere: bool,
    /// by id, the tables above that hold the kind (see [`Kinds::bits`])
    pub bits: Vec<KindBits>,
}

/// The kind tables of [`Kinds`] that hold one kind, as bits: the walk reads one word per
/// node rather than a table for each question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindBits(u16);

impl KindBits {
    pub const DECISION: Self = Self(1);
    pub const DECISION_HOOK: Self = Self(1 << 1);
    pub const BOUNDARY: Self = Self(1 << 2);
    pub const CALLABLE: Self = Self(1 << 3);
    pub const CONTAINER: Self = Self(1 << 4);
    pub const SCOPE: Self = Self(1 << 5);
    pub const NON_CODE: Self = Self(1 << 6);
    pub const SLOC: Self = Self(1 << 7);
    pub const DOC: Self = Self(1 << 8);
    pub const COMMENT: Self = Self(1 << 9);
    pub const CLONE: Self = Self(1 << 10);
    pub const SKIPPED: Self = Self(1 << 11);
    pub const IDENTIFIER: Self = Self(1 << 12);
    pub const LITERAL: Self = Self(1 << 13);

    /// Whether the kind is in every table of `tables`.
    pub fn has(self, tables: Self) -> bool {
        self.0 & tables.0 == tables.0
    }
}

impl Kinds {
    pub fn new(lang: &dyn Language) -> Self {
        let grammar = lang.grammar();
        let names: Vec<String> = (0..grammar.node_kind_count())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| grammar.node_kind_for_id(id))
                    .unwrap_or("")
                    .to_owned()
            })
            .collect();
        let table = |kinds: &[&str]| names.iter().map(|n| kinds.contains(&n.as_str())).collect();
        let (container, discover_anywhere) = match lang.discovery() {
            Discovery::Through(kinds) => (table(kinds), false),
            Discovery::Anywhere => (vec![true; names.len()], true),
        };
        let literals = lang.literal_tokens();
        let mut kinds = Self {
            decision: table(lang.decision_kinds()),
            decision_hook: table(lang.decision_hook_kinds()),
            boundary: table(lang.boundary_kinds()),
            callable: table(lang.callable_kinds()),
            container,
            scope: table(lang.scope_kinds()),
            non_code: table(lang.non_code_kinds()),
            sloc: table(lang.sloc_kinds()),
            doc: table(lang.doc_kinds()),
            comment: table(lang.comment_kinds()),
            clone: table(lang.clone_kinds()),
            skipped: table(lang.skipped_kinds()),
            identifier: table(lang.identifier_kinds()),
            literal: names
                .iter()
                .map(|n| literals.iter().find(|(k, _)| k == n).map(|(_, t)| *t))
                .collect(),
            discover_anywhere,
            names,
            bits: Vec::new(),
        };
        kinds.bits = (0..kinds.names.len()).map(|id| kinds.bits_of(id)).collect();
        kinds
    }

    /// The tables that hold kind `id`, read from the tables.
    fn bits_of(&self, id: usize) -> KindBits {
        let tables = [
            (&self.decision, KindBits::DECISION),
            (&self.decision_hook, KindBits::DECISION_HOOK),
            (&self.boundary, KindBits::BOUNDARY),
            (&self.callable, KindBits::CALLABLE),
            (&self.container, KindBits::CONTAINER),
            (&self.scope, KindBits::SCOPE),
            (&self.non_code, KindBits::NON_CODE),
            (&self.sloc, KindBits::SLOC),
            (&self.doc, KindBits::DOC),
            (&self.comment, KindBits::COMMENT),
            (&self.clone, KindBits::CLONE),
            (&self.skipped, KindBits::SKIPPED),
            (&self.identifier, KindBits::IDENTIFIER),
        ];
        let mut bits = tables
            .iter()
            .filter(|(table, _)| table.get(id).copied().unwrap_or(false))
            .fold(0, |bits, (_, bit)| bits | bit.0);
        if self.literal.get(id).is_some_and(Option::is_some) {
            bits |= KindBits::LITERAL.0;
        }
        KindBits(bits)
    }

    /// The tables that hold kind `id` (none for an id beyond the grammar).
    pub fn bits(&self, id: u16) -> KindBits {
        self.bits.get(usize::from(id)).copied().unwrap_or_default()
    }

    /// The name of kind `id` ("" beyond the grammar).
    pub fn name(&self, id: usize) -> &str {
        self.names.get(id).map_or("", String::as_str)
    }

    /// Whether the normal form leaves out `node`, whose kind is in the tables `bits`: a
    /// comment, or a child the language skips.
    pub fn left_out(
        &self,
        lang: &dyn Language,
        node: Node<'_>,
        bits: KindBits,
        source: &[u8],
    ) -> bool {
        bits.has(KindBits::COMMENT)
            || (bits.has(KindBits::SKIPPED) && lang.skipped_in_normal_form(node, source))
    }
}

/// `table[id]`, false for an id beyond the table.
pub fn has(table: &[bool], id: u16) -> bool {
    table.get(usize::from(id)).copied().unwrap_or(false)
}

/// The (qualified name, CC) of each callable of `source`, for the language modules' tests.
#[cfg(test)]
pub(crate) fn callables_of(lang: &'static dyn Language, source: &str) -> Vec<(String, u32)> {
    use crate::analyze::{Analyzer, Settings};
    use crate::record::Outcome;
    match Analyzer::new(lang, None, Settings::default()).text(source) {
        Outcome::Measured(record) => record
            .callables
            .into_iter()
            .map(|c| (c.qualname, c.cc))
            .collect(),
        Outcome::Failed(error) => panic!("not measured: {}", error.message),
    }
}

#[cfg(test)]
mod tests {
    use super::{has, KindBits, Kinds, LANGUAGES};

    #[test]
    fn kind_bits_say_what_the_tables_say() {
        for lang in LANGUAGES {
            let kinds = Kinds::new(*lang);
            for id in 0..=u16::try_from(kinds.names.len()).unwrap_or(u16::MAX) {
                let bits = kinds.bits(id);
                assert_eq!(bits.has(KindBits::DECISION), has(&kinds.decision, id));
                assert_eq!(bits.has(KindBits::CONTAINER), has(&kinds.container, id));
                assert_eq!(bits.has(KindBits::SKIPPED), has(&kinds.skipped, id));
                assert_eq!(bits.has(KindBits::IDENTIFIER), has(&kinds.identifier, id));
                let literal = kinds.literal.get(usize::from(id)).copied().flatten();
                assert_eq!(bits.has(KindBits::LITERAL), literal.is_some());
            }
        }
    }
}
