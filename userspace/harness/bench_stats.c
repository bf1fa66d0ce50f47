// SPDX-License-Identifier: Apache-2.0
/*
 * What vsbench's reports share: percentiles of measured samples, times
 * written as JSON milliseconds, and the FNV-1a fold that turns a run's
 * decisions into one number two runs can compare.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "harness/bench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void vsbench_sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double vsbench_percentile(const double *sorted, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);

	return sorted[rank ? rank - 1 : 0];
}

json_t *vsbench_json_ms(double s)
{
	return json_real(round(s * 1e9) / 1e6);
}

void vsbench_fold(u64 *h, const char *s)
{
	for (; *s; s++)
		*h = (*h ^ (u8)*s) * 0x100000001b3ULL;
	*h = (*h ^ 0xff) * 0x100000001b3ULL;	/* the end of a string */
}
