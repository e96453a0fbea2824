#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# One reader of run documents: no module of core/ looks a document's key up
# by a string of its own (bc_json_get(obj, "summary")) but the model
# (results/run_doc.c and its checks, results/run_doc_check.c), which reads
# with runtime/doc_keys.h's names, the writer (runtime/report_json.c) and
# the JSON reader itself (results/json_read.c). A schema change is then a
# change of doc_keys.h and the model, not a grep over the readers. Prints
# each offending line and exits 1; exits 0 when there is none.
#
#   tests/results/key_readers.sh [SOURCE_DIR]
set -eu

src=${1:-$(dirname "$0")/../..}
allowed='^core/(results/run_doc\.c|results/run_doc_check\.c|runtime/report_json\.c|results/json_read\.c):'

# bc_json_get( FIRST_ARG, "literal" ), the first argument at most one call
# deep: bc_json_get(bc_json_get(doc, "status"), "reason") is caught twice.
found=$(cd "$src" && grep -rnE 'bc_json_get\(\s*[^,"()]*(\([^()]*\))?[^,"()]*,\s*"' core \
	--include='*.c' --include='*.h' | grep -vE "$allowed" || true)
if [ -n "$found" ]; then
	echo "$found" | while IFS= read -r line; do
		echo "key_readers.sh: ${line%%:*}: reads a run-document key by a string of its own; read it through the model (core/results/run_doc.h): ${line#*:*:}"
	done
	exit 1
fi
# The check must see what it is there to see: the model itself has such lines.
if ! (cd "$src" && grep -qE 'bc_json_get\(' core/results/run_doc.c); then
	echo "key_readers.sh: core/results/run_doc.c reads no key: the pattern is stale"
	exit 1
fi
echo "key_readers.sh: no module reads run-document keys but the model and the writer"
