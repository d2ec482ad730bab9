#!/bin/sh
# Regenerates docs/compare/: the aid reports compared side by side (index.md, matrix.html).
# Run from anywhere, with adck installed (pip install -e '.[test]'); takes about a minute.
# The broken variants exit 1 (they are non-conformant by design), so no `set -e`.
set -u
cd "$(dirname "$0")"
R=reports
rm -rf "$R"
run() {  # NAME ARGS...: one adck run, its report.json kept under reports/NAME/
    name=$1; shift
    adck run aid "$@" --seed 1 --format json --report-dir "$R/$name" >/dev/null
    [ -f "$R/$name/report.json" ] || { echo "regenerate.sh: no report for $name" >&2; exit 2; }
}
run 1-provider-builtin               --target builtin
run 2-provider-uri-http              --target builtin:uri-http
run 3-provider-ttl-3600              --target builtin:ttl-3600
run 4-client-builtin                 --role client --target builtin
run 5-client-uses-own-protocol-preference --role client --target builtin:uses-own-protocol-preference
# the aid-discovery adapter's report, committed by `tox -e aid-py` (docs/reports/aid-discovery-2.1.1/)
adck compare "$R"/*/report.json ../reports/aid-discovery-2.1.1/report.json -o .
printf '\nRegenerate: `docs/compare/regenerate.sh` (the runs above, then `adck compare`).\n' >> index.md
rm -rf .hypothesis
