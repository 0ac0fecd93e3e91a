import sys

print(f"{sys.version_info[0]}.{sys.version_info[1]}")
