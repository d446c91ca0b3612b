#!/bin/bash
# The Debian packages (debian/, README "Install"), built and used without
# touching this machine's dpkg database nor the repository:
#   1. tools/build-deb.sh builds readperf, libreadperf0 and libreadperf-dev
#      with dpkg-buildpackage -b -us -uc from a copy of the tree in a
#      scratch directory (DEB_BUILD_OPTIONS="nocheck parallel=2": the tests
#      are neither built nor run inside the package build);
#   2. dpkg-deb -c / -I: each package holds what it should and nothing
#      another one holds (the command and every man page; libreadperf.so.
#      MAJOR.MINOR.PATCH and its SONAME link; every public header,
#      libreadperf.so, libreadperf.a, readperf.pc), at the version of
#      include/readperf/version.h; libreadperf0 has a shlibs and a symbols
#      file naming every function of lib/readperf.map; libreadperf-dev
#      depends on libreadperf0 of its version; neither readperf nor
#      libreadperf0 depends on libpq or libssl (readperf postgres loads
#      them), readperf recommends them;
#   3. dpkg -x of the three into a scratch root: examples/hottest.c builds
#      there with pkg-config (PKG_CONFIG_SYSROOT_DIR), links
#      libreadperf.so.MAJOR, and dpkg-shlibdeps makes it depend on
#      libreadperf0 through the package's symbols file; run on
#      tests/golden/demo.perf.data it names as hottest the function that
#      heads the packaged `readperf report --sort sym`; all of
#      libreadperf.a links with the libraries readperf.pc names for it
#      (Requires.private, Libs.private), whose -dev packages libreadperf-dev
#      depends on; the packaged readperf prints its version; `man -l`
#      renders a page;
#   4. lintian reports no error (warnings are listed in debian/README.source).
# The binary given is not used: the packages build their own.
#
#   run_deb.sh /path/to/build/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_deb.sh /path/to/build/readperf}" nocheck
not_checked="the Debian packages were NOT built nor checked."
for t in dpkg-buildpackage dpkg-deb dpkg-checkbuilddeps dpkg-shlibdeps dh lintian; do
	require_tool "$t" "$t is not installed (apt-get install dpkg-dev debhelper lintian)" "$not_checked"
done
require_tool pkg-config "pkg-config is not installed (apt-get install pkg-config)" "$not_checked"
require_tool man "man is not installed (apt-get install man-db)" "$not_checked"
require_cc
if ! dpkg-checkbuilddeps -Pnocheck "$root/debian/control" 2>"${TMPDIR:-/tmp}/rp-deb-deps.$$"; then
	reason=$(sed 's/^dpkg-checkbuilddeps: error: //' "${TMPDIR:-/tmp}/rp-deb-deps.$$")
	rm -f "${TMPDIR:-/tmp}/rp-deb-deps.$$"
	rp_cannot_run "$reason (make deps installs them)" "$not_checked"
fi
rm -f "${TMPDIR:-/tmp}/rp-deb-deps.$$"
rp_workdir rp-deb keep-on-failure
work=$rp_work_dir

version_part() {
	sed -n "s/^#define RP_VERSION_$1  *\([0-9][0-9]*\)\$/\1/p" "$root/include/readperf/version.h"
}
major=$(version_part MAJOR)
version=$major.$(version_part MINOR).$(version_part PATCH)
deb_version=$(dpkg-parsechangelog -l "$root/debian/changelog" -SVersion)
if [ "$deb_version" != "$version" ]; then
	echo "$rp_name: debian/changelog is at $deb_version, include/readperf/version.h at $version:" \
	     "add a changelog entry (dch -v $version)" >&2
	exit 1
fi
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=usr/lib/$multiarch

# --- 1. build ---------------------------------------------------------------
out=$work/out
# What dpkg-buildpackage would leave in a tree it ran in (none of it should
# appear in the repository): the state before, to compare after.
tree_state() {
	git -C "$root" status --porcelain --ignored -- debian 'obj-*' 2>/dev/null
}
tree_state >"$work/tree.before"
start=$SECONDS
if ! DEB_BUILD_OPTIONS="nocheck parallel=2" DEB_BUILD_PROFILES=nocheck \
	"$root/tools/build-deb.sh" "$out" >"$work/build.log" 2>&1; then
	tail -40 "$work/build.log" >&2
	echo "$rp_name: the package build failed (log: $work/build.log)" >&2
	exit 1
