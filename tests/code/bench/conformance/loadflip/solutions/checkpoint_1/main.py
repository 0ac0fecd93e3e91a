import sys
import time

if sys.argv[1:] == ["slow"]:
    time.sleep(2)
print("ok")
