//! The reading of `csrc/preorder.c`, straight from tree-sitter's internal subtree layout.

use super::Entry;
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