fi
echo "ok   dpkg-buildpackage -b -us -uc in $((SECONDS - start)) s"
tree_state >"$work/tree.after"
if ! cmp -s "$work/tree.before" "$work/tree.after"; then
	fail "the build wrote into the repository (git status of debian/ and obj-*, before and after):"
	diff "$work/tree.before" "$work/tree.after" >&2
fi

deb() { printf '%s/%s_%s_%s.deb' "$out" "$1" "$version" "$arch"; }
for p in readperf libreadperf0 libreadperf-dev; do
	[ -f "$(deb "$p")" ] || { echo "$rp_name: no $(basename "$(deb "$p")") built" >&2; exit 1; }
done

# --- 2. contents and control ------------------------------------------------
# files PACKAGE: the paths it installs (./usr/...), links as "path -> target".
files() {
	dpkg-deb -c "$(deb "$1")" | awk '$1 !~ /^d/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }'
}
for p in readperf libreadperf0 libreadperf-dev; do
	files "$p" >"$work/$p.files"
	dpkg-deb -f "$(deb "$p")" Version >"$work/$p.version"
	[ "$(cat "$work/$p.version")" = "$version" ] || fail "$p: Version $(cat "$work/$p.version"), not $version"
done
# has PACKAGE PATH: PATH (or "PATH -> TARGET") is in PACKAGE.
has() {
	checked_files=$((${checked_files:-0} + 1))
	grep -qxF "./$2" "$work/$1.files" || fail "$1 does not install /$2"
}
has readperf usr/bin/readperf
for src in "$root"/docs/man/*.scd; do
	page=$(basename "$src" .scd)
	case "$page" in
	*.1) has readperf "usr/share/man/man1/$page.gz" ;;
	*) has libreadperf-dev "usr/share/man/man${page##*.}/$page.gz" ;;
	esac
done
has libreadperf0 "$libdir/libreadperf.so.$version"
has libreadperf0 "$libdir/libreadperf.so.$major -> libreadperf.so.$version"
for h in "$root"/include/readperf/*.h; do
	has libreadperf-dev "usr/include/readperf/$(basename "$h")"
done
has libreadperf-dev "$libdir/libreadperf.so -> libreadperf.so.$major"
has libreadperf-dev "$libdir/libreadperf.a"
has libreadperf-dev "$libdir/pkgconfig/readperf.pc"
# What a package holds beyond that: its /usr/share/doc, nothing else.
grep -vE '^\./usr/share/doc/' "$work/libreadperf0.files" | grep -v "^\./$libdir/libreadperf\.so\.$major" |
	sed 's/^/    /' >"$work/extra"
[ -s "$work/extra" ] && { fail "libreadperf0 holds more than the library:"; cat "$work/extra" >&2; }
sort "$work"/*.files | sed 's/ -> .*//' | grep -v '/usr/share/doc/' | uniq -d >"$work/dup"
[ -s "$work/dup" ] && { fail "files in two packages:"; sed 's/^/    /' "$work/dup" >&2; }

# libreadperf0: shlibs and symbols (from lib/readperf.map).
dpkg-deb -R "$(deb libreadperf0)" "$work/lib0"
grep -qxF "libreadperf $major libreadperf$major (>= $version)" "$work/lib0/DEBIAN/shlibs" ||
	fail "libreadperf0's shlibs is not 'libreadperf $major libreadperf$major (>= $version)':" \
	     "$(cat "$work/lib0/DEBIAN/shlibs")"
soname=$(readelf -d "$work/lib0/$libdir/libreadperf.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
[ "$soname" = "libreadperf.so.$major" ] || fail "the packaged library's SONAME is '$soname'"
sed -n 's/^ \([A-Za-z_][A-Za-z0-9_]*\)@READPERF_.*/\1/p' "$work/lib0/DEBIAN/symbols" | sort >"$work/symbols"
sed 's:/\*.*\*/::; /\/\*/,/\*\//d' "$root/lib/readperf.map" |
	tr -s ' \t\n' '\n' | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\);$/\1/p' | sort -u >"$work/mapped"
if ! cmp -s "$work/symbols" "$work/mapped"; then
	fail "libreadperf0's symbols file and lib/readperf.map differ (< symbols, > map):"
	diff "$work/symbols" "$work/mapped" | head -20 >&2
fi
head -1 "$work/lib0/DEBIAN/symbols" | grep -qxF "libreadperf.so.$major libreadperf$major #MINVER#" ||
	fail "libreadperf0's symbols file starts with '$(head -1 "$work/lib0/DEBIAN/symbols")'"

