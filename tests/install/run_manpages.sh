#!/bin/bash
# The man pages (docs/man/*.scd, scdoc sources):
#   - every command that `readperf --help` lists has its page
#     (readperf-COMMAND.1.scd), and readperf.1.scd exists;
#   - every option that `readperf --help` and `readperf COMMAND --help`
#     print (each -x and --long-name in the text) appears in the page;
#   - scdoc renders each page, and man -l renders the result without a
#     warning (groff's -w, through man --warnings).
#
#   run_manpages.sh /path/to/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_manpages.sh /path/to/readperf}" nocheck
require_tool scdoc "scdoc is not installed (apt-get install scdoc)" \
	"the man pages were NOT checked."
require_tool man "man is not installed (apt-get install man-db)" \
	"the man pages were NOT checked."
rp_workdir rp-man keep-on-failure
work=$rp_work_dir
man_dir=$root/docs/man
checked=0

# The options in a --help text: "-x" and "--long-name" standing alone
# (after a space, '[', ',', '(' or '|'; not "-f" in quotes, nor comm-TID).
help_options() {
	grep -oE '(^|[][ ,(|])--?[A-Za-z][A-Za-z0-9-]*' |
		sed -E 's/^[][ ,(|]//' | sort -u
}

# check_page PAGE HELP-ARGS...: the options of `readperf HELP-ARGS` are in
# PAGE's source; PAGE renders.
check_page() {
	local page=$1 src=$man_dir/$1.scd opt missing=""
	shift
	if [ ! -f "$src" ]; then
		fail "$page: no man page source $src"
		return
	fi
	if ! "$RP" "$@" >"$work/$page.help" 2>&1; then
		fail "$page: readperf $* failed"
		return
	fi
	help_options <"$work/$page.help" >"$work/$page.opts"
	while read -r opt; do
		checked=$((checked + 1))
		grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" "$src" ||
			missing="$missing $opt"
	done <"$work/$page.opts"
	[ -z "$missing" ] ||
		fail "$page: options printed by 'readperf $*' but not in $src:$missing"
	render "$page"
}

# render PAGE: scdoc, then man -l.
render() {
	local page=$1 warnings

	checked=$((checked + 1))
	if ! scdoc <"$man_dir/$page.scd" >"$work/$page" 2>"$work/$page.scdoc.err"; then
		fail "$page: scdoc: $(cat "$work/$page.scdoc.err")"
		return
	fi
	warnings=$(MANWIDTH=80 man --warnings -l "$work/$page" 2>&1 >/dev/null)
	[ -z "$warnings" ] || fail "$page: man -l warns: $warnings"
}

check_page readperf.1 --help

# The commands of `readperf --help`: its lines "  NAME   text".
commands=$("$RP" --help | sed -nE 's/^  ([a-z]+) .*/\1/p')
[ -n "$commands" ] || { echo "$rp_name: no command in readperf --help" >&2; exit 1; }
for cmd in $commands; do
	check_page "readperf-$cmd.1" "$cmd" --help
done

# Pages of commands readperf no longer has would mislead: each page is
# readperf.1 or the page of a command.
for src in "$man_dir"/*.scd; do
	page=$(basename "$src" .scd)
	case " readperf.1 $(printf 'readperf-%s.1 ' $commands)" in
	*" $page "*) ;;
	*) fail "$page: no such command in readperf --help" ;;
	esac
done

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failures (scratch: $work)" >&2
	exit 1
fi
echo "ok   $checked checks: every option of every --help is in its man page; the pages render"
