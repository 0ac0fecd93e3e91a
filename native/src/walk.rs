//! One walk of a file's syntax tree, shared by every language.
//!
//! In a single pre-order pass (the nodes read by [`crate::preorder`], a stack of frames on
//! the heap, so nesting depth never touches the call stack) it records the callables with
//! their decision counts, the lines where code tokens start, the documentation nodes, the
//! clone candidates with their slice of the normal-form token stream (see
//! [`crate::clones`]) and the suppression comments, and hands every node to a visitor (the
//! rule scan).

use crate::clones::{Candidate, Token, CLOSE};
use crate::lang::{KindBits, Kinds, Language, LineSet, SlocStep};
use crate::preorder::Preorder;
use crate::record::{CallableRecord, IgnoreRecord};
use tree_sitter::Node;

/// What one walk found.
pub struct Walked<'t> {
    /// Lines where a code token starts (documentation not removed yet).
    pub lines: LineSet,
    /// Callables, their `sloc` still 0.
    pub callables: Vec<CallableRecord>,
    pub candidates: Vec<Candidate<'t>>,
    /// The normal-form token stream of the whole file.
    pub tokens: Vec<Token>,
    pub docs: Vec<Node<'t>>,
    pub ignores: Vec<IgnoreRecord>,
    /// Σ depth² over the nodes nested deeper than [`DEEP`]: what rules that walk up to
    /// the root (`inside`, `stopBy: end`) cost beyond the usual.
    pub deep_weight: u64,
}

#[derive(Clone, Copy)]
struct Frame {
    /// Callables are looked for among this node's children.
    open: bool,
    /// Token starts inside this node count as SLOC lines.
    lines: bool,
    /// This node's children emit normal-form tokens.
    emit: bool,
    /// This node emitted an opening token (a closing one follows its children).
    opened: bool,
    /// This node pushed a scope name.
    scope: bool,
    /// (index in `callables`, decisions counted before entering it)
    callable: Option<(usize, u32)>,
    /// index in `candidates`
    candidate: Option<usize>,
    /// Decisions counted before this boundary node (see `Language::boundary_kinds`).
    boundary: Option<u32>,
}

const ROOT: Frame = Frame {
    open: true,
    lines: true,
    emit: true,
    opened: false,
    scope: false,
    callable: None,
    candidate: None,
    boundary: None,
};

struct Walker<'l, 't> {
    lang: &'l dyn Language,
    kinds: &'l Kinds,
    source: &'t [u8],
    decisions: u32,
    scopes: Vec<String>,
    interned: foldhash::HashMap<&'t [u8], u32>,
    found: Walked<'t>,
}

/// Nesting depth from which a node counts in [`Walked::deep_weight`] (real code rarely
/// nests this deep: CPython's `Lib/` and scipy stay under 150).
pub const DEEP: usize = 64;

/// Nesting deeper than the walk goes: the depth reached, and the 1-based line of the node
/// that reached it.
pub struct TooDeep {
    pub depth: usize,
    pub line: usize,
}

/// Walk the tree under `root` once, calling `visit` on every node in pre-order with its
/// kind id, its depth (the root's is 0) and whether it is a leaf. The walk stops at the
/// first node nested deeper than `max_depth`.
pub fn walk<'t>(
    lang: &dyn Language,
    kinds: &Kinds,
    root: Node<'t>,
    source: &'t [u8],
    max_depth: usize,
    visit: &mut dyn FnMut(Node<'t>, u16, usize, bool),
) -> Result<Walked<'t>, TooDeep> {
    let mut walker = Walker::new(lang, kinds, root, source);
    // the frames of the nodes from the root to the one entered last
    let mut open: Vec<Frame> = Vec::new();
    for entry in Preorder::new(root) {
        let depth = entry.depth;
        for frame in open.drain(depth.min(open.len())..).rev() {
            walker.exit(frame);
        }
        if depth >= max_depth {
            let line = entry.node.start_position().row + 1;
            return Err(TooDeep {
                depth: depth + 1,
                line,
            });
        }
        let leaf = entry.children == 0;
        visit(entry.node, entry.kind, depth, leaf);
        let at = Visited {
            node: entry.node,
            id: entry.kind,
            bits: kinds.bits(entry.kind),
            leaf,
        };
        let frame = walker.enter(at, open.last());
        open.push(frame);
        if depth >= DEEP {
            let depth = depth as u64 + 1;
            walker.found.deep_weight += depth * depth;
        }
    }
    for frame in open.drain(..).rev() {
        walker.exit(frame);
    }
    Ok(walker.found)
}

