import sys

print(sum(map(int, sys.argv[1:])))
