#!/usr/bin/env bash
# The corpus read from zip archives validates as the unpacked corpus does:
# every game with the same status, plies and error, only the names
# changed. Two archives are made (with Python's zipfile, deflated):
#
#   corpus.zip          the whole corpus, one member a file;
#   nested.zip          an archive of one archive per set (corpus/xqf.zip,
#                       corpus/pgn.zip, ...), read as archives in an archive.
#
# Usage: scripts/zip-corpus.sh [CORPUS] [QIPU]
# Prints the summaries and exits non-zero when a game differs.
set -euo pipefail
corpus=$(cd "${1:-../shared/corpus}" && pwd)
qipu=$(realpath "${2:-target/release/qipu}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$corpus" "$work" <<'EOF'
import io, os, sys, zipfile
corpus, work = sys.argv[1], sys.argv[2]
def add_tree(z, root, prefix=""):
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(dirpath, f)
            z.write(path, prefix + os.path.relpath(path, root))
with zipfile.ZipFile(os.path.join(work, "corpus.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    add_tree(z, corpus)
with zipfile.ZipFile(os.path.join(work, "nested.zip"), "w", zipfile.ZIP_STORED) as outer:
    for entry in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, entry)
        if os.path.isdir(path):
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as inner:
                add_tree(inner, path)
            outer.writestr(entry + ".zip", buf.getvalue())
        else:
            outer.write(path, entry)
EOF
ls -l "$work"/*.zip | awk '{print $5, $NF}'

# One line a game: the source made relative, and what validate says of it.
games() {
    { "$qipu" validate --format json "$1" 2>/dev/null || true; } | python3 -c '
import json, re, sys
prefix = sys.argv[1]
for line in sys.stdin:
    g = json.loads(line)
    src = g["source"]
    src = src[len(prefix):] if src.startswith(prefix) else src
    # nested.zip:pgn.zip:a/b.pgn -> pgn/a/b.pgn
    src = re.sub(r"^([^:/]+)\.zip:", r"\1/", src)
    g["source"] = src
    print(json.dumps(g, sort_keys=True, ensure_ascii=False))
' "$2" | sort
}

status=0
games "$corpus" "$corpus/" >"$work/dir.txt"
for archive in corpus nested; do
    games "$work/$archive.zip" "$work/$archive.zip:" >"$work/$archive.txt"
    echo "== $archive.zip"
    { "$qipu" validate "$work/$archive.zip" 2>&1 || true; } | tail -1
    if diff -q "$work/dir.txt" "$work/$archive.txt" >/dev/null; then
        echo "same $(wc -l <"$work/dir.txt") game lines as the unpacked corpus"
    else
        echo "DIFFERENT from the unpacked corpus:"
        diff "$work/dir.txt" "$work/$archive.txt" | head -20
        status=1
    fi
done
echo "== unpacked"
{ "$qipu" validate "$corpus" 2>&1 || true; } | tail -1
exit $status
