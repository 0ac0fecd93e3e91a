// The visible nodes of a tree-sitter tree in pre-order, read straight from the tree.
//
// `Node::child(i)` walks a node's children from the first up to the i-th on every call,
// through the grammar's hidden nodes, and a cursor climbs in and out of them on every
// move; reading every node of a big file that way cost the walk more than half of its
// time (`native/src/walk.rs`). This reads each child once, in one pass per parent: a
// stack of the subtrees being read, a hidden subtree read in place of its parent's child
// (its visible descendants are that parent's children), exactly as tree-sitter's own
// child iteration (`ts_node__child`, node.c) counts and places them.
//
// It reads tree-sitter's internal subtree layout through the library's own headers, so it
// is built against the one tree-sitter release the crate pins.

#include "alloc.h"
#include "language.h"
#include "subtree.h"
#include "tree.h"

#include "preorder.h"

typedef struct {
  const Subtree *children;
  uint32_t child_count;
  uint32_t child_index;
  uint32_t structural_child_index;
  const TSSymbol *alias_sequence;
  // where the next child starts (its padding not added yet, but for the first child)
  Length position;
  // the depth of the visible nodes this subtree's children are
  uint32_t depth;
} Frame;

struct SlopmarkPreorder {
  const TSTree *tree;
  Frame *frames;
  uint32_t size;
  uint32_t capacity;
  // the root is handed out first
  bool started;
  TSNode root;
};

SlopmarkPreorder *slopmark_preorder_new(TSNode root) {
  SlopmarkPreorder *self = ts_calloc(1, sizeof(SlopmarkPreorder));
  self->tree = root.tree;
  self->root = root;
  return self;
}

void slopmark_preorder_delete(SlopmarkPreorder *self) {
  if (self) {
    ts_free(self->frames);
    ts_free(self);
  }
}

static void push(SlopmarkPreorder *self, const Subtree *subtree, Length start, uint32_t depth) {
  if (self->size == self->capacity) {
    self->capacity = self->capacity ? self->capacity * 2 : 64;
    self->frames = ts_realloc(self->frames, self->capacity * sizeof(Frame));
  }
  const TSLanguage *language = self->tree->language;
  self->frames[self->size++] = (Frame){
    .children = ts_subtree_children(*subtree),
    .child_count = ts_subtree_child_count(*subtree),
    .child_index = 0,
    .structural_child_index = 0,
    .alias_sequence = ts_language_alias_sequence(language, subtree->ptr->production_id),
    .position = start,
    .depth = depth,
  };
}

// The visible children of a subtree (0 for a leaf), as `ts_node_child_count` counts them.
static uint32_t visible_children(Subtree subtree) {
  return ts_subtree_child_count(subtree) > 0 ? subtree.ptr->visible_child_count : 0;
}

static void hand_out(SlopmarkPreorder *self, SlopmarkEntry *entry, const Subtree *subtree,
                     Length start, TSSymbol alias, uint32_t depth) {
  TSSymbol symbol = alias ? alias : ts_subtree_symbol(*subtree);
  entry->node = (TSNode){{start.bytes, start.extent.row, start.extent.column, alias},
                         subtree, self->tree};
  entry->kind = ts_language_public_symbol(self->tree->language, symbol);
  entry->children = visible_children(*subtree);
  entry->depth = depth;
  if (entry->children > 0) push(self, subtree, start, depth + 1);
}

// The next visible node into `entry`; false once every node was handed out.
static bool next(SlopmarkPreorder *self, SlopmarkEntry *entry) {
  if (!self->started) {
    self->started = true;
    const Subtree *root = (const Subtree *)self->root.id;
    Length start = {self->root.context[0], {self->root.context[1], self->root.context[2]}};
    hand_out(self, entry, root, start, (TSSymbol)self->root.context[3], 0);
    return true;
  }
  while (self->size > 0) {
    Frame *top = &self->frames[self->size - 1];
    if (top->child_index == top->child_count) {
      self->size--;
      continue;
    }
    const Subtree *child = &top->children[top->child_index];
    TSSymbol alias = 0;
    if (!ts_subtree_extra(*child)) {
      if (top->alias_sequence) alias = top->alias_sequence[top->structural_child_index];
      top->structural_child_index++;
    }
    if (top->child_index > 0) top->position = length_add(top->position, ts_subtree_padding(*child));
    Length start = top->position;
    top->position = length_add(top->position, ts_subtree_size(*child));
    top->child_index++;
    uint32_t depth = top->depth;
    if (ts_subtree_visible(*child) || alias) {
      hand_out(self, entry, child, start, alias, depth);
      return true;
    }
    if (visible_children(*child) > 0) push(self, child, start, depth);
  }
  return false;
}

uint32_t slopmark_preorder_next(SlopmarkPreorder *self, SlopmarkEntry *entries, uint32_t capacity) {
  uint32_t count = 0;
  while (count < capacity && next(self, &entries[count])) count++;
  return count;
}
