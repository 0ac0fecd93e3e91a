"""SymPy equivalence of two math expressions, with a hard time limit.

This is the one place in the evals core that starts processes. SymPy can
take minutes (or all memory) on an innocent-looking answer such as
``2^(3^20) x``, and a thread cannot be stopped, so every comparison runs in a
worker process from a small reusable pool. A worker that misses the deadline
is killed and replaced; the caller gets whatever the worker had reported.

The worker, per job, reports as it goes:

1. parse both texts with `parse_expr` and a fixed transformation set. Never
   ``eval``/``sympify`` of raw text: `unsafe_reason` first admits only
   numbers, letters-only names and ``+ - * / ^ ( ) ,`` token by token, and the
   parser sees SymPy's math functions and no builtins;
2. "numeric": evaluate ``a - b`` at random rational points (see `_sample`);
3. "symbolic" (only with variables): ``simplify(a - b) == 0``;
4. "form" (when asked): is the answer factored / expanded.

`decide` then prefers a symbolic proof, else the sampling; with nothing in
time the outcome is "unknown" and the verifier marks the verdict ambiguous.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import keyword
import os
import queue
import random
import subprocess
import sys
import threading
import time
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

TIMEOUT_S = 2.0
STARTUP_TIMEOUT_S = 60.0
MAX_WORKERS = 2
MAX_CHARS = 2000
SAMPLES = 6
#: What the parser may name: functions, pi, and the constructors its transformations emit.
_SYMPY_NAMES = ("sqrt", "exp", "log", "sin", "cos", "tan", "pi",
                "Symbol", "Integer", "Float", "Rational", "Function")
_OPERATORS = {"+", "-", "*", "/", "**", "^", "(", ")", ","}
_SOURCE_ROOT = str(Path(__file__).resolve().parents[2])
_TOKENS_SKIPPED = {
    tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT
}


@dataclass(frozen=True)
class Comparison:
    """``outcome`` is equal, different or unknown; ``method`` says how it was decided.

    ``form_ok`` is None when no form was asked for or it could not be checked.
    """

    outcome: str
    method: str
    detail: str = ""
    form_ok: bool | None = None


def unsafe_reason(text: str) -> str | None:
    """Why ``text`` may not be handed to the parser, or None when it is plain math."""
    if len(text) > MAX_CHARS:
        return f"longer than {MAX_CHARS} characters"
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError) as error:
        return f"not an expression ({error})"
    for token in tokens:
        reason = _token_problem(token)
        if reason:
            return reason
    return None


def _token_problem(token: tokenize.TokenInfo) -> str | None:
    kind, text = token.type, token.string
    if kind in _TOKENS_SKIPPED or kind == tokenize.NUMBER:
        return None
    if kind == tokenize.NAME:
        if not text.isascii() or not text.isalpha() or keyword.iskeyword(text):
            return f"the name '{text}' is not a variable or a known function"
        return None
    if kind == tokenize.OP and text in _OPERATORS:
        return None
    return f"'{text}' is not allowed in an expression"


def compare(
    answer: str, gold: str, *, tolerance: float = 1e-6, form: str | None = None,
    timeout: float = TIMEOUT_S,
) -> Comparison:
    """Whether ``answer`` equals ``gold``; at most ``timeout`` seconds of SymPy work.

    Starting a worker (importing SymPy, well under a second) is not counted.
    """
    for text in (answer, gold):
        reason = unsafe_reason(text)
        if reason:
            return Comparison("unknown", "parse", f"cannot read '{text[:80]}': {reason}")
    reports = _POOL.run([answer, gold, tolerance, form], timeout)
    return decide(reports)


def decide(reports: list[tuple[str, ...]]) -> Comparison:
    """What a worker's reports add up to: a symbolic proof, else the sampling, else unknown."""
    found = {report[0]: report for report in reports}
    form = found.get("form", ("form", "unknown"))[1]
    form_ok = None if form == "unknown" else form == "ok"
    if "error" in found:
        return Comparison("unknown", "parse", found["error"][2])
    if found.get("symbolic", ("", ""))[1] == "equal":
        return Comparison("equal", "symbolic", found["symbolic"][2], form_ok)
    if found.get("numeric", ("", "unknown"))[1] != "unknown":
        timed_out = "" if "done" in found else " (symbolic check timed out)"
        return Comparison(found["numeric"][1], "numeric", found["numeric"][2] + timed_out, form_ok)
    if "done" not in found:
        return Comparison("unknown", "timeout", "no decision within the time limit")
    notes = "; ".join(r[2] for r in reports if len(r) > 2)
    return Comparison("unknown", "symbolic", f"simplification and sampling did not decide: {notes}")