/// A node being entered, with what the walk reads of it once.
#[derive(Clone, Copy)]
struct Visited<'t> {
    node: Node<'t>,
    id: u16,
    /// the kind tables that hold its kind
    bits: KindBits,
    leaf: bool,
}

impl<'l, 't> Walker<'l, 't> {
    fn new(lang: &'l dyn Language, kinds: &'l Kinds, root: Node<'t>, source: &'t [u8]) -> Self {
        let rows = root.end_position().row + 1;
        Walker {
            lang,
            kinds,
            source,
            decisions: 0,
            scopes: Vec::new(),
            interned: foldhash::HashMap::default(),
            found: Walked {
                lines: LineSet::with_lines(rows),
                callables: Vec::new(),
                candidates: Vec::new(),
                tokens: Vec::new(),
                docs: Vec::new(),
                ignores: Vec::new(),
                deep_weight: 0,
            },
        }
    }

    /// Record a node under the frame of its parent (None for the root); returns its frame.
    fn enter(&mut self, at: Visited<'t>, parent: Option<&Frame>) -> Frame {
        let bits = at.bits;
        let is_root = parent.is_none();
        let parent = parent.copied().unwrap_or(ROOT);
        let boundary = bits.has(KindBits::BOUNDARY).then_some(self.decisions);
        if bits.has(KindBits::DECISION) {
            self.decisions += 1;
        }
        if bits.has(KindBits::DECISION_HOOK) {
            self.decisions += self.lang.extra_decisions(at.node, self.source);
        }
        let discovered = self.kinds.discover_anywhere || bits.has(KindBits::CONTAINER);
        let mut frame = Frame {
            open: is_root || (parent.open && discovered),
            lines: parent.lines,
            emit: false,
            opened: false,
            scope: false,
            callable: None,
            candidate: None,
            boundary,
        };
        if !is_root && parent.open {
            self.enter_scope(at, &mut frame);
        }
        if parent.emit {
            self.emit(at, &mut frame);
        }
        if bits.has(KindBits::CLONE) && !self.lang.excluded_candidate(at.node, self.source) {
            frame.candidate = Some(self.found.candidates.len());
            let tokens = frame.opened.then(|| self.found.tokens.len() - 1);
            self.found.candidates.push(Candidate {
                node: at.node,
                tokens: tokens.map(|start| (start, start)),
            });
        }
        self.note_text(at);
        if frame.lines {
            frame.lines = self.count_line(at);
        }
        frame
    }

    /// Note a documentation node or a comment's suppressions.
    fn note_text(&mut self, at: Visited<'t>) {
        if at.bits.has(KindBits::DOC) {
            if let Some(doc) = self.lang.doc_span(at.node, self.source) {
                self.found.docs.push(doc);
            }
        }
        if at.bits.has(KindBits::COMMENT) {
            self.read_ignores(at.node);
        }
    }

    /// Emit the node's normal-form token (a kept child of an emitting parent).
    fn emit(&mut self, at: Visited<'t>, frame: &mut Frame) {
        let (node, bits) = (at.node, at.bits);
        if self.kinds.left_out(self.lang, node, bits, self.source) {
            return;
        }
        let tokens = &mut self.found.tokens;
        if bits.has(KindBits::IDENTIFIER) {
            let text = self.source.get(node.byte_range()).unwrap_or_default();
            let next = u32::try_from(self.interned.len()).unwrap_or(u32::MAX);
            let index = *self.interned.entry(text).or_insert(next);
            tokens.push(Token::identifier(index));
        } else if bits.has(KindBits::LITERAL) {
            tokens.push(Token::literal(at.id));
        } else {
            tokens.push(Token::open(at.id));
            frame.emit = true;
            frame.opened = true;
        }
    }

