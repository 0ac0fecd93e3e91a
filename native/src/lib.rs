//! slopmark's native analysis core.
//!
//! Per file, one tree-sitter parse feeds everything `slopmark code measure` needs: the
//! callables with their cyclomatic complexity and SLOC, the SLOC lines, the clone
//! candidates' normal-form digests, the `slopmark: ignore[...]` comments, and the hits of
//! the YAML rule pack run in-process through ast-grep's library crates. Files are analysed
//! in parallel ([`analyze::Analyzer::batch`]); each yields a plain [`record::Outcome`].
//!
//! Languages live in [`lang`], one module each; the walk ([`walk`], [`clones`]) is shared.

pub mod analyze;
pub mod clones;
pub mod lang;
pub mod needs;
pub mod record;
pub mod rules;
pub mod walk;

#[cfg(feature = "python")]
mod python;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Make tree-sitter allocate with the same allocator as the core. Call it before the
/// first parse (the binding does so when Python imports it); later calls do nothing.
pub fn use_one_allocator() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: called before any tree-sitter object exists (once, at module import), so
        // every tree is allocated and freed by the same allocator; mimalloc's functions
        // have the signatures of malloc, calloc, realloc and free.
        unsafe {
            tree_sitter::set_allocator(Some(tree_sitter::Allocator {
                malloc: libmimalloc_sys::mi_malloc,
                calloc: libmimalloc_sys::mi_calloc,
                realloc: libmimalloc_sys::mi_realloc,
                free: libmimalloc_sys::mi_free,
            }));
        }
    });
}
