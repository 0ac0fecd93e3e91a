//! The Python binding, `slopmark._core`: a few coarse calls, plain data across.
//!
//! Python hands in paths or bytes, the language name, a compiled rule pack and settings;
//! it gets back a [`Stream`] of one record per file, a [`Measured`] or a [`Failed`] (see
//! `slopmark.code.measure.fileanalysis.from_record`), which it reads while the core's threads go on
//! with the rest. The GIL is released while Python waits for records. Two helpers beside:
//! rule files' YAML read in parallel ([`yaml_documents`]) and report rows written as JSON
//! text ([`json_objects`]).

use crate::analyze::{Analyzer, Input, Settings};
use crate::lang::{by_name, Language, LANGUAGES};
use crate::read::MAX_FILE_BYTES;
use crate::record::{FileRecord, Outcome};
use crate::rules::RulePack as Pack;
use crate::{json, yaml};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// A running analysis: the core's threads work through the files while Python reads the
/// records of those finished so far (and turns them into its own objects meanwhile).
#[pyclass(frozen, module = "slopmark._core")]
pub struct Stream {
    finished: Mutex<Finished>,
    total: usize,
}

/// The records to come, and how many were handed out.
struct Finished {
    records: Receiver<(usize, Outcome)>,
    handed: usize,
}

#[pymethods]
impl Stream {
    /// The files of the analysis.
    fn __len__(&self) -> usize {
        self.total
    }

    /// `(index, record)` of the files finished since the last call: waits, the GIL
    /// released, until `at_least` are there (or `timeout` seconds have passed, or every
    /// file is done), then takes those finished meanwhile too. Empty once all were read.
    #[pyo3(signature = (at_least=1, timeout=None))]
    fn next<'py>(
        &self,
        py: Python<'py>,
        at_least: usize,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyList>> {
        let wait = timeout.map(|t| Duration::from_secs_f64(t.max(0.0)));
        let (taken, ended, handed) = py.detach(|| match self.finished.lock() {
            Ok(mut finished) => {
                let (taken, ended) = take(&finished.records, at_least, wait);
                finished.handed += taken.len();
                (taken, ended, finished.handed)
            }
            Err(_) => (Vec::new(), true, 0),
        });
        if ended && handed < self.total {
            return Err(PyRuntimeError::new_err(format!(
                "the core stopped after {handed} of {} files; please report it",
                self.total
            )));
        }
        let items = taken
            .into_iter()
            .map(|(index, outcome)| (index, record(py, outcome)?).into_pyobject(py))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }
}

/// Outcomes from `finished`: at least `at_least` unless `wait` runs out or the analysis
/// ends, and every other one already there; true as well once the analysis has ended.
fn take(
    finished: &Receiver<(usize, Outcome)>,
    at_least: usize,
    wait: Option<Duration>,
) -> (Vec<(usize, Outcome)>, bool) {
    let deadline = wait.map(|w| Instant::now() + w);
    let mut taken = Vec::new();
    while taken.len() < at_least {
        let next = match deadline {
            Some(deadline) => {
                finished.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            }
            None => finished.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(item) => taken.push(item),
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => return (taken, true),
        }
    }
    loop {
        match finished.try_recv() {
            Ok(item) => taken.push(item),
            Err(TryRecvError::Empty) => return (taken, false),
            Err(TryRecvError::Disconnected) => return (taken, true),
        }
    }
}

/// Start analysing `inputs` on the core's own threads; the stream hands out the records.
fn start(
    inputs: Vec<Input>,
    language_name: &str,
    rules: Option<&RulePack>,
    jobs: usize,
    settings: Settings,
) -> PyResult<Stream> {
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
    let total = inputs.len();
    let (sender, finished) = channel();
    std::thread::Builder::new()
        .name("slopmark-core".into())
        .spawn(move || {
            let analyzer = Analyzer::new(lang, pack.as_deref(), settings);
            analyzer.each(&inputs, jobs, &|i, outcome| {
                sender.send((i, outcome)).is_ok()
            });
        })
        .map_err(|error| PyRuntimeError::new_err(format!("cannot start the core: {error}")))?;
    Ok(Stream {
        finished: Mutex::new(Finished {
            records: finished,
            handed: 0,
        }),
        total,
    })
}

