#!/bin/bash
# Two threads change nothing: every command that runs the pipeline prints
# the same (standard output, standard error, exit status) with -j 1 (one
# thread) and -j 2 (a reader thread feeding the pipeline), on the golden
# files and on every file of the public corpus (../shared/corpus relative
# to the repository; RP_CORPUS_DIR overrides; fuzzer inputs excluded).
#
#   run_threads.sh /path/to/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_threads.sh /path/to/readperf}" nocheck
corpus=$(rp_corpus_dir "${RP_CORPUS_DIR:-}")
rp_workdir rp-threads
work=$rp_work_dir

files=("$root"/tests/golden/*.perf.data)
if [ -d "$corpus" ]; then
	while IFS= read -r f; do
		files+=("$f")
	done < <(find "$corpus" -type f ! -path '*_FUZZ*' ! -name '*.txt' ! -name '*.json' \
		 ! -name '*.rc' ! -name '*.md' -size -64M | sort)
fi

fail=0
runs=0
for f in "${files[@]}"; do
	for cmd in "report -t ;" "report" "report --children" "script" "collapse"; do
		# shellcheck disable=SC2086 # cmd holds the subcommand and its options
		for j in 1 2; do
			(cd "$work" && "$RP" $cmd -j $j "$f" >"$work/out.$j" 2>"$work/err.$j"
			 echo $? >"$work/rc.$j")
		done
		runs=$((runs + 1))
		for part in out err rc; do
			if ! cmp -s "$work/$part.1" "$work/$part.2"; then
				echo "DIFF $part: readperf $cmd $f"
				diff "$work/$part.1" "$work/$part.2" | head -4
				fail=$((fail + 1))
			fi
		done
	done
done
echo "run_threads: ${#files[@]} files, $runs commands, $fail difference(s) between -j 1 and -j 2"
[ "$fail" = 0 ]
