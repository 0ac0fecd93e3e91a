import sys

if len(sys.argv) < 2:
    sys.exit("no numbers")
print(sum(map(int, sys.argv[1:])))
