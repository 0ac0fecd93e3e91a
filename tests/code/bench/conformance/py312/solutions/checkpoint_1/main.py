import sys

print(f"{"-".join(sys.argv[1:])}")
