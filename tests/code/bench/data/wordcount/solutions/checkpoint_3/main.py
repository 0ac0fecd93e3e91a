import sys
from pathlib import Path


def count(text: str, lines: bool) -> int:
    return len(text.splitlines()) if lines else len(text.split())


def main(argv: list[str]) -> int:
    lines = "--lines" in argv
    names = [arg for arg in argv if arg != "--lines"]
    missing = [name for name in names if not Path(name).is_file()]
    if missing:
        print(f"error: {missing[0]} not found", file=sys.stderr)
        return 1
    counts = [count(Path(name).read_text(), lines) for name in names]
    if len(names) == 1:
        print(counts[0])
        return 0
    for name, value in zip(names, counts, strict=True):
        print(f"{value} {name}")
    print(f"{sum(counts)} total")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