class _Worker:
    """One worker process (``python -m slopmark.evals.symbolic``) speaking JSON lines."""

    def __init__(self) -> None:
        path = os.pathsep.join([_SOURCE_ROOT, os.environ.get("PYTHONPATH", "")])
        env = dict(os.environ, PYTHONPATH=path)
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, encoding="utf-8", env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        if self._next(STARTUP_TIMEOUT_S) != ["ready"]:
            self.kill()
            raise RuntimeError(f"symbolic worker did not start within {STARTUP_TIMEOUT_S:g} s")

    def _read(self) -> None:
        """Move the worker's lines into the queue; "" once it exits (the stream closes here)."""
        stream = self.process.stdout
        assert stream is not None
        with stream:
            for line in stream:
                self.lines.put(line)
        self.lines.put("")

    def _next(self, timeout: float) -> list[str] | None:
        """The next report, or None when the worker exited or ``timeout`` passed."""
        try:
            line = self.lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        if not line:
            return None
        try:
            report = json.loads(line)
        except ValueError:
            report = None
        if not isinstance(report, list) or not report:
            return ["note", "unknown", f"unexpected worker output: {line.strip()[:120]}"]
        return [str(part) for part in report]

    def run(self, job: list[Any], timeout: float) -> tuple[list[tuple[str, ...]], bool]:
        """The reports for ``job`` and whether the worker is still usable."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(job) + "\n")
            self.process.stdin.flush()
        except OSError:
            self.kill()
            return [], False
        reports: list[tuple[str, ...]] = []
        deadline = time.monotonic() + timeout
        while (report := self._next(deadline - time.monotonic())) is not None:
            reports.append(tuple(report))
            if report[0] == "done":
                return reports, True
        self.kill()
        return reports, False

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # a job line may still sit in the buffer
                self.process.stdin.close()


class _Pool:
    """At most MAX_WORKERS workers, shared by threads; a killed worker is replaced on next use."""

    def __init__(self) -> None:
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(MAX_WORKERS)

    def run(self, job: list[Any], timeout: float) -> list[tuple[str, ...]]:
        with self._slots:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            try:
                worker = worker or _Worker()
            except (RuntimeError, OSError) as error:
                return [("error", "unknown", f"symbolic worker unavailable: {error}")]
            reports, alive = worker.run(job, timeout)
            if alive:
                with self._lock:
                    self._idle.append(worker)
            return reports

    def shutdown(self) -> None:
        """Stop the idle workers (busy ones stop when their job ends or times out)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()


_POOL = _Pool()
shutdown = _POOL.shutdown
atexit.register(shutdown)


# ---------------------------------------------------------------- worker side


def serve(lines: TextIO, out: TextIO) -> None:
    """Worker main loop: one JSON job per input line, JSON reports out, until input ends."""
    import sympy  # noqa: F401 - imported before "ready" so that jobs do not pay for it

    def send(report: tuple[str, ...]) -> None:
        out.write(json.dumps(report) + "\n")
        out.flush()

    send(("ready",))
    for line in lines:
        answer, gold, tolerance, form = json.loads(line)
        judge(answer, gold, tolerance, form, send)
        send(("done",))


def judge(
    answer: str, gold: str, tolerance: float, form: str | None,
    send: Callable[[tuple[str, ...]], None],
) -> None:
    """Send ("numeric", …), ("symbolic", …) and ("form", …) reports for one job, cheapest first."""
    import sympy

    try:
        a, b = parse(answer), parse(gold)
    except Exception as error:  # noqa: BLE001 - SymPy raises anything on odd input
        send(("error", "unknown", f"cannot parse: {type(error).__name__}: {str(error)[:200]}"))
        return
    steps: list[tuple[str, Callable[[], tuple[str, str]]]] = [
        ("numeric", lambda: _sample(a, b, tolerance))
    ]
    if a.free_symbols | b.free_symbols:
        steps.append(("symbolic", lambda: _symbolic(sympy, a, b)))
    if form:
        steps.append(("form", lambda: _form(sympy, a, form)))
    for name, step in steps:
        try:
            send((name, *step()))
        except Exception as error:  # noqa: BLE001 - report and go on to the next step
            send((name, "unknown", f"{type(error).__name__}: {str(error)[:200]}"))


