// SPDX-License-Identifier: Apache-2.0
/*
 * A session's sub-jobs (sched/subjob.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/affinity.h"
#include "sched/session.h"
#include "sched/subjob.h"

/* Longer ids are hashed, as Volcano's getSubJobID does. */
#define SUBJOB_ID_MAX	128
/* matchLabelKeys a task's sub-job is found by without a search */
#define VS_SUBJOB_KEYS_MAX	16

/*
 * The values that put @task in a sub-job of @sg (interned, into @values,
 * sg->nr_match_label_keys of them), or false: Volcano's
 * getSubJobMatchValues giving none.
 */
static bool policy_takes(const struct vs_subgroup_policy *sg, const struct vs_task *task,
			 const char **values)
{
	if (sg->selector && !vs_label_selector_match(sg->selector, task->labels))
		return false;
	if (!sg->nr_match_label_keys)
		return false;	/* no values: not a sub-job of this policy */
	for (u32 k = 0; k < sg->nr_match_label_keys; k++) {
		values[k] = vs_labels_get(task->labels, sg->match_label_keys[k]);
		if (!values[k] || !*values[k])
			return false;
	}
	return true;
}

/* The policy that takes @task (VS_SUBJOB_DEFAULT: none), its values in @values. */
static u32 policy_of(const struct vs_job *job, const struct vs_task *task, const char **values)
{
	for (u32 i = 0; i < job->nr_subgroups; i++)
		if (policy_takes(&job->subgroups[i], task, values))
			return i;
	return VS_SUBJOB_DEFAULT;
}

/* strconv.Atoi of a label value: digits within int64, else 0. */
static s64 match_index(const char *v)
{
	u64 n = 0;

	if (!*v)
		return 0;
	for (const char *c = v; *c; c++) {
		if (*c < '0' || *c > '9' || n > ((u64)INT64_MAX - (u64)(*c - '0')) / 10)
			return 0;
		n = n * 10 + (u64)(*c - '0');
	}
	return (s64)n;
}

/* Kubernetes' rand.SafeEncodeString of the decimal FNV-1a hash of @id. */
static void hashed_id(const char *id, char *out, size_t size)
{
	static const char alphanums[] = "bcdfghjklmnpqrstvwxz2456789";
	u32 h = 2166136261u;
	char dec[16];

	for (const unsigned char *c = (const unsigned char *)id; *c; c++) {
		h ^= *c;
		h *= 16777619u;
	}
	snprintf(dec, sizeof(dec), "%u", h);
	for (size_t i = 0; dec[i] && i + 1 < size; i++) {
		out[i] = alphanums[(unsigned char)dec[i] % (sizeof(alphanums) - 1)];
		out[i + 1] = '\0';
	}
}

