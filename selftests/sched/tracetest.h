/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the randomised differential tests share: a seeded generator, so
 * that one seed builds the same cluster twice, and the trace of a run's
 * decisions, which the two runs of a seed must write alike.
 */
#ifndef VS_SELFTESTS_TRACETEST_H
#define VS_SELFTESTS_TRACETEST_H

#include <stdio.h>
#include <criterion/criterion.h>

#include "sched/session.h"

/* The generator's state: a test seeds it, the same for both runs. */
static unsigned long long rnd_state;

/* A number below @n, Knuth's MMIX LCG's high bits. */
static inline u32 rnd(u32 n)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(rnd_state >> 33) % n;
}

/* A run's decisions, a line each: "cycle 1: bind ns/t -> n3\n"... */
struct st_trace {
	char *buf;
	size_t cap;
	size_t len;
	u32 cycle;			/* the cycle the lines are of */
};

static inline void st_trace_say(struct st_trace *t, const char *what, const struct vs_task *task,
				const struct vs_node *node)
{
	t->len += (size_t)snprintf(t->buf + t->len, t->cap - t->len, "cycle %u: %s %s/%s -> %s\n",
				   t->cycle, what, task->ns, task->name, node ? node->name : "-");
	cr_assert_lt(t->len, t->cap - 1, "the trace is full");
}

/* A struct vs_decision_sink's callbacks, its ctx the struct st_trace. */
static inline void st_trace_bind(void *ctx, struct vs_task *task, struct vs_node *node)
{
	st_trace_say(ctx, "bind", task, node);
}

static inline void st_trace_evict(void *ctx, struct vs_task *task, const char *reason)
{
	st_trace_say(ctx, "evict", task, task->node);
}

static inline void st_trace_pipeline(void *ctx, struct vs_task *task, struct vs_node *node)
{
	st_trace_say(ctx, "pipeline", task, node);
}

#endif /* VS_SELFTESTS_TRACETEST_H */
