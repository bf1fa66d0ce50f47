// SPDX-License-Identifier: Apache-2.0
/*
 * Victim bundles (actions/bundle.h), as Volcano's actions/utils/bundle.go
 * makes and orders them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "actions/bundle.h"
#include "sched/framework.h"
#include "sched/session.h"
#include "sched/subjob.h"

/* Lowest priority first, then by UID (ns/name; one job, one namespace). */
static int cmp_victim(const void *a, const void *b)
{
	const struct vs_task *l = *(struct vs_task *const *)a, *r = *(struct vs_task *const *)b;

	if (l->priority != r->priority)
		return l->priority < r->priority ? -1 : 1;
	return strcmp(l->name, r->name);
}

/* Whether a task counts as ready for its role's minimum (roleReady). */
static bool role_ready(const struct vs_task *t)
{
	if (vs_task_status_allocated(t->status) || t->status == VS_TASK_SUCCEEDED)
		return true;
	return t->status == VS_TASK_PENDING && vs_res_is_empty(t->req);
}

/* The role's place in job->min_task_member, or -1. */
static s64 role_min_at(const struct vs_job *job, const char *role)
{
	for (u32 i = 0; i < job->nr_min_task_member; i++)
		if (job->min_task_member[i].role == role)	/* interned */
			return i;
	return -1;
}

/* A sub-job's group: its policy's, the default one after them. */
static u32 group_of(const struct vs_job *job, const struct vs_subjob *sj)
{
	return sj->policy == VS_SUBJOB_DEFAULT ? job->nr_subgroups :
						 vs_subjob_group(job, sj->policy);
}

int vs_bundles_make(struct vs_session *ssn, struct vs_arena *arena, struct vs_job *job,
		    struct vs_task **tasks, u32 nr, struct vs_bundle *out)
{
	const struct vs_subjobs *sjs = job->nr_subgroups ? vs_subjobs_of(ssn, job) : NULL;
	s64 surplus = (s64)vs_job_ready_num(job) - job->min_member, *role_surplus = NULL;
	s64 *group_surplus = NULL;
	u32 roles_min = 0, nr_safe = 0, nr_whole = 0;
	bool enforce_roles, *broken = NULL;
	struct vs_task **safe, **whole;
	const struct vs_task *t;

	if (!nr)
		return 0;
	qsort(tasks, nr, sizeof(*tasks), cmp_victim);
	if (surplus < 0) {
		/* not gang-ready anyway: nothing more to break */
		out[0] = (struct vs_bundle) { .job = job, .tasks = tasks, .nr = nr };
		for (u32 i = 0; i < nr; i++)
			vs_res_add(&out[0].local, tasks[i]->req);
		return 1;
	}

	for (u32 i = 0; i < job->nr_min_task_member; i++)
		roles_min += job->min_task_member[i].min;
	enforce_roles = job->min_member >= roles_min;
	if (enforce_roles && job->nr_min_task_member) {
		role_surplus = vs_arena_calloc(arena, job->nr_min_task_member, sizeof(*role_surplus));
		if (!role_surplus)
			return -ENOMEM;
		list_for_each_entry(t, &job->tasks, job_node) {
			s64 r = role_min_at(job, t->role);

			if (r >= 0 && role_ready(t))
				role_surplus[r]++;
		}
		for (u32 i = 0; i < job->nr_min_task_member; i++)
			role_surplus[i] -= job->min_task_member[i].min;
	}
	if (sjs) {
		broken = vs_arena_calloc(arena, sjs->nr, sizeof(*broken));
		group_surplus = vs_arena_calloc(arena, job->nr_subgroups + 1,
						sizeof(*group_surplus));
		if (!broken || !group_surplus)
			return -ENOMEM;
		for (u32 i = 0; i < sjs->nr; i++) {
			if (vs_subjob_is_ready(&sjs->sj[i]))
				group_surplus[group_of(job, &sjs->sj[i])]++;
			else
				broken[i] = true;
		}
		for (u32 g = 0; g < job->nr_subgroups; g++)
			if (vs_subjob_group(job, g) == g)
				group_surplus[g] -= vs_subjob_group_min(job, g);
	}

	safe = vs_arena_alloc(arena, nr * sizeof(*safe));
	whole = vs_arena_alloc(arena, nr * sizeof(*whole));
	if (!safe || !whole)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		struct vs_task *task = tasks[i];
		s64 r = role_surplus ? role_min_at(job, task->role) : -1;
		bool role_safe = r < 0 || role_surplus[r] > 0;
		bool sub_safe = true;
		u32 s = 0;

