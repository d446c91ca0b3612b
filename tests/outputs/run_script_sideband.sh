#!/bin/bash
# perf script's other sideband views against readperf script, whole text,
# on files recorded now with the installed perf:
#   ns     cpu-clock -a --namespaces --all-cgroups of the workload
#          (forks, an exec): --show-namespace-events, --show-cgroup-events
#          (synthesized records without a thread, the kernel's with one),
#          alone, with --show-task-events --deltatime --ns, and with -C 1
#   lost   raw_syscalls:* with -m 1 (one page of ring buffer) of a shell
#          loop of cat: the kernel drops records, PERF_RECORD_LOST says
#          how many (--show-lost-events)
#   bpf    rp-mkdata bpf-events (KSYMBOL and BPF_EVENT records of BPF
#          programs loaded and unloaded, samples in them, TEXT_POKE
#          records in a program and outside any: no kernel here writes
#          them): --show-bpf-events, --show-text-poke-events
#   ns, lost, cg (cpu-clock -g): --show-round-events, with which perf
#          turns its time ordering off: every record in file order, a
#          FINISHED_ROUND line where the record comes; also with the task,
#          mmap and lost records and --reltime
# Each comparison must see perf print the records it is about (else it
# would prove nothing): a lost recording without LOST records is made
# again, at most three times, then the test skips that part loudly.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check): then it fails.  The
# scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_script_sideband.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-sideband keep-on-failure
cd "$rp_work_dir" || exit 1
rp_compile_workload || exit 1

# compare NAME TAG WANT SCRIPT-ARGS...: perf script and readperf script,
# exact (rp_script_same); perf's text must hold WANT.
compare() {
	local name=$1 tag=$2 want=$3
	shift 3
	rp_script_same "$name" "$tag" "$@"
	if [ -s "$name.$tag.perf" ] && ! grep -q -- "$want" "$name.$tag.perf"; then
		fail "$name $tag: perf script $* printed no $want: the test proves nothing"
	fi
}

record_workload ns -e cpu-clock -a --namespaces --all-cgroups -- -t 200 -f 2
record_workload cg -e cpu-clock -g -- -t 200 -f 1
rp_mkdata bpf-events bpf.data || fail "rp-mkdata bpf-events failed"
lost=
for attempt in 1 2 3; do
	# shellcheck disable=SC2016 # the recorded sh expands it
	perf record -q -m 1 -e 'raw_syscalls:*' -o lost.data -- \
		sh -c 'i=0; while [ $i -lt 150 ]; do cat /etc/hostname; i=$((i+1)); done >/dev/null' \
		>lost.record.out 2>&1 || { cat lost.record.out >&2; fail "perf record -m 1 failed"; break; }
	if perf script -i lost.data --show-lost-events 2>/dev/null | grep -q PERF_RECORD_LOST; then
		lost=1
		break
	fi
	echo "$rp_name: lost.data: the kernel lost no records (attempt $attempt)" >&2
done

compare ns ns PERF_RECORD_NAMESPACES --show-namespace-events
compare ns cgroup PERF_RECORD_CGROUP --show-cgroup-events
compare ns both-delta PERF_RECORD_NAMESPACES --show-namespace-events --show-cgroup-events \
	--show-task-events --deltatime --ns
compare ns cpu1 PERF_RECORD_NAMESPACES --show-namespace-events --show-cgroup-events -C 1 \
	-F comm,tid,cpu,time,event
compare ns round PERF_RECORD_FINISHED_ROUND --show-round-events
compare ns round-all PERF_RECORD_FINISHED_ROUND --show-round-events --show-task-events \
	--show-mmap-events --show-namespace-events --reltime
compare cg round PERF_RECORD_FINISHED_ROUND --show-round-events
compare cg round-g PERF_RECORD_FINISHED_ROUND --show-round-events -G --show-task-events
compare bpf default bpf_prog_0123456789abcdef_F+0x10
compare bpf bpf PERF_RECORD_KSYMBOL --show-bpf-events
compare bpf bpf-all PERF_RECORD_BPF_EVENT --show-bpf-events --show-task-events \
	--show-mmap-events -F +misc --deltatime
compare bpf text-poke 'trace_open+0x18 old len 5' --show-text-poke-events
compare bpf text-poke-bpf PERF_RECORD_TEXT_POKE --show-text-poke-events --show-bpf-events -G
if [ -n "$lost" ]; then
	compare lost lost PERF_RECORD_LOST --show-lost-events
	compare lost lost-delta PERF_RECORD_LOST --show-lost-events --deltatime -F comm,tid,time,event,trace
	compare lost round PERF_RECORD_FINISHED_ROUND --show-round-events --show-lost-events
else
	rp_banner "$rp_name: the kernel lost no records in three recordings:" \
		  "--show-lost-events was NOT compared with perf."
fi
rp_done "readperf script's sideband views equal perf script's"
