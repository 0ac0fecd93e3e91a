// expect-file: sloc=105 callables=21
// Every construct of ESLint's `complexity` table (classic variant), one function each.

function plain(a) { // expect: cc=1 sloc=3
  return a + 1;
}

function ifElseIf(n) { // expect: cc=3 sloc=9
  if (n > 0) {
    return 1;
  } else if (n < 0) {
    return -1;
  } else {
    return 0;
  }
}

function loops(items, obj) { // expect: cc=6 sloc=10
  for (let i = 0; i < 3; i++) {}
  for (const key in obj) {}
  for (const item of items) {}
  while (items.length) items.pop();
  do {
    items.push(1);
  } while (items.length < 2);
  return items;
}

function switches(kind) { // expect: cc=3 sloc=9
  switch (kind) {
    case "a":
    case "b":
      return 1;
    default:
      return 0;
  }
}

function handled(read) { // expect: cc=2 sloc=9
  try {
    return read();
  } catch (error) {
    return null;
  } finally {
    read.done = true;
  }
}

function logical(a, b, c) { // expect: cc=6 sloc=6
  const both = a && b;
  const either = a || b || c;
  const fallback = a ?? c;
  return both ? either : fallback;
}

function assignments(options) { // expect: cc=4 sloc=6
  options.a ||= 1;
  options.b &&= 2;
  options.c ??= 3;
  return options;
}

function defaults(a = 1, { b = 2, c: d = 3 } = {}, [e = 4] = []) { // expect: cc=7 sloc=3
  return a + b + d + e;
}

function optional(user) { // expect: cc=5 sloc=3
  return user?.profile?.name ?? user.callback?.();
}

function outer(list) { // expect: cc=2 sloc=7
  const inner = (x) => (x ? x : 0); // expect: cc=2 sloc=1
  if (list) {
    return list.map(function named(y) { return y || 0; }); // expect: cc=2 sloc=1
  }
  return list.filter((z) => z && z.ok); // expect: cc=2 sloc=1
}

class Counter {
  count = this.start || 0;
  static {
    if (globalThis.debug) Counter.debug = true;
  }
  constructor(start) { // expect: cc=1 sloc=3
    this.start = start;
  }
  get value() { // expect: cc=2 sloc=3
    return this.count > 0 ? this.count : 0;
  }
  increment = () => { // expect: cc=1 sloc=3
    this.count += 1;
  };
}

const handler = { // a method and a function value of an object literal
  onClick() { return this.enabled && this.run(); }, // expect: cc=2 sloc=1
  onKey: function (event) { return event.key === "Enter"; }, // expect: cc=1 sloc=1
};

module.exports = { plain, ifElseIf, loops, switches, handled, logical, assignments, defaults, optional, outer, Counter, handler };

// Clones: the same function with other names and literals.
function totalPrice(items) { // expect: cc=2 sloc=7; expect-clone: A
  let total = 0;
  for (const item of items) { // expect-clone: B
    total += item.price;
  }
  return total;
}

function totalWeight(parcels) { // expect: cc=2 sloc=7; expect-clone: A
  let weight = 0;
  for (const parcel of parcels) { // expect-clone: B
    weight += parcel.kg;
  }
  return weight;
}

// Slop the rule pack flags.
function isReady(state) { // expect: cc=2 sloc=6
  if (state.pending.includes(state.id) === false) {
    return true;
  }
  return false;
}


// expect-hit: 42-44 js-catch-returns-null
// expect-hit: 72-72 js-self-or-ternary
// expect-hit: 76-76 js-and-chain-member-guard
// expect-hit: 121-121 js-comparison-with-boolean-literal
// expect-hit: 121-123 js-if-return-bool-then-opposite