# Depends: the library of the same version; the -dev packages of what
# readperf.pc needs for static linking (checked in 3.).
dev_depends=$(dpkg-deb -f "$(deb libreadperf-dev)" Depends)
depends_on() { # PACKAGE: status 0 when libreadperf-dev depends on it
	tr ',' '\n' <<<"$dev_depends" | sed 's/^ *//; s/[ (].*//' | grep -qxF "$1"
}
grep -qF "libreadperf$major (= $version)" <<<"$dev_depends" ||
	fail "libreadperf-dev does not depend on libreadperf$major (= $version): $dev_depends"
for p in readperf libreadperf0; do
	d=$(dpkg-deb -f "$(deb "$p")" Depends)
	grep -q 'libc6' <<<"$d" || fail "$p: no shared library dependency (\${shlibs:Depends}): '$d'"
	# capstone, libpq and libcrypto: loaded by the annotate and postgres
	# outputs when they run (lib/common/dlload.c), not linked: no
	# dependency on them.
	grep -qE '(^|[ ,])lib(capstone|pq|ssl)[0-9]' <<<"$d" &&
		fail "$p depends on libcapstone, libpq or libssl, which only readperf annotate" \
		     "and postgres load: '$d'"
done
recommends=$(dpkg-deb -f "$(deb readperf)" Recommends)
for l in libcapstone libpq libssl; do
	grep -qE "(^|[ ,])${l}[0-9]" <<<"$recommends" ||
		fail "readperf does not recommend $l, which readperf annotate or postgres loads:" \
		     "'$recommends'"
done
echo "ok   contents: $checked_files files where they belong; shlibs, $(wc -l <"$work/symbols") symbols"

# --- 3. the packages extracted into a scratch root --------------------------
sysroot=$work/root
for p in readperf libreadperf0 libreadperf-dev; do
	dpkg -x "$(deb "$p")" "$sysroot" || fail "dpkg -x $p failed"
done
pcdir=$sysroot/$libdir/pkgconfig
# The packaged readperf.pc first, the machine's for its dependencies, not
# /usr/local's (an earlier make install).
pc() {
	PKG_CONFIG_SYSROOT_DIR=$sysroot \
	PKG_CONFIG_LIBDIR=$pcdir:/usr/lib/$multiarch/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig \
		pkg-config "$@"
}
cflags=(-std=c11 -O1 -g -Wall -Wextra -Werror)
example=$root/examples/hottest.c
data=$root/tests/golden/demo.perf.data
rp=$sysroot/usr/bin/readperf

got=$("$rp" --version 2>&1)
[ "$got" = "readperf version $version" ] || fail "the packaged readperf --version printed '$got'"

"$rp" report --no-children --sort sym -g none "$data" 2>"$work/report.err" | grep -v '^#' |
	sed -n '/[^ ]/{p;q}' | sed -E 's/^ *[0-9.]+% +//' >"$work/expected"
[ -s "$work/expected" ] || { cat "$work/report.err" >&2; fail "the packaged readperf report printed no row"; }

if ! pc --exists readperf 2>"$work/pc.err"; then
	cat "$work/pc.err" >&2
	fail "pkg-config does not find the packaged readperf.pc (and what it requires)"
