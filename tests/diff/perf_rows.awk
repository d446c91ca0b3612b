# perf_rows.awk: normalise the output of `perf report -t SEP` (and of
# `readperf report -t SEP`) into comparable rows.
#
#   awk -v sep=';' -f perf_rows.awk < report.txt
#
# - "# Samples: N of event 'NAME'" becomes a section marker "@event NAME";
#   every other line starting with '#' and every blank line is dropped;
# - each remaining line is split at SEP and the padding spaces around every
#   field are removed;
# - when the input holds at most one section marker, markers are dropped (a
#   single-event report needs none, so a reader that prints no header still
#   compares row for row); with several events they are kept, so rows are
#   compared per event section.
BEGIN {
	if (sep == "")
		sep = ";"
	n = 0
	markers = 0
}
/^# Samples: / {
	name = $0
	if (match(name, /of events? '.*'/)) {
		name = substr(name, RSTART, RLENGTH - 1)
		sub(/^of events? '/, "", name)
	} else {
		name = "?"
	}
	lines[++n] = "@event " name
	markers++
	next
}
/^#/ { next }
/^[ \t]*$/ { next }
{
	out = ""
	k = split($0, f, sep)
	for (i = 1; i <= k; i++) {
		v = f[i]
		sub(/^[ \t]+/, "", v)
		sub(/[ \t]+$/, "", v)
		out = (i == 1) ? v : out sep v
	}
	lines[++n] = out
}
END {
	for (i = 1; i <= n; i++) {
		if (markers <= 1 && substr(lines[i], 1, 7) == "@event ")
			continue
		print lines[i]
	}
}
