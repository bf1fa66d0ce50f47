/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_queue: a Volcano Queue. Its spec (weight, capability, guarantee,
 * deserved, reclaimable, priority, parent) is what the proportion and
 * capacity plugins divide the cluster by; its jobs are the PodGroups that
 * name it. The totals are kept current as tasks change status, so that a
 * session starts from them instead of walking every task:
 *
 *   allocated == sum of job->allocated over @jobs
 *   request   == sum of job->total_request over @jobs
 */
#ifndef VS_CORE_QUEUE_H
#define VS_CORE_QUEUE_H

#include "core/compiler.h"
#include "core/list.h"
#include "core/rbtree.h"
#include "core/res.h"
#include "core/rest.h"

enum vs_queue_state {
	VS_QUEUE_OPEN,
	VS_QUEUE_CLOSING,
	VS_QUEUE_CLOSED,
	VS_QUEUE_UNKNOWN,
	VS_QUEUE_NR_STATES
};

const char *vs_queue_state_name(enum vs_queue_state s);
int vs_queue_state_parse(const char *s, enum vs_queue_state *out, struct vs_err *err);

/* PodGroup phases, counted per queue (as Volcano's queue status does). */
enum vs_pg_phase {
	VS_PG_PENDING,
	VS_PG_RUNNING,
	VS_PG_UNKNOWN,
	VS_PG_INQUEUE,
	VS_PG_COMPLETED,
	VS_PG_NR_PHASES
};

const char *vs_pg_phase_name(enum vs_pg_phase p);
int vs_pg_phase_parse(const char *s, enum vs_pg_phase *out, struct vs_err *err);

struct vs_queue {
	const char *name;		/* interned */
	u64 seq;
	u64 created;			/* s since 1970 (vs_created_cmp()), 0: unknown */
	struct hlist_node hnode;	/* cluster queue index */
	struct rb_node byname;	/* cluster->queue_names */
	struct list_head list;		/* cluster->queues, creation order */

	u32 weight;			/* >= 1; Volcano's default is 1 */
	struct vs_res capability;	/* the most it may use; infinite when unset */
	struct vs_res guarantee;	/* reserved for it whatever others want */
	struct vs_res deserved;		/* capacity plugin: its share; zero when unset */
	bool has_capability;
	bool has_deserved;
	bool reclaimable;		/* others may reclaim from it; default true */
	s32 priority;
	enum vs_queue_state state;
	bool closed_by_parent;		/* the queue controller closed it with its parent */
	u32 txn_gen;			/* its sums saved by that transaction (core/txn.h) */
	const char *parent;		/* interned parent queue name, NULL for root's children */

	struct list_head jobs;		/* PodGroups in this queue, creation order */
	u32 nr_jobs;
	u32 nr_jobs_by_phase[VS_PG_NR_PHASES];

	struct vs_res allocated;
	struct vs_res request;
	struct vs_queue_rest rest;	/* its resting jobs' sums (core/rest.h) */
	/* The allocated last told to the status group (netlink/writeback.h), 0 when none was. */
	u32 status_digest;

	u32 sidx;			/* index in the open session's queues */

	/*
	 * What the last cycle's proportion or capacity plugin made of it
	 * (Volcano's queue_deserved_*, queue_share, queue_overused); zero
	 * when it had no job then; cycle 0: no such cycle yet.
	 */
	struct vs_queue_seen {
		struct vs_fres deserved;
		double share;
		bool overused;
		u64 cycle;
	} seen;
	const struct vs_res_dims *dims;	/* its cluster's resource names */
};

/* ---- the queue in the cluster (queue.c) ---- */

struct vs_cluster;

struct vs_queue_spec {
	const char *name;
	u32 weight;
	struct vs_res capability;
	bool has_capability;
	struct vs_res guarantee;
	struct vs_res deserved;
	bool has_deserved;
	bool reclaimable;
	s32 priority;
	enum vs_queue_state state;
	const char *parent;		/* NULL or "" for none */
	u64 created;			/* see vs_created_cmp(); 0: unknown */
};

/* Volcano's defaults: weight 1, reclaimable, Open, no limits. */
void vs_queue_spec_init(struct vs_queue_spec *spec, const char *name);

/* Creating a queue adopts the orphan jobs that name it. */
int vs_queue_add(struct vs_cluster *cl, const struct vs_queue_spec *spec,
		 struct vs_queue **out, struct vs_err *err);
int vs_queue_update(struct vs_cluster *cl, struct vs_queue *queue,
		    const struct vs_queue_spec *spec, struct vs_err *err);

/* -EBUSY while PodGroups are in it (close it and let them finish first). */
int vs_queue_del(struct vs_cluster *cl, struct vs_queue *queue, struct vs_err *err);

struct vs_queue *vs_queue_find(const struct vs_cluster *cl, const char *name);

#endif /* VS_CORE_QUEUE_H */
