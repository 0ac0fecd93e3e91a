//! What is around each node of a walk ([`Surroundings`]), as masks of kinds ([`Around`]).

/// A set of kinds, one bit each (see [`Bit`]): 128 bits, as the kinds rules' needs name in
/// Python's pack fit in them.
pub type Mask = u128;

/// A node's kind as the surroundings record it: its bit (0: no rule's needs name it) and
/// whether the kind is named (`nthChild` counts named siblings only).
#[derive(Clone, Copy, Debug)]
pub struct Bit {
    pub(super) mask: Mask,
    pub(super) named: bool,
}

impl Bit {
    /// The bit of a kind no rule's needs name.
    pub(crate) fn unnamed_by_rules(named: bool) -> Self {
        Self { mask: 0, named }
    }

    /// Whether no rule's needs name the kind (its mask is 0).
    pub fn is_unnamed_by_rules(self) -> bool {
        self.mask == 0
    }
}

/// What is around a node, as masks of [`Bit`]s: the kinds among its siblings (its parent's
/// children, itself included), among its children, of its parent and grandparent, among its
/// ancestors and its descendants, of its previous and next sibling (0: none), among the
/// siblings before it, and below its parent (`family`); and its place among its parent's
/// named children.
#[derive(Clone, Copy, Debug)]
pub struct Around {
    siblings: Mask,
    children: Mask,
    parent: Mask,
    grandparent: Mask,
    ancestors: Mask,
    descendants: Mask,
    prev: Mask,
    next: Mask,
    before: Mask,
    family: Mask,
    /// (index among its parent's named children, how many there are), for a named node
    /// that has a parent
    pub(super) position: Option<(u32, u32)>,
}

impl Around {
    /// The surroundings with its siblings' order left open. ast-grep finds the siblings
    /// before or after a node from the first of its parent's children that ends past the
    /// node's start, which for a node of no width is a later sibling.
    pub fn unordered(self) -> Self {
        Self {
            prev: Mask::MAX,
            next: Mask::MAX,
            before: Mask::MAX,
            ..self
        }
    }

    pub(super) fn at(&self, among: Among) -> Mask {
        match among {
            Among::Siblings => self.siblings,
            Among::Children => self.children,
            Among::Parent => self.parent,
            Among::GrandParent => self.grandparent,
            Among::Ancestors => self.ancestors,
            Among::Descendants => self.descendants,
            Among::Prev => self.prev,
            Among::Next => self.next,
            Among::Neighbours => self.prev | self.next,
            Among::Before => self.before,
            Among::Family => self.family,
        }
    }
}

/// What is around each node of a walk, recorded as the walk enters the nodes in pre-order.
#[derive(Debug)]
pub struct Surroundings {
    /// by slot: one per node entered, in pre-order (slot 0: the root's parent, where
    /// anything may be)
    slots: Vec<Slot>,
    /// the slots of the nodes from the root to the last one entered
    path: Vec<u32>,
}

/// What a node entered has around it.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// its kind bit
    bit: Mask,
    /// the kinds on the path from the root to it, itself included
    path: Mask,
    /// the kinds of the siblings entered before it
    before: Mask,
    /// the kinds of its children
    children: Mask,
    /// the kinds below its children (folded in as the walk leaves nodes)
    below: Mask,
    /// the kind of its next sibling (0: none, so far)
    next: Mask,
    /// the slots of its parent (0 for the root) and of its previous sibling (0: none) and
    /// of its last child entered so far (0: none)
    parent: u32,
    prev: u32,
    last: u32,
    /// its index among its parent's named children (UNNAMED: it is not named)
    index: u32,
    /// how many named children it has (so far)
    named: u32,
}

/// The index of a node that is not named (see [`Slot`]).
const UNNAMED: u32 = u32::MAX;

/// Where a node entered sits: its slot (see [`Surroundings::around`]).
#[derive(Clone, Copy, Debug)]
pub struct Place(u32);

impl Default for Surroundings {
    fn default() -> Self {
        Self {
            slots: vec![ANYTHING],
            path: Vec::new(),
        }
    }
}

/// Slot 0: the root's parent, where anything may be.
const ANYTHING: Slot = Slot {
    bit: Mask::MAX,
    path: Mask::MAX,
    before: Mask::MAX,
    children: Mask::MAX,
    below: Mask::MAX,
    next: Mask::MAX,
    parent: 0,
    prev: 0,
    last: 0,
    index: UNNAMED,
    named: 0,
};

impl Surroundings {
    /// How many nodes' slots the memory held holds.
    pub fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    /// Make room for the slots of `nodes` nodes more at once: slots growing by doubling
    /// would leave the memory of each smaller size behind (freed memory is kept, see
    /// `crate::use_one_allocator`), as much again as the slots themselves.
    pub fn reserve(&mut self, nodes: usize) {
        self.slots.reserve_exact(nodes);
    }

