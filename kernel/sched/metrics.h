/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Volcano's scheduler metrics (pkg/scheduler/metrics), kept by the core
 * as numbers that cost a store to update: the latency histograms of the
 * whole cycle, of opening a session, of each action and of each plugin's
 * OnSessionOpen and OnSessionClose; schedule attempts by result;
 * preemption attempts and victims; eviction transactions by action; the
 * jobs and tasks the last cycle left unschedulable. VS_CMD_STATS_GET
 * carries them, and `vsctl stats --prometheus` names them as Volcano does
 * (volcano_e2e_scheduling_latency_milliseconds, ...).
 *
 * A histogram has Prometheus' ExponentialBucketsRange(min, max, n) upper
 * bounds in milliseconds, as Volcano declares each one; an observation
 * lands in the first bucket whose bound it does not exceed, or past the
 * last (+Inf). Buckets count observations, not cumulatively: the
 * exposition format's cumulative counts are the reader's sums.
 */
#ifndef VS_SCHED_METRICS_H
#define VS_SCHED_METRICS_H

#include <time.h>

#include "core/compiler.h"

#define VS_HIST_BUCKETS_MAX	30	/* bounds of one histogram, +Inf aside */
#define VS_METRICS_ACTIONS_MAX	8	/* the first actions of the scheduler's registry */
#define VS_METRICS_PLUGINS_MAX	16	/* the first plugins of its registry */

/* The bounds of a histogram: ExponentialBucketsRange(min_us / 1000, max_us / 1000, nr). */
struct vs_hist_spec {
	u32 min_us, max_us;
	u32 nr;			/* 2..VS_HIST_BUCKETS_MAX */
};

/* Volcano's buckets, by metric. */
extern const struct vs_hist_spec vs_hist_e2e;		/* e2e, open session: 1..5000 ms, 20 */
extern const struct vs_hist_spec vs_hist_action;	/* 1..2000 ms, 20 */
extern const struct vs_hist_spec vs_hist_plugin;	/* 0.1..100 ms, 15 */

struct vs_hist {
	u64 count;
	u64 sum_ns;
	u64 bucket[VS_HIST_BUCKETS_MAX + 1];	/* [spec->nr]: above the last bound */
};

/* Bound @i of @spec in milliseconds, as Prometheus' client computes it. */
double vs_hist_bound_ms(const struct vs_hist_spec *spec, u32 i);

void vs_hist_observe(struct vs_hist *h, const struct vs_hist_spec *spec, u64 ns);

/* schedule_attempts_total's results. */
enum vs_attempt_result {
	VS_ATTEMPT_SCHEDULED,		/* placed by a committed decision */
	VS_ATTEMPT_UNSCHEDULABLE,	/* tried, and left Pending with a fit error */
	VS_ATTEMPT_NR
};

/* eviction_transactions_total's actions. */
enum vs_eviction_action {
	VS_EVICTION_PREEMPT,
	VS_EVICTION_RECLAIM,
	VS_EVICTION_GANG_PREEMPT,
	VS_EVICTION_GANG_RECLAIM,
	VS_EVICTION_NR
};

struct vs_metrics {
	struct vs_hist e2e;			/* open, actions and close of a cycle */
	struct vs_hist open_session;
	/* By place in the scheduler's registry (vs_registry_action_index()...). */
	struct vs_hist action[VS_METRICS_ACTIONS_MAX];
	struct vs_hist plugin_open[VS_METRICS_PLUGINS_MAX];
	struct vs_hist plugin_close[VS_METRICS_PLUGINS_MAX];

	u64 attempts[VS_ATTEMPT_NR];
	u64 preemption_attempts;		/* nodes preempt tried to free for a task */
	u64 preemption_victims;			/* gauge: the last attempt's candidates */
	u64 eviction_transactions[VS_EVICTION_NR];	/* committed with an eviction */

	/* Gauges of the last cycle, gang's OnSessionClose. */
	u64 unschedulable_jobs;
	u64 unschedulable_tasks;		/* summed over those jobs: minMember short */
};


static inline u64 vs_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

#endif /* VS_SCHED_METRICS_H */
