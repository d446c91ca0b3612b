/* SPDX-License-Identifier: MIT */
/*
 * Spends its time in glibc's libm and libc (exp, log, sin, pow, memcpy,
 * strlen, printf into a buffer), whose multiarch wrapper units have
 * line-table rows binutils names after another file than libdw: for
 * tests/diff/run_srcline_glibc.sh.
 *
 *   glibc_lines [-t MS]   runs for MS milliseconds (default 800)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = 800, sum = 0;
	static char src[1 << 16], dst[1 << 16], line[256];
	int c;
	/* volatile: the calls stay calls */
	volatile double x = 0.5;

	while ((c = getopt(argc, argv, "t:")) != -1)
		if (c == 't')
			ms = atof(optarg);
	memset(src, 'a', sizeof(src) - 1);
	double end = now_ms() + ms;

	while (now_ms() < end) {
		for (int i = 0; i < 2000; i++) {
			double v = x + i * 1e-4;

			sum += exp(v) + log(v + 1) + sin(v) + pow(v, 1.5) + cos(v) + tan(v);
		}
		for (int i = 0; i < 64; i++) {
			memcpy(dst, src + i, sizeof(dst) - 64);
			sum += (double)strlen(src + i);
			sum += snprintf(line, sizeof(line), "%d %g %s", i, sum, "text");
		}
	}
	printf("%g\n", sum > 0 ? 1.0 : 0.0);
	return 0;
}