/// A file to analyse: source bytes as they are, anything else as its path.
fn input(item: &Bound<'_, PyAny>) -> PyResult<Input> {
    match item.cast::<PyBytes>() {
        Ok(bytes) => Ok(Input::Bytes(bytes.as_bytes().to_vec())),
        Err(_) => Ok(Input::Path(item.extract()?)),
    }
}

/// Analyse files on `jobs` threads (0: one per core), each given by its path or as its
/// source bytes; a record per item, by its index. A path is read only if it names a
/// regular file of at most `max_file_bytes` (see [`Settings::with_max_file_bytes`]).
#[pyfunction]
#[pyo3(signature = (
    language, items, rules=None, jobs=0, min_clone_sloc=3, max_depth=1000,
    max_file_bytes=MAX_FILE_BYTES,
))]
fn stream(
    language: &str,
    items: Vec<Bound<'_, PyAny>>,
    rules: Option<&RulePack>,
    jobs: usize,
    min_clone_sloc: usize,
    max_depth: usize,
    max_file_bytes: u64,
) -> PyResult<Stream> {
    let inputs = items.iter().map(input).collect::<PyResult<_>>()?;
    let settings = Settings {
        min_clone_sloc,
        max_depth,
        ..Settings::default()
    }
    .with_max_file_bytes(max_file_bytes);
    start(inputs, language, rules, jobs, settings)
}

/// One of the core's grammars: its name, its file extensions (without the dot), the
/// language its files are reported under, and the languages whose rules run on them.
type Grammar = (
    &'static str,
    Vec<&'static str>,
    &'static str,
    Vec<&'static str>,
);

/// The grammars the core measures (see [`Grammar`]), in report order.
#[pyfunction]
fn languages() -> Vec<Grammar> {
    LANGUAGES
        .iter()
        .map(|l| {
            let mut rules = l.extends().to_vec();
            rules.push(l.reported_as());
            (l.name(), l.extensions().to_vec(), l.reported_as(), rules)
        })
        .collect()
}

/// A file the core measured. `sloc` holds a byte per line (index 0 unused, 1: a SLOC
/// line); `callables` are (qualified name, start, end, CC, SLOC), `clones` (kind, start,
/// end, digest), `hits` (rule index, start, end, message or None: the rule's own),
/// `ignores` (line, ids); `syntax` is the first syntax error's (message, line, column) when
/// the language measures broken files; `declares_encoding`: the text may declare an
/// encoding of its own (a PEP 263 cookie), which its reader must check.
#[pyclass(frozen, get_all, module = "slopmark._core")]
pub struct Measured {
    sloc: Py<PyBytes>,
    callables: Py<PyList>,
    clones: Py<PyList>,
    hits: Py<PyList>,
    ignores: Py<PyList>,
    syntax: Option<Py<PyTuple>>,
    declares_encoding: bool,
}

/// A file the core did not measure: the kind of error (`unreadable`, `too-big`,
/// `not-utf8`, `syntax`, ...), its message and its place (1-based line and column; 0 when
/// it has none).
#[pyclass(frozen, get_all, eq, module = "slopmark._core")]
#[derive(PartialEq)]
pub struct Failed {
    kind: &'static str,
    message: String,
    line: usize,
    column: usize,
}

