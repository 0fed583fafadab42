#!/usr/bin/env python3
"""Writes crates/qipu/src/text/script_table.rs: traditional Chinese characters and the
simplified character each folds to, for qipu's name matching (crates/qipu/src/text/fold.rs).

The data is OpenCC's data/dictionary/TSCharacters.txt (Apache-2.0, the OpenCC
authors, https://github.com/BYVoid/OpenCC): one traditional character a line and
its simplified candidates. For each, qipu takes the first candidate; lines whose
key or first candidate is more than one character, and those whose first
candidate is the key itself, are left out. A few Xiangqi characters are qipu's own
(XIANGQI below): 砲 is no traditional character to OpenCC, and OpenCC folds 俥
and 傌 to 伡 and 㐷, where Xiangqi text means 车 and 马. Chains (A to B, B to C)
are followed to their end, so folding once is enough.

Usage: git --git-dir=<OpenCC> show HEAD:data/dictionary/TSCharacters.txt > TSCharacters.txt
       python3 scripts/gen-script-fold.py TSCharacters.txt > crates/qipu/src/text/script_table.rs
"""
import sys

# qipu's own additions and overrides: the Xiangqi pieces' traditional forms.
XIANGQI = {"砲": "炮", "俥": "车", "傌": "马"}

path = sys.argv[1] if len(sys.argv) > 1 else "TSCharacters.txt"
table = {}
with open(path, encoding="utf-8") as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        key, values = line.rstrip("\n").split("\t")
        first = values.split(" ")[0]
        if len(key) == 1 and len(first) == 1 and first != key:
            table[key] = first
table.update(XIANGQI)


def end(c):
    seen = {c}
    while c in table and table[c] not in seen:
        c = table[c]
        seen.add(c)
    return c


folded = {k: end(k) for k in table}
folded = {k: v for k, v in folded.items() if k != v}
assert len(folded) > 3000, len(folded)

print("//! Traditional Chinese characters and the simplified character each folds")
print("//! to, sorted by the traditional one: generated, do not edit by hand.")
print("//!")
print("//! Data: OpenCC's `data/dictionary/TSCharacters.txt`")
print("//! (<https://github.com/BYVoid/OpenCC>), Apache-2.0, by the OpenCC authors:")
print("//! the first simplified candidate of each single character that differs,")
print("//! chains followed to their end; 砲, 俥 and 傌 (炮, 车, 马) are qipu's own.")
print("//!")
print("//! Made again by:")
print("//!")
print("//! ```text")
print("//! git --git-dir=<OpenCC> show HEAD:data/dictionary/TSCharacters.txt > TSCharacters.txt")
print("//! python3 scripts/gen-script-fold.py TSCharacters.txt > crates/qipu/src/text/script_table.rs")
print("//! ```")
print()
print(f"/// The {len(folded)} pairs (traditional, simplified), sorted by the first.")
print("#[rustfmt::skip]")
print("pub(super) static TRADITIONAL: &[(char, char)] = &[")
pairs = sorted(folded.items(), key=lambda kv: ord(kv[0]))
for i in range(0, len(pairs), 8):
    row = " ".join(f"('{k}', '{v}')," for k, v in pairs[i : i + 8])
    print(f"    {row}")
print("];")
