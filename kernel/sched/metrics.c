// SPDX-License-Identifier: Apache-2.0
/*
 * Volcano's scheduler metrics: histogram bounds and observations. The
 * per-action and per-plugin ones are indexed by the place of each in the
 * scheduler's registry (vs_registry_action_index()).
 */
#include <math.h>
#include <string.h>

#include "sched/metrics.h"

/* As pkg/scheduler/metrics/metrics.go declares them. */
const struct vs_hist_spec vs_hist_e2e = { .min_us = 1000, .max_us = 5000000, .nr = 20 };
const struct vs_hist_spec vs_hist_action = { .min_us = 1000, .max_us = 2000000, .nr = 20 };
const struct vs_hist_spec vs_hist_plugin = { .min_us = 100, .max_us = 100000, .nr = 15 };

/* ExponentialBucketsRange: min * (max / min)^(i / (nr - 1)), as client_golang computes it. */
double vs_hist_bound_ms(const struct vs_hist_spec *spec, u32 i)
{
	double min = spec->min_us / 1000.0, max = spec->max_us / 1000.0;
	double growth = pow(max / min, 1.0 / (double)(spec->nr - 1));

	return min * pow(growth, (double)i);
}

void vs_hist_observe(struct vs_hist *h, const struct vs_hist_spec *spec, u64 ns)
{
	double ms = (double)ns / 1e6;
	u32 i = 0;

	/* Bounds grow by the same factor: the first one not below @ms is its bucket. */
	while (i < spec->nr && ms > vs_hist_bound_ms(spec, i))
		i++;
	h->bucket[i]++;
	h->count++;
	h->sum_ns += ns;
}
