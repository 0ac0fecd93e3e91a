//! The same reading on tree-sitter's public cursor ([`TreeCursor`]): no internal header, but
//! about three times the C reading's instructions (on every 8th file of CPython's `Lib/`,
//! 5.88 G instructions for the whole core against 5.51 G; `benchmarks/README.md`). The
//! `cursor-walk` feature makes the walk use it and leaves the C file out (a way through a
//! tree-sitter release `csrc/preorder.c` is not ported to yet, see `native/README.md`); the
//! test holds it to `Node::child` in every build.

use super::Entry;
use tree_sitter::{Node, TreeCursor};

/// The nodes under a root (itself first), in pre-order, read by a cursor.
pub struct CursorPreorder<'t> {
    cursor: TreeCursor<'t>,
    /// for each node from the root's children down to the cursor's node, how many siblings
    /// come after it (the cursor's depth is its length)
    after: Vec<u32>,
    /// how many children the node handed out last has (None before the root)
    last: Option<u32>,
    done: bool,
}

impl<'t> CursorPreorder<'t> {
    pub fn new(root: Node<'t>) -> Self {
        CursorPreorder {
            cursor: root.walk(),
            after: Vec::new(),
            last: None,
            done: false,
        }
    }

    /// Move to the node after the one handed out last (which has `children` children);
    /// false once every node was handed out. The counts say where a node's siblings end,
    /// so the cursor is never asked for a sibling that is not there (a failed move costs
    /// it as much as a good one).
    fn advance(&mut self, children: u32) -> bool {
        if children > 0 {
            self.after.push(children - 1);
            return self.cursor.goto_first_child();
        }
        while let Some(after) = self.after.last_mut() {
            if *after > 0 {
                *after -= 1;
                return self.cursor.goto_next_sibling();
            }
            self.after.pop();
            self.cursor.goto_parent();
        }
        false
    }
}

impl<'t> Iterator for CursorPreorder<'t> {
    type Item = Entry<'t>;

    fn next(&mut self) -> Option<Entry<'t>> {
        if self.done {
            return None;
        }
        if let Some(children) = self.last {
            if !self.advance(children) {
                self.done = true;
                return None;
            }
        }
        let node = self.cursor.node();
        let children = node.child_count();
        self.last = Some(children);
        Some(Entry {
            node,
            kind: node.kind_id(),
            children,
            depth: self.after.len(),
        })
    }
}
