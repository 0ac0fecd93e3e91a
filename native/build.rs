//! Builds `csrc/preorder.c`, which reads tree-sitter's trees through the library's own
//! internal headers: those of the tree-sitter crate this build links (its build script
//! says where its headers are; its sources sit beside them).
use std::path::PathBuf;

fn main() {
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
