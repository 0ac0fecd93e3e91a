import sys

args = sys.argv[1:]
print(args[1].upper() if args[0] == "--upper" else args[0])
