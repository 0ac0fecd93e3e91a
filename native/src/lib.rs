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
pub mod json;
pub mod lang;
pub mod needs;
pub(crate) mod pattern;
pub mod preorder;
pub mod read;
pub mod record;
pub mod rules;
pub(crate) mod shape;
pub mod walk;
pub mod yaml;

#[cfg(feature = "python")]
mod python;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Set up the allocator for analysis: tree-sitter allocates with the core's allocator
/// ([`share_allocator`]), freed memory is kept for the next files ([`keep_freed_memory`]) and
/// memory comes in small pages ([`no_transparent_huge_pages`]).
/// Call it before the first parse (the binding does so when Python imports it); later calls
/// do nothing.
pub fn use_one_allocator() {
    share_allocator();
    keep_freed_memory();
    no_transparent_huge_pages();
}

/// Make tree-sitter allocate with the same allocator as the core, mimalloc's defaults
/// otherwise unchanged (the bare-parse baseline uses this alone). Call it before the first
/// parse; later calls do nothing.
#[allow(unsafe_code, reason = "hands mimalloc's functions to tree-sitter")]
pub fn share_allocator() {
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

/// mimalloc's options as its header numbers them (`MI_OPTION_PURGE_DELAY` and
/// `MI_OPTION_ALLOW_THP`; `libmimalloc-sys` names neither, and their numbers differ between
/// mimalloc's major versions): read by name from the header it builds (`build.rs`).
mod mimalloc_options {
    include!(concat!(env!("OUT_DIR"), "/mimalloc_options.rs"));
}
use mimalloc_options::{MI_OPTION_ALLOW_THP, MI_OPTION_PURGE_DELAY};
// the header read is the one the crate's own option count comes from
const _: () = assert!(mimalloc_options::_MI_OPTION_LAST == libmimalloc_sys::_mi_option_last);

/// Environment variables that set mimalloc's purge delay (the second is its older name).
const PURGE_DELAY_VARIABLES: [&str; 2] = ["MIMALLOC_PURGE_DELAY", "MIMALLOC_RESET_DELAY"];

/// Never hand freed memory back to the operating system, unless the environment sets
/// mimalloc's purge delay. By default mimalloc returns a page it has not reused within its
/// delay, and the next file's tree faults it back in, zeroed by the kernel: on CPython's
/// `Lib/` that was 13,000 page faults (a few percent of the time) instead of 350. The
/// memory kept is what the biggest files in flight at once need.
#[allow(unsafe_code, reason = "sets a mimalloc option")]
fn keep_freed_memory() {
    if PURGE_DELAY_VARIABLES
        .iter()
        .any(|name| std::env::var_os(name).is_some())
    {
        return;
    }
    // SAFETY: mi_option_set only stores the option's value (read when mimalloc next
    // considers purging); -1 is its documented value for "never purge".
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
}

/// Back memory with ordinary 4 KiB pages, not transparent huge pages, unless the environment
/// sets mimalloc's `MIMALLOC_ALLOW_THP`. A walk takes its memory in many size classes, and
/// under huge pages the first block of each faults in a whole 2 MiB page that the kernel
/// zeroes: on scipy's files that was 6-8% of a run (the bare parse, with far less memory,
/// takes as long either way). As mimalloc itself does when the option is off at start-up,
/// huge pages are turned off for the process (`PR_SET_THP_DISABLE`): the arena mimalloc
/// reserved before this call is marked for them already.
#[allow(unsafe_code, reason = "sets a mimalloc option and a process flag")]
fn no_transparent_huge_pages() {
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_some() {
        return;
    }
    // SAFETY: mi_option_set only stores the option's value; prctl with PR_SET_THP_DISABLE
    // sets one flag of this process and touches no memory of ours.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0);
        #[cfg(target_os = "linux")]
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::{keep_freed_memory, MI_OPTION_PURGE_DELAY, PURGE_DELAY_VARIABLES};

    #[test]
    #[allow(unsafe_code, reason = "reads a mimalloc option")]
    fn freed_memory_is_kept_unless_the_environment_says_otherwise() {
        keep_freed_memory();
        // SAFETY: reading an option has no precondition.
        let delay = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        let set_outside = PURGE_DELAY_VARIABLES
            .iter()
            .any(|name| std::env::var_os(name).is_some());
        assert!(set_outside || delay == -1, "purge delay {delay}");
    }
}
