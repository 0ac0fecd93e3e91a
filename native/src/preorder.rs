//! The visible nodes of a tree in pre-order, with each node's kind, child count and depth,
//! read by `csrc/preorder.c` straight from the tree: each node's children are read in one
//! pass, where [`Node::child`] scans them from the first on every call (see the C file).
//!
//! The order, kinds, counts and depths are those of `Node::child(0..child_count())` applied
//! from the root down (a test holds it to that on every kind of node of each language, so a
//! tree-sitter release that counts hidden or aliased children otherwise fails it).
//!
//! The same reading on tree-sitter's public cursor ([`CursorPreorder`]) takes about three
//! times the instructions, 7% of the whole core's (`benchmarks/README.md`), so the C reading
//! stays, with tree-sitter pinned exactly; `native/README.md` says how to move the pin. The
//! `cursor-walk` feature leaves the C reading out and reads with the cursor.

#[cfg(not(feature = "cursor-walk"))]
mod c;
mod cursor;

#[cfg(not(feature = "cursor-walk"))]
pub use c::Preorder;
pub use cursor::CursorPreorder;
#[cfg(feature = "cursor-walk")]
pub use cursor::CursorPreorder as Preorder;

use tree_sitter::Node;

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

#[cfg(test)]
mod tests {
    use super::{CursorPreorder, Entry, Preorder};
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

    /// Every node under `node` as both readings give it (they must agree).
    fn read(node: Node<'_>) -> Vec<(u16, u32, usize, usize, usize)> {
        let by_c: Vec<_> = Preorder::new(node).map(seen).collect();
        let by_cursor: Vec<_> = CursorPreorder::new(node).map(seen).collect();
        assert!(
            by_cursor == by_c,
            "the cursor reads otherwise than the C side"
        );
        by_c
    }

    fn seen(e: Entry<'_>) -> (u16, u32, usize, usize, usize) {
        let n = e.node;
        assert_eq!((n.kind_id(), n.child_count()), (e.kind, e.children));
        (e.kind, e.children, e.depth, n.start_byte(), n.end_byte())
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
