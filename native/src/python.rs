//! The Python binding, `slopmark._core`: a few coarse calls, plain data across.
//!
//! Python hands in paths or bytes, the language name, a compiled rule pack and settings;
//! it gets back one plain tuple per file (see `slopmark.code.analysis.from_core`). The GIL
//! is released while the files are analysed.

use crate::analyze::{Analyzer, Input, Settings};
use crate::lang::{by_name, Language, LANGUAGES};
use crate::record::{FileRecord, Outcome};
use crate::rules::RulePack as Pack;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

create_exception!(
    _core,
    RuleRejected,
    PyValueError,
    "ast-grep refused a rule: args are (index of the rule, reason)."
);

fn language(name: &str) -> PyResult<&'static dyn Language> {
    by_name(name).ok_or_else(|| {
        let known: Vec<&str> = LANGUAGES.iter().map(|l| l.name()).collect();
        PyValueError::new_err(format!(
            "unknown language '{name}'; known: {}",
            known.join(", ")
        ))
    })
}

/// A rule pack compiled once for one language (rules as YAML or JSON text, one each).
#[pyclass(frozen, module = "slopmark._core")]
pub struct RulePack {
    language: &'static dyn Language,
    pack: Arc<Pack>,
}

#[pymethods]
impl RulePack {
    #[new]
    fn new(py: Python<'_>, language_name: &str, rules: Vec<String>) -> PyResult<Self> {
        let lang = language(language_name)?;
        let compiled = py.detach(|| Pack::compile(lang, &rules));
        match compiled {
            Ok(pack) => Ok(Self {
                language: lang,
                pack: Arc::new(pack),
            }),
            Err(error) => Err(RuleRejected::new_err((error.index, error.message))),
        }
    }

    fn __len__(&self) -> usize {
        self.pack.len()
    }

    #[getter]
    fn language(&self) -> &'static str {
        self.language.name()
    }
}

/// Files finished by a running analysis: read it from another thread to show progress.
#[pyclass(frozen, module = "slopmark._core")]
pub struct Progress {
    done: Arc<AtomicUsize>,
}

#[pymethods]
impl Progress {
    #[new]
    fn new() -> Self {
        Self {
            done: Arc::new(AtomicUsize::new(0)),
        }
    }

    #[getter]
    fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }
}

/// What a call asks for besides its inputs.
struct Call<'a> {
    language: &'a str,
    rules: Option<&'a RulePack>,
    jobs: usize,
    settings: Settings,
    progress: Option<&'a Progress>,
}

fn run(py: Python<'_>, inputs: Vec<Input>, call: Call<'_>) -> PyResult<Vec<Outcome>> {
    let Call {
        language: language_name,
        rules,
        jobs,
        settings,
        progress,
    } = call;
    let lang = language(language_name)?;
    if let Some(pack) = rules {
        if pack.language.name() != lang.name() {
            return Err(PyValueError::new_err(format!(
                "the rule pack is for {}, not {}",
                pack.language.name(),
                lang.name()
            )));
        }
    }
    let pack = rules.map(|r| Arc::clone(&r.pack));
    let done = progress.map_or_else(|| Arc::new(AtomicUsize::new(0)), |p| Arc::clone(&p.done));
    Ok(py.detach(|| Analyzer::new(lang, pack.as_deref(), settings).batch(&inputs, jobs, &done)))
}

/// Analyse files by path on `jobs` threads (0: one per core); one record per path.
#[pyfunction]
#[pyo3(signature = (
    language, paths, rules=None, jobs=0, min_clone_sloc=3, max_depth=1000, progress=None
))]
#[allow(clippy::too_many_arguments)] // the Python signature: keywords with defaults
fn analyze_paths(
    py: Python<'_>,
    language: &str,
    paths: Vec<PathBuf>,
    rules: Option<&RulePack>,
    jobs: usize,
    min_clone_sloc: usize,
    max_depth: usize,
    progress: Option<&Progress>,
) -> PyResult<Py<PyList>> {
    let inputs = paths.into_iter().map(Input::Path).collect();
    let settings = Settings {
        min_clone_sloc,
        max_depth,
    };
    let call = Call {
        language,
        rules,
        jobs,
        settings,
        progress,
    };
    records(py, run(py, inputs, call)?)
}

/// Analyse source texts given as bytes; one record per item.
#[pyfunction]
#[pyo3(signature = (
    language, sources, rules=None, jobs=0, min_clone_sloc=3, max_depth=1000, progress=None
))]
#[allow(clippy::too_many_arguments)] // the Python signature: keywords with defaults
fn analyze_sources(
    py: Python<'_>,
    language: &str,
    sources: Vec<Bound<'_, PyBytes>>,
    rules: Option<&RulePack>,
    jobs: usize,
    min_clone_sloc: usize,
    max_depth: usize,
    progress: Option<&Progress>,
) -> PyResult<Py<PyList>> {
    let inputs = sources
        .iter()
        .map(|s| Input::Bytes(s.as_bytes().to_vec()))
        .collect();
    let settings = Settings {
        min_clone_sloc,
        max_depth,
    };
    let call = Call {
        language,
        rules,
        jobs,
        settings,
        progress,
    };
    records(py, run(py, inputs, call)?)
}

/// The languages the core measures, with their file extensions.
#[pyfunction]
fn languages() -> Vec<(&'static str, Vec<&'static str>)> {
    LANGUAGES
        .iter()
        .map(|l| (l.name(), l.extensions().to_vec()))
        .collect()
}

fn records(py: Python<'_>, outcomes: Vec<Outcome>) -> PyResult<Py<PyList>> {
    let items = outcomes
        .into_iter()
        .map(|outcome| record(py, outcome))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, items)?.unbind())
}

fn record(py: Python<'_>, outcome: Outcome) -> PyResult<Bound<'_, PyTuple>> {
    match outcome {
        Outcome::Failed(error) => (
            "error",
            error.kind.as_str(),
            error.message,
            error.line,
            error.column,
        )
            .into_pyobject(py),
        Outcome::Measured(file) => measured(py, file),
    }
}

fn measured(py: Python<'_>, file: FileRecord) -> PyResult<Bound<'_, PyTuple>> {
    let callables: Vec<_> = file
        .callables
        .into_iter()
        .map(|c| (c.qualname, c.start, c.end, c.cc, c.sloc))
        .collect();
    let clones: Vec<_> = file
        .clones
        .into_iter()
        .map(|c| (c.kind, c.start, c.end, PyBytes::new(py, &c.digest)))
        .collect();
    let hits: Vec<_> = file
        .hits
        .into_iter()
        .map(|h| (h.rule, h.start, h.end, h.message))
        .collect();
    let ignores: Vec<_> = file.ignores.into_iter().map(|i| (i.line, i.ids)).collect();
    let syntax = file.syntax.map(|e| (e.message, e.line, e.column));
    (
        "ok",
        PyBytes::new(py, &file.sloc),
        callables,
        clones,
        hits,
        ignores,
        syntax,
    )
        .into_pyobject(py)
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::use_one_allocator();
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("RuleRejected", module.py().get_type::<RuleRejected>())?;
    module.add_class::<RulePack>()?;
    module.add_class::<Progress>()?;
    module.add_function(wrap_pyfunction!(analyze_paths, module)?)?;
    module.add_function(wrap_pyfunction!(analyze_sources, module)?)?;
    module.add_function(wrap_pyfunction!(languages, module)?)?;
    Ok(())
}
