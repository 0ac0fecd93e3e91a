//! The visible nodes of a tree in pre-order, with each node's kind, child count and depth,
//! read by `csrc/preorder.c` straight from the tree: each node's children are read in one
//! pass, where [`Node::child`] scans them from the first on every call (see the C file).
//!
//! The order, kinds, counts and depths are those of `Node::child(0..child_count())` applied
//! from the root down (a test holds it to that on every kind of node of each language).

use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr::NonNull;
use tree_sitter::{ffi, Node};

/// A visible node as the C side writes it (`SlopmarkEntry` of `csrc/preorder.h`).
#[repr(C)]
#[derive(Clone, Copy)]
struct Raw {
    node: ffi::TSNode,
    kind: u16,
    children: u32,
    depth: u32,
}

extern "C" {
    fn slopmark_preorder_new(root: ffi::TSNode) -> *mut c_void;
    fn slopmark_preorder_next(reading: *mut c_void, entries: *mut Raw, capacity: u32) -> u32;
    fn slopmark_preorder_delete(reading: *mut c_void);
}

/// One visible node.
#[derive(Clone, Copy)]
pub struct Entry<'t> {
    pub node: Node<'t>,
    /// its kind id (`Node::kind_id`)
    pub kind: u16,
    /// how many children it has (`Node::child_count`)
    pub children: u32,
    /// how deep it is (the root is at 0)
    pub depth: usize,
}

/// Nodes read from the C side at a time.
const CHUNK: usize = 256;

/// The nodes under a root (itself first), in pre-order.
pub struct Preorder<'t> {
    reading: NonNull<c_void>,
    chunk: Vec<Raw>,
    at: usize,
    tree: PhantomData<Node<'t>>,
}

#[allow(unsafe_code, reason = "the C side's reading")]
impl<'t> Preorder<'t> {
    pub fn new(root: Node<'t>) -> Self {
        // SAFETY: `root` is a node of a live tree, which outlives the reading ('t); the C
        // side allocates its state with tree-sitter's allocator and never returns null.
        let reading = unsafe { slopmark_preorder_new(root.into_raw()) };
        Preorder {
            reading: NonNull::new(reading)
                .expect("tree-sitter's allocator aborts rather than fail"),
            chunk: Vec::with_capacity(CHUNK),
            at: 0,
            tree: PhantomData,
        }
    }

    fn refill(&mut self) {
        self.chunk.clear();
        // SAFETY: the buffer has room for CHUNK entries, and the C side writes the first
        // `written` of them, each whole.
        unsafe {
            let written = slopmark_preorder_next(
                self.reading.as_ptr(),
                self.chunk.as_mut_ptr(),
                CHUNK as u32,
            );
            self.chunk.set_len(written as usize);
        }
        self.at = 0;
    }
}

#[allow(unsafe_code, reason = "nodes made by the C side")]
impl<'t> Iterator for Preorder<'t> {
    type Item = Entry<'t>;

    fn next(&mut self) -> Option<Entry<'t>> {
        if self.at == self.chunk.len() {
            self.refill();
        }
        let raw = *self.chunk.get(self.at)?;
        self.at += 1;
        Some(Entry {
            // SAFETY: the C side makes each node as `ts_node_new` does, for a subtree of the
            // tree that outlives 't.
            node: unsafe { Node::from_raw(raw.node) },
            kind: raw.kind,
            children: raw.children,
            depth: raw.depth as usize,
        })
    }
}

#[allow(unsafe_code, reason = "the C side's reading is freed")]
impl Drop for Preorder<'_> {
    fn drop(&mut self) {
        // SAFETY: made by `slopmark_preorder_new`, freed once.
        unsafe { slopmark_preorder_delete(self.reading.as_ptr()) };
    }
}

#[cfg(test)]
mod tests {
    use super::Preorder;
    use crate::lang::LANGUAGES;
    use tree_sitter::{Node, Parser};

    /// Every node under `node` by `Node::child`, as (kind, children, depth, start, end).
    fn by_child(node: Node<'_>, depth: usize, out: &mut Vec<(u16, u32, usize, usize, usize)>) {
        let count = node.child_count();
        out.push((
            node.kind_id(),
            count,
            depth,
            node.start_byte(),
            node.end_byte(),
        ));
        for i in 0..count {
            by_child(node.child(i).expect("in range"), depth + 1, out);
        }
    }

    fn read(node: Node<'_>) -> Vec<(u16, u32, usize, usize, usize)> {
        Preorder::new(node)
            .map(|e| {
                let n = e.node;
                assert_eq!((n.kind_id(), n.child_count()), (e.kind, e.children));
                (e.kind, e.children, e.depth, n.start_byte(), n.end_byte())
            })
            .collect()
    }

    /// The golden sources of the Python test suite (every construct of each language's
    /// tables), with broken and odd snippets besides.
    fn sources() -> Vec<(std::path::PathBuf, String)> {
        let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/code/golden");
        let mut found = Vec::new();
        let mut folders = vec![golden];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder)
                .expect("the golden folder")
                .flatten()
            {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    found.push((path, text));
                }
            }
        }
        assert!(found.len() > 10, "golden sources missing");
        found
    }

    const ODD: &[&str] = &[
        "",
        "x = (1,\n",
        "def f(:\n  pass",
        "\u{feff}a = 1",
        "((((((1))))))",
    ];

    #[test]
    fn nodes_come_as_node_child_gives_them_in_every_language() {
        let sources = sources();
        for lang in LANGUAGES {
            let mut parser = Parser::new();
            parser.set_language(&lang.grammar()).expect("grammar loads");
            let own = sources.iter().filter(|(path, _)| {
                let name = path.to_string_lossy();
                lang.extensions().iter().any(|e| name.ends_with(e))
            });
            let odd = ODD.iter().map(|s| s.to_string());
            for source in own.map(|(_, text)| text.clone()).chain(odd) {
                let tree = parser.parse(&source, None).expect("parses");
                let mut expected = Vec::new();
                by_child(tree.root_node(), 0, &mut expected);
                assert_eq!(
                    read(tree.root_node()),
                    expected,
                    "{}: {source}",
                    lang.name()
                );
                // a reading may start below the root too
                if let Some(inner) = tree.root_node().named_child(0) {
                    let mut below = Vec::new();
                    by_child(inner, 0, &mut below);
                    assert_eq!(read(inner), below, "{}", lang.name());
                }
            }
        }
    }
}
