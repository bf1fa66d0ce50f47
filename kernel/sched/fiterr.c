// SPDX-License-Identifier: Apache-2.0
/*
 * Fit errors and task notes: see fiterr.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/fiterr.h"
#include "sched/session.h"

struct vs_fit_errors *vs_fit_errors_new(struct vs_session *ssn)
{
	return vs_arena_zalloc(ssn->arena, sizeof(struct vs_fit_errors));
}

static char *arena_strdup(struct vs_session *ssn, const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = vs_arena_alloc(ssn->arena, n);

	if (copy)
		memcpy(copy, s, n);
	return copy;
}

int vs_fit_errors_add(struct vs_session *ssn, struct vs_fit_errors *fe, const char *reason)
{
	struct vs_fit_reason *r;

	fe->nr_nodes++;
	for (u32 i = 0; i < fe->nr_reasons; i++)
		if (!strcmp(fe->reasons[i].reason, reason)) {
			fe->reasons[i].count++;
			return 0;
		}
	if (fe->nr_reasons == fe->cap_reasons) {
		u32 cap = fe->cap_reasons ? 2 * fe->cap_reasons : 4;

		r = vs_arena_alloc(ssn->arena, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		if (fe->nr_reasons)
			memcpy(r, fe->reasons, fe->nr_reasons * sizeof(*r));
		fe->reasons = r;
		fe->cap_reasons = cap;
	}
	r = &fe->reasons[fe->nr_reasons];
	r->reason = arena_strdup(ssn, reason);
	if (!r->reason)
		return -ENOMEM;
	r->count = 1;
	fe->nr_reasons++;
	return 0;
}

int vs_fit_errors_set_error(struct vs_session *ssn, struct vs_fit_errors *fe, const char *msg)
{
	fe->err = arena_strdup(ssn, msg);
	return fe->err ? 0 : -ENOMEM;
}

/* ---- Go's histogram: "count name" strings, sorted, joined by ", " ---- */

struct histogram {
	char **items;
	u32 nr;
};

