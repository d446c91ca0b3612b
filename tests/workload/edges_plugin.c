/*
 * edges_plugin: the shared library tests/workload/edges.cc loads with
 * dlopen(): called through a function pointer, it calls back through
 * another, with a function inlined at -O2 between.
 *
 * Build: cc -O2 -g -fomit-frame-pointer -fPIC -shared -o edges_plugin.so \
 *            edges_plugin.c
 */
typedef double (*edges_cb)(double);

__attribute__((noinline)) double edges_plugin_leaf(double x)
{
	double s = 0;

	for (int i = 1; i < 2000; i++)
		s += (x + i) / (i + 0.5);
	return s;
}

static inline double edges_plugin_twice(double x)
{
	return edges_plugin_leaf(x) * 2;
}

double edges_plugin_entry(edges_cb cb, double x)
{
	return cb(edges_plugin_twice(x));
}
