import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    path = Path(argv[0])
    if not path.is_file():
        print(f"error: {argv[0]} not found", file=sys.stderr)
        return 1
    print(len(path.read_text().split()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
