"""Go and Rust rules on the real snippets they misfired on (issue 36): each snippet is a
few lines from a published package, cited by package@version and path, and the rule
must stay silent on it; beside each, a real or example snippet it must still flag."""

from __future__ import annotations

import pytest

from slopmark.code.measure.native import Engine
from slopmark.code.measure.rules import load_catalog

#: Every Go and Rust rule, the pedantic ones too (their misfires stay fixed as well).
RULES = {r.id: r for r in load_catalog(rule_set="pedantic") if r.language in ("go", "rust")}

#: (rule id, source, hits the rule must give); the file suffix follows the rule's prefix.
CASES = [
    # thiserror-impl@2.0.21 src/fmt.rs: the None arm returns, unwrap_or is impossible
    (
        "rust-manual-unwrap-or",
        """
fn f(read: &str) -> Result<(), ()> {
    let next = match read.chars().next() {
        Some(next) => next,
        None => return Ok(()),
    };
    Ok(())
}""",
        0,
    ),
    # smallvec@1.16.6 src/lib.rs: the None arm breaks out of the loop
    (
        "rust-manual-unwrap-or",
        """
fn f() {
    while num_added < lower_size_bound {
        let element = match iter.next() {
            Some(x) => x,
            None => break
        };
    }
}""",
        0,
    ),
    # bytes@1.12.2 src/buf/buf_mut.rs: the None arm calls a function that panics
    (
        "rust-manual-unwrap-or",
        """
fn put_uint(&mut self, n: u64, nbytes: usize) {
    let start = match mem::size_of_val(&n).checked_sub(nbytes) {
        Some(start) => start,
        None => panic_does_not_fit(nbytes, mem::size_of_val(&n)),
    };
}""",
        0,
    ),
    # syn@3.0.10 src/punctuated.rs: the None arm indexes, which unwrap_or would do eagerly
    (
        "rust-manual-unwrap-or",
        """
fn index(&self, index: usize) -> &T {
    match &self.last {
        Some(t) => t,
        None => &self.inner[index].0,
    }
}""",
        0,
    ),
    # serde-saphyr@2.2.0 src/tag.rs: the else arm is a plain name: `.unwrap_or(tag)`
    (
        "rust-manual-unwrap-or",
        """
fn simple(tag: &str) -> &str {
    if let Some(inner) = tag.strip_prefix("!<").and_then(|s| s.strip_suffix('>')) {
        inner
    } else {
        tag
    }
}""",
        1,
    ),
    # bytes@1.12.2 src/bytes.rs: PartialEq<Vec<u8>> fixes the parameter type
    (
        "rust-ref-to-owned-param",
        """
impl PartialEq<Vec<u8>> for Bytes {
    fn eq(&self, other: &Vec<u8>) -> bool {
        *self == other[..]
    }
}
impl Bytes {
    fn own(&self, other: &Vec<u8>) -> bool { true }
}""",
        1,
    ),
    # smallvec@1.16.6 src/lib.rs: is_empty is defined by the length
    (
        "rust-len-zero",
        """
impl<A: Array> SmallVec<A> {
    pub fn is_empty(&self) -> bool { self.len() == 0 }
    fn full(&self) -> bool { self.len() == 0 }
}""",
        1,
    ),
    # indexmap@2.14.2 src/set.rs: the closure takes two parameters, sort_key one
    (
        "rust-redundant-closure",
        """
fn f() {
    let (index, existing) = self.map.insert_sorted_by_key(value, (), |k, _| sort_key(k));
}""",
        0,
    ),
    # indexmap@2.14.2 src/util.rs: two slices indexed in step
    (
        "rust-range-loop-index",
        """
fn eq(left: &[T], right: &[T]) -> bool {
    for i in 0..left.len() {
        if !eq(&left[i], &right[i]) {
            return false;
        }
    }
    true
}""",
        0,
    ),
    # indexmap@2.14.2 src/map/tests.rs: one slice, `iter_mut()` would do
    (
        "rust-range-loop-index",
        """
fn t() {
    for i in 0..slice.len() {
        slice[i] += 1;
    }
}""",
        1,
    ),
    # log@0.4.35 src/kv/value.rs: unsupported variants of a test helper, and a
    # visitor method with a message
    (
        "rust-unfinished-macro",
        """
fn to_test_token(&self) -> Token<'_> {
    match self {
        Inner::None => Token::None,
        Inner::I128(_) => unimplemented!(),
    }
}
impl<'v> VisitValue<'v> for Extract {
    fn visit_any(&mut self, value: Value) -> Result<(), Error> {
        unimplemented!("unexpected value: {value:?}")
    }
}
fn stub() { todo!() }""",
        1,
    ),
    # bytes@1.12.2 tests/test_buf.rs, log@0.4.35 src/kv/source.rs, indexmap@2.14.2
    # src/map/slice.rs, smallvec@1.16.6 src/lib.rs: reasoned or required allows
    (
        "rust-allow-attribute",
        """
#[allow(unused_allocation)] // This is intentional.
fn a() {}
#[allow(clippy::needless_lifetimes)] // Not needless.
fn b() {}
#[allow(unsafe_code)]
fn c() {}
#[allow(deprecated)]
fn d() {}
#[allow(dead_code, reason = "kept for the FFI table")]
fn e() {}
#[allow(dead_code)]
fn f() {}""",
        1,
    ),
    # encoding_rs@0.8.44 src/mem.rs: the index is also the value, and the slice is used
    # whole inside the loop
    (
        "rust-range-loop-index",
        """
fn t() {
    for i in 0..src.len() {
        src[i] = i as u16;
    }
    for j in 0..tail.len() {
        tail[j] = 0xA0;
        assert!(!is_basic_latin(tail));
    }
}""",
        0,
    ),
    # borsh@1.8.1 src/de/mod.rs: `?` leaves the function, the inner Ok builds another type
    (
        "rust-ok-question-mark",
        """
fn deserialize_reader<R: Read>(reader: &mut R) -> Result<Result<T, E>> {
    if flag == 1 {
        Ok(Ok(T::deserialize_reader(reader)?))
    } else {
        other()
    }
}
fn parse(s: &str) -> Result<u32, ParseIntError> {
    Ok(s.parse::<u32>()?)
}""",
        1,
    ),
    # streaming-iterator@0.1.9 src/lib.rs: the loop advances before it matches
    (
        "rust-manual-while-let",
        """
fn find(&mut self) -> Option<&Self::Item> {
    loop {
        self.advance();
        match self.get() {
            Some(i) => {
                if f(i) {
                    break;
                }
            }
            None => break,
        }
    }
    self.get()
}""",
        0,
    ),
    # winnow@1.0.5 src/combinator/core.rs: a deliberate todo! under allow(clippy::todo)
    (
        "rust-unfinished-macro",
        """
pub fn todo<Input, Output, Error>(input: &mut Input) -> Result<Output, Error> {
    #![allow(clippy::todo)]
    trace("todo", move |_input: &mut Input| todo!("unimplemented parse")).parse_next(input)
}""",
        0,
    ),
    # base64@0.23.1 src/engine/tests.rs and memchr@2.8.3 src/macros.rs: the comment on
    # the line before gives the reason
    (
        "rust-allow-attribute",
        """
// rstest_reuse template functions have unused variables
#![allow(unused_variables)]
fn a() {}""",
        0,
    ),
    # petgraph@0.6.5 src/algo/feedback_arc_set.rs: the collection is reached through
    # `nodes`, which the loop borrows mutably again
    (
        "rust-range-loop-index",
        """
fn update_neighbour_node_buckets(&mut self, ix: FasNodeIndex, nodes: &mut FasNodeContainer) {
    for i in 0..nodes[ix].data().out_edges.len() {
        let out_ix = nodes[ix].data().out_edges[i];
        self.buckets.push_front(out_ix, nodes);
    }
}""",
        0,
    ),
    # tar@0.4.43 src/header.rs and time@0.1.45 src/sys.rs: stubs for unsupported platforms
    (
        "rust-unfinished-macro",
        """
impl Header {
    #[cfg(target_arch = "wasm32")]
    #[allow(unused_variables)]
    fn fill_platform_from(&mut self, meta: &fs::Metadata, mode: HeaderMode) {
        unimplemented!();
    }
}
#[cfg(target_os = "unknown")]
mod inner {
    pub fn get_time() -> (i64, i32) {
        unimplemented!()
    }
}
fn stub() -> u8 {
    unimplemented!()
}""",
        1,
    ),
    # alecthomas/kingpin/v2@v2.4.0 args.go: the guard's block also returns;
    # jessevdk/go-flags@v1.6.1 option.go: the block is the loop alone
    (
        "go-guard-before-range",
        """package kingpin
func (a *ArgClause) setDefault() error {
	if len(a.defaultValues) > 0 {
		for _, defaultValue := range a.defaultValues {
			if err := a.value.Set(defaultValue); err != nil {
				return err
			}
		}
		return nil
	}
	if len(option.Default) != 0 {
		for _, v := range option.Default {
			convert(v, checkval, option.tag)
		}
	}
	return nil
}
""",
        1,
    ),
    # jmoiron/sqlx@v1.4.0 sqlx.go: a Must method's contract is to panic
    (
        "go-panic-on-error",
        """package sqlx
func (db *DB) MustBegin() *Tx {
	tx, err := db.Beginx()
	if err != nil {
		panic(err)
	}
	return tx
}
""",
        0,
    ),
    # urfave/cli/v2@v2.27.5 flag_bool.go: "%v" of a bool is the ordinary way to format it
    (
        "go-sprintf-single-string",
        """package cli
func (f *BoolFlag) GetDefaultText() string {
	return fmt.Sprintf("%v", f.Value)
}
""",
        0,
    ),
    # spf13/pflag@v1.0.10 duration_slice.go: "%s" of a time.Duration is val.String()
    (
        "go-sprintf-single-string",
        """package pflag
func (s *durationSliceValue) toString(val time.Duration) string {
	return fmt.Sprintf("%s", val)
}
""",
        1,
    ),
    # urfave/cli/v2@v2.27.5 flag_duration.go: the exported field has the name, an
    # interface fixes GetUsage; pflag@v1.0.10 errors.go: an unexported field, Flag() fits
    (
        "go-getter-prefix",
        """package cli
func (f *DurationFlag) GetUsage() string {
	return f.Usage
}
func (e *InvalidValueError) GetFlag() *Flag {
	return e.flag
}
""",
        1,
    ),
    # BurntSushi/toml@v1.5.0 encode.go, testify@v1.10.0 suite/suite_test.go: the message
    # starts with an identifier; x/sync@v0.18.0 singleflight_test.go: a test's dummy error;
    # urfave/cli/v2@v2.27.5 altsrc/yaml_file_loader.go: a capitalised sentence
    (
        "go-error-string-style",
        """package toml
func f() {
	encPanic(errors.New("MarshalTOML returned nil and no error"))
	return "", errors.New("StartCapture not called before StopCapture")
	return nil, fmt.Errorf("Cannot read from file: '%s' because it does not exist.", filePath)
}
func TestDoErr(t *testing.T) {
	someErr := errors.New("Some error")
}
""",
        1,
    ),
    # testify@v1.10.0 mock/mock.go: two results, the condition is not the whole result;
    # pflag@v1.0.10 ipnet_slice_test.go: `return c1.String() == c2.String()`
    (
        "go-if-return-bool-literals",
        """package mock
func (c *Call) f() (bool, string) {
	if call.Repeatability > 0 {
		return false, fmt.Sprintf("FAIL:\t%s(%s)", call.Method, call.Arguments.String())
	}
	return true, fmt.Sprintf("PASS:\t%s(%s)", call.Method, call.Arguments.String())
}
func equalCIDR(c1 net.IPNet, c2 net.IPNet) bool {
	if c1.String() == c2.String() {
		return true
	}
	return false
}
""",
        1,
    ),
    # BurntSushi/toml@v1.5.0 internal/toml-test/toml.go: case + default, and a case of
    # three types; testify@v1.10.0 assert/assertions.go: one case, an `if` says it
    (
        "go-single-case-type-switch",
        """package tomltest
func fmtVal(v any) string {
	switch vv := v.(type) {
	case float64:
		return strconv.FormatFloat(vv, 'f', -1, 64)
	default:
		return fmt.Sprintf("%v", v)
	}
}
func isTomlValue(v any) bool {
	switch v.(type) {
	case map[string]any, []map[string]any, []any:
		return false
	}
	return true
}
func formatUnequalValues(expected, actual any) (string, string) {
	switch expected.(type) {
	case time.Duration:
		return fmt.Sprintf("%v", expected), fmt.Sprintf("%v", actual)
	}
	return "", ""
}
""",
        1,
    ),
    # BurntSushi/toml@v1.5.0 parse.go: the loop does more than append
    (
        "go-append-loop",
        """package toml
func (p *parser) f() {
	for _, k := range p.context {
		keyContext = append(keyContext, k)
		if tmpHash, ok = hash[k]; !ok {
			p.bug("Context for key '%s' has not been established.", keyContext)
		}
	}
}
""",
        0,
    ),
    # BurntSushi/toml@v1.5.0 toml_test.go: a recovered value that is not an error
    (
        "go-errorf-wraps-nothing",
        """package toml
func f() {
	defer func() {
		if r := recover(); r != nil {
			switch rr := r.(type) {
			case error:
				retErr = rr
			default:
				retErr = fmt.Errorf("%s", rr)
			}
		}
	}()
}
""",
        0,
    ),
    # x/sync@v0.18.0 semaphore/semaphore_example_test.go: an Example has no caller context
    (
        "go-context-todo",
        """package semaphore_test
func Example_workerPool() {
	ctx := context.TODO()
}
""",
        0,
    ),
    # urfave/cli/v2@v2.27.5 app.go (a grouped var block) and help.go (`var max int = 0`)
    (
        "go-explicit-zero-value-init",
        """package cli
var (
	SuggestFlag               SuggestFlagFunc    = nil // initialized in suggestions.go
	SuggestDidYouMeanTemplate string             = suggestDidYouMeanTemplate
)
func offsetCommands(cmds []*Command, fixed int) int {
	var max int = 0
	return max
}
""",
        1,
    ),
]


def hits(rule_id: str, source: str) -> int:
    suffix = ".go" if rule_id.startswith("go-") else ".rs"
    found = Engine([RULES[rule_id]]).analyze_sources([(source.encode(), "snippet" + suffix)])
    assert all(not getattr(f, "notes", ()) for f in found)
    return sum(h.rule == rule_id for f in found for h in getattr(f, "hits", ()))


@pytest.mark.parametrize(("rule_id", "source", "expected"), CASES)
def test_rule_on_the_real_snippet(rule_id: str, source: str, expected: int) -> None:
    assert hits(rule_id, source) == expected
