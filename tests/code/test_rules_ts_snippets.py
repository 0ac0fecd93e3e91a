"""JavaScript and TypeScript rules on the real lines that misfired (issue 36).

Each case is a few lines copied from a published npm package (named with its version and
path); the rule must stay silent on the misfire and keep firing on the real finding beside it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from slopmark.code.measure.native import Engine
from slopmark.code.measure.rules import load_catalog

#: Every JavaScript and TypeScript rule, the pedantic ones too (their fixes are tested alike).
CATALOG = tuple(
    rule
    for rule in load_catalog(rule_set="pedantic")
    if rule.language in ("javascript", "typescript")
)


def hits(source: str, name: str = "snippet.ts", parses: bool = True) -> Counter[tuple[str, int]]:
    """(rule, line) → number of hits of the JavaScript/TypeScript packs on ``source``
    (which must parse cleanly unless ``parses`` is false)."""
    (found,) = Engine(CATALOG).analyze_sources([(source.encode(), name)])
    assert bool(getattr(found, "notes", ())) is not parses, found.notes
    return Counter((hit.rule, hit.start) for hit in found.hits)


# @tanstack/router-core@1.171.39 src/ssr/serializer/rawStreamCodec.ts: one cast, one hit
AS_ANY = """\
const chunks = []
chunks.push(
  String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as any),
)
"""

# @trpc/server@11.25.2 src/@trpc/server/index.ts: the constraint every function type meets
CONSTRAINT = """\
export type inferAsyncReturnType<TFunction extends (...args: any[]) => any> =
  Awaited<ReturnType<TFunction>>;
"""

# mobx@7.1.3 src/utils/utils.ts:112: a constructor type and a function type taking any
CONSTRUCTOR = """\
export function createInstanceofPredicate<T>(
    name: string,
    theClass: new (...args: any[]) => T
): (x: any) => x is T {
    const propName = "isMobX" + name
    theClass.prototype[propName] = true
    return function (x) {
        return isObject(x) && x[propName] === true
    } as any
}
"""

# @tanstack/router-core@1.171.39 src/router.ts:898 and src/route.ts:970: wildcard type
# arguments and a `Record<string, any>` bound
WILDCARDS = """\
export type AnyRouter = RouterCore<any, any, any, any, any>
export function createFileRoute<
  TLoaderDeps extends Record<string, any> = {},
