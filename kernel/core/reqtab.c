// SPDX-License-Identifier: Apache-2.0
/*
 * The request table: one shared copy of every resource request in use.
 * Entries (struct vs_ireq) come from the table's pool and are chained in a
 * struct vs_htable by the hash of their value; holders keep a pointer to
 * the value and find the entry again with container_of(), so a put needs no
 * lookup.
 *
 * Invariants: no two entries hold equal values (the same v[] and the same
 * present mask, compared exactly), so pointer equality is value equality;
 * an entry is in the table exactly as long as its refcount is positive; the
 * refcount is the number of holders (vs_cluster_check() counts the tasks).
 *
 * Counts need no saturation: the holders are tasks, and the cluster counts
 * those in 32 bits too.
 */
#include <errno.h>
#include <stdalign.h>
#include <string.h>

#include "core/hash.h"
#include "core/reqtab.h"

/* Any fixed value will do; fixed so that table order is the same every run. */
#define REQTAB_SEED	0x7e9ab1e5u

/*
 * The value of a request is its amounts and its present mask; the padding of
 * struct vs_res is not part of it, so the two are hashed and compared
 * separately. Hashing 128 bytes is 16 multiply-folds: cheap next to the rest
 * of creating a task.
 */
static u32 reqtab_hash(const struct vs_res *r)
{
	return vs_hash_bytes(r->v, sizeof(r->v), REQTAB_SEED ^ r->present);
}

static bool req_same(const struct vs_res *a, const struct vs_res *b)
{
	return a->present == b->present && !memcmp(a->v, b->v, sizeof(a->v));
}

static u32 ireq_hashfn(const struct hlist_node *node)
{
	return container_of(node, struct vs_ireq, node)->hash;
}

int vs_reqtab_init(struct vs_reqtab *tab)
{
	int ret;

	memset(tab, 0, sizeof(*tab));
	ret = vs_pool_init(&tab->pool, "vs_req", sizeof(struct vs_ireq),
			   alignof(struct vs_ireq), NULL);
	if (ret)
		return ret;
	ret = vs_htable_init(&tab->index, 4, ireq_hashfn);
	if (ret)
		vs_pool_destroy(&tab->pool);
	return ret;
}

void vs_reqtab_destroy(struct vs_reqtab *tab)
{
	/* The entries live in the pool's slabs: they go with it. */
	vs_htable_destroy(&tab->index);
	vs_pool_destroy(&tab->pool);
}

static struct vs_ireq *reqtab_lookup(const struct vs_reqtab *tab, const struct vs_res *r,
				     u32 hash)
{
	struct vs_ireq *ir;

	hlist_for_each_entry(ir, vs_htable_bucket(&tab->index, hash), node)
		if (ir->hash == hash && req_same(&ir->res, r))
			return ir;
	return NULL;
}

const struct vs_res *vs_req_get(struct vs_reqtab *tab, const struct vs_res *r)
{
	struct vs_ireq *ir = tab->last;
	u32 hash;

	if (ir && req_same(&ir->res, r))
		goto out_hit;
	hash = reqtab_hash(r);
	ir = reqtab_lookup(tab, r, hash);
	if (ir)
		goto out_hit;

	ir = vs_pool_alloc(&tab->pool);
	if (!ir)
		return NULL;
	/* Padding included, so that a copy of the value compares as the value. */
	memset(&ir->res, 0, sizeof(ir->res));
	memcpy(ir->res.v, r->v, sizeof(r->v));
	ir->res.present = r->present;
	ir->hash = hash;
	ir->refcount = 1;
	ir->audited = 0;
	vs_htable_add(&tab->index, &ir->node, hash);
	tab->misses++;
	tab->last = ir;
	return &ir->res;

out_hit:
	ir->refcount++;
	tab->hits++;
	tab->last = ir;
	return &ir->res;
}

void vs_req_put(struct vs_reqtab *tab, const struct vs_res *ireq)
{
	struct vs_ireq *ir;

	if (!ireq)
		return;
	ir = vs_ireq_of(ireq);
	if (--ir->refcount)
		return;
	if (tab->last == ir)
		tab->last = NULL;
	vs_htable_del(&tab->index, &ir->node);
	vs_pool_free(&tab->pool, ir);
}

/* ---- the audit ---- */

int vs_reqtab_audit_start(const struct vs_reqtab *tab, struct vs_err *err)
{
	struct vs_ireq *ir;
	size_t bkt, n = 0;

	vs_htable_for_each_entry(ir, &tab->index, bkt, node) {
		if (ir->hash != reqtab_hash(&ir->res) ||
		    vs_htable_bucket(&tab->index, ir->hash) != &tab->index.buckets[bkt])
			return vs_err_set(err, EIO, "an interned request is not where its hash says");
		if (!ir->refcount)
			return vs_err_set(err, EIO, "an interned request has no reference");
		ir->audited = 0;
		n++;
	}
	if (n != tab->pool.active_objs)
		return vs_err_set(err, EIO, "%zu interned requests indexed, %zu allocated", n,
				  tab->pool.active_objs);
	return 0;
}

int vs_reqtab_audit_ref(const struct vs_reqtab *tab, const struct vs_res *ireq,
			struct vs_err *err)
{
	struct vs_ireq *ir;

	if (!ireq)
		return vs_err_set(err, EIO, "a request is not interned");
	ir = reqtab_lookup(tab, ireq, reqtab_hash(ireq));
	if (!ir || &ir->res != ireq)
		return vs_err_set(err, EIO, "a request is not the table's copy of its value");
	ir->audited++;
	return 0;
}

int vs_reqtab_audit_end(const struct vs_reqtab *tab, const struct vs_res_dims *dims,
			struct vs_err *err)
{
	struct vs_ireq *ir;
	size_t bkt;

	vs_htable_for_each_entry(ir, &tab->index, bkt, node) {
		if (ir->audited != ir->refcount) {
			char buf[256];

			vs_res_fmt(dims, buf, sizeof(buf), &ir->res);
			return vs_err_set(err, EIO, "interned request (%s) counts %u references, "
					  "%u found", buf, ir->refcount, ir->audited);
		}
	}
	return 0;
}
