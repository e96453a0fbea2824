# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# How the kernel runner's benchmark scripts (benchs/run_common.sh and the
# run_bench_*.sh that use it, in the kernel's BPF selftests) read the text a
# run prints, restated as shell functions for the compat test. Each function
# takes a file holding one run's stdout (or the words of a line, where the
# runner's helpers take words) and prints what the script would have kept.
set -euf

num='[0-9]+[.][0-9]+'

# The runner's summarize*() helpers keep `echo $2 | tail -n1` of a run's
# captured output. $2 is unquoted, so echo joins all the lines into one and
# tail keeps everything; the sed expressions below then find their figure
# wherever it last occurs in the whole output. Kept exactly so on purpose:
# a figure-shaped phrase printed after the Summary line would be taken.
last_line() {
	out=$(cat "$1")
	echo $out | tail -n1
}

# The figure after a word, as the runner's hits(), drops(), total() pick it.
hits_of() { echo "$*" | sed -E "s/.*hits[[:space:]]+($num ± ${num}M\/s).*/\1/"; }
drops_of() { echo "$*" | sed -E "s/.*drops[[:space:]]+($num ± ${num}M\/s).*/\1/"; }
total_of() { echo "$*" | sed -E "s/.*total operations[[:space:]]+($num ± ${num}M\/s).*/\1/"; }

# The runner's ops(): throughput and latency of the ops lines.
ops_of() {
	printf 'throughput: %s, latency: %s\n' \
		"$(echo "$*" | sed -E "s/.*throughput[[:space:]]+($num ± $num M ops\/s).*/\1/")" \
		"$(echo "$*" | sed -E "s/.*latency[[:space:]]+($num ns\/op).*/\1/")"
}

# The runner's local_storage(): the three figures of the local-storage line.
local_storage_of() {
	printf 'hits throughput: %s, hits latency: %s, important_hits throughput: %s\n' \
		"$(echo "$*" | sed -E "s/.* hits throughput[[:space:]]+($num ± $num M ops\/s).*/\1/")" \
		"$(echo "$*" | sed -E "s/.* hits latency[[:space:]]+($num ns\/op).*/\1/")" \
		"$(echo "$*" | sed -E "s/.*important_hits throughput[[:space:]]+($num ± $num M ops\/s).*/\1/")"
}

# The runner's percentage(): the false-hits share.
percentage_of() { echo "$*" | sed -E "s/.*Percentage[[:space:]]=[[:space:]]+($num).*/\1/"; }

# summarize NAME FILE and friends: one table row each, as run_common.sh
# prints them (run_bench_ringbufs.sh, run_bench_local_storage.sh, ...).
summarize() {
	s=$(last_line "$2")
	printf '%-20s %s (drops %s)\n' "$1" "$(hits_of $s)" "$(drops_of $s)"
}
summarize_total() { s=$(last_line "$2"); printf '%-20s %s\n' "$1" "$(total_of $s)"; }
summarize_ops() { s=$(last_line "$2"); printf '%-20s %s\n' "$1" "$(ops_of $s)"; }
summarize_local_storage() { s=$(last_line "$2"); printf '%-20s %s\n' "$1" "$(local_storage_of $s)"; }
summarize_percentage() { s=$(last_line "$2"); printf '%-20s %s%%\n' "$1" "$(percentage_of $s)"; }

# run_bench_trigger.sh pipes the run straight in, lines intact: the last
# line, up to the first '(', from its third space-separated field on.
trigger_cut() { tail -n1 "$1" | cut -d'(' -f1 | cut -d' ' -f3-; }

# run_bench_trigger_user_rb.sh (the runner's 2026 development trees): the
# timer run's last line, its records, ENOSPC and timer-fires figures.
timer_fires_of() { echo "$*" | sed -E "s/.*timer-fires[[:space:]]+($num ± ${num}M\/s).*/\1/"; }
user_rb_timer() {
	s=$(tail -n1 "$2")
	printf '%-24s records %s, ENOSPC %s, timer fires %s\n' "$1" "$(hits_of "$s")" \
		"$(drops_of "$s")" "$(timer_fires_of "$s")"
}

# Loops that keep the Summary line by name (our own benchmark pages' re-run
# scripts do, and so did older runner scripts).
summary_lines() { grep Summary "$1"; }
