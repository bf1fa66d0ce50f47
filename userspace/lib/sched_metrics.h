/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scheduler's metrics under Volcano's names, as Prometheus reads them:
 * what `vsctl stats --prometheus` prints and vskube serves on its /metrics
 * beside its own (Documentation/vsctl.md, "Metrics: stats").
 *
 * vschedd keeps counters and histograms (kernel/sched/metrics.h) and
 * answers them to VS_CMD_STATS_GET; the queues' gauges come from a dump
 * of the queues. Both are asked for on the caller's connection and turned
 * into families of a registry (lib/prom.h), whose series are the queues of
 * the moment, so the registry is a fresh one for each look:
 *
 *	struct vsnl_prom_reg *reg = vsnl_prom_reg_new();
 *
 *	if (!vsnl_sched_metrics(c, reg, &err))
 *		text = vsnl_prom_render(reg, 0, &len);
 *	vsnl_prom_reg_free(reg);
 */
#ifndef VSNL_SCHED_METRICS_H
#define VSNL_SCHED_METRICS_H

#include <stdbool.h>
#include <jansson.h>

#include "lib/prom.h"
#include "lib/vsnl.h"

/*
 * VS_CMD_STATS_GET on @c: the daemon's VS_A_STATS as JSON (lib/render.h)
 * in *@stats, the caller's to json_decref(). 0, or a negative errno with
 * @err saying why (a reply without statistics is -EPROTO).
 */
int vsnl_stats_get(struct vsnl *c, json_t **stats, struct vsnl_err *err);

/*
 * Ask @c for the statistics and the queues and register the scheduler's
 * families in @reg, which holds none of them yet: latency histograms
 * (volcano_e2e_scheduling_latency_milliseconds, ..._action_..., ...),
 * schedule attempts, evictions, preemption, unschedulable counts, and per
 * queue its resources, share, weight, overused and PodGroups by phase. 0,
 * or a negative errno with @err saying why; @reg may then hold some.
 */
int vsnl_sched_metrics(struct vsnl *c, struct vsnl_prom_reg *reg, struct vsnl_err *err);

/*
 * A histogram's buckets as the protocol describes them (VS_HIST_A_MIN_US,
 * VS_HIST_A_MAX_US and the number of buckets before +Inf), and bound @i of
 * them in milliseconds: Prometheus' ExponentialBucketsRange, the formula
 * the daemon counts by (kernel/sched/metrics.c keeps its own: the two
 * sides share only uapi/, and the formula is the protocol's).
 */
struct vsnl_hist_spec {
	u32 min_us, max_us;
	u32 nr;			/* 2..VSNL_PROM_BUCKETS_MAX */
};

double vsnl_hist_bound_ms(const struct vsnl_hist_spec *spec, u32 i);

/*
 * The bounds of one histogram of the statistics ({"name", "labels",
 * "minUs", "maxUs", "count", "sumNs", "buckets"}) in @spec; false when the
 * object describes none the registry can hold.
 */
bool vsnl_hist_spec(const json_t *h, struct vsnl_hist_spec *spec);

#endif /* VSNL_SCHED_METRICS_H */
