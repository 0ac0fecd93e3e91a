//! The per-file records the core hands back: plain data, serializable, no Python in them.
//!
//! A record depends only on the file's bytes, the language and the rule pack, so a cache
//! keyed by (content hash, language, pack) can store it.

use serde::{Deserialize, Serialize};

/// A function (or method) and its complexity. Lines are 1-based and inclusive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallableRecord {
    pub qualname: String,
    pub start: usize,
    pub end: usize,
    pub cc: u32,
    pub sloc: usize,
}

/// A clone candidate: its kind, its lines and the digest of its normal form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CloneRecord {
    pub kind: String,
    pub start: usize,
    pub end: usize,
    pub digest: [u8; 16],
}

/// One rule match: the rule's index in the pack, its lines, and its message when the
/// rule's message template names metavariables (else None: the rule's own message).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitRecord {
    pub rule: u32,
    pub start: usize,
    pub end: usize,
    pub message: Option<String>,
}

/// A `slopmark: ignore[...]` comment: its line and the rule ids it names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IgnoreRecord {
    pub line: usize,
    pub ids: Vec<String>,
}

/// Everything measured in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRecord {
    /// A byte per line, 1 where the line is SLOC (index 0 unused).
    pub sloc: Vec<u8>,
    pub callables: Vec<CallableRecord>,
    pub clones: Vec<CloneRecord>,
    pub hits: Vec<HitRecord>,
    pub ignores: Vec<IgnoreRecord>,
    /// The first syntax error of a file measured despite it (languages that measure
    /// broken files: the error nodes are walked like any other node).
    pub syntax: Option<FileError>,
    /// The text may declare an encoding of its own (see
    /// [`crate::lang::Language::may_declare_encoding`]).
    pub declares_encoding: bool,
}

/// Why a file was not measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    /// The file could not be read.
    Unreadable,
    /// The bytes are not UTF-8 (the caller may decode them and hand the text back).
    NotUtf8,
    /// The parser found a syntax error.
    Syntax,
    /// Nesting deeper than the core measures.
    TooDeep,
    /// More than the core measures in one file: over the byte limit, or a parse over its
    /// step budget (minified or generated code).
    TooBig,
    /// A defect in the core (a caught panic); the message says where.
    Internal,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unreadable => "unreadable",
            Self::NotUtf8 => "not-utf8",
            Self::Syntax => "syntax",
            Self::TooDeep => "too-deep",
            Self::TooBig => "too-big",
            Self::Internal => "internal",
        }
    }
}

/// A file that was not measured: what went wrong and where (1-based line and column, 0
/// when there is no position).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileError {
    pub kind: ErrorKind,
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// The outcome for one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Measured(FileRecord),
    Failed(FileError),
}

impl Outcome {
    /// What kind of error it is (None when measured).
    pub fn kind(&self) -> Option<ErrorKind> {
        match self {
            Self::Measured(_) => None,
            Self::Failed(error) => Some(error.kind),
        }
    }

    pub fn failed(kind: ErrorKind, message: impl Into<String>, line: usize, column: usize) -> Self {
        Self::Failed(FileError {
            kind,
            message: message.into(),
            line,
            column,
        })
    }
}
