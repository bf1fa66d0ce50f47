// SPDX-License-Identifier: Apache-2.0
/*
 * Fit errors and task notes: see fiterr.h.
 */
#include <stdio.h>
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

/*
 * ---- Go's histogram: "count name" strings, sorted, joined by ", " ----
 *
 * Built without the heap (a session closes on the steady-state path, and
 * gang writes a histogram for every job that is not ready): the items are
 * emitted in the order of their "count name" renderings by selection,
 * each the least greater than the one before. The names of one histogram
 * are distinct, so no two renderings are equal; a histogram has a few
 * items (task statuses, or the kinds of reason the nodes gave).
 */

/* strcmp() of the strings @a1 @a2 and @b1 @b2 joined. */
static int joined_cmp(const char *a1, const char *a2, const char *b1, const char *b2)
{
	for (;; a1++, b1++) {
		if (!*a1 && a2) {
			a1 = a2;
			a2 = NULL;
		}
		if (!*b1 && b2) {
			b1 = b2;
			b2 = NULL;
		}
		if (*a1 != *b1 || !*a1)
			return (unsigned char)*a1 - (unsigned char)*b1;
	}
}

/* strcmp() of the renderings "count name" of @a and @b. */
static int item_cmp(const struct vs_fit_reason *a, const struct vs_fit_reason *b)
{
	char ca[16], cb[16];

	snprintf(ca, sizeof(ca), "%u ", a->count);
	snprintf(cb, sizeof(cb), "%u ", b->count);
	return joined_cmp(ca, a->reason, cb, b->reason);
}

/* Append the histogram of @items to @buf at @off. */
static int hist_append(const struct vs_fit_reason *items, u32 nr, char *buf, size_t len, int off)
{
	const struct vs_fit_reason *last = NULL;

	for (u32 n = 0; n < nr; n++) {
		const struct vs_fit_reason *next = NULL;

		for (u32 i = 0; i < nr; i++)
			if ((!last || item_cmp(&items[i], last) > 0) &&
			    (!next || item_cmp(&items[i], next) < 0))
				next = &items[i];
		VS_APPEND(buf, len, off, "%s%u %s", n ? ", " : "", next->count, next->reason);
		last = next;
	}
	return off;
}

static int fit_errors_format(const struct vs_fit_errors *fe, const char *verb, char *buf,
			     size_t len)
{
	int off = 0;

	/* Volcano names the HyperNode only before a histogram */
	if (fe->hypernode && fe->nr_nodes)
		VS_APPEND(buf, len, off, "In hyperNode %s: ", fe->hypernode);
	if (fe->err)
		VS_APPEND(buf, len, off, "%s", fe->err);
	else
		VS_APPEND(buf, len, off, "0/%u nodes are %s", fe->nr_nodes, verb);
	if (!fe->nr_nodes)
		return off;
	VS_APPEND(buf, len, off, ": ");
	off = hist_append(fe->reasons, fe->nr_reasons, buf, len, off);
	VS_APPEND(buf, len, off, ".");
	return off;
}

int vs_fit_errors_format(const struct vs_fit_errors *fe, char *buf, size_t len)
{
	return fit_errors_format(fe, "unavailable", buf, len);
}

int vs_fit_errors_format_kube(const struct vs_fit_errors *fe, char *buf, size_t len)
{
	return fit_errors_format(fe, "available", buf, len);
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

void vs_session_note_tx(struct vs_session *ssn, struct vs_task *task, bool evicted)
{
	struct vs_task_note *n = evicted ? vs_session_task_note(ssn, task) : task->note;

	if (n)
		n->tx_evicted = evicted;	/* else the nomination is lost, nothing else */
}

const struct vs_node *vs_task_tx_nominated(const struct vs_task *task)
{
	const struct vs_task_note *n = task->note;

	if (!n)
		return NULL;
	if (n->has_last_tx)
		return n->last_tx == VS_TASK_PIPELINED && n->last_tx_evicted ? n->last_tx_node
									       : NULL;
	return task->status == VS_TASK_PIPELINED && n->tx_evicted ? task->node : NULL;
}

void vs_session_note_discard(struct vs_session *ssn, struct vs_task *task)
{
	struct vs_task_note *n = vs_session_task_note(ssn, task);

	if (!n)
		return;		/* the message loses a detail, nothing else */
	n->has_last_tx = true;
	n->last_tx = task->status;
	n->last_tx_node = task->node;
	n->last_tx_evicted = n->tx_evicted;
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
	struct vs_fit_reason items[VS_TASK_NR_STATUS + 1];
	const struct vs_task *t;
	u32 nr = 0, sched = 0, unsched = 0;
	int off = 0;

	VS_APPEND(buf, len, off, "%s, ", vs_job_is_ready(job) ? "pod group is ready"
							    : "pod group is not ready");
	for (int s = 0; s < VS_TASK_NR_STATUS; s++)
		if (job->nr_by_status[s])
			items[nr++] = (struct vs_fit_reason){ vs_task_status_name(s),
							      job->nr_by_status[s] };
	items[nr++] = (struct vs_fit_reason){ "minAvailable", job->min_member };
	off = hist_append(items, nr, buf, len, off);

	list_for_each_entry(t, &job->by_status[VS_TASK_PENDING], status_node) {
		if (vs_task_scheduling_reason(t)[0] == 'S')
			sched++;
		else
			unsched++;
	}
	if (sched || unsched) {
		nr = 0;
		if (sched)
			items[nr++] = (struct vs_fit_reason){ "Schedulable", sched };
		if (unsched)
			items[nr++] = (struct vs_fit_reason){ "Unschedulable", unsched };
		VS_APPEND(buf, len, off, "; Pending: ");
		off = hist_append(items, nr, buf, len, off);
	}

	/* Volcano walks a map here; vsched takes the first task in creation order. */
	list_for_each_entry(t, &job->tasks, job_node) {
		if (!t->note || !t->note->fit)
			continue;
		VS_APPEND(buf, len, off, ". Origin reason is %s: ", t->name);
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