>() {}
"""

# mobx@7.1.3 src/api/when.ts: the implementation signature behind two overloads
OVERLOADS = """\
export function when(
    predicate: () => boolean,
    opts?: IWhenOptions
): Promise<void> & { cancel(): void }
export function when(
    predicate: () => boolean,
    effect: Lambda,
    opts?: IWhenOptions
): IReactionDisposer
export function when(predicate: any, arg1?: any, arg2?: any): any {
    return whenPromise(predicate, arg1)
}
"""

# @tanstack/router-core@1.171.39 src/router.ts:1625: a catch binding widened to `any`
CATCH_ANY = """\
try {
  validate()
} catch (err: any) {
  report(err.message)
}
"""


@pytest.mark.parametrize(
    "source",
    [AS_ANY, CONSTRAINT, CONSTRUCTOR, WILDCARDS, OVERLOADS],
    ids=["as-any", "constraint", "constructor", "wildcards", "overloads"],
)
def test_explicit_any_skips_idiomatic_positions(source: str) -> None:
    assert not [key for key in hits(source) if key[0] == "ts-explicit-any"]


def test_as_any_is_reported_once() -> None:
    assert hits(AS_ANY) == Counter({("ts-as-any-cast", 3): 1})


def test_explicit_any_still_flags_a_value_annotation() -> None:
    assert hits(CATCH_ANY)[("ts-explicit-any", 3)] == 1


# chalk@6.0.1 source/index.js:237, zod@4.6.7 src/v3/tests/promise.test.ts:1 and
# @trpc/server@11.25.2 src/unstable-core-do-not-import/stream/utils/disposable.ts:1
REASONED = """\
// eslint-disable-next-line unicorn/no-top-level-side-effects -- The style getters must be \
installed at module load.
Object.defineProperties(createChalk.prototype, styles);
// @ts-ignore TS6133
import { expect } from "vitest";
// @ts-expect-error - polyfilling symbol
Symbol.dispose ??= Symbol();
"""

# @reduxjs/toolkit@2.16.0 src/dynamicMiddleware/react/index.ts:69: no reason given
BARE = """\
const createDispatchWithMiddlewareHookFactory = (
  // @ts-ignore
  context = ReactReduxContext,
) => context
"""


# commander@13.1.0 lib/help.js:703 (a rule named) and @reduxjs/toolkit@2.16.0
# src/query/react/buildHooks.ts:1936 (the reason on the line above)
SCOPED = """\
function stripColor(str) {
  // eslint-disable-next-line no-control-regex
  const sgrPattern = /\\x1b\\[\\d*(;\\d*)*m/g;
  return str.replace(sgrPattern, '');
}
const selector = createSelector(
  // `preSelector` is a union of the standard/infinite query pre-selectors and
  // needs its own directive.
  // @ts-ignore
  preSelector,
)
"""

# mobx@7.1.3 src/api/observable.ts:226: every rule off for the export, none named
NO_RULE_NAMED = """\
// eslint-disable-next-line
export var observable: IObservableFactory = assign(createObservable, observableFactories)
"""


@pytest.mark.parametrize("source", [REASONED, SCOPED], ids=["reasoned", "scoped"])
@pytest.mark.parametrize("name", ["snippet.js", "snippet.ts"])
def test_suppression_with_a_reason_is_not_flagged(source: str, name: str) -> None:
    assert not [key for key in hits(source, name) if key[0] == "js-lint-suppression-comment"]


@pytest.mark.parametrize(
    ("source", "line"), [(BARE, 2), (NO_RULE_NAMED, 1)], ids=["ts-ignore", "eslint"]
)
def test_bare_suppression_is_flagged(source: str, line: int) -> None:
    assert hits(source)[("js-lint-suppression-comment", line)] == 1


# @tanstack/router-core@1.171.39 src/load-client.ts:839 (`preload` is optional: undefined
# means yes) and mobx@7.1.3 src/api/makeObservable.ts:91 (`Annotation | boolean`)
OPTIONAL_FLAGS = """\
const preloadable = !preload || route.options.preload !== false
function make(adm, key: PropertyKey, annotation: Annotation | boolean) {
    if (annotation === true) {
        annotation = adm.defaultAnnotation_
    }
}
"""

# fastify@5.12.8 lib/hooks.js:62: Array.isArray is a boolean
PREDICATE = """\
Hooks.prototype.add = function (hook, fn) {
  if (Array.isArray(this[hook]) === false) {
    throw new Error(hook)
  }
}
"""


def test_comparison_with_boolean_literal_skips_optional_flags() -> None:
    found = hits(OPTIONAL_FLAGS)
    assert not [key for key in found if key[0] == "js-comparison-with-boolean-literal"]


@pytest.mark.parametrize("name", ["snippet.js", "snippet.ts"])
def test_comparison_with_boolean_literal_flags_a_predicate(name: str) -> None:
    assert hits(PREDICATE, name)[("js-comparison-with-boolean-literal", 2)] == 1


# mocha@12.0.3 lib/cli/parse-args.js:175 and @tanstack/router-core@1.171.39
# src/route.ts:1839: multi-way choices chained through the else branch
ELSE_CHAINS = """\
const prefix = arg.startsWith("--") ? "--" : arg.startsWith("-") ? "-" : "";
const fullPath =
  id === rootRouteId
    ? '/'
    : path === undefined
      ? parent.fullPath
      : joinPaths([parent.fullPath, path])
"""

# immer@11.2.14 src/core/proxy.ts:348: a ternary in the then branch
THEN_NESTED = """\
function readPropFromProto(state, source, prop) {
	const desc = getDescriptorFromProto(source, prop)
	return desc
		? VALUE in desc
			? desc[VALUE]
			: desc.get?.call(state.draft_)
		: undefined
}
"""


def test_nested_ternary_only_in_the_then_branch() -> None:
    assert not [key for key in hits(ELSE_CHAINS, "snippet.js") if key[0] == "js-nested-ternary"]
    assert hits(THEN_NESTED, "snippet.js")[("js-nested-ternary", 3)] == 1


# zod@3.25.76 src/v3/types.ts:3145 (a two-way choice) and mobx@7.1.3
# src/types/observablemap.ts:488 (the last arm of an else-if chain)
TWO_WAY = """\
function parse(ctx, option) {
  if (ctx.common.async) {
    return option._parseAsync({ data: ctx.data, path: ctx.path, parent: ctx }) as any;
  } else {
    return option._parseSync({ data: ctx.data, path: ctx.path, parent: ctx }) as any;
  }
}
function convertToMap(dataStructure: any): Map<any, any> {
    if (isES6Map(dataStructure) || isObservableMap(dataStructure)) {
        return dataStructure
    } else if (Array.isArray(dataStructure)) {
        return new Map(dataStructure)
    } else if (isPlainObject(dataStructure)) {
        const map = new Map()
        for (const key in dataStructure) {
            map.set(key, dataStructure[key])
        }
        return map
    } else {
        return die(21, dataStructure)
    }
}
"""

# mobx@7.1.3 src/core/spy.ts:62: the main body nested in the else of an early exit
EARLY_EXIT = """\
export function spy(listener: (change: SpyEvent) => void): Lambda {
    if (!__DEV__) {
        console.warn(`[mobx.spy] Is a no-op in production builds`)
        return function () {}
    } else {
        globalState.spyListeners.push(listener)
        return once(() => {
            globalState.spyListeners = globalState.spyListeners.filter(l => l !== listener)
        })
    }
}
"""


def test_else_after_return_skips_two_way_choices_and_chains() -> None:
    assert not [key for key in hits(TWO_WAY) if key[0] == "js-else-after-return"]
    assert hits(EARLY_EXIT)[("js-else-after-return", 2)] == 1


# zod@3.25.76 src/v3/benchmarks/union.ts:46 (the failure path is what is timed) and
# @tanstack/router-core@1.171.39 src/scroll-restoration-inline.ts:29 (no word on why)
EMPTY_CATCHES = """\
suite.add("invalid: null", () => {
  try {
    double.parse(null);
  } catch (_err) {}
})
try {
  element.scrollTop = scrollY
} catch {}
"""


def test_empty_catch_spares_an_underscore_binding() -> None:
    found = hits(EMPTY_CATCHES)
    assert [key for key in found if key[0] == "js-empty-catch"] == [("js-empty-catch", 8)]


# @tanstack/router-core@1.171.39 src/router.ts:184 (augmentation points) and @trpc/server@11.25.2
# src/unstable-core-do-not-import/procedure.ts:59 (a named type) beside
# src/observable/operators.ts:32 (an empty config type, which accepts anything)
EMPTY_INTERFACES = """\
export interface DefaultRouterOptionsExtensions {}

export interface RouterOptionsExtensions extends DefaultRouterOptionsExtensions {}

interface QueryProcedure<
  TDef extends BuiltProcedureDef,
> extends Procedure<'query', TDef> {}

interface ShareConfig {}
"""


def test_empty_interface_only_when_it_names_nothing() -> None:
    found = hits(EMPTY_INTERFACES)
    assert [key for key in found if key[0] == "ts-empty-interface"] == [("ts-empty-interface", 9)]


# eslint@10.16.0 lib/rules/computed-property-spacing.js:203: the else mirrors the then branch
MIRRORED_IFS = """\
if (propertyNameMustBeSpaced) {
  if (!sourceCode.isSpaceBetween(before, first)) {
    reportRequiredBeginningSpace(node, before);
  }
} else {
  if (sourceCode.isSpaceBetween(before, first)) {
    reportNoBeginningSpace(node, before, first);
  }
}
"""


def test_lonely_if_in_else_spares_a_mirrored_pair() -> None:
    assert not [key for key in hits(MIRRORED_IFS, "snippet.js") if key[0] == "js-lonely-if-in-else"]


# commander@13.1.0 lib/command.js:665: a null default must stay null, which `??` would replace
STRICT_UNDEFINED = """\
this.setOptionValueWithSource(
  name,
  option.defaultValue === undefined ? true : option.defaultValue,
  'default',
);
const limit = options.limit != null ? options.limit : 10;
"""


def test_nullish_check_ternary_only_for_the_loose_test() -> None:
    found = hits(STRICT_UNDEFINED, "snippet.js")
    assert [key for key in found if key[0] == "js-nullish-check-ternary"] == [
        ("js-nullish-check-ternary", 6)
    ]


# mobx@7.1.3 src/core/reaction.ts:71: `public` makes an optional parameter a property
PARAMETER_PROPERTIES = """\
class Reaction {
    constructor(
        public name_: string = "Reaction",
        private onInvalidate_: () => void,
        public requiresObservable_?
    ) {}
    public onBUO() {}
}
"""


def test_public_modifier_spares_parameter_properties() -> None:
    found = hits(PARAMETER_PROPERTIES)
    assert [key for key in found if key[0] == "ts-explicit-public-modifier"] == [
        ("ts-explicit-public-modifier", 7)
    ]


# @trpc/server@11.25.2 src/adapters/ws.ts:887: the annotated initializer is for the checker
ANNOTATED_UNDEFINED = """\
let timeout: NodeJS.Timeout | undefined = undefined;
let ping = undefined;
"""


def test_explicit_undefined_initializer_spares_an_annotated_declaration() -> None:
    found = hits(ANNOTATED_UNDEFINED)
    assert [key for key in found if key[0] == "js-explicit-undefined-initializer"] == [
        ("js-explicit-undefined-initializer", 2)
    ]


# @tanstack/router-core@1.171.39 src/load-client.ts:2019: the chain is stored, not awaited here
STORED_THEN = """\
export async function load(router, opts) {
  const done = opts?.sync
    ? new Promise<void>((resolve) => (settle = resolve))
    : Promise.resolve().then(run)
  const tx = [controller, done.then(() => awaitCurrent(router, tx))]
  return tx
}
"""


def test_then_in_async_function_only_when_awaited_or_returned() -> None:
    assert not [key for key in hits(STORED_THEN) if key[0] == "js-then-in-async-function"]


# @trpc/server@11.25.2 src/adapters/node-http/incomingMessageToRequest.ts:112: the cause rides
# in the options object
CAUSE_IN_OPTIONS = """\
function createURL(req) {
  try {
    return new URL(req.url, base);
  } catch (cause) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Invalid URL',
      cause,
    });
  }
}
"""


def test_rethrow_without_cause_sees_a_cause_in_options() -> None:
    assert not [key for key in hits(CAUSE_IN_OPTIONS) if key[0] == "js-rethrow-without-cause"]


# @trpc/server@11.25.2 src/unstable-core-do-not-import/transformer.ts:169 (a fixed message) and
# zod@3.25.76 src/v3/types.ts:5033 (a constructor signature for `typeof Class`)
CONSTRUCTORS_THAT_SAY_SOMETHING = """\
class TransformResultError extends Error {
  constructor() {
    super('Unable to transform response from server');
  }
}
abstract class Class {
  constructor(..._: any[]) {}
}
"""


def test_useless_constructor_spares_constructors_that_say_something() -> None:
    found = hits(CONSTRUCTORS_THAT_SAY_SOMETHING)
    assert not [key for key in found if key[0] == "js-useless-constructor"]


# zod@3.25.76 src/v3/types.ts:686 (parallel checks) beside eslint@10.16.0
# lib/rules/quotes.js:320 (a lone test returned as literals)
BOOLEAN_RETURNS = """\
function isValidIP(ip, version) {
  if ((version === "v4" || !version) && ipv4Regex.test(ip)) {
    return true;
  }
  if ((version === "v6" || !version) && ipv6Regex.test(ip)) {
    return true;
  }

  return false;
}
function isMultiline(node) {
  const isMultilineString = node.quasis.length >= 1;
  if (isMultilineString) {
    return true;
  }

  return false;
}
"""


def test_if_return_bool_spares_a_series_of_checks() -> None:
    found = hits(BOOLEAN_RETURNS, "snippet.js")
    assert [key for key in found if key[0] == "js-if-return-bool-then-opposite"] == [
        ("js-if-return-bool-then-opposite", 13)
    ]


# mocha@12.0.3 lib/mocha.cjs:1027: the guard's else calls something else
GUARD_WITH_ELSE = """\
function done(reporter, failures, fn) {
  if (typeof reporter.done === "function") {
    reporter.done(failures, fn);
  } else {
    fn(failures);
  }
}
"""


def test_typeof_function_guard_spares_a_guard_with_an_else() -> None:
    found = hits(GUARD_WITH_ELSE, "snippet.js")
    assert not [key for key in found if key[0] == "js-typeof-function-guard-before-call"]
