// expect-file: sloc=17 callables=3
// TSX: JSX adds nothing; its expressions count like any other.
import React from "react";

type Props = { items: string[]; title?: string; onPick?: (item: string) => void };

export function List({ items, title = "Items", onPick }: Props) { // expect: cc=3 sloc=15
  if (items.length === 0) {
    return <p>No {title.toLowerCase()}</p>;
  }
  return (
    <section>
      <h2>{title}</h2>
      <ul>
        {items.map((item) => ( // expect: cc=1 sloc=3
          <li key={item} onClick={() => onPick?.(item)}>{item}</li> // expect: cc=2 sloc=1
        ))}
      </ul>
    </section>
  );
}