def parse(text: str) -> Any:
    """``text`` (already passed `unsafe_reason`) as one SymPy expression.

    Single letters are variables, except ``e`` (Euler's number); ``^`` is a
    power; ``2x``, ``x y`` and ``sin x`` multiply and apply.
    """
    import sympy
    from sympy.parsing import sympy_parser as p

    names: dict[str, Any] = {name: getattr(sympy, name) for name in _SYMPY_NAMES}
    names.update(ln=sympy.log, abs=sympy.Abs, e=sympy.E, __builtins__={})
    steps = (p.auto_symbol, p.auto_number, p.convert_xor, p.split_symbols,
             p.implicit_multiplication, p.implicit_application)
    expr = p.parse_expr(text, local_dict={}, global_dict=names, transformations=steps)
    if not isinstance(expr, sympy.Expr):
        raise ValueError(f"'{text[:80]}' is not one expression")
    return expr


def _sample(a: Any, b: Any, tolerance: float) -> tuple[str, str]:
    """Compare ``a - b`` at random rational points in [0.5, 2.5] (30 significant digits).

    With variables the difference must be within ``tolerance`` of 0 at every
    point (absolute: both sides are exact expressions, and evalf keeps the
    digits that cancel). Between plain numbers the tolerance is relative to
    the gold value above 1, so a rounded decimal can match.
    """
    import sympy

    symbols = sorted(a.free_symbols | b.free_symbols, key=str)
    rng = random.Random(0)
    points = [{s: sympy.Rational(rng.randint(500, 2500), 1000) for s in symbols}
              for _ in range(SAMPLES if symbols else 1)]
    results = [_at_point(a, b, point, tolerance, bool(symbols)) for point in points]
    different = next((r for r in results if r not in (None, "")), None)
    if different:
        return "different", different
    valid = results.count("")
    if valid >= min(3, len(points)):
        where = f"at {valid} sample points" if symbols else "as numbers"
        return "equal", f"equal within {tolerance:g} {where}"
    return "unknown", "too few points where both sides are finite"


def _at_point(
    a: Any, b: Any, point: dict[Any, Any], tolerance: float, absolute: bool
) -> str | None:
    """None if undefined at ``point``; "" if ``a`` and ``b`` agree there; else the gap."""
    gap, gold = _value(a - b, point), _value(b, point)
    if gap is None or gold is None:
        return None
    bound = tolerance if absolute else tolerance * max(1.0, abs(gold))
    return "" if abs(gap) <= bound else f"answer - gold = {_show_value(gap)} at {_show(point)}"


def _value(expr: Any, point: dict[Any, Any]) -> complex | None:
    try:
        value = complex(expr.evalf(30, subs=point))
    except (TypeError, ValueError, ArithmeticError):
        return None
    finite = abs(value.real) != float("inf") and abs(value.imag) != float("inf")
    return value if finite and value == value else None


def _show_value(value: complex) -> str:
    return f"{value.real:.6g}" if value.imag == 0 else f"{value:.6g}"


def _show(point: dict[Any, Any]) -> str:
    return ", ".join(f"{s}={v}" for s, v in point.items()) or "(no variables)"


def _symbolic(sympy: Any, a: Any, b: Any) -> tuple[str, str]:
    if sympy.simplify(a - b) == 0:
        return "equal", "simplify(answer - gold) == 0"
    return "unknown", "simplify(answer - gold) is not 0"


def _form(sympy: Any, expr: Any, form: str) -> tuple[str, str]:
    """("ok" | "bad", why): is ``expr`` written expanded / fully factored?"""
    if form == "expanded":
        return ("ok", "expanded") if _is_expanded(sympy, expr) else ("bad", "not expanded")
    return ("ok", "factored") if _is_factored(sympy, expr) else ("bad", "not fully factored")


def _is_expanded(sympy: Any, expr: Any) -> bool:
    """No power of a sum and no product with a sum in it, anywhere in ``expr``."""
    for node in sympy.preorder_traversal(expr):
        if node.is_Pow and node.base.is_Add:
            return False
        if node.is_Mul and any(factor.is_Add for factor in node.args):
            return False
    return True


def _is_factored(sympy: Any, expr: Any) -> bool:
    """A product (or power) whose sums cannot be factored further."""
    if expr.is_Add:
        return False
    bases = [f.base if f.is_Pow else f for f in sympy.Mul.make_args(expr)]
    return not any(base.is_Add and _reducible(sympy, base) for base in bases)


def _reducible(sympy: Any, polynomial: Any) -> bool:
    factors = sympy.factor_list(polynomial)[1]
    return len(factors) > 1 or any(power > 1 for _, power in factors)


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
