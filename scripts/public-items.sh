#!/usr/bin/env bash
# Counts the library's public items from its API documentation: one page per item
# (`struct.X.html`, `fn.x.html`, ...; modules are `index.html`), by kind, and the items at the
# crate's root. Builds the documentation of the library crate (crates/qipu) with
# FEATURES unless QIPU_DOC_BUILT=1.
#
# Usage: bash scripts/public-items.sh [FEATURES]   (default: parallel,serde,obs)
set -euo pipefail
cd "$(dirname "$0")/.."
features=${1:-parallel,serde,obs}
target=${CARGO_TARGET_DIR:-target}
if [ "${QIPU_DOC_BUILT:-0}" != 1 ]; then
  cargo doc --no-deps -p qipu --lib --no-default-features --features "$features" --quiet
fi
doc=$target/doc/qipu
find "$doc" -name '*.html' ! -name 'all.html' ! -name 'sidebar-items*' |
  sed 's#.*/##; s/\..*//' | sort | uniq -c | sort -rn |
  awk '{ n[$2] = $1; if ($2 != "index") items += $1 }
       END { printf "items: %d (", items; sep = "";
             for (k in n) if (k != "index") { printf "%s%s %d", sep, k, n[k]; sep = ", " }
             printf "); modules: %d\n", n["index"] }'
echo "at the root: $(find "$doc" -maxdepth 1 -name '*.*.html' | wc -l) items, $(find "$doc" -mindepth 2 -maxdepth 2 -name index.html | wc -l) modules"