    /// Forget every node entered, keeping the memory for the next walk.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.slots.push(ANYTHING);
        self.path.clear();
    }

    /// Pass a leaf of kind bit `bit` at `depth` that no rule may match and no rule's needs
    /// name (its mask is 0): it takes no slot, as nothing is ever asked of its own
    /// surroundings, and to its relatives it is what its slot would say, a kind of no bit
    /// (its next sibling sees no previous one, its previous sibling no next one) that
    /// counts among its parent's named children when it is named.
    pub fn pass(&mut self, bit: Bit, depth: usize) {
        debug_assert!(bit.mask == 0, "a leaf passed has no bit");
        self.leave_to(depth);
        let Some(&parent) = self.path.last() else {
            return;
        };
        let of_parent = &mut self.slots[parent as usize];
        if bit.named {
            of_parent.named += 1;
        }
        let prev = std::mem::replace(&mut of_parent.last, 0);
        if prev != 0 {
            self.slots[prev as usize].next = 0;
        }
    }

    /// Enter a node of kind bit `bit` (see [`crate::rules::Scanner::bit`]) at `depth` (the
    /// root's is 0).
    pub fn enter(&mut self, bit: Bit, depth: usize) -> Place {
        self.leave_to(depth);
        let own = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        let slot = match self.path.last() {
            Some(&parent) => self.adopt(parent, own, bit),
            None => Slot {
                bit: bit.mask,
                path: bit.mask,
                before: Mask::MAX,
                index: UNNAMED,
                ..Slot::default()
            },
        };
        self.slots.push(slot);
        self.path.push(own);
        Place(own)
    }

    /// A child of the node in slot `parent` enters, in slot `own`: its slot, and its
    /// parent's and previous sibling's updated.
    fn adopt(&mut self, parent: u32, own: u32, bit: Bit) -> Slot {
        let of_parent = &mut self.slots[parent as usize];
        let before = of_parent.children;
        of_parent.children |= bit.mask;
        let prev = std::mem::replace(&mut of_parent.last, own);
        let index = if bit.named {
            of_parent.named += 1;
            of_parent.named - 1
        } else {
            UNNAMED
        };
        let path = of_parent.path | bit.mask;
        if prev != 0 {
            self.slots[prev as usize].next = bit.mask;
        }
        Slot {
            bit: bit.mask,
            path,
            before,
            parent,
            prev,
            index,
            ..Slot::default()
        }
    }

    /// Leave the nodes entered deeper than `depth`, folding what is below each into its
    /// parent's.
    fn leave_to(&mut self, depth: usize) {
        while self.path.len() > depth {
            let Some(own) = self.path.pop() else {
                return;
            };
            let slot = self.slots[own as usize];
            if slot.parent != 0 {
                self.slots[slot.parent as usize].below |= slot.children | slot.below;
            }
        }
    }

    /// The walk is over: leave every node still entered.
    pub fn finish(&mut self) {
        self.leave_to(0);
    }

    /// What is around a node entered (complete once [`Surroundings::finish`] is called).
    /// Around the root (it has no parent, no siblings, no position) ast-grep looks at its
    /// own children for its siblings: that is left open.
    pub fn around(&self, place: Place) -> Around {
        let own = self.slots[place.0 as usize];
        let parent = self.slots[own.parent as usize];
        let root = own.parent == 0;
        let prev = match own.prev {
            _ if root => Mask::MAX,
            0 => 0,
            prev => self.slots[prev as usize].bit,
        };
        Around {
            siblings: parent.children,
            children: own.children,
            parent: parent.bit,
            grandparent: self.slots[parent.parent as usize].bit,
            ancestors: parent.path,
            descendants: own.children | own.below,
            prev,
            next: own.next,
            before: own.before,
            family: parent.children | parent.below,
            position: (own.index != UNNAMED && !root).then_some((own.index, parent.named)),
        }
    }
}

/// Where around a node a rule looks (see [`Around`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Among {
    Siblings,
    Children,
    Parent,
    GrandParent,
    Ancestors,
    Descendants,
    Prev,
    Next,
    /// the previous or the next sibling
    Neighbours,
    Before,
    Family,
}

impl Among {
    pub(super) const ALL: [Self; 11] = [
        Self::Siblings,
        Self::Children,
        Self::Parent,
        Self::GrandParent,
        Self::Ancestors,
        Self::Descendants,
        Self::Prev,
        Self::Next,
        Self::Neighbours,
        Self::Before,
        Self::Family,
    ];

    /// Whether kinds found at this place are also at `wider` (so alternatives needing
    /// kinds at either pool them there).
    pub(super) fn within(self, wider: Self) -> bool {
        use Among::*;
        self == wider
            || matches!(
                (self, wider),
                (Prev | Next, Neighbours)
                    | (Prev | Next | Neighbours | Before, Siblings)
                    | (Children, Descendants)
                    | (Parent | GrandParent, Ancestors)
            )
    }
}
