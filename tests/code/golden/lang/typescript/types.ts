// expect-file: sloc=44 callables=10
// TypeScript: the same table as JavaScript; type-level constructs add nothing.

type Maybe<T> = T extends null ? never : T;

interface Options {
  limit?: number;
  render(value: string): string;
}

export function typedDefaults(a: number = 1, b?: string): string { // expect: cc=3 sloc=3
  return b ?? String(a);
}

export abstract class Store<T> {
  constructor(private readonly size = 10) {} // expect: cc=2 sloc=1

  abstract load(key: string): T;

  overloaded(key: string): T;
  overloaded(key: number): T;
  overloaded(key: string | number): T { // expect: cc=2 sloc=3
    return typeof key === "number" ? this.load(String(key)) : this.load(key);
  }

  first(items?: T[]): T | undefined { // expect: cc=3 sloc=3
    return items?.[0] ?? undefined;
  }

  sure(value: T | null): T { // expect: cc=1 sloc=3
    return value!;
  }
}

namespace Geometry {
  export const area = (w: number, h: number): number => (w > 0 && h > 0 ? w * h : 0); // expect: cc=3 sloc=1
}

export const config: Options = {
  render: (value) => value.trim() || "-", // expect: cc=2 sloc=1
};

export function sumLengths(words: string[]): number { // expect: cc=2 sloc=7; expect-clone: C
  let total = 0;
  for (const word of words) { // expect-clone: B
    total += word.length;
  }
  return total;
}

export function sumNames(names: string[]): number { // expect: cc=2 sloc=7; expect-clone: C
  let count = 0;
  for (const name of names) { // expect-clone: B
    count += name.length;
  }
  return count;
}

export const loose = (value: any) => value as any; // expect: cc=1 sloc=1


// expect-hit: 31-31 ts-non-null-assertion
// expect-hit: 59-59 ts-as-any-cast
// expect-hit: 59-59 ts-explicit-any
