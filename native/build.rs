//! Builds `csrc/preorder.c` (the walk's reading of the tree), and names the two mimalloc
//! options `lib.rs` sets.
//!
//! `preorder.c` reads tree-sitter's trees through the library's own internal headers: those
//! of the tree-sitter crate this build links (its build script says where its headers are;
//! its sources sit beside them). It is only right for the release `Cargo.toml` pins;
//! `native/README.md` says how to move the pin.
//!
//! mimalloc's options are an enum of its header, numbered by their place in it, and
//! `libmimalloc-sys` names only some of them: the two `lib.rs` sets are read by name from
//! the header the crate compiles (`mimalloc_options.rs` in `OUT_DIR`).
use std::path::PathBuf;

fn main() {
    name_mimalloc_options(&[
        "mi_option_purge_delay",
        "mi_option_allow_thp",
        "_mi_option_last",
    ]);
    // the walk reads with tree-sitter's public cursor alone
    if std::env::var_os("CARGO_FEATURE_CURSOR_WALK").is_some() {
        return;
    }
    let include = PathBuf::from(
        std::env::var("DEP_TREE_SITTER_INCLUDE").expect("the tree-sitter crate names its headers"),
    );
    let internal = include.join("..").join("src");
    println!("cargo:rerun-if-changed=csrc/preorder.c");
    println!("cargo:rerun-if-changed=csrc/preorder.h");
    cc::Build::new()
        .std("c11")
        .include(&include)
        .include(&internal)
        .include("csrc")
        .flag_if_supported("-fvisibility=hidden")
        .flag_if_supported("-Wno-unused-parameter")
        .file("csrc/preorder.c")
        .compile("slopmark-preorder");
}

/// Write `pub const` items for `names`, each the value mimalloc's header gives it in the
/// `mi_option_t` enum.
fn name_mimalloc_options(names: &[&str]) {
    let header = PathBuf::from(
        std::env::var("DEP_MIMALLOC_INCLUDE_DIR").expect("libmimalloc-sys names its headers"),
    )
    .join("mimalloc.h");
    println!("cargo:rerun-if-changed={}", header.display());
    let text = std::fs::read_to_string(&header).expect("mimalloc.h is readable");
    let values = option_values(&text);
    let mut out = String::from("// mimalloc's option numbers, read from mimalloc.h by build.rs\n");
    for name in names {
        let value = values
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{} has no option {name}", header.display()))
            .1;
        out.push_str(&format!(
            "pub const {}: libmimalloc_sys::mi_option_t = {value};\n",
            name.to_uppercase()
        ));
    }
    let dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(dir.join("mimalloc_options.rs"), out).expect("OUT_DIR is writable");
}

/// The names and values of the `mi_option_t` enum (`typedef enum mi_option_e { ... }`):
/// each is one more than the one before it, or the value of the name it is set to.
fn option_values(header: &str) -> Vec<(String, i64)> {
    let start = header
        .find("typedef enum mi_option_e")
        .expect("mimalloc.h defines mi_option_t");
    let body = &header[start..];
    let body = &body[body.find('{').expect("an enum body") + 1..];
    let body = &body[..body.find('}').expect("an enum body")];
    let mut values: Vec<(String, i64)> = Vec::new();
    let mut next = 0;
    for line in body.lines() {
        let code = line.split("//").next().unwrap_or("");
        for item in code.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, value) = match item.split_once('=') {
                None => (item, next),
                Some((name, value)) => {
                    let value = value.trim();
                    let value = value.parse().unwrap_or_else(|_| {
                        values
                            .iter()
                            .find(|(n, _)| n == value)
                            .unwrap_or_else(|| panic!("mimalloc.h: unknown option {value}"))
                            .1
                    });
                    (name.trim(), value)
                }
            };
            values.push((name.to_string(), value));
            next = value + 1;
        }
    }
    values
}
