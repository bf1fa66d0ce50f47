// SPDX-License-Identifier: Apache-2.0
/*
 * The minResources of a VolcanoJob's PodGroup (Volcano's calcPGMinResources
 * and the TasksPriority methods it calls): what the first minAvailable
 * replicas request, each its template's request and one pod, the task
 * groups taken by priority, higher first, equal ones in spec order. The
 * order is walked without sorting (there are few groups), so nothing here
 * allocates.
 */
#include "controllers/jobstate.h"

/* Does group @a come before @b: higher priority first, then spec order. */
static bool before(const s32 *prio, u32 a, u32 b)
{
	s32 pa = prio ? prio[a] : 0, pb = prio ? prio[b] : 0;

	return pa > pb || (pa == pb && a < b);
}

/* The group after @cur (-1: the first) in that order, or -1. */
static int next_group(const struct vs_vjob *vjob, const s32 *prio, int cur)
{
	int best = -1;

	for (u32 i = 0; i < vjob->nr_tasks; i++) {
		if (cur >= 0 && !before(prio, (u32)cur, i))
			continue;
		if (best < 0 || before(prio, i, (u32)best))
			best = (int)i;
	}
	return best;
}

#define for_each_group(i, vjob, prio) \
	for (i = next_group(vjob, prio, -1); i >= 0; i = next_group(vjob, prio, i))

/* CalTaskRequests: @n replicas of @vt, each its request and one pod. */
static void add_replicas(struct vs_res *out, const struct vs_vjob_task *vt, u32 n)
{
	struct vs_res one = vt->req, sum;

	if (!n)
		return;
	vs_res_set(&one, VS_RES_PODS, vs_res_get(&one, VS_RES_PODS) + 1);
	vs_res_clear(&sum);
	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		s64 v;

		if (!vs_res_has(&one, d))
			continue;
		v = vs_res_get(&one, d);
		vs_res_set(&sum, d, v > VS_RES_INF / n ? VS_RES_INF : v * n);
	}
	vs_res_add(out, &sum);
}

void vs_jc_calc_first_count(const struct vs_vjob *vjob, const s32 *prio, u32 count,
			    struct vs_res *out)
{
	int i;

	vs_res_clear(out);
	for_each_group(i, vjob, prio) {
		const struct vs_vjob_task *vt = &vjob->tasks[i];

		if (count <= vt->replicas) {
			add_replicas(out, vt, count);
			break;
		}
		add_replicas(out, vt, vt->replicas);
		count -= vt->replicas;
	}
}

void vs_jc_calc_pg_min(const struct vs_vjob *vjob, const s32 *prio, u32 count, struct vs_res *out)
{
	u32 have = 0, left;
	int i;

	/* every group's minAvailable, as far as @count goes */
	vs_res_clear(out);
	for_each_group(i, vjob, prio) {
		u32 n = vjob->tasks[i].min_available;

		if (count - have < n)
			n = count - have;
		add_replicas(out, &vjob->tasks[i], n);
		have += n;
		if (have >= count)
			return;
	}
	/* then the groups' spare replicas, higher priority first */
	left = count - have;
	for_each_group(i, vjob, prio) {
		const struct vs_vjob_task *vt = &vjob->tasks[i];
		u32 spare = vt->replicas - vt->min_available;

		if (!spare)
			continue;
		if (left >= spare) {
			add_replicas(out, vt, spare);
			left -= spare;
		} else {
			add_replicas(out, vt, left);
			left = 0;
		}
		if (!left)
			break;
	}
}

void vs_jobctl_min_resources(const struct vs_vjob *vjob, const s32 *prio, struct vs_res *out)
{
	u64 task_min = 0;

	for (u32 t = 0; t < vjob->nr_tasks; t++)
		task_min += vjob->tasks[t].min_available;
	if (vjob->min_available < task_min)
		vs_jc_calc_first_count(vjob, prio, vjob->min_available, out);
	else
		vs_jc_calc_pg_min(vjob, prio, vjob->min_available, out);
}