static void hist_add(struct histogram *h, u32 count, const char *name)
{
	char *s;

	if (asprintf(&s, "%u %s", count, name) < 0)
		return;
	h->items[h->nr++] = s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append the sorted histogram to @buf at @off; frees it. */
static int hist_flush(struct histogram *h, char *buf, size_t len, int off)
{
	qsort(h->items, h->nr, sizeof(*h->items), cmp_str);
	for (u32 i = 0; i < h->nr; i++) {
		size_t at = (size_t)off < len ? (size_t)off : len;

		off += snprintf(buf + at, len - at, "%s%s", i ? ", " : "", h->items[i]);
		free(h->items[i]);
	}
	free(h->items);
	h->items = NULL;
	h->nr = 0;
	return off;
}

static bool hist_init(struct histogram *h, u32 cap)
{
	h->nr = 0;
	h->items = calloc(cap ? cap : 1, sizeof(*h->items));
	return h->items != NULL;
}

/* snprintf at @off of @buf, which may already be full. */
#define APPEND(buf, len, off, ...)						\
	((off) += snprintf((buf) + ((size_t)(off) < (len) ? (size_t)(off) : (len)),	\
			   (size_t)(off) < (len) ? (len) - (size_t)(off) : 0, __VA_ARGS__))

int vs_fit_errors_format(const struct vs_fit_errors *fe, char *buf, size_t len)
{
	struct histogram h;
	int off = 0;

	if (fe->err)
		APPEND(buf, len, off, "%s", fe->err);
	else
		APPEND(buf, len, off, "0/%u nodes are unavailable", fe->nr_nodes);
	if (!fe->nr_nodes)
		return off;
	if (!hist_init(&h, fe->nr_reasons))
		return off;
	for (u32 i = 0; i < fe->nr_reasons; i++)
		hist_add(&h, fe->reasons[i].count, fe->reasons[i].reason);
	APPEND(buf, len, off, ": ");
	off = hist_flush(&h, buf, len, off);
	APPEND(buf, len, off, ".");
	return off;
}

struct vs_task_note *vs_session_task_note(struct vs_session *ssn, struct vs_task *task)
{
	struct vs_task_note *n = task->note;

	if (n)
		return n;
	n = vs_arena_zalloc(ssn->arena, sizeof(*n));
	if (!n)
		return NULL;
	n->task = task;
	n->next = ssn->notes;
	ssn->notes = n;
	task->note = n;
	return n;
}

int vs_session_set_fit_errors(struct vs_session *ssn, struct vs_task *task,
			      struct vs_fit_errors *fe)
{
	struct vs_task_note *n = vs_session_task_note(ssn, task);

	if (!n)
		return -ENOMEM;
	n->fit = fe;
	return 0;
}

void vs_session_note_discard(struct vs_session *ssn, struct vs_task *task)
{
	struct vs_task_note *n = vs_session_task_note(ssn, task);

	if (!n)
		return;		/* the message loses a detail, nothing else */
	n->has_last_tx = true;
	n->last_tx = task->status;
	n->last_tx_node = task->node;
}

void vs_session_note_pipeline(struct vs_session *ssn, struct vs_task *task,
			      struct vs_node *node)
{
	struct vs_task_note *n = vs_session_task_note(ssn, task);

	if (n)
		n->committed_pipeline = node;
}

const char *vs_task_scheduling_reason(const struct vs_task *task)
{
	return vs_task_last_tx_status(task) == VS_TASK_ALLOCATED ? "Schedulable" : "Unschedulable";
}

int vs_job_fit_error(const struct vs_job *job, char *buf, size_t len)
{
	const struct vs_task *t;
	struct histogram h;
	u32 sched = 0, unsched = 0;
	int off = 0;

	APPEND(buf, len, off, "%s, ", vs_job_is_ready(job) ? "pod group is ready"
							 : "pod group is not ready");
	if (hist_init(&h, VS_TASK_NR_STATUS + 1)) {
		for (int s = 0; s < VS_TASK_NR_STATUS; s++)
			if (job->nr_by_status[s])
				hist_add(&h, job->nr_by_status[s], vs_task_status_name(s));
		hist_add(&h, job->min_member, "minAvailable");
		off = hist_flush(&h, buf, len, off);
	}

	list_for_each_entry(t, &job->by_status[VS_TASK_PENDING], status_node) {
		if (vs_task_scheduling_reason(t)[0] == 'S')
			sched++;
		else
			unsched++;
	}
	if ((sched || unsched) && hist_init(&h, 2)) {
		APPEND(buf, len, off, "; Pending: ");
		if (sched)
			hist_add(&h, sched, "Schedulable");
		if (unsched)
			hist_add(&h, unsched, "Unschedulable");
		off = hist_flush(&h, buf, len, off);
	}

	/* Volcano walks a map here; vsched takes the first task in creation order. */
	list_for_each_entry(t, &job->tasks, job_node) {
		if (!t->note || !t->note->fit)
			continue;
		APPEND(buf, len, off, ". Origin reason is %s: ", t->name);
		off += vs_fit_errors_format(t->note->fit, buf + ((size_t)off < len ? (size_t)off : len),
					    (size_t)off < len ? len - (size_t)off : 0);
		break;
	}
	return off;
}

void vs_session_drop_notes(struct vs_session *ssn)
{
	for (struct vs_task_note *n = ssn->notes; n; n = n->next) {
		struct vs_task *t = n->task;

		if (n->committed_pipeline && t->status == VS_TASK_PIPELINED &&
		    t->node == n->committed_pipeline)
			vs_task_unplace(ssn->cl, t, VS_TASK_PENDING, NULL);
		t->note = NULL;
	}
	ssn->notes = NULL;
}
