/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interned resource requests.
 *
 * The tasks of one job role almost always ask for the same resources, and a
 * struct vs_res is the largest thing a task would carry. The request table
 * keeps one shared, immutable, reference-counted copy of every request in
 * use: vs_req_get() returns the copy equal to a value, with a reference
 * taken, and vs_req_put() drops one; the last put frees it. Two interned
 * requests are equal (same amounts, same present scalars) exactly when
 * their pointers are.
 *
 * An interned request is never written: a task whose request changes
 * interns the new value and puts the old one.
 */
#ifndef VS_CORE_REQTAB_H
#define VS_CORE_REQTAB_H

#include <stddef.h>
#include "core/compiler.h"
#include "core/err.h"
#include "core/htable.h"
#include "core/pool.h"
#include "core/res.h"

struct vs_reqtab {
	struct vs_pool pool;		/* struct vs_ireq, the entries */
	struct vs_htable index;		/* the entries, by the hash of their value */
	/*
	 * The entry vs_req_get() returned last, or NULL: tasks are created
	 * job by job and replicas together, so most gets ask for it again
	 * and need no hash.
	 */
	struct vs_ireq *last;
	u64 hits;			/* vs_req_get() calls that found the value */
	u64 misses;
};

/* One interned request; users hold a pointer to @res only. */
struct vs_ireq {
	struct vs_res res;
	struct hlist_node node;		/* in tab->index */
	u32 hash;			/* of @res, as reqtab_hash() computes it */
	u32 refcount;			/* holders; the entry is freed at 0 */
	u32 audited;			/* scratch of vs_reqtab_audit_*() */
};

int vs_reqtab_init(struct vs_reqtab *tab);

/* Free every entry; holders' pointers are dangling afterwards. */
void vs_reqtab_destroy(struct vs_reqtab *tab);

/* The interned copy of @r, with a reference taken; NULL when memory is exhausted. */
const struct vs_res *vs_req_get(struct vs_reqtab *tab, const struct vs_res *r);

/* Drop a reference from vs_req_get(); NULL is ignored. */
void vs_req_put(struct vs_reqtab *tab, const struct vs_res *ireq);

/* The entry an interned request is the value of. */
static inline struct vs_ireq *vs_ireq_of(const struct vs_res *ireq)
{
	return container_of((struct vs_res *)ireq, struct vs_ireq, res);
}

static inline u32 vs_req_refcount(const struct vs_res *ireq)
{
	return vs_ireq_of(ireq)->refcount;
}

/* The number of distinct requests interned. */
static inline size_t vs_reqtab_count(const struct vs_reqtab *tab)
{
	return vs_htable_count(&tab->index);
}

/*
 * Verify the reference counts against the holders, for vs_cluster_check():
 * vs_reqtab_audit_start(), then vs_reqtab_audit_ref() for every pointer a
 * holder keeps, then vs_reqtab_audit_end(). Each is 0 or -EIO with the
 * violation in @err: a pointer that is not an entry of @tab, an entry whose
 * hash or place in the index is wrong, a count that differs from the
 * references found. The audit writes only the entries' scratch counter.
 */
int vs_reqtab_audit_start(const struct vs_reqtab *tab, struct vs_err *err);
int vs_reqtab_audit_ref(const struct vs_reqtab *tab, const struct vs_res *ireq,
			struct vs_err *err);
int vs_reqtab_audit_end(const struct vs_reqtab *tab, const struct vs_res_dims *dims,
			struct vs_err *err);

#endif /* VS_CORE_REQTAB_H */
