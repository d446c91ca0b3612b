#!/bin/bash
# build-deb.sh OUT: the Debian packages readperf, libreadperf0 and
# libreadperf-dev (debian/), built by `dpkg-buildpackage -b -us -uc` from a
# copy of this tree in OUT/readperf-VERSION, so that nothing is written into
# the tree itself; the .deb files (and the -dbgsym .ddeb, .buildinfo and
# .changes) end up in OUT.  The copy is what git tracks plus the files git
# does not ignore (the work in progress), or, outside a git checkout,
# everything but the build directories.  OUT is outside the tree or in a
# directory git ignores (build-deb/).
#
# The environment reaches dpkg-buildpackage: DEB_BUILD_OPTIONS
# (nocheck, parallel=N), DEB_BUILD_PROFILES (nocheck).  `make deb` and
# tests/install/run_deb.sh run it.
#
#   tools/build-deb.sh build-deb
set -eu -o pipefail

out=${1:?usage: build-deb.sh OUT}
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -SVersion)
mkdir -p "$out"
out=$(cd "$out" && pwd)

git_tree=0
if [ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" = "$root" ]; then
	git_tree=1
fi
case "$out/" in
"$root/")
	echo "build-deb.sh: OUT must not be the tree itself" >&2
	exit 2 ;;
"$root"/*)
	if [ $git_tree = 1 ] && ! git -C "$root" check-ignore -q "$out"; then
		echo "build-deb.sh: $out is in the tree and not ignored by git" >&2
		exit 2
	fi ;;
esac

src=$out/readperf-$version
rm -rf "$src"
mkdir -p "$src"
if [ $git_tree = 1 ]; then
	# Tracked and untracked-but-not-ignored files that exist (a tracked
	# file deleted in the work tree is not there to copy).
	# shellcheck disable=SC2016 # the inner shell expands $f
	git -C "$root" ls-files -z --cached --others --exclude-standard |
		(cd "$root" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		tar -C "$root" --null -T - -cf - | tar -C "$src" -xf -
else
	tar -C "$root" --exclude='./build*' --exclude=./demo-out --exclude='./obj-*' \
		--exclude="./${out#"$root"/}" -cf - . | tar -C "$src" -xf -
fi

cd "$src"
dpkg-buildpackage -b -us -uc
