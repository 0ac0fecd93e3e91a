// The visible nodes of a tree-sitter tree in pre-order (see preorder.c).
#ifndef SLOPMARK_PREORDER_H_
#define SLOPMARK_PREORDER_H_

#include <stdint.h>
#include "tree_sitter/api.h"

// One visible node: the node, its kind (`ts_node_symbol`), how many visible children it
// has (`ts_node_child_count`) and its depth (the root's is 0).
typedef struct {
  TSNode node;
  uint16_t kind;
  uint32_t children;
  uint32_t depth;
} SlopmarkEntry;

typedef struct SlopmarkPreorder SlopmarkPreorder;

// A reading of the tree under `root`, from `root` on; free it with `slopmark_preorder_delete`
// (before the tree is deleted).
SlopmarkPreorder *slopmark_preorder_new(TSNode root);
// Up to `capacity` next nodes into `entries`; how many were written (0: all were read).
uint32_t slopmark_preorder_next(SlopmarkPreorder *self, SlopmarkEntry *entries, uint32_t capacity);
void slopmark_preorder_delete(SlopmarkPreorder *self);

#endif
