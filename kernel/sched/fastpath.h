/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What allocate's fast path keeps from cycle to cycle: its task templates
 * and their node indexes (sched/nodeindex.h), held by the scheduler, and
 * the scratch allocate reuses so that a steady cycle allocates nothing
 * from the heap (Documentation/scheduling.md, "The fast path, and
 * exhaustive mode").
 *
 * An index is built once (every node scored) and then kept exact by
 * catching up with the cluster's touch log (core/node.h) before it
 * serves: every node logged since it last served is re-scored, or taken
 * out when it cannot hold the template. Everything is dropped when what a
 * score or a predicate reads, besides the node and the template, may have
 * changed: a new node generation (a node added or deleted), a lost log
 * entry, a new resource dimension (binpack weighs dimensions by name), a
 * new configuration (plugin arguments and flags), or a session where the
 * fast path is not possible.
 *
 * A template owns copies of what identifies it (the request, the node
 * selector, the tolerations, compared by value: the template outlives the
 * tasks it was made from and their interned strings) and a task of its
 * own that scoring is asked about. A template unused for a while is freed.
 */
#ifndef VS_SCHED_FASTPATH_H
#define VS_SCHED_FASTPATH_H

#include "core/compiler.h"

struct vs_nidx;
struct vs_session;
struct vs_task;
struct vs_fp_tmpl;
struct vs_topo;

/*
 * The nodes of one lowest HyperNode (or of none), at leaf positions lo ..
 * hi - 1 of every index; pure when they are all under the same
 * HyperNodes (then a score read from those alone is the same on each).
 */
struct vs_fp_group {
	u32 lo, hi;
	u32 first;			/* the sidx of one of them */
	bool pure;
};

/* allocate's predicate error cache of one role: a byte per node, reused. */
struct vs_fp_role_cache {
	const char *role;		/* interned; meaningful during one job only */
	u8 *failed;			/* cache_bytes */
	/*
	 * The role's pending tasks are not all of one template, or some have
	 * affinity: the scan serves every one of them, so that the cache holds
	 * what Volcano's does (allocate.c, role_mixed()).
	 */
	bool mixed;
	/* failed[] holds errors of an earlier job: clear it before the scan reads it */
	bool stale;
	u32 epoch;			/* nonzero, new for each role of each attempt */
};

struct vs_fastpath {
	struct vs_fp_tmpl **tmpls;
	u32 nr_tmpls, cap_tmpls;
	struct vs_fp_tmpl *last;	/* the template served last */
	u32 nr_built, max_built;	/* indexes held, and at most (the memory budget) */
	u64 clock;			/* counts servings, for dropping the least recent */

	/* What the indexes were built against: they are dropped when it changes. */
	bool valid;
	u64 node_gen;
	unsigned int ndims;
	/*
	 * Their layout (nodeindex.h): without a topology every node at its
	 * sidx (pos NULL); with one (made from cl->hypernodes.gen hn_gen),
	 * the nodes of each lowest HyperNode at consecutive positions, in
	 * groups[] (by lowest HyperNode, the nodes of none last).
	 */
	bool by_topo;
	u64 hn_gen;
	u32 *pos;
	struct vs_fp_group *groups;
	u32 nr_groups;
	u32 *group_of_hn;		/* by HyperNode sidx (topo->nr: none): its group, or VS_TOPO_NONE */

	u32 *stamp;			/* per node slot: the catch-up that re-scored it last */
	u32 cap_stamp, replay;

	/* allocate's scratch, kept so that a steady cycle allocates nothing */
	void *reasons;			/* its table of fit error texts */
	u32 cap_reasons;
	struct vs_fp_role_cache *caches;
	u32 cap_caches;
	/*
	 * The role caches made, for their epochs: never the same twice in a
	 * session (vs_ssn_mark_refused() remembers by epoch what it marked),
	 * however many allocate actions it runs.
	 */
	u32 epochs;
	u32 cache_bytes;		/* the size of every caches[].failed */
};

/* Drop every index (the templates stay): the next allocate builds afresh. */
void vs_fastpath_invalidate(struct vs_fastpath *fp);

/* Free everything. */
void vs_fastpath_destroy(struct vs_fastpath *fp);

/*
 * An allocate whose tasks the indexes may serve starts: drop what this
 * session makes stale, free the templates unused for long, size the
 * scratch to the session's nodes. With @topo (the session's view), the
 * indexes are laid out by its lowest HyperNodes. -ENOMEM: the scan serves.
 */
int vs_fastpath_begin(struct vs_fastpath *fp, struct vs_session *ssn, const struct vs_topo *topo);

/*
 * The index of @task's template (made on first use), caught up with the
 * touch log; NULL when memory runs out (then the scan serves).
 */
struct vs_nidx *vs_fastpath_index(struct vs_fastpath *fp, struct vs_session *ssn,
				  const struct vs_task *task);

/*
 * Whether @a and @b are of one template (the request, the node selector and
 * the tolerations, as a template is matched), affinity aside.
 */
bool vs_fastpath_same_tmpl(const struct vs_task *a, const struct vs_task *b);

/* The allocate ends: forget the log entries every index has taken in. */
void vs_fastpath_end(struct vs_fastpath *fp, struct vs_session *ssn);

#endif /* VS_SCHED_FASTPATH_H */
