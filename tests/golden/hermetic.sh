# shellcheck shell=bash
# The hermetic golden views: what regen.sh asks perf and run_hermetic.sh
# asks readperf for each golden file, in one place so that the two sides
# cannot drift apart.  Sourced by both; defines functions only.
#
# Every view runs under the same conditions on both sides (hv_prepare):
#   - in a scratch directory, on a copy of the file named NAME.perf.data
#     (relative: the dump prints the path it was given);
#   - the copy's modification time set to $hv_mtime and TZ=UTC ("captured
#     on" in the header and "captured-on" in the JSON are the file's mtime);
#   - a clean environment (hv_env): LC_ALL=C, HOME an empty directory,
#     PERF_CONFIG=/dev/null (no perfconfig), no PERF_BUILDID_DIR;
#   - views that resolve symbols get --symfs EMPTY (an empty directory): no
#     binary, no build-id cache (<symfs>/.debug) and no kallsyms is read, so
#     perf and readperf print addresses and the shared objects' names only,
#     whatever the machine holds.  perf data convert has no --symfs: its
#     "symbol" and "dso" members are taken out of both documents
#     (hv_normalise json).
#
# Views (NAME.VIEW.txt beside NAME.perf.data holds perf's text):
#   report       perf report --stdio                  readperf report
#                (the children view for -g files; perf's closing tip
#                lines are not part of it: regen.sh drops them)
#   report-sym   perf report --stdio --no-children --sort comm,dso,sym
#   header       perf report --header-only -I          readperf header -I
#   dump         perf report -D                        readperf dump
#   stats        perf report --stats                   readperf stats
#   script       perf script                           readperf script
#   script-F     perf script -F comm,tid,time,event,ip,sym,dso
#   json         perf data convert --to-json           readperf json

# shellcheck disable=SC2034 # read by the scripts that source this file
hv_views="report report-sym header dump stats script script-F json"
# 2024-01-01 00:00:00 UTC
hv_mtime=@1704067200
hv_script_fields=comm,tid,time,event,ip,sym,dso

# hv_prepare FILE DIR: DIR/NAME.perf.data, a copy of FILE with the fixed
# mtime; DIR/symfs and DIR/home, empty.  Prints the copy's name.
hv_prepare() {
	local name

	name=$(basename "$1")
	mkdir -p "$2/symfs" "$2/home" || return 1
	cp "$1" "$2/$name" && touch -d "$hv_mtime" "$2/$name" || return 1
	printf '%s\n' "$name"
}

# hv_env DIR COMMAND...: COMMAND in DIR's clean environment (see above).
# The sanitizers' settings pass through, so an ASan build behaves as under
# ctest.
hv_env() {
	local dir=$1
	shift
	env -i PATH="$PATH" HOME="$dir/home" TZ=UTC LC_ALL=C PERF_CONFIG=/dev/null \
		${ASAN_OPTIONS+ASAN_OPTIONS="$ASAN_OPTIONS"} \
		${UBSAN_OPTIONS+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
		${LSAN_OPTIONS+LSAN_OPTIONS="$LSAN_OPTIONS"} \
		"$@"
}

# hv_perf VIEW FILE OUT: perf's text of VIEW for FILE (a name in the
# current directory, which hv_prepare made) into OUT; perf's status.
hv_perf() {
	local view=$1 f=$2 out=$3 symfs=$PWD/symfs

	case $view in
	report)     hv_env "$PWD" perf report -i "$f" --stdio --symfs "$symfs" ;;
	report-sym) hv_env "$PWD" perf report -i "$f" --stdio --no-children \
			--sort comm,dso,sym --symfs "$symfs" ;;
	header)     hv_env "$PWD" perf report -i "$f" --header-only -I ;;
	dump)       hv_env "$PWD" perf report -i "$f" -D --symfs "$symfs" ;;
	stats)      hv_env "$PWD" perf report -i "$f" --stats ;;
	script)     hv_env "$PWD" perf script -i "$f" --symfs "$symfs" ;;
	script-F)   hv_env "$PWD" perf script -i "$f" -F "$hv_script_fields" \
			--symfs "$symfs" ;;
	json)       hv_env "$PWD" perf data convert -i "$f" --force \
			--to-json "$out.json" >/dev/null &&
		    cat "$out.json" && rm -f "$out.json" ;;
	*)          echo "hv_perf: unknown view $view" >&2; return 2 ;;
	esac >"$out"
}

# hv_readperf RP VIEW FILE OUT: readperf's text of VIEW, as hv_perf.
# readperf's header, dump and stats read no binary (they take no --symfs).
hv_readperf() {
	local rp=$1 view=$2 f=$3 out=$4 symfs=$PWD/symfs

	case $view in
	report)     hv_env "$PWD" "$rp" report --symfs "$symfs" "$f" ;;
	report-sym) hv_env "$PWD" "$rp" report --no-children \
			--sort comm,dso,sym --symfs "$symfs" "$f" ;;
	header)     hv_env "$PWD" "$rp" header -I "$f" ;;
	dump)       hv_env "$PWD" "$rp" dump "$f" ;;
	stats)      hv_env "$PWD" "$rp" stats "$f" ;;
	script)     hv_env "$PWD" "$rp" script --symfs "$symfs" "$f" ;;
	script-F)   hv_env "$PWD" "$rp" script -F "$hv_script_fields" \
			--symfs "$symfs" "$f" ;;
	json)       hv_env "$PWD" "$rp" json --symfs "$symfs" "$f" ;;
	*)          echo "hv_readperf: unknown view $view" >&2; return 2 ;;
	esac >"$out"
}

# hv_drop_tip <IN >OUT: perf report's text without its closing tip ("#",
# "# (Tip: ...)", "#"), which readperf does not print; anything else
# unchanged.  regen.sh applies it to perf's report views.
hv_drop_tip() {
	awk '{ l[NR] = $0 }
	     END {
		n = NR
		if (n >= 3 && l[n] == "#" && l[n - 2] == "#" && l[n - 1] ~ /^# \(Tip: /)
			n -= 3
		for (i = 1; i <= n; i++)
			print l[i]
	     }'
}

# hv_normalise VIEW <IN >OUT: the normalisation applied to both sides.
# json: callchain entries lose their "symbol" and "dso" members (perf data
# convert resolves symbols from the machine's binaries and has no
# --symfs), and the "ip" line the comma that preceded them.  Every other
# view passes unchanged.
hv_normalise() {
	case $1 in
	json) sed -E '/^\t*"(symbol|dso)": /d; s/^(\t*"ip": "[^"]*"),$/\1/' ;;
	*)    cat ;;
	esac
}
