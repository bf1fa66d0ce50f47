// SPDX-License-Identifier: Apache-2.0
/*
 * Binds waiting for their result (bind.h): a ring of tasks and deadlines
 * on the caller's clock, and the timeouts it expires.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "core/cluster.h"
#include "core/err.h"

#define NS_PER_MS	1000000ULL

void vs_binds_init(struct vs_binds *b, struct vs_cluster *cl, u64 timeout_ns)
{
	memset(b, 0, sizeof(*b));
	b->cl = cl;
	b->timeout_ns = timeout_ns;
}

static struct vs_bind_wait *wait_at(const struct vs_binds *b, size_t i)
{
	return &b->waits[(b->head + i) % b->cap];
}

/* The ring doubled, its entries in order from index 0. */
static int waits_grow(struct vs_binds *b)
{
	size_t cap = b->cap ? 2 * b->cap : 1024;
	struct vs_bind_wait *w = malloc(cap * sizeof(*w));

	if (!w)
		return -ENOMEM;
	for (size_t i = 0; i < b->nr; i++)
		w[i] = *wait_at(b, i);
	free(b->waits);
	b->waits = w;
	b->cap = cap;
	b->head = 0;
	return 0;
}

static void wait_pop(struct vs_binds *b)
{
	vs_task_ref_put(b->cl, &wait_at(b, 0)->task);
	b->head = (b->head + 1) % b->cap;
	b->nr--;
}

void vs_binds_forget(struct vs_binds *b)
{
	while (b->nr)
		wait_pop(b);
}

void vs_binds_destroy(struct vs_binds *b)
{
	vs_binds_forget(b);
	free(b->waits);
	b->waits = NULL;
	b->cap = 0;
}

int vs_binds_wait(struct vs_binds *b, const struct vs_task *task, u64 now_ns)
{
	struct vs_bind_wait *w;

	if (!b->timeout_ns)
		return 0;
	if (b->nr == b->cap && waits_grow(b))
		return -ENOMEM;
	w = wait_at(b, b->nr++);
	vs_task_ref_take(&w->task, task);
	w->deadline_ns = now_ns + b->timeout_ns;
	w->failures = vs_task_bind_failures(task);
	return 0;
}

struct vs_task *vs_binds_next_expired(struct vs_binds *b, u64 now_ns)
{
	while (b->nr) {
		struct vs_bind_wait *w = wait_at(b, 0);
		struct vs_task *task;

		if (w->deadline_ns > now_ns)
			return NULL;
		/*
		 * Still Binding, and in the same bind: its result never came.
		 * Binding again after a failure, it waits for a later entry.
		 */
		task = vs_task_ref_find(b->cl, &w->task, VS_TASK_BINDING);
		if (task && vs_task_bind_failures(task) != w->failures)
			task = NULL;
		wait_pop(b);
		if (task)
			return task;
	}
	return NULL;
}

int vs_binds_expire(struct vs_binds *b, u64 now_ns, struct vs_err *err)
{
	struct vs_task *task;
	char msg[64];

	vs_binds_timeout_msg(b, msg, sizeof(msg));
	while ((task = vs_binds_next_expired(b, now_ns))) {
		int ret = vs_bind_failed(b->cl, task, now_ns, -ETIMEDOUT, msg, err);

		if (ret)
			return ret;
	}
	return 0;
}

int vs_binds_next_ms(const struct vs_binds *b, u64 now_ns)
{
	u64 deadline;

	if (!b->nr)
		return -1;
	deadline = wait_at(b, 0)->deadline_ns;
	if (deadline <= now_ns)
		return 0;
	return (int)min_t(u64, (deadline - now_ns + NS_PER_MS - 1) / NS_PER_MS, INT32_MAX);
}

void vs_binds_timeout_msg(const struct vs_binds *b, char *buf, size_t size)
{
	snprintf(buf, size, "no bind result within %llu ms",
		 (unsigned long long)(b->timeout_ns / NS_PER_MS));
}
