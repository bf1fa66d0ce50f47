/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Victim bundles of the gang-aware actions (Volcano's actions/utils
 * bundle.go): a victim job's candidate tasks split into what it can give
 * up and stay gang-ready ("safe": the tasks above its minAvailable, above
 * each role's minimum when minAvailable covers the roles' minima, and at
 * most one ready sub-job per group above its minSubGroups), and the rest,
 * which can only go with the whole job ("whole").
 */
#ifndef VS_ACTIONS_BUNDLE_H
#define VS_ACTIONS_BUNDLE_H

#include "core/arena.h"
#include "core/cluster.h"

struct vs_session;
struct vs_queue;

struct vs_bundle {
	struct vs_job *job;
	struct vs_task **tasks;		/* lowest priority first, then by name */
	u32 nr;
	bool whole;
	struct vs_res local;		/* what its tasks hold */
	struct vs_res global;		/* whole: what every task of its job asks; safe: none */
};

/*
 * Volcano's CreateJobBundles: @tasks (of @job, sorted here) into at most
 * two bundles at @out, safe first. The number made; -ENOMEM.
 */
int vs_bundles_make(struct vs_session *ssn, struct vs_arena *arena, struct vs_job *job,
		    struct vs_task **tasks, u32 nr, struct vs_bundle *out);

/*
 * Volcano's SortBundlesForPreempt (@reclaimer NULL: victim jobs last in
 * job order first) and SortBundlesForReclaim (the victim queue order with
 * respect to @reclaimer first): safe before whole, then that order, then
 * the most of @need returned per resource of the job given up, then by
 * job and first task. -ENOMEM (from @arena) leaves them as they were.
 */
int vs_bundles_sort(struct vs_session *ssn, struct vs_arena *arena, struct vs_bundle *b, u32 nr,
		    const struct vs_res *need, const struct vs_queue *reclaimer);

/*
 * Volcano's bundleROI: the share of @need @b gives back (each resource
 * capped at what is needed), over the share of it the job gives up;
 * HUGE_VAL for a safe bundle.
 */
double vs_bundle_roi(const struct vs_bundle *b, const struct vs_res *need);

#endif /* VS_ACTIONS_BUNDLE_H */
