import sys
from pathlib import Path


def count(text: str, lines: bool) -> int:
    return len(text.splitlines()) if lines else len(text.split())


def main(argv: list[str]) -> int:
    lines = "--lines" in argv
    name = next(arg for arg in argv if arg != "--lines")
    path = Path(name)
    if not path.is_file():
        print(f"error: {name} not found", file=sys.stderr)
        return 1
    print(count(path.read_text(), lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