else
	read -ra flags <<<"$(pc --cflags --libs readperf)"
	if ! "$CC" "${cflags[@]}" -o "$work/hottest" "$example" "${flags[@]}" 2>"$work/cc.err"; then
		cat "$work/cc.err" >&2
		fail "hottest.c does not build with the packages' pkg-config --cflags --libs readperf (${flags[*]})"
	elif ! readelf -d "$work/hottest" | grep -q "NEEDED.*\[libreadperf.so.$major\]"; then
		fail "hottest does not link libreadperf.so.$major"
	elif ! LD_LIBRARY_PATH=$sysroot/$libdir "$work/hottest" "$data" 5 >"$work/hottest.out" 2>"$work/hottest.err"; then
		cat "$work/hottest.err" >&2
		fail "hottest $data failed on the packaged library"
	else
		top=$(sed -n 1p "$work/hottest.out" | sed -E 's/^ *[0-9.]+% +[0-9]+ +//')
		if [ "$top" != "$(cat "$work/expected")" ]; then
			fail "hottest says '$top' is hottest; the packaged readperf report: '$(cat "$work/expected")'"
		else
			echo "ok   hottest on the packaged libreadperf.so.$major: $top, as the packaged readperf report"
		fi
	fi
	# A program's dependency, as a package of it would get it.
	mkdir -p "$work/shl/debian"
	cp "$root/debian/control" "$work/shl/debian/"
	if (cd "$work/shl" && dpkg-shlibdeps -O -S"$work/lib0" -l"$sysroot/$libdir" "$work/hottest") \
		>"$work/shlibdeps" 2>"$work/shlibdeps.err" &&
	   grep -q "libreadperf$major (>= $version)" "$work/shlibdeps"; then
		echo "ok   dpkg-shlibdeps: $(sed 's/^shlibs:Depends=//' "$work/shlibdeps")"
	else
		cat "$work/shlibdeps" "$work/shlibdeps.err" >&2
		fail "dpkg-shlibdeps does not make hottest depend on libreadperf$major (>= $version)"
	fi

	# Every object of libreadperf.a resolves with the libraries readperf.pc
	# names for it (Requires.private, Libs.private; the shared ones, as
	# Debian's libpq cannot link statically), and libreadperf-dev depends
	# on the package of each.
	reqs=$(pc --print-requires-private readperf | sed 's/[ <>=].*//')
	libs_private=$(sed -n 's/^Libs.private: *//p' "$pcdir/readperf.pc")
	# shellcheck disable=SC2086 # the module names and flags are words
	read -ra sflags <<<"$(pc --libs $reqs) $libs_private"
	read -ra pcflags <<<"$(pc --cflags readperf)"
	if ! "$CC" "${cflags[@]}" -o "$work/hottest-static" "$example" "${pcflags[@]}" \
		-Wl,--whole-archive "$sysroot/$libdir/libreadperf.a" -Wl,--no-whole-archive \
		"${sflags[@]}" 2>"$work/cc-static.err"; then
		head -20 "$work/cc-static.err" >&2
		fail "all of libreadperf.a does not link with what readperf.pc names (${sflags[*]})"
	elif ! "$work/hottest-static" "$data" 5 >"$work/hottest-static.out" 2>&1 ||
	     ! cmp -s "$work/hottest.out" "$work/hottest-static.out"; then
		fail "hottest on all of libreadperf.a does not print what it prints on libreadperf.so"
	else
		echo "ok   all of libreadperf.a links with what readperf.pc names: ${reqs//$'\n'/ } $libs_private"
	fi
	for m in $reqs; do
		pcfile=$(pc --path "$m" 2>/dev/null)
		owner=$(dpkg -S "$pcfile" 2>/dev/null | sed -n '1s/:.*//p')
		if [ -z "$owner" ]; then
			fail "readperf.pc requires $m, whose $pcfile no package installed here owns"
		elif ! depends_on "$owner"; then
			fail "readperf.pc requires $m ($owner), which libreadperf-dev does not depend on"
		fi
	done
	for l in $(tr ' ' '\n' <<<"$libs_private" | sed -n 's/^-l//p'); do
		case "$l" in m | c | pthread | dl | rt) continue ;; esac
		a=$("$CC" -print-file-name="lib$l.a")
		[ "$a" = "lib$l.a" ] && a=$("$CC" -print-file-name="lib$l.so")
		owner=$(dpkg -S "$(realpath "$a" 2>/dev/null || echo "$a")" 2>/dev/null | sed -n '1s/:.*//p')
		if [ -z "$owner" ]; then
			fail "readperf.pc's Libs.private names -l$l, which no package installed here provides"
		elif ! depends_on "$owner"; then
			fail "readperf.pc's Libs.private names -l$l ($owner), which libreadperf-dev does not depend on"
		fi
	done
fi

page=$sysroot/usr/share/man/man1/readperf-report.1.gz
if ! MANWIDTH=80 man -P cat -l "$page" >"$work/man.out" 2>"$work/man.err"; then
	cat "$work/man.err" >&2
	fail "man -l $page failed"
elif ! grep -q 'readperf-report' "$work/man.out" || ! grep -q 'SYNOPSIS' "$work/man.out"; then
	fail "man -l $page does not show the page (no readperf-report, no SYNOPSIS)"
fi

# --- 4. lintian ---------------------------------------------------------------
changes=$out/readperf_${version}_$arch.changes
lintian --fail-on error --no-tag-display-limit "$changes" >"$work/lintian" 2>"$work/lintian.err"
rc=$?
grep -E '^[EW]: ' "$work/lintian" | sed 's/^/    /' >"$work/lintian.tags"
if [ $rc -ne 0 ]; then
	cat "$work/lintian.err" >&2
	fail "lintian reports errors (status $rc):"
	cat "$work/lintian.tags" >&2
else
	echo "ok   lintian: no errors, $(grep -c '^    W' "$work/lintian.tags") warnings"
	cat "$work/lintian.tags"
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failures (scratch: $work)" >&2
	exit 1
fi
echo "ok   readperf, libreadperf0, libreadperf-dev $version: built, installed into a scratch root, used"