static char *arena_printf(struct vs_arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *arena_printf(struct vs_arena *arena, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = n < 0 ? NULL : vs_arena_alloc(arena, (size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* Volcano's SubJobID of @job's default sub-job (@sg NULL) or of @sg's with @values. */
static const char *subjob_uid(struct vs_arena *arena, const struct vs_job *job,
			      const struct vs_subgroup_policy *sg, const char *const *values)
{
	size_t len = 1, at = 0;
	char *id;

	if (!sg)
		return arena_printf(arena, "%s/%s", job->ns, job->name);
	for (u32 k = 0; k < sg->nr_match_label_keys; k++)
		len += strlen(values[k]) + 1;
	id = vs_arena_alloc(arena, len);
	if (!id)
		return NULL;
	for (u32 k = 0; k < sg->nr_match_label_keys; k++)
		at += (size_t)snprintf(id + at, len - at, "%s%s", k ? "-" : "", values[k]);
	if (at > SUBJOB_ID_MAX)
		hashed_id(id, id, len);	/* ten letters: it fits where the id did */
	return arena_printf(arena, "%s/%s/%s-%s", job->ns, job->name, sg->name, id);
}

static bool same_values(const struct vs_subjob *sj, u32 policy, const char *const *values)
{
	if (sj->policy != policy)
		return false;
	for (u32 k = 0; k < sj->nr_values; k++)
		if (sj->values[k] != values[k])	/* interned */
			return false;
	return true;
}

/* @job's sub-jobs, in the order their first tasks came, the default one last. */
static int build_one(struct vs_session *ssn, struct vs_job *job, struct vs_subjobs **out)
{
	struct vs_arena *arena = ssn->arena;
	struct vs_subjobs *sjs;
	struct vs_task *task;
	const char **values;
	u32 max_keys = 0, *of, n = 0, def = VS_SUBJOB_DEFAULT;

	for (u32 i = 0; i < job->nr_subgroups; i++)
		if (job->subgroups[i].nr_match_label_keys > max_keys)
			max_keys = job->subgroups[i].nr_match_label_keys;
	sjs = vs_arena_zalloc(arena, sizeof(*sjs));
	values = vs_arena_alloc(arena, (max_keys + 1) * sizeof(*values));
	of = vs_arena_alloc(arena, (job->nr_tasks + 1) * sizeof(*of));
	/* at most a sub-job a task, and the default */
	if (sjs)
		sjs->sj = vs_arena_calloc(arena, job->nr_tasks + 1, sizeof(*sjs->sj));
	if (!sjs || !values || !of || !sjs->sj)
		return -ENOMEM;

	/* Which sub-job each task is in; a sub-job per new policy and values. */
	list_for_each_entry(task, &job->tasks, job_node) {
		u32 policy = policy_of(job, task, values), s;
		struct vs_subjob *sj;

		for (s = 0; s < sjs->nr; s++)
			if (same_values(&sjs->sj[s], policy, values))
				break;
		if (s == sjs->nr) {
			sj = &sjs->sj[sjs->nr++];
			sj->job = job;
			sj->policy = policy;
			sj->min_available = 1;
			if (policy == VS_SUBJOB_DEFAULT) {
				def = s;
				sj->nt = job->net_topology.set ? &job->net_topology : NULL;
			} else {
				const struct vs_subgroup_policy *sg = &job->subgroups[policy];

				sj->nr_values = sg->nr_match_label_keys;
				sj->values = vs_arena_alloc(arena, sj->nr_values * sizeof(*sj->values));
				if (!sj->values)
					return -ENOMEM;
				memcpy(sj->values, values, sj->nr_values * sizeof(*sj->values));
				sj->min_available = sg->sub_group_size;
				sj->nt = sg->nt.set ? &sg->nt : NULL;
				sj->match_index = match_index(values[0]);
			}
			sj->uid = subjob_uid(arena, job, policy == VS_SUBJOB_DEFAULT ? NULL :
					     &job->subgroups[policy], values);
			if (!sj->uid)
				return -ENOMEM;
		}
		sj = &sjs->sj[s];
		of[n++] = s;
		sj->nr_tasks++;
		if (task->priority > sj->priority)
			sj->priority = task->priority;
	}
	for (u32 s = 0; s < sjs->nr; s++) {
		sjs->sj[s].tasks = vs_arena_alloc(arena, sjs->sj[s].nr_tasks * sizeof(struct vs_task *));
		if (!sjs->sj[s].tasks && sjs->sj[s].nr_tasks)
			return -ENOMEM;
		sjs->sj[s].nr_tasks = 0;
	}
	n = 0;
	list_for_each_entry(task, &job->tasks, job_node) {
		struct vs_subjob *sj = &sjs->sj[of[n++]];

		sj->tasks[sj->nr_tasks++] = task;
	}
	/* the default sub-job last */
	if (def != VS_SUBJOB_DEFAULT && def != sjs->nr - 1) {
		struct vs_subjob d = sjs->sj[def];

		memmove(&sjs->sj[def], &sjs->sj[def + 1], (sjs->nr - 1 - def) * sizeof(d));
		sjs->sj[sjs->nr - 1] = d;
	}
	*out = sjs;
	return 0;
}

int vs_subjobs_build(struct vs_session *ssn)
{
	ssn->subjobs = NULL;
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_job *job = ssn->jobs[i];
		int ret;

		if (!job->nr_subgroups)
			continue;
		if (!ssn->subjobs) {
			ssn->subjobs = vs_arena_calloc(ssn->arena, ssn->nr_jobs, sizeof(*ssn->subjobs));
			if (!ssn->subjobs)
				return -ENOMEM;
		}
		ret = build_one(ssn, job, &ssn->subjobs[i]);
		if (ret)
			return ret;
	}
	return 0;
}

const struct vs_subjobs *vs_subjobs_of(const struct vs_session *ssn, const struct vs_job *job)
{
	if (!ssn->subjobs || job->sidx == VS_SIDX_NONE || job->sidx >= ssn->nr_jobs ||
	    ssn->jobs[job->sidx] != job)
		return NULL;
	return ssn->subjobs[job->sidx];
}

struct vs_subjob *vs_subjob_of(const struct vs_session *ssn, const struct vs_task *task)
{
	const struct vs_subjobs *sjs = vs_subjobs_of(ssn, task->job);
	const char *values[VS_SUBJOB_KEYS_MAX];
	const struct vs_job *job = task->job;
	u32 policy;

	if (!sjs)
		return NULL;
	for (u32 i = 0; i < job->nr_subgroups; i++)
		if (job->subgroups[i].nr_match_label_keys > VS_SUBJOB_KEYS_MAX)
			goto search;
	policy = policy_of(job, task, values);
	for (u32 s = 0; s < sjs->nr; s++)
		if (same_values(&sjs->sj[s], policy, values))
			return &sjs->sj[s];
	return NULL;
search:
	/* more keys than the stack holds: look for the task itself */
	for (u32 s = 0; s < sjs->nr; s++)
		for (u32 t = 0; t < sjs->sj[s].nr_tasks; t++)
			if (sjs->sj[s].tasks[t] == task)
				return &sjs->sj[s];
	return NULL;
}

bool vs_subjob_each_task(const struct vs_job *job, const struct vs_subjob *sj,
			 bool (*fn)(const struct vs_task *task, void *arg), void *arg)
{
	const struct vs_task *t;

	if (sj) {
		for (u32 i = 0; i < sj->nr_tasks; i++)
			if (!fn(sj->tasks[i], arg))
				return false;
		return true;
	}
	list_for_each_entry(t, &job->tasks, job_node)
		if (!fn(t, arg))
			return false;
	return true;
}

static u32 count(const struct vs_subjob *sj, u32 mask, bool best_effort_pending)
{
	u32 n = 0;

	for (u32 t = 0; t < sj->nr_tasks; t++) {
		const struct vs_task *task = sj->tasks[t];

		n += (mask & VS_TASK_BIT(task->status)) ||
		     (best_effort_pending && task->status == VS_TASK_PENDING && task->best_effort);
	}
	return n;
}

#define READY_MASK	(VS_TASK_BIT(VS_TASK_BOUND) | VS_TASK_BIT(VS_TASK_BINDING) | \
			 VS_TASK_BIT(VS_TASK_RUNNING) | VS_TASK_BIT(VS_TASK_ALLOCATED) | \
			 VS_TASK_BIT(VS_TASK_SUCCEEDED))

u32 vs_subjob_ready_num(const struct vs_subjob *sj)
{
	return count(sj, READY_MASK, false);
}

u32 vs_subjob_waiting_num(const struct vs_subjob *sj)
{
	return count(sj, VS_TASK_BIT(VS_TASK_PIPELINED), false);
}

u32 vs_subjob_allocated_num(const struct vs_subjob *sj)
{
	return count(sj, VS_TASK_ALLOCATED_MASK, false);
}

bool vs_subjob_is_ready(const struct vs_subjob *sj)
{
	return count(sj, READY_MASK, true) >= sj->min_available;
}

bool vs_subjob_is_pipelined(const struct vs_subjob *sj)
{
	return count(sj, READY_MASK | VS_TASK_BIT(VS_TASK_PIPELINED), true) >= sj->min_available;
}

u32 vs_subjob_group(const struct vs_job *job, u32 policy)
{
	for (u32 i = 0; i < policy; i++)
		if (job->subgroups[i].name == job->subgroups[policy].name)	/* interned */
			return i;
	return policy;
}

u32 vs_subjob_group_min(const struct vs_job *job, u32 group)
{
	u32 min = 0;

	for (u32 i = group; i < job->nr_subgroups; i++)
		if (job->subgroups[i].name == job->subgroups[group].name)
			min = job->subgroups[i].min_sub_groups;
	return min;
}

int vs_subjobs_required(struct vs_session *ssn, struct vs_arena *arena,
			const struct vs_job *job, bool *required)
{
	const struct vs_subjobs *sjs = vs_subjobs_of(ssn, job);
	struct vs_subjob **unready;
	u32 *count, n = 0;

	if (!sjs)
		return 0;
	unready = vs_arena_alloc(arena, (sjs->nr + 1) * sizeof(*unready));
	count = vs_arena_calloc(arena, job->nr_subgroups + 1, sizeof(*count));
	if (!unready || !count)
		return -ENOMEM;
	for (u32 i = 0; i < sjs->nr; i++) {
		struct vs_subjob *sj = &sjs->sj[i];

		required[i] = false;
		if (!vs_ssn_subjob_ready(ssn, sj))
			unready[n++] = sj;
		else if (sj->policy != VS_SUBJOB_DEFAULT)
			count[vs_subjob_group(job, sj->policy)]++;
	}
	/* a few sub-jobs: an insertion sort, by the session's order */
	for (u32 i = 1; i < n; i++) {
		struct vs_subjob *x = unready[i];
		u32 j = i;

		for (; j && vs_ssn_subjob_order(ssn, x, unready[j - 1]) < 0; j--)
			unready[j] = unready[j - 1];
		unready[j] = x;
	}
	for (u32 i = 0; i < n; i++) {
		u32 g;

		if (unready[i]->policy == VS_SUBJOB_DEFAULT)
			continue;
		g = vs_subjob_group(job, unready[i]->policy);
		if (count[g] < vs_subjob_group_min(job, g)) {
			required[unready[i] - sjs->sj] = true;
			count[g]++;
		}
	}
	return 0;
}

/* Each group with a minimum has that many sub-jobs for which @cond holds (NULL: any). */
static bool check(const struct vs_session *ssn, const struct vs_job *job,
		  bool (*cond)(const struct vs_subjob *sj))
{
	const struct vs_subjobs *sjs = vs_subjobs_of(ssn, job);

	if (!sjs)
		return true;
	for (u32 g = 0; g < job->nr_subgroups; g++) {
		u32 min, n = 0;

		if (vs_subjob_group(job, g) != g || !(min = vs_subjob_group_min(job, g)))
			continue;
		for (u32 s = 0; s < sjs->nr; s++) {
			const struct vs_subjob *sj = &sjs->sj[s];

			if (sj->policy != VS_SUBJOB_DEFAULT && vs_subjob_group(job, sj->policy) == g &&
			    (!cond || cond(sj)))
				n++;
		}
		if (n < min)
			return false;
	}
	return true;
}

bool vs_job_check_subjob_valid(const struct vs_session *ssn, const struct vs_job *job)
{
	return check(ssn, job, NULL);
}

bool vs_job_check_subjob_ready(const struct vs_session *ssn, const struct vs_job *job)
{
	return check(ssn, job, vs_subjob_is_ready);
}

bool vs_job_check_subjob_pipelined(const struct vs_session *ssn, const struct vs_job *job)
{
	return check(ssn, job, vs_subjob_is_pipelined);
}
