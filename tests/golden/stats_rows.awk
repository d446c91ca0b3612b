# stats_rows.awk: record counts by type, one "TYPE,COUNT" line each, sorted
# by the caller.  Reads either
#   - the output of `perf report --stats` (its "Aggregated stats:" block), or
#   - a readperf stat.csv ("type,count" header, then one row per type),
# and drops zero counts and the TOTAL line.  perf prints the file-header
# record types without their HEADER_ prefix in some places and with it in
# others; both spellings map to the short one (ATTR, EVENT_TYPE,
# TRACING_DATA, BUILD_ID, FEATURE).
function canon(t) {
	gsub(/"/, "", t)
	if (t == "HEADER_ATTR" || t == "HEADER_EVENT_TYPE" ||
	    t == "HEADER_TRACING_DATA" || t == "HEADER_BUILD_ID" ||
	    t == "HEADER_FEATURE")
		t = substr(t, 8)
	return t
}
/^Aggregated stats:/ { mode = "perf"; next }
mode == "perf" && /stats:$/ { mode = "done"; next }
mode == "perf" && / events: / {
	if ($1 != "TOTAL" && $3 + 0 > 0)
		print canon($1) "," $3
	next
}
mode == "" && NR == 1 && /^"?type"?,/ { mode = "csv"; next }
mode == "csv" && NF > 0 {
	n = split($0, f, ",")
	c = f[n]
	gsub(/[" \r]/, "", c)
	if (c + 0 > 0)
		print canon(f[1]) "," c
}
