// SPDX-License-Identifier: Apache-2.0
/*
 * vsctl explain --scores: where allocate would put a task now, and why
 * there. It lives with the actions because it predicates and splits the
 * candidates as allocate does (sched/explain.h declares it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/actions.h"
#include "sched/explain.h"
#include "sched/session.h"

struct scored {
	struct vs_node *node;
	u32 idx;			/* in the group: the tie-break, creation order */
	double total;
};

static int cmp_scored(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The index of @p among the session's plugins. */
static u32 plugin_idx(const struct vs_session *ssn, const struct vs_plugin *p)
{
	return (u32)(p - ssn->plugins);
}

/*
 * Score one gradient's candidates as allocate does (NodeOrder, then the
 * batch scorers normalised over exactly these nodes) and add a step for
 * each of the best @max, with every scoring plugin's part.
 */
static int score_group(struct vs_session *ssn, const struct vs_task *task,
		       struct vs_node **nodes, u32 nr, u32 max, const char *gradient,
		       struct vs_explain *ex)
{
	u32 np = ssn->nr_plugins ? ssn->nr_plugins : 1;
	double *part = vs_arena_calloc(ssn->arena, (size_t)np * nr + 1, sizeof(*part));
	double *tmp = vs_arena_alloc(ssn->arena, (nr + 1) * sizeof(*tmp));
	struct scored *s = vs_arena_alloc(ssn->arena, (nr + 1) * sizeof(*s));
	bool *scores = vs_arena_calloc(ssn->arena, np, sizeof(*scores));
	struct vs_plugin *p;

	if (!part || !tmp || !s || !scores)
		return -ENOMEM;
	for (u32 i = 0; i < ssn->ext[VS_EXT_NODE_ORDER].nr; i++) {
		p = ssn->ext[VS_EXT_NODE_ORDER].p[i];
		scores[plugin_idx(ssn, p)] = true;
		for (u32 n = 0; n < nr; n++)
			part[(size_t)plugin_idx(ssn, p) * nr + n] +=
				p->ops->node_order(ssn, p, task, nodes[n]);
	}
	for (u32 i = 0; i < ssn->ext[VS_EXT_BATCH_NODE_ORDER].nr; i++) {
		p = ssn->ext[VS_EXT_BATCH_NODE_ORDER].p[i];
		scores[plugin_idx(ssn, p)] = true;
		memset(tmp, 0, nr * sizeof(*tmp));
		p->ops->batch_node_order(ssn, p, task, nodes, nr, tmp);
		for (u32 n = 0; n < nr; n++)
			part[(size_t)plugin_idx(ssn, p) * nr + n] += tmp[n];
	}
	for (u32 n = 0; n < nr; n++) {
		s[n] = (struct scored){ .node = nodes[n], .idx = n };
		for (u32 k = 0; k < ssn->nr_plugins; k++)
			s[n].total += part[(size_t)k * nr + n];
	}
	qsort(s, nr, sizeof(*s), cmp_scored);
	for (u32 n = 0; n < nr && n < max; n++) {
		char line[1024];
		size_t off;

		off = (size_t)snprintf(line, sizeof(line), "Score %s: %g (%s", s[n].node->name,
				       s[n].total, gradient);
		for (u32 k = 0; k < ssn->nr_plugins && off < sizeof(line); k++)
			if (scores[k])
				off += (size_t)snprintf(line + off, sizeof(line) - off, ", %s %g",
							ssn->plugins[k].ops->name,
							part[(size_t)k * nr + s[n].idx]);
		vs_explain_step(ex, "%s)", line);
	}
	return 0;
}

int vs_explain_scores(struct vs_sched *sched, const struct vs_task *task, u32 max,
		      struct vs_explain *ex, struct vs_err *err)
{
	struct vs_node **idle, **future;
	struct vs_session *ssn;
	u32 ni = 0, nf = 0;
	int ret;

	ret = vs_session_open_inspect(sched, &ssn, err);
	if (ret)
		return ret;
	idle = vs_arena_alloc(ssn->arena, (ssn->nr_nodes + 1) * sizeof(*idle));
	future = vs_arena_alloc(ssn->arena, (ssn->nr_nodes + 1) * sizeof(*future));
	if (!idle || !future) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	for (u32 i = 0; i < ssn->nr_nodes; i++) {
		struct vs_fit_error fe = { .reason = { 0 } };
		struct vs_node *node = ssn->nodes[i];

		if (node == task->node || vs_allocate_predicate(ssn, task, node, &fe))
			continue;
		if (vs_res_less_equal(task->req, &node->idle, VS_DIM_ZERO))
			idle[ni++] = node;
		else
			future[nf++] = node;
	}
	vs_explain_step(ex, "Scores: %u of %u nodes pass the predicates (%u Idle fits, %u only "
			"FutureIdle); the best %u, as allocate scores each gradient:", ni + nf,
			ssn->nr_nodes, ni, nf, max);
	ret = score_group(ssn, task, idle, ni, max, "Idle", ex);
	if (!ret && ni < max)
		ret = score_group(ssn, task, future, nf, max - ni, "FutureIdle", ex);
	if (ret)
		vs_err_set(err, ENOMEM, "out of memory");
out:
	vs_session_close(ssn);
	return ret;
}
