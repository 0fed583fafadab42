#!/usr/bin/env python3
"""Checks that `fen --format json|csv` outputs differ from those of an older qipu only by the
`side` and `result` fields: each JSON line with them removed, each CSV row without its last two
columns, equals the old one; and `side` agrees with the FEN's side to move.

Usage: python3 scripts/fen-new-fields.py OLD_DIR NEW_DIR   (as made by scripts/outputs.sh)
"""
import csv
import json
import sys

SIDES = {"w": "red", "b": "black"}
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def check_json(old_path, new_path):
    n = 0
    with open(old_path, encoding="utf-8") as old, open(new_path, encoding="utf-8") as new:
        for n, (a, b) in enumerate(zip(old, new, strict=True), 1):
            row = json.loads(b)
            assert row["side"] == SIDES[row["fen"].split(" ")[1]], (n, b)
            assert row["result"] in RESULTS, (n, b)
            del row["side"], row["result"]
            # The same keys in the same order, the same values.
            assert list(row.items()) == list(json.loads(a).items()), (n, a, b)
    return n


def check_csv(old_path, new_path):
    n = 0
    with open(old_path, encoding="utf-8", newline="") as old, open(new_path, encoding="utf-8", newline="") as new:
        for n, (a, b) in enumerate(zip(csv.reader(old), csv.reader(new), strict=True), 1):
            if n == 1:
                assert b == a + ["side", "result"], (a, b)
                continue
            assert b[-2] == SIDES[b[-3].split(" ")[1]], (n, b)
            assert b[-1] in RESULTS, (n, b)
            assert b[:-2] == a, (n, a, b)
    return n


def main():
    old, new = sys.argv[1], sys.argv[2]
    lines = check_json(f"{old}/fen-json.out", f"{new}/fen-json.out")
    print(f"fen-json.out: {lines} lines equal without side and result")
    rows = check_csv(f"{old}/fen-csv.out", f"{new}/fen-csv.out")
    print(f"fen-csv.out: {rows} rows equal without side and result")


if __name__ == "__main__":
    main()
