import os

for name in ("LEVEL_PROBLEM", "LEVEL_SHARED", "LEVEL_NUMBER"):
    print(os.environ.get(name, "unset"))
