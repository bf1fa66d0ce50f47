// SPDX-License-Identifier: Apache-2.0
/*
 * What libvsnl keeps of its own beside the core's: the histogram bounds
 * the protocol describes (the client computes them from VS_HIST_A_MIN_US,
 * VS_HIST_A_MAX_US and the count, the core counts by them), and its error
 * carrier's prefix, which keeps the message's start when the two overflow.
 */
#include <errno.h>
#include <string.h>
#include <criterion/criterion.h>

#include "lib/sched_metrics.h"
#include "lib/vsnl.h"
#include "sched/metrics.h"

Test(client_metrics, the_client_computes_the_bounds_the_core_counts_by)
{
	const struct vs_hist_spec *specs[] = { &vs_hist_e2e, &vs_hist_action, &vs_hist_plugin };

	for (size_t s = 0; s < ARRAY_SIZE(specs); s++) {
		struct vsnl_hist_spec c = { .min_us = specs[s]->min_us,
					    .max_us = specs[s]->max_us, .nr = specs[s]->nr };

		for (u32 i = 0; i < c.nr; i++)
			cr_assert_eq(vsnl_hist_bound_ms(&c, i), vs_hist_bound_ms(specs[s], i),
				     "spec %zu bound %u", s, i);
	}
}

Test(client_metrics, an_error_prefix_goes_before_the_message_and_both_fit_or_are_cut)
{
	struct vsnl_err e = { 0 };
	char big[VSNL_ERR_MSG_MAX + 100];

	cr_assert_eq(vsnl_err_set(&e, EINVAL, "label %s: given twice", "a"), -EINVAL);
	vsnl_err_prefix(&e, "metric %s: ", "m");
	cr_assert_str_eq(e.msg, "metric m: label a: given twice");
	cr_assert_eq(e.err, -EINVAL);

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	vsnl_err_set(&e, ENOMEM, "%s", big);
	vsnl_err_prefix(&e, "p: ");
	cr_assert_eq(strlen(e.msg), sizeof(e.msg) - 1);
	cr_assert(!strncmp(e.msg, "p: xxx", 6), "%s", e.msg);
}
