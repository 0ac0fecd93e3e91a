"""TypeScript's variance annotations (`<in out T>`) parse (issue 36): the bundled grammar
has no such modifier, so the core reads them as spaces (native/src/lang/variance.rs)."""

from __future__ import annotations

from pathlib import Path

from slopmark.code.measure.measure_tree import measure_tree

#: @tanstack/router-core 1.171.39, src/redirect.ts lines 75-83, and a function after it.
ROUTER = """\
export interface RedirectFnRoute<in out TDefaultFrom extends string = string> {
  <
    TRouter extends AnyRouter = RegisteredRouter,
    const TTo extends string | undefined = undefined,
    const TMaskTo extends string = '',
  >(
    opts: RedirectOptionsRoute<TDefaultFrom, TRouter, TTo, TMaskTo>,
  ): Redirect<TRouter, TDefaultFrom, TTo, TDefaultFrom, TMaskTo>
}

export function isRedirect(obj: any): obj is AnyRedirect {
  if (obj instanceof Response && !!(obj as any).options) {
    return true
  }
  return false
}
"""
#: zod 3.25.76, src/v4/core/schemas.ts line 148 (two annotated parameters).
ZOD = """\
export interface $ZodTypeInternals<out O = unknown, out I = unknown> extends _$ZodTypeInternals {
  output: O;
  input: I;
}
"""


def test_variance_annotations_are_no_syntax_error(tmp_path: Path) -> None:
    (tmp_path / "redirect.ts").write_text(ROUTER)
    (tmp_path / "schemas.ts").write_text(ZOD)
    report = measure_tree(tmp_path)
    files = {f.path: f for f in report.files}
    assert files["redirect.ts"].notes == () and files["schemas.ts"].notes == ()
    (function,) = files["redirect.ts"].callables
    assert (function.qualname, function.cc, function.start) == ("isRedirect", 3, 11)


def test_the_rules_read_the_file_around_the_annotation(tmp_path: Path) -> None:
    """The file parses whole: a rule matches code after the annotated declaration."""
    text = (
        "interface Box<in out T> { value: T }\n"
        "const same = (a: number, b: number) => a === b ? true : false\n"
    )
    (tmp_path / "a.ts").write_text(text)
    (found,) = measure_tree(tmp_path).files
    assert found.notes == ()
    assert [(hit.rule, hit.start) for hit in found.hits] == [("js-bool-literal-ternary", 2)]
