//! Clone candidates reduced to the digest of their normal form.
//!
//! The normal form of a node is its kind, followed by its children's normal forms in
//! parentheses, separated by commas (a node without children is its kind alone).
//! Identifiers become `$VAR1`, `$VAR2`... in order of first appearance within the
//! candidate; literals become their language's token (`$STR`, `$INT`...) and are not read
//! further; comments and the language's skipped children (docstrings) are left out. The
//! text is streamed into a 128-bit hash rather than built.

use crate::lang::{has, Kinds, Language, LineSet};
use crate::record::CloneRecord;
use std::collections::HashMap;
use tree_sitter::Node;
use xxhash_rust::xxh3::Xxh3;

/// Digests of the candidates spanning at least `min_sloc` SLOC lines.
pub fn fingerprints(
    lang: &dyn Language,
    kinds: &Kinds,
    candidates: &[Node<'_>],
    sloc: &LineSet,
    source: &[u8],
    min_sloc: usize,
) -> Vec<CloneRecord> {
    let mut form = NormalForm::new(lang, kinds, source);
    candidates
        .iter()
        .filter_map(|node| {
            let start = node.start_position().row + 1;
            let end = node.end_position().row + 1;
            (sloc.count_between(start, end) >= min_sloc).then(|| CloneRecord {
                kind: label(lang, node.kind()).to_owned(),
                start,
                end,
                digest: form.digest(*node),
            })
        })
        .collect()
}

/// The name of a candidate's kind in reports.
fn label<'k>(lang: &dyn Language, kind: &'k str) -> &'k str {
    lang.clone_labels()
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(kind, |(_, shown)| shown)
}

/// A reusable normal-form hasher (its name table is cleared for every candidate).
pub struct NormalForm<'l> {
    lang: &'l dyn Language,
    kinds: &'l Kinds,
    source: &'l [u8],
    names: HashMap<&'l [u8], usize>,
}

impl<'l> NormalForm<'l> {
    pub fn new(lang: &'l dyn Language, kinds: &'l Kinds, source: &'l [u8]) -> Self {
        Self {
            lang,
            kinds,
            source,
            names: HashMap::new(),
        }
    }

    /// The digest of `node`'s normal form.
    pub fn digest(&mut self, node: Node<'_>) -> [u8; 16] {
        let mut hasher = Xxh3::new();
        self.stream(node, &mut |bytes| hasher.update(bytes));
        hasher.digest128().to_le_bytes()
    }

    /// The normal form as text (for tests and debugging).
    pub fn text(&mut self, node: Node<'_>) -> String {
        let mut out = Vec::new();
        self.stream(node, &mut |bytes| out.extend_from_slice(bytes));
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Emit `node`'s normal form, iteratively: `open[i]` counts the children emitted so
    /// far by the i-th node on the path from `node` to the cursor.
    fn stream(&mut self, node: Node<'_>, emit: &mut dyn FnMut(&[u8])) {
        self.names.clear();
        let mut cursor = node.walk();
        let mut open: Vec<usize> = Vec::new();
        loop {
            let current = cursor.node();
            if let Some(count) = open.last_mut() {
                emit(if *count == 0 { b"(" } else { b"," });
                *count += 1;
            }
            if self.emit_atom(current, emit) || !self.first_kept_child(&mut cursor) {
                if !self.is_atom(current) {
                    emit(current.kind().as_bytes());
                }
                if !self.next_node(&mut cursor, &mut open, emit) {
                    return;
                }
                continue;
            }
            emit(current.kind().as_bytes());
            open.push(0);
        }
    }

    fn is_atom(&self, node: Node<'_>) -> bool {
        let id = node.kind_id();
        has(&self.kinds.identifier, id) || self.literal(id).is_some()
    }

    fn literal(&self, id: u16) -> Option<&'static str> {
        self.kinds.literal.get(usize::from(id)).copied().flatten()
    }

    /// Emit an identifier or literal; false for any other node.
    fn emit_atom(&mut self, node: Node<'_>, emit: &mut dyn FnMut(&[u8])) -> bool {
        let id = node.kind_id();
        if has(&self.kinds.identifier, id) {
            let text = self.source.get(node.byte_range()).unwrap_or_default();
            let next = self.names.len() + 1;
            let number = *self.names.entry(text).or_insert(next);
            emit(format!("$VAR{number}").as_bytes());
            return true;
        }
        if let Some(token) = self.literal(id) {
            emit(token.as_bytes());
            return true;
        }
        false
    }

    fn kept(&self, node: Node<'_>) -> bool {
        !has(&self.kinds.comment, node.kind_id())
            && !self.lang.skipped_in_normal_form(node, self.source)
    }

    /// Move to the first kept child; false (cursor unmoved) when there is none.
    fn first_kept_child(&self, cursor: &mut tree_sitter::TreeCursor<'_>) -> bool {
        if !cursor.goto_first_child() {
            return false;
        }
        loop {
            if self.kept(cursor.node()) {
                return true;
            }
            if !cursor.goto_next_sibling() {
                cursor.goto_parent();
                return false;
            }
        }
    }

    /// Move to the next kept sibling of the cursor's node, closing finished parents on
    /// the way; false when the candidate is done.
    fn next_node(
        &self,
        cursor: &mut tree_sitter::TreeCursor<'_>,
        open: &mut Vec<usize>,
        emit: &mut dyn FnMut(&[u8]),
    ) -> bool {
        loop {
            if open.is_empty() {
                return false;
            }
            while cursor.goto_next_sibling() {
                if self.kept(cursor.node()) {
                    return true;
                }
            }
            cursor.goto_parent();
            open.pop();
            emit(b")");
        }
    }
}