		if (sjs) {
			const struct vs_subjob *sj = vs_subjob_of(ssn, task);

			sub_safe = false;
			if (sj) {
				s = (u32)(sj - sjs->sj);
				sub_safe = broken[s] || group_surplus[group_of(job, sj)] > 0;
			}
		}
		if (surplus > 0 && role_safe && sub_safe) {
			safe[nr_safe++] = task;
			surplus--;
			if (r >= 0)
				role_surplus[r]--;
			if (sjs && !broken[s]) {
				broken[s] = true;
				group_surplus[group_of(job, &sjs->sj[s])]--;
			}
		} else {
			whole[nr_whole++] = task;
		}
	}

	nr = 0;
	if (nr_safe) {
		out[nr] = (struct vs_bundle) { .job = job, .tasks = safe, .nr = nr_safe };
		for (u32 i = 0; i < nr_safe; i++)
			vs_res_add(&out[nr].local, safe[i]->req);
		nr++;
	}
	if (nr_whole) {
		out[nr] = (struct vs_bundle) { .job = job, .tasks = whole, .nr = nr_whole,
					       .whole = true };
		for (u32 i = 0; i < nr_whole; i++)
			vs_res_add(&out[nr].local, whole[i]->req);
		list_for_each_entry(t, &job->tasks, job_node)
			vs_res_add(&out[nr].global, t->req);
		nr++;
	}
	return (int)nr;
}

/* scoreAgainstNeed: the shares of @need that @res holds, each capped at 1 when @cap. */
static double score_against(const struct vs_res *res, const struct vs_res *need, bool cap)
{
	double score = 0;

	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		s64 n = vs_res_get(need, d), v = vs_res_get(res, d);

		if (n <= 0)
			continue;
		if (cap && v > n)
			v = n;
		score += (double)v / (double)n;
	}
	return score;
}

double vs_bundle_roi(const struct vs_bundle *b, const struct vs_res *need)
{
	double global = score_against(&b->global, need, false);

	if (global == 0)
		return HUGE_VAL;
	return score_against(&b->local, need, true) / global;
}

struct sort_ctx {
	struct vs_session *ssn;
	const struct vs_res *need;
	const struct vs_queue *reclaimer;
};

/* A bundle and its ROI, computed once for the sort. */
struct keyed {
	struct vs_bundle b;
	double roi;
};

static int cmp_bundles(const void *a, const void *b, void *arg)
{
	const struct keyed *l = a, *r = b;
	const struct sort_ctx *sc = arg;
	int c;

	if (l->b.whole != r->b.whole)
		return l->b.whole ? 1 : -1;
	if (l->b.job != r->b.job) {
		if (!sc->reclaimer) {
			/* the victim job order: the reverse of the job order */
			c = vs_ssn_job_order(sc->ssn, l->b.job, r->b.job);
			if (c)
				return c > 0 ? -1 : 1;
		} else if (l->b.job->queue != r->b.job->queue) {
			c = vs_ssn_victim_queue_order(sc->ssn, l->b.job->queue, r->b.job->queue,
						      sc->reclaimer);
			if (c)
				return c;
		}
	}
	if (l->roi != r->roi)
		return l->roi > r->roi ? -1 : 1;
	/* stableBundleLess: by job UID, then first task UID, then size */
	c = vs_cmp_ns_name(l->b.job->ns, l->b.job->name, r->b.job->ns, r->b.job->name);
	if (c)
		return c;
	c = strcmp(l->b.tasks[0]->name, r->b.tasks[0]->name);
	if (c)
		return c;
	return l->b.nr < r->b.nr ? -1 : l->b.nr > r->b.nr;
}

int vs_bundles_sort(struct vs_session *ssn, struct vs_arena *arena, struct vs_bundle *b, u32 nr,
		    const struct vs_res *need, const struct vs_queue *reclaimer)
{
	struct sort_ctx sc = { ssn, need, reclaimer };
	struct keyed *k;

	if (nr < 2)
		return 0;
	k = vs_arena_alloc(arena, nr * sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		k[i].b = b[i];
		k[i].roi = vs_bundle_roi(&b[i], need);
	}
	qsort_r(k, nr, sizeof(*k), cmp_bundles, &sc);
	for (u32 i = 0; i < nr; i++)
		b[i] = k[i].b;
	return 0;
}
