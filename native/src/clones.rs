//! Clone candidates reduced to the digest of their normal form.
//!
//! The normal form of a node is its kind, followed by its children's normal forms in
//! parentheses, separated by commas (a node without children is its kind alone).
//! Identifiers become `$VAR1`, `$VAR2`... in order of first appearance within the
//! candidate; literals become their language's token (`$STR`, `$INT`...) and are not read
//! further; comments and the language's skipped children (docstrings) are left out.
//!
//! The walk ([`crate::walk`]) writes the whole file once as a flat token stream; each
//! candidate's form is then read from its slice of that stream (no second pass over the
//! tree) and streamed, as text, into a 128-bit hash.

use crate::lang::{has, Kinds, Language, LineSet};
use crate::record::CloneRecord;
use std::collections::HashMap;
use tree_sitter::Node;
use xxhash_rust::xxh3::{xxh3_128, Xxh3};

/// A clone candidate and its slice of the token stream (None when it sits where no
/// tokens are emitted, e.g. inside a literal: its form is then made from the tree).
pub struct Candidate<'t> {
    pub node: Node<'t>,
    pub tokens: Option<(usize, usize)>,
}

/// One element of the normal-form stream: a node opening (its kind), a literal (its
/// kind), an identifier (its interned name) or a closing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token(u32);

const LITERAL: u32 = 1 << 16;
const IDENTIFIER: u32 = 1 << 31;
/// The end of a node opened earlier.
pub const CLOSE: Token = Token(u32::MAX);

impl Token {
    pub fn open(kind: u16) -> Self {
        Self(u32::from(kind))
    }
    pub fn literal(kind: u16) -> Self {
        Self(LITERAL | u32::from(kind))
    }
    pub fn identifier(name: u32) -> Self {
        Self(IDENTIFIER | (name & !IDENTIFIER))
    }
}

/// Digests of the candidates spanning at least `min_sloc` SLOC lines.
pub fn fingerprints(
    lang: &dyn Language,
    kinds: &Kinds,
    candidates: &[Candidate<'_>],
    tokens: &[Token],
    sloc: &LineSet,
    source: &[u8],
    min_sloc: usize,
) -> Vec<CloneRecord> {
    let mut stream = TokenForm::new(kinds);
    let mut tree = NormalForm::new(lang, kinds, source);
    candidates
        .iter()
        .filter_map(|candidate| {
            let node = candidate.node;
            let start = node.start_position().row + 1;
            let end = node.end_position().row + 1;
            if sloc.count_between(start, end) < min_sloc {
                return None;
            }
            let slice = candidate.tokens.and_then(|(a, b)| tokens.get(a..b));
            let digest = match slice {
                Some(slice) => stream.digest(slice),
                None => tree.digest(node),
            };
            Some(CloneRecord {
                kind: label(lang, node.kind()).to_owned(),
                start,
                end,
                digest,
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

/// Writes a candidate's normal form from its token slice.
pub struct TokenForm<'l> {
    kinds: &'l Kinds,
    /// the form being written (hashed at once: one call instead of one per token)
    text: Vec<u8>,
    /// interned name → (generation it was last numbered in, its number)
    numbers: Vec<(u32, usize)>,
    generation: u32,
}

impl<'l> TokenForm<'l> {
    pub fn new(kinds: &'l Kinds) -> Self {
        Self {
            kinds,
            text: Vec::new(),
            numbers: Vec::new(),
            generation: 0,
        }
    }

    /// The digest of the form (xxh3-128 of its text, as [`NormalForm::digest`] streams it).
    pub fn digest(&mut self, tokens: &[Token]) -> [u8; 16] {
        self.write(tokens);
        xxh3_128(&self.text).to_le_bytes()
    }

    pub fn text(&mut self, tokens: &[Token]) -> String {
        self.write(tokens);
        String::from_utf8_lossy(&self.text).into_owned()
    }

    fn write(&mut self, tokens: &[Token]) {
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        self.write_into(tokens, &mut text);
        self.text = text;
    }

    fn write_into(&mut self, tokens: &[Token], out: &mut Vec<u8>) {
        self.generation = self.generation.wrapping_add(1);
        let mut seen = 0;
        // children written so far by each open node
        let mut open: Vec<usize> = Vec::new();
        for token in tokens {
            if *token == CLOSE {
                if open.pop().is_some_and(|written| written > 0) {
                    out.extend_from_slice(b")");
                }
                continue;
            }
            if let Some(written) = open.last_mut() {
                out.extend_from_slice(if *written == 0 { b"(" } else { b"," });
                *written += 1;
            }
            let value = token.0;
            if value & IDENTIFIER != 0 {
                let number = self.number((value & !IDENTIFIER) as usize, &mut seen);
                out.extend_from_slice(b"$VAR");
                push_decimal(out, number);
            } else if value & LITERAL != 0 {
                let kind = (value & !LITERAL) as usize;
                let text = self.kinds.literal.get(kind).copied().flatten();
                out.extend_from_slice(text.unwrap_or("$LIT").as_bytes());
            } else {
                out.extend_from_slice(self.kinds.name(value as usize).as_bytes());
                open.push(0);
            }
        }
    }

    /// The number of interned name `name` in this candidate (1, 2... by first use).
    fn number(&mut self, name: usize, seen: &mut usize) -> usize {
        if name >= self.numbers.len() {
            self.numbers.resize(name + 1, (0, 0));
        }
        let slot = &mut self.numbers[name];
        if slot.0 != self.generation {
            *seen += 1;
            *slot = (self.generation, *seen);
        }
        slot.1
    }
}

/// Append `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, n: usize) {
    let mut digits = [0_u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// Writes a node's normal form by walking its subtree (for a candidate outside the
/// token stream, and to check the stream against the tree in tests).
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

    /// The normal form as text.
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
            emit(b"$VAR");
            emit(number.to_string().as_bytes());
            return true;
        }
        if let Some(token) = self.literal(id) {
            emit(token.as_bytes());
            return true;
        }
        false
    }

    fn kept(&self, node: Node<'_>) -> bool {
        !self.kinds.left_out(
            self.lang,
            node,
            self.kinds.bits(node.kind_id()),
            self.source,
        )
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