    /// A callable or a named scope reached from the root: note it.
    fn enter_scope(&mut self, at: Visited<'t>, frame: &mut Frame) {
        let node = at.node;
        let callable = at.bits.has(KindBits::CALLABLE);
        let scope = at.bits.has(KindBits::SCOPE);
        if !callable && !scope {
            return;
        }
        let Some(name) = self.lang.name_of(node, self.source) else {
            return;
        };
        if callable {
            let qualname = if self.scopes.is_empty() {
                name.clone()
            } else {
                format!("{}.{}", self.scopes.join("."), name)
            };
            frame.callable = Some((self.found.callables.len(), self.decisions));
            self.found.callables.push(CallableRecord {
                qualname,
                start: self.lang.callable_start(node),
                end: node.end_position().row + 1,
                cc: 1,
                sloc: 0,
            });
        }
        if scope {
            self.scopes.push(name);
            frame.scope = true;
        }
    }

    /// Mark the line a token starts on; false when no line inside the node counts.
    fn count_line(&mut self, at: Visited<'t>) -> bool {
        let (node, bits) = (at.node, at.bits);
        if bits.has(KindBits::SLOC) {
            if let SlocStep::Opaque = self
                .lang
                .sloc_node(node, self.source, &mut self.found.lines)
            {
                return false;
            }
        }
        if at.leaf && !bits.has(KindBits::NON_CODE) && node.start_byte() < node.end_byte() {
            self.found.lines.insert(node.start_position().row + 1);
        }
        true
    }

    fn exit(&mut self, frame: Frame) {
        if let Some((index, before)) = frame.callable {
            if let Some(callable) = self.found.callables.get_mut(index) {
                callable.cc = 1 + self.decisions - before;
            }
        }
        if let Some(before) = frame.boundary {
            self.decisions = before;
        }
        if frame.scope {
            self.scopes.pop();
        }
        if frame.opened {
            self.found.tokens.push(CLOSE);
        }
        if let Some(index) = frame.candidate {
            let end = self.found.tokens.len();
            if let Some(Candidate {
                tokens: Some((_, stop)),
                ..
            }) = self.found.candidates.get_mut(index)
            {
                *stop = end;
            }
        }
    }

    fn read_ignores(&mut self, comment: Node<'t>) {
        let Some(text) = self.source.get(comment.byte_range()) else {
            return;
        };
        let line = comment.start_position().row + 1;
        for ids in ignore_directives(text, self.lang.directive_openers()) {
            self.found.ignores.push(IgnoreRecord { line, ids });
        }
    }
}

const DIRECTIVE: &[u8] = b"slopmark:";
const IGNORE: &[u8] = b"ignore[";

/// The id lists of every `slopmark: ignore[a, b]` in a comment's text that directly
/// follows (whitespace aside) one of the comment-opening bytes `openers` (`#` in Python).
pub fn ignore_directives(text: &[u8], openers: &[u8]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = find(rest, DIRECTIVE) {
        let opened = rest[..at]
            .iter()
            .rev()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| openers.contains(b));
        rest = &rest[at + DIRECTIVE.len()..];
        if !opened {
            continue;
        }
        let after = rest
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let Some(body) = rest[after..].strip_prefix(IGNORE) else {
            continue;
        };
        let Some(close) = body.iter().position(|b| *b == b']' || *b == b'\n') else {
            continue;
        };
        if body[close] != b']' {
            continue;
        }
        let ids = String::from_utf8_lossy(&body[..close])
            .split(',')
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(str::to_owned)
            .collect();
        found.push(ids);
        rest = &body[close..];
    }
    found
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::ignore_directives;

    #[test]
    fn reads_every_directive_of_a_comment() {
        let found = ignore_directives(b"# slopmark: ignore[a, b ] x #slopmark:ignore[c]", b"#");
        assert_eq!(found, vec![vec!["a", "b"], vec!["c"]]);
    }

    #[test]
    fn a_directive_must_open_the_comment() {
        assert!(ignore_directives(b"# see slopmark: ignore[a]", b"#").is_empty());
        assert_eq!(ignore_directives(b"// slopmark: ignore[a]", b"/").len(), 1);
    }

    #[test]
    fn unclosed_or_other_directives_are_not_read() {
        assert!(ignore_directives(b"# slopmark: ignore[a", b"#").is_empty());
        assert!(ignore_directives(b"# slopmark: keep[a]", b"#").is_empty());
        assert_eq!(
            ignore_directives(b"# slopmark: ignore[]", b"#"),
            vec![Vec::<String>::new()]
        );
    }
}
