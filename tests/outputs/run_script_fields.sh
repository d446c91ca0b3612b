#!/bin/bash
# perf script's sample fields beyond the default ones against readperf
# script, whole text, on files recorded now with the installed perf:
#   pf     page-faults -c 1 -d --phys-data --data-page-size
#          --code-page-size -W of the workload: addr (a page fault's
#          address is looked up as perf's sample_addr_correlates_sym()
#          asks: "sym+0xoff (dso)" after it, data objects' symbols
#          included), weight and ins_lat (WEIGHT_STRUCT's parts),
#          phys_addr, data_page_size and code_page_size ("4K", "2M",
#          "N/A")
#   pfg    the same with -g: phys_addr and the page sizes come after the
#          call stack, on the line that ends the sample
#   regs   cpu-clock -g -I --user-regs=ax,bx,sp,ip: iregs and uregs
#          (" ABI:2    AX:0x... " for each register of the attr's mask,
#          perf's x86 names), after the call stack or the ip, -G
#   clock  cpu-clock -a -k mono --switch-events: tod (the wall-clock
#          time from the CLOCK_DATA feature, local time: also under
#          TZ=Asia/Kolkata), misc (K U ..., M E S p of the sideband
#          records) with the sideband lines, --ns, --reltime
#   m1, m2 rp-gen-lbrmem mem files (the workload's maps, samples with
#          data sources of every kind, weights, page sizes up to 1G):
#          data_src ("%16lx |OP ..|LVL ..|SNP ..|TLB ..|LCK ..|BLK .."
#          padded to the longest so far) with the other fields
#   nonelf rp-mkdata nonelf-frame (samples and stacks in a mapped
#          /etc/passwd): srcline "passwd[10]" where addr2line cannot read
#          the file; perf 6.1 dies of SIGPIPE there now and then (its
#          addr2line child exits before perf writes to it), so perf runs
#          up to three times for a whole text
#   plain  cpu-clock: perf's messages for each of those fields the
#          samples lack (checked in perf's order: weight before cpu,
#          iregs, uregs and phys_addr after it, tod's missing clock
#          data last, and only for a type the file has)
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check): then it fails.  The
# scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_script_fields.sh /path/to/readperf}"
gen=${RP_GEN:-$PWD/rp-gen-lbrmem}
case "$gen" in /*) ;; *) gen=$PWD/$gen ;; esac
[ -x "$gen" ] || { echo "$rp_name: no generator at $gen (build the tests)" >&2; exit 1; }
require_perf
require_cc
rp_workdir rp-fields keep-on-failure
cd "$rp_work_dir" || exit 1
rp_compile_workload || exit 1



pfopts=(-e page-faults -c 1 -d --phys-data --data-page-size --code-page-size -W)
record_workload pf "${pfopts[@]}" -- -t 100 -f 1
record_workload pfg "${pfopts[@]}" -g -- -t 100
record_workload plain -e cpu-clock -- -t 100
record_workload regs -e cpu-clock -g -I --user-regs=ax,bx,sp,ip -- -t 100
record_workload clock -e cpu-clock -a -k mono --switch-events -- -t 100 -f 1
for m in 1 7; do
	"$gen" mem "m$m.data" ./workload "$m" || { echo "$rp_name: rp-gen-lbrmem failed" >&2; exit 1; }
done

# perf's own text must show resolved fault addresses and page sizes, or
# the comparison proves little.
perf script -i pf.data -F addr,sym,data_page_size 2>/dev/null | grep -q ' [0-9][0-9]*K$' ||
	fail "pf: perf script printed no data page size: the test proves nothing"

all=comm,tid,event,addr,weight,ins_lat,ip,sym,phys_addr,data_page_size,code_page_size
for n in pf pfg; do
	rp_script_same "$n" default
	rp_script_same "$n" all -F "$all"
	rp_script_same "$n" plus -F +addr,+weight,+ins_lat,+phys_addr,+data_page_size,+code_page_size
	rp_script_same "$n" addr-symoff -F comm,tid,addr,ip,sym,symoff,dso
	rp_script_same "$n" addr-dso -F comm,addr,dso
done
rp_script_same pfg hide -F "$all" -G
for m in m1 m7; do
	rp_script_same "$m" data-src -F comm,tid,addr,data_src,weight,ip,sym,phys_addr,data_page_size
	rp_script_same "$m" data-src-plus -F +data_src,+weight,+phys_addr,+data_page_size,+misc
done
rp_script_same pf data-src -F comm,addr,data_src,ip,sym
rp_script_same regs regs -F comm,tid,ip,sym,iregs,uregs
rp_script_same regs regs-plus -F +iregs,+uregs
rp_script_same regs regs-hide -F +uregs,+iregs -G
rp_script_same regs uregs -F comm,tid,uregs
rp_script_same clock tod-misc -F comm,tid,cpu,misc,tod,time,event,ip,sym
rp_script_same clock tod-side -F +tod,+misc --show-task-events --show-mmap-events --show-switch-events
rp_script_same clock tod-ns -F +tod --ns --reltime
TZ=Asia/Kolkata rp_script_same clock tod-tz -F comm,tod,misc --ns
rp_script_same regs misc -F +misc --show-task-events --show-mmap-events
rp_script_same regs tod-minus -F +tod,-tod
rp_script_same regs tod-absent-type -F trace:tod
rp_script_same pf sw-typed -F sw:comm,weight,ins_lat
for f in weight ins_lat phys_addr data_page_size code_page_size weight,addr phys_addr,cpu \
	srcline,weight ins_lat,code_page_size,data_page_size iregs uregs uregs,cpu \
	iregs,phys_addr phys_addr,uregs tod cpu,tod tod,phys_addr tod,srcline sw:comm,tod \
	data_src weight,data_src data_src,addr; do
	rp_script_refused plain "e-$f" -F "$f"
done
rp_script_same plain sw-dropped -F sw:comm,tid,weight,phys_addr,data_page_size,iregs
rp_mkdata nonelf-frame nonelf.data || fail "rp-mkdata nonelf-frame failed"
# perf 6.1 writes to its addr2line after addr2line quit on the non-ELF
# file: SIGPIPE kills it (every time on a loaded machine, docs/script.md).
# With SIGPIPE ignored the write fails instead and perf prints the rest.
if (trap '' PIPE; perf script -i nonelf.data -F +srcline >nonelf.perf 2>/dev/null) &&
	[ -s nonelf.perf ]; then
	"$RP" script -F +srcline nonelf.data >nonelf.rp 2>/dev/null || fail "readperf script of nonelf.data failed"
	rp_same "nonelf srcline" nonelf.perf nonelf.rp && echo "ok   nonelf srcline"
else
	fail "perf script -F +srcline of nonelf.data failed (SIGPIPE ignored)"
fi
rp_done "readperf script's extra fields equal perf script's"