fn record(py: Python<'_>, outcome: Outcome) -> PyResult<Bound<'_, PyAny>> {
    match outcome {
        Outcome::Failed(error) => Ok(Bound::new(
            py,
            Failed {
                kind: error.kind.as_str(),
                message: error.message,
                line: error.line,
                column: error.column,
            },
        )?
        .into_any()),
        Outcome::Measured(file) => Ok(Bound::new(py, measured(py, file)?)?.into_any()),
    }
}

fn measured(py: Python<'_>, file: FileRecord) -> PyResult<Measured> {
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
    let syntax = file
        .syntax
        .map(|e| (e.message, e.line, e.column).into_pyobject(py))
        .transpose()?;
    Ok(Measured {
        sloc: PyBytes::new(py, &file.sloc).unbind(),
        callables: PyList::new(py, callables)?.unbind(),
        clones: PyList::new(py, clones)?.unbind(),
        hits: PyList::new(py, hits)?.unbind(),
        ignores: PyList::new(py, ignores)?.unbind(),
        syntax: syntax.map(Bound::unbind),
        declares_encoding: file.declares_encoding,
    })
}

/// Each text's YAML documents as JSON texts, or why it is not YAML slopmark reads (one
/// line): the rule files of a pack, read in parallel (see [`crate::yaml`]).
#[pyfunction]
fn yaml_documents(py: Python<'_>, texts: Vec<String>) -> PyResult<Vec<Py<PyAny>>> {
    let read = py.detach(|| yaml::documents_of_each(&texts));
    read.into_iter()
        .map(|found| match found {
            Ok(documents) => Ok(documents.into_pyobject(py)?.into_any().unbind()),
            Err(why) => Ok(PyString::new(py, &why).into_any().unbind()),
        })
        .collect()
}

/// Rows as compact JSON objects, the text `json.dumps(..., separators=(",", ":"))` writes
/// for them: for each list of `lists`, its rows' objects joined by commas, an object having
/// each of `keys` with the row's item at the matching index of `columns` (a string, int,
/// float, bool or None).
#[pyfunction]
fn json_objects(
    keys: Vec<String>,
    columns: Vec<usize>,
    lists: Vec<Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    if keys.len() != columns.len() {
        return Err(PyValueError::new_err("json_objects: one column per key"));
    }
    let opened: Vec<String> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let mut text = String::from(if i == 0 { "{" } else { "," });
            json::push_str(&mut text, key);
            text.push(':');
            text
        })
        .collect();
    lists
        .iter()
        .map(|rows| {
            let mut out = String::new();
            for (n, row) in rows.try_iter()?.enumerate() {
                let row = row?;
                if n > 0 {
                    out.push(',');
                }
                let tuple = row.cast::<PyTuple>().ok();
                for (key, &column) in opened.iter().zip(&columns) {
                    out.push_str(key);
                    let cell = match tuple {
                        Some(tuple) => tuple.get_item(column)?,
                        None => row.get_item(column)?,
                    };
                    json_value(&mut out, &cell)?;
                }
                out.push('}');
            }
            Ok(out)
        })
        .collect()
}

/// Append one JSON value as `json.dumps` writes it.
fn json_value(out: &mut String, value: &Bound<'_, PyAny>) -> PyResult<()> {
    if let Ok(text) = value.cast::<PyString>() {
        match text.to_str() {
            Ok(text) => json::push_str(out, text),
            Err(_) => json_lone_surrogates(out, text)?,
        }
    } else if let Ok(flag) = value.cast::<PyBool>() {
        out.push_str(if flag.is_true() { "true" } else { "false" });
    } else if let Ok(number) = value.cast::<PyInt>() {
        match number.extract::<i64>() {
            Ok(number) => out.push_str(&number.to_string()),
            Err(_) => out.push_str(&number.str()?.to_cow()?),
        }
    } else if let Ok(number) = value.cast::<PyFloat>() {
        json::push_float(out, number.value());
    } else if value.is_none() {
        out.push_str("null");
    } else {
        let kind = value.get_type().name()?;
        return Err(PyTypeError::new_err(format!(
            "json_objects: a {kind} is not a string, number, bool or None"
        )));
    }
    Ok(())
}

/// A Python string holding lone surrogates (a path read with `surrogateescape`), escaped
/// code unit by code unit as `json.dumps` escapes it.
fn json_lone_surrogates(out: &mut String, text: &Bound<'_, PyString>) -> PyResult<()> {
    let encoded = text.call_method1("encode", ("utf-16-le", "surrogatepass"))?;
    let bytes = encoded.cast::<PyBytes>()?.as_bytes();
    let units = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]));
    json::push_units(out, units);
    Ok(())
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::use_one_allocator();
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("MAX_FILE_BYTES", MAX_FILE_BYTES)?;
    module.add("RuleRejected", module.py().get_type::<RuleRejected>())?;
    module.add_class::<RulePack>()?;
    module.add_class::<Stream>()?;
    module.add_class::<Measured>()?;
    module.add_class::<Failed>()?;
    module.add_function(wrap_pyfunction!(stream, module)?)?;
    module.add_function(wrap_pyfunction!(languages, module)?)?;
    module.add_function(wrap_pyfunction!(json_objects, module)?)?;
    module.add_function(wrap_pyfunction!(yaml_documents, module)?)?;
    Ok(())
}
