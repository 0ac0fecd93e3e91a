//! One walk of a file's syntax tree, shared by every language.
//!
//! In a single pre-order pass (a tree cursor and a stack on the heap, so nesting depth
//! never touches the call stack) it records the callables with their decision counts,
//! the lines where code tokens start, the documentation nodes, the clone candidates and
//! the suppression comments. Clone digests are made afterwards, once SLOC is known.

use crate::lang::{has, Kinds, Language, LineSet, SlocStep};
use crate::record::{CallableRecord, IgnoreRecord};
use tree_sitter::Node;

/// What one walk found.
pub struct Walked<'t> {
    /// Lines where a code token starts (documentation not removed yet).
    pub lines: LineSet,
    /// Callables, their `sloc` still 0.
    pub callables: Vec<CallableRecord>,
    pub candidates: Vec<Node<'t>>,
    pub docs: Vec<Node<'t>>,
    pub ignores: Vec<IgnoreRecord>,
    /// The deepest nesting met (the root is depth 1).
    pub depth: usize,
}

struct Frame {
    /// Callables are looked for among this node's children.
    open: bool,
    /// This node pushed a scope name.
    scope: bool,
    /// (index in `callables`, decisions counted before entering it)
    callable: Option<(usize, u32)>,
    /// Decisions counted before this boundary node (see `Language::boundary_kinds`).
    boundary: Option<u32>,
}

struct Walker<'l, 't> {
    lang: &'l dyn Language,
    kinds: &'l Kinds,
    source: &'l [u8],
    decisions: u32,
    scopes: Vec<String>,
    found: Walked<'t>,
}

/// Walk the tree under `root` once.
pub fn walk<'t>(lang: &dyn Language, kinds: &Kinds, root: Node<'t>, source: &[u8]) -> Walked<'t> {
    let rows = root.end_position().row + 1;
    let mut walker = Walker {
        lang,
        kinds,
        source,
        decisions: 0,
        scopes: Vec::new(),
        found: Walked {
            lines: LineSet::with_lines(rows),
            callables: Vec::new(),
            candidates: Vec::new(),
            docs: Vec::new(),
            ignores: Vec::new(),
            depth: 0,
        },
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let parent_open = stack.last().map_or(true, |f| f.open);
        let (frame, descend) = walker.enter(node, parent_open, stack.is_empty());
        stack.push(frame);
        walker.found.depth = walker.found.depth.max(stack.len());
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if let Some(frame) = stack.pop() {
                walker.exit(frame);
            }
            if stack.is_empty() {
                return walker.found;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return walker.found;
            }
        }
    }
}

impl<'t> Walker<'_, 't> {
    /// Record `node`; returns its frame and whether to look inside it.
    fn enter(&mut self, node: Node<'t>, parent_open: bool, is_root: bool) -> (Frame, bool) {
        let id = node.kind_id();
        let kinds = self.kinds;
        let boundary = has(&kinds.boundary, id).then_some(self.decisions);
        if has(&kinds.decision, id) {
            self.decisions += 1;
        }
        if has(&kinds.decision_hook, id) {
            self.decisions += self.lang.extra_decisions(node, self.source);
        }
        let mut frame = Frame {
            open: is_root || (parent_open && (kinds.discover_anywhere || has(&kinds.container, id))),
            scope: false,
            callable: None,
            boundary,
        };
        if !is_root && parent_open {
            self.enter_scope(node, id, &mut frame);
        }
        if has(&kinds.clone, id) && !self.lang.excluded_candidate(node, self.source) {
            self.found.candidates.push(node);
        }
        if has(&kinds.doc, id) {
            if let Some(doc) = self.lang.doc_span(node, self.source) {
                self.found.docs.push(doc);
            }
        }
        if has(&kinds.comment, id) {
            self.read_ignores(node);
        }
        (frame, self.count_line(node, id))
    }

    /// A callable or a named scope reached from the root: note it.
    fn enter_scope(&mut self, node: Node<'t>, id: u16, frame: &mut Frame) {
        let kinds = self.kinds;
        let callable = has(&kinds.callable, id);
        let scope = has(&kinds.scope, id);
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

    /// Mark the line a token starts on; false when the node is one opaque token.
    fn count_line(&mut self, node: Node<'t>, id: u16) -> bool {
        let kinds = self.kinds;
        if has(&kinds.sloc, id) {
            if let SlocStep::Opaque = self.lang.sloc_node(node, self.source, &mut self.found.lines)
            {
                return false;
            }
        }
        if node.child_count() == 0 {
            if !has(&kinds.non_code, id) && node.start_byte() < node.end_byte() {
                self.found.lines.insert(node.start_position().row + 1);
            }
            return false;
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
