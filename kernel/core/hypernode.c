// SPDX-License-Identifier: Apache-2.0
/*
 * HyperNodes: created, changed and destroyed in the cluster, and the tree
 * over them kept current as they and the nodes change. See hypernode.h
 * and Documentation/core.md, "HyperNodes".
 *
 * The parents are resolved again on every change of a HyperNode, a pass
 * over the HyperNodes (they are few: one per switch); a node's change
 * moves the node sets along one path to the root only.
 */
#include <stdlib.h>
#include <string.h>

#include "core/hypernode.h"
#include "core/internal.h"
#include "core/log.h"

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The index of @name in the sorted @set, or -1. */
static s64 set_find(const char *const *set, u32 nr, const char *name)
{
	u32 lo = 0, hi = nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		int c = strcmp(set[mid], name);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Sort @set and drop what repeats; the new length. */
static u32 set_sort_unique(const char **set, u32 nr)
{
	u32 n = 0;

	if (!nr)
		return 0;
	qsort(set, nr, sizeof(*set), name_cmp);
	for (u32 i = 1; i < nr; i++)
		if (strcmp(set[i], set[n]))
			set[++n] = set[i];
	return n + 1;
}

/* ---- selectors ---- */

static bool member_chooses(const struct vs_hn_member *m, const char *name,
			   const struct vs_node *node)
{
	if (m->type != VS_HN_MEMBER_NODE)
		return false;
	switch (m->sel) {
	case VS_HN_EXACT:
		return !strcmp(m->name, name);
	case VS_HN_REGEX:
		return node && !regexec(m->re, name, 0, NULL, 0);
	case VS_HN_LABEL:
		return node && m->labels && vs_labels_match(node->labels, m->labels);
	}
	return false;
}

static bool chooses(const struct vs_hypernode *hn, const char *name, const struct vs_node *node)
{
	for (u32 i = 0; i < hn->nr_members; i++)
		if (member_chooses(&hn->members[i], name, node))
			return true;
	return false;
}

/* Whether @hn has a pattern or labels, whose choice depends on the nodes. */
static bool depends_on_nodes(const struct vs_hypernode *hn)
{
	for (u32 i = 0; i < hn->nr_members; i++)
		if (hn->members[i].type == VS_HN_MEMBER_NODE && hn->members[i].sel != VS_HN_EXACT)
			return true;
	return false;
}

static bool claims(const struct vs_hypernode *p, const struct vs_hypernode *c)
{
	for (u32 i = 0; i < p->nr_members; i++) {
		const struct vs_hn_member *m = &p->members[i];

		if (m->type == VS_HN_MEMBER_HYPERNODE && m->sel == VS_HN_EXACT &&
		    m->name == c->name)
			return true;
	}
	return false;
}

/* ---- the node sets ---- */

static void set_put(struct vs_cluster *cl, const char **set, u32 nr)
{
	for (u32 i = 0; i < nr; i++)
		vs_str_put(&cl->strs, set[i]);
	free(set);
}

/* The direct names of @hn from its spec and the nodes: *@out, referenced. */
static int direct_compute(struct vs_cluster *cl, const struct vs_hypernode *hn,
			  const char ***out, u32 *nr_out)
{
	const struct vs_node *node;
	const char **set;
	u32 nr = 0, cap = 0;

	for (u32 i = 0; i < hn->nr_members; i++)
		if (hn->members[i].type == VS_HN_MEMBER_NODE)
			cap += hn->members[i].sel == VS_HN_EXACT ? 1 : cl->nr_nodes;
	set = cap ? malloc(cap * sizeof(*set)) : NULL;
	if (cap && !set)
		return -ENOMEM;
	for (u32 i = 0; i < hn->nr_members; i++) {
		const struct vs_hn_member *m = &hn->members[i];

		if (m->type != VS_HN_MEMBER_NODE)
			continue;
		if (m->sel == VS_HN_EXACT) {
			set[nr++] = m->name;
			continue;
		}
		list_for_each_entry(node, &cl->nodes, list)
			if (member_chooses(m, node->name, node))
				set[nr++] = node->name;
	}
	nr = set_sort_unique(set, nr);
	for (u32 i = 0; i < nr; i++)
		vs_str_ref(set[i]);
	*out = set;
	*nr_out = nr;
	return 0;
}

/* What @hn's leaves are by definition: its direct names and its children's leaves. */
static int leaves_merge(const struct vs_hypernode *hn, const char ***out, u32 *nr_out)
{
	const struct vs_hypernode *child;
	const char **set;
	u32 nr = hn->nr_direct;

	list_for_each_entry(child, &hn->children, sibling)
		nr += child->nr_leaves;
	set = nr ? malloc(nr * sizeof(*set)) : NULL;
	if (nr && !set)
		return -ENOMEM;
	nr = hn->nr_direct;
	if (nr)
		memcpy(set, hn->direct, nr * sizeof(*set));
	list_for_each_entry(child, &hn->children, sibling) {
		if (child->nr_leaves)
			memcpy(set + nr, child->leaves, child->nr_leaves * sizeof(*set));
		nr += child->nr_leaves;
	}
	*out = set;
	*nr_out = set_sort_unique(set, nr);
	return 0;
}

static void leaves_compute(struct vs_cluster *cl, struct vs_hypernode *hn)
{
	const char **set;
	u32 nr;

	cl->hypernodes.gen++;
	if (leaves_merge(hn, &set, &nr)) {
		cl->hypernodes.lost = true;
		vs_error("hypernode %s: out of memory for its leaves", hn->name);
		return;
	}
	free(hn->leaves);
	hn->leaves = set;
	hn->nr_leaves = nr;
}

/* @hn's leaves changed: so did its ancestors'. */
static void leaves_up(struct vs_cluster *cl, struct vs_hypernode *hn)
{
	for (; hn; hn = hn->parent)
		leaves_compute(cl, hn);
}

bool vs_hypernode_has_leaf(const struct vs_hypernode *hn, const char *name)
{
	return set_find(hn->leaves, hn->nr_leaves, name) >= 0;
}

/* Add (@in) or remove @name in @hn's direct set; whether it changed. */
static bool direct_set(struct vs_cluster *cl, struct vs_hypernode *hn, const char *name, bool in)
{
	s64 at = set_find(hn->direct, hn->nr_direct, name);
	u32 lo = 0;

	if ((at >= 0) == in)
		return false;
	if (!in) {
		vs_str_put(&cl->strs, hn->direct[at]);
		memmove(&hn->direct[at], &hn->direct[at + 1],
			(hn->nr_direct - at - 1) * sizeof(*hn->direct));
		hn->nr_direct--;
		return true;
	}
	const char **set = realloc(hn->direct, (hn->nr_direct + 1) * sizeof(*set));

	if (!set) {
		cl->hypernodes.lost = true;
		vs_error("hypernode %s: out of memory adding node %s", hn->name, name);
		return false;
	}
	hn->direct = set;
	while (lo < hn->nr_direct && strcmp(set[lo], name) < 0)
		lo++;
	memmove(&set[lo + 1], &set[lo], (hn->nr_direct - lo) * sizeof(*set));
	set[lo] = vs_str_ref(name);
	hn->nr_direct++;
	return true;
}

void vs_hypernodes_node_event(struct vs_cluster *cl, const char *name,
			      const struct vs_node *node)
{
	struct vs_hypernode *hn;

	list_for_each_entry(hn, &cl->hypernodes.list, list)
		if (depends_on_nodes(hn) && direct_set(cl, hn, name, chooses(hn, name, node)))
			leaves_up(cl, hn);
}

/* ---- the parents ---- */

/* Whether @a is @b or one of its ancestors. */
static bool is_ancestor(const struct vs_hypernode *a, const struct vs_hypernode *b)
{
	for (; b; b = b->parent)
		if (a == b)
			return true;
	return false;
}

static void detach(struct vs_cluster *cl, struct vs_hypernode *c)
{
	if (c->parent) {
		cl->hypernodes.gen++;
		list_del_init(&c->sibling);
		c->parent->nr_children--;
		c->parent = NULL;
	}
}

static void attach(struct vs_cluster *cl, struct vs_hypernode *c, struct vs_hypernode *p)
{
	c->parent = p;
	if (p) {
		cl->hypernodes.gen++;
		list_add_tail(&c->sibling, &p->children);
		p->nr_children++;
	}
}

/* The leaves of the dirty HyperNodes under @hn, children first. */
static void leaves_clean(struct vs_cluster *cl, struct vs_hypernode *hn)
{
	struct vs_hypernode *c;

	list_for_each_entry(c, &hn->children, sibling)
		if (c->dirty)
			leaves_clean(cl, c);
	leaves_compute(cl, hn);
	hn->dirty = false;
}

/* Whether @a is @b or one of its ancestors along the links being resolved. */
static bool is_next_ancestor(const struct vs_hypernode *a, const struct vs_hypernode *b)
{
	for (; b; b = b->next_parent)
		if (a == b)
			return true;
	return false;
}

/* The parent @c should have: its oldest claimer whose claim closes no cycle. */
static struct vs_hypernode *best_parent(const struct vs_cluster *cl, const struct vs_hypernode *c,
					bool next)
{
	struct vs_hypernode *p;

	list_for_each_entry(p, &cl->hypernodes.list, list)
		if (claims(p, c) && !(next ? is_next_ancestor(c, p) : is_ancestor(c, p)))
			return p;
	return NULL;
}

/*
 * The claimers of each HyperNode, oldest first, one after the other in an
 * array (each one's from its claimers_at, nr_claimers of them), so that
 * the resolution asks a HyperNode's claimers rather than every HyperNode:
 * a change costs a pass over the members, not the HyperNodes squared (a
 * checkpoint of a thousand made them again one by one in seconds). In
 * *@out (NULL when no HyperNode claims another: every count is 0); -ENOMEM.
 */
static int claimers_table(struct vs_cluster *cl, struct vs_hypernode ***out)
{
	struct vs_hypernode *p, *c, **table = NULL;
	u32 nr = 0;

	list_for_each_entry(c, &cl->hypernodes.list, list)
		c->nr_claimers = 0;
	for (int pass = 0; pass < 2; pass++) {
		list_for_each_entry(p, &cl->hypernodes.list, list) {
			for (u32 i = 0; i < p->nr_members; i++) {
				const struct vs_hn_member *m = &p->members[i];

				if (m->type != VS_HN_MEMBER_HYPERNODE || m->sel != VS_HN_EXACT)
					continue;
				c = vs_hypernode_find(cl, m->name);
				if (!c)
					continue;
				if (pass)
					table[c->claimers_at + c->nr_claimers] = p;
				c->nr_claimers++;
			}
		}
		if (pass)
			break;
		list_for_each_entry(c, &cl->hypernodes.list, list) {
			c->claimers_at = nr;
			nr += c->nr_claimers;
			c->nr_claimers = 0;
		}
		if (!nr)
			break;
		table = malloc(nr * sizeof(*table));
		if (!table)
			return -ENOMEM;
	}
	*out = table;
	return 0;
}

/* best_parent(), by the table: its first claimer whose claim closes no cycle. */
static struct vs_hypernode *best_claimer(struct vs_hypernode *const *table,
					 const struct vs_hypernode *c)
{
	for (u32 i = 0; i < c->nr_claimers; i++)
		if (!is_next_ancestor(c, table[c->claimers_at + i]))
			return table[c->claimers_at + i];
	return NULL;
}

/*
 * Every HyperNode's parent again, from nothing: oldest first, each takes
 * its oldest claimer whose claim closes no cycle with the links taken
 * before it. The result depends on the specs and the creation order
 * alone, never on the links the tree had (a change frees or makes claims
 * anywhere, and closes or opens cycles); then the links that differ move,
 * and the leaves above each move are computed again, children first.
 */
static void parents_resolve(struct vs_cluster *cl)
{
	struct vs_hypernode *c, **table = NULL;
	bool moved = false, tabled = !claimers_table(cl, &table);

	list_for_each_entry(c, &cl->hypernodes.list, list)
		c->next_parent = NULL;
	/* without memory for the table, the walk over them all */
	list_for_each_entry(c, &cl->hypernodes.list, list)
		c->next_parent = tabled ? best_claimer(table, c) : best_parent(cl, c, true);
	free(table);
	list_for_each_entry(c, &cl->hypernodes.list, list) {
		if (c->next_parent != c->parent) {
			if (c->parent)
				c->parent->dirty = true;
			if (c->next_parent)
				c->next_parent->dirty = true;
			detach(cl, c);
			moved = true;
		}
	}
	if (!moved)
		return;
	list_for_each_entry(c, &cl->hypernodes.list, list)
		if (!c->parent && c->next_parent)
			attach(cl, c, c->next_parent);
	/* a dirty HyperNode's ancestors in the new tree are dirty, up to a root */
	list_for_each_entry(c, &cl->hypernodes.list, list)
		if (c->dirty)
			for (struct vs_hypernode *h = c->parent; h && !h->dirty; h = h->parent)
				h->dirty = true;
	list_for_each_entry(c, &cl->hypernodes.list, list)
		if (!c->parent && c->dirty)
			leaves_clean(cl, c);
}

/* ---- the claims index ---- */

static bool claim_member(const struct vs_hn_member *m)
{
	return m->type == VS_HN_MEMBER_HYPERNODE && m->sel == VS_HN_EXACT;
}

/* @hn's claims into cl->hypernode_claims: it is in the cluster. */
static void claims_hash(struct vs_cluster *cl, struct vs_hypernode *hn)
{
	for (u32 i = 0; i < hn->nr_members; i++) {
		struct vs_hn_member *m = &hn->members[i];

		if (!claim_member(m))
			continue;
		m->by = hn;
		vs_htable_add(&cl->hypernode_claims, &m->claim, vs_str_hash(m->name));
	}
}

static void claims_unhash(struct vs_cluster *cl, struct vs_hn_member *members, u32 nr)
{
	for (u32 i = 0; i < nr; i++)
		if (claim_member(&members[i]))
			vs_htable_del(&cl->hypernode_claims, &members[i].claim);
}

/*
 * parents_resolve() after adding @n, the newest HyperNode, without
 * resolving them all: an older HyperNode asks @n last of its claimers,
 * and a chain resolved before @n's turn ends at @n, which is none of
 * theirs; so every older link stays, a child @n claims that had no
 * parent takes @n, and @n takes its oldest claimer whose claim closes no
 * cycle in the tree that gives. @n's members and the index of claims:
 * adding the HyperNodes of a fabric one by one costs each its own.
 */
static void parents_add(struct vs_cluster *cl, struct vs_hypernode *n)
{
	struct vs_hypernode *p = NULL, *c;
	struct vs_hn_member *m;
	u32 hash = vs_str_hash(n->name);

	for (u32 i = 0; i < n->nr_members; i++) {
		if (!claim_member(&n->members[i]))
			continue;
		c = vs_hypernode_find(cl, n->members[i].name);
		if (c && c != n && !c->parent)
			attach(cl, c, n);
	}
	leaves_compute(cl, n);
	hlist_for_each_entry(m, vs_htable_bucket(&cl->hypernode_claims, hash), claim)
		if (m->name == n->name && (!p || m->by->seq < p->seq) && !is_ancestor(n, m->by))
			p = m->by;
	if (p) {
		attach(cl, n, p);
		leaves_up(cl, p);
	}
}

bool vs_hypernodes_ready(const struct vs_cluster *cl)
{
	const struct vs_hypernode *p, *c;

	if (cl->hypernodes.lost)
		return false;
	list_for_each_entry(p, &cl->hypernodes.list, list) {
		for (u32 i = 0; i < p->nr_members; i++) {
			const struct vs_hn_member *m = &p->members[i];

			if (m->type != VS_HN_MEMBER_HYPERNODE || m->sel != VS_HN_EXACT)
				continue;
			c = vs_hypernode_find(cl, m->name);
			if (c && c->parent != p)
				return false;
		}
	}
	return true;
}

struct vs_hypernode *vs_hypernode_lca(struct vs_hypernode *a, struct vs_hypernode *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	for (; a; a = a->parent)
		if (is_ancestor(a, b))
			return a;
	return NULL;
}

/* ---- the object ---- */

static void members_free(struct vs_cluster *cl, struct vs_hn_member *members, u32 nr)
{
	for (u32 i = 0; i < nr; i++) {
		vs_str_put(&cl->strs, members[i].name);
		if (members[i].re) {
			regfree(members[i].re);
			free(members[i].re);
		}
		vs_labels_free(&cl->strs, members[i].labels);
	}
	free(members);
}

static int member_new(struct vs_cluster *cl, const struct vs_hn_member_spec *s,
		      struct vs_hn_member *m, struct vs_err *err)
{
	char msg[128];
	int ret;

	if ((unsigned int)s->type > VS_HN_MEMBER_HYPERNODE)
		return vs_err_set(err, EINVAL, "bad member type %d", s->type);
	if ((unsigned int)s->sel > VS_HN_LABEL)
		return vs_err_set(err, EINVAL, "bad member selector %d", s->sel);
	m->type = s->type;
	m->sel = s->sel;
	if (s->sel == VS_HN_LABEL)
		return vs_labels_new(&cl->strs, s->labels, s->nr_labels, "labelMatch",
				     &m->labels, err);
	if (vs_str_empty(s->name))
		return vs_err_set(err, EINVAL, "%s without %s",
				  s->sel == VS_HN_EXACT ? "exactMatch" : "regexMatch",
				  s->sel == VS_HN_EXACT ? "a name" : "a pattern");
	if (s->sel == VS_HN_REGEX) {
		m->re = malloc(sizeof(*m->re));
		if (!m->re)
			return vs_err_set(err, ENOMEM, "out of memory");
		ret = regcomp(m->re, s->name, REG_EXTENDED | REG_NOSUB);
		if (ret) {
			regerror(ret, m->re, msg, sizeof(msg));
			free(m->re);
			m->re = NULL;
			return vs_err_set(err, EINVAL, "regexMatch pattern \"%s\": %s",
					  s->name, msg);
		}
	}
	m->name = vs_str_get_cstr(&cl->strs, s->name);
	if (!m->name)
		return vs_err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* The spec's members, tier name and labels, built: nothing of @hn changes. */
static int spec_build(struct vs_cluster *cl, const struct vs_hypernode_spec *spec,
		      struct vs_hn_member **members, const char **tier_name,
		      struct vs_labels **labels, struct vs_err *err)
{
	int ret = 0;
	u32 i;

	if (spec->tier < 0)
		return vs_err_set(err, EINVAL, "tier %d is negative", spec->tier);
	if (!spec->nr_members)
		return vs_err_set(err, EINVAL, "a HyperNode must have at least one member");
	*members = calloc(spec->nr_members, sizeof(**members));
	if (!*members)
		return vs_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < spec->nr_members; i++) {
		ret = member_new(cl, &spec->members[i], &(*members)[i], err);
		if (ret) {
			vs_err_prefix(err, "member %u: ", i);
			goto out_free;
		}
	}
	*tier_name = vs_cluster_intern_opt(cl, spec->tier_name, &ret);
	if (ret) {
		vs_err_set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	*labels = NULL;
	if (spec->nr_labels) {
		ret = vs_labels_new(&cl->strs, spec->labels, spec->nr_labels, "labels", labels,
				    err);
		if (ret) {
			vs_str_put(&cl->strs, *tier_name);
			goto out_free;
		}
	}
	return 0;

out_free:
	members_free(cl, *members, spec->nr_members);
	*members = NULL;
	return ret;
}

int vs_hypernode_add(struct vs_cluster *cl, const struct vs_hypernode_spec *spec,
		     struct vs_hypernode **out, struct vs_err *err)
{
	struct vs_txn_ent *ent;
	struct vs_hypernode *hn;
	int ret;

	ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
				     "hypernode name", err);
	if (ret)
		return ret;
	if (vs_hypernode_find(cl, spec->name))
		return vs_err_set(err, EEXIST, "hypernode %s already exists", spec->name);
	ret = VS_LIMIT_CHECK(cl, hypernodes, cl->hypernodes.nr, err);
	if (ret)
		return ret;
	if (vs_txn_prep(cl, VS_TXN_ADD_HYPERNODE, NULL, 0, &ent))
		return vs_err_set(err, ENOMEM, "hypernode %s: out of memory", spec->name);
	hn = vs_pool_zalloc(&cl->hypernode_pool);
	if (!hn)
		return vs_err_set(err, ENOMEM, "out of memory");
	ret = spec_build(cl, spec, &hn->members, &hn->tier_name, &hn->labels, err);
	if (ret)
		goto out_free;
	hn->nr_members = spec->nr_members;
	hn->name = vs_str_get_cstr(&cl->strs, spec->name);
	if (!hn->name || direct_compute(cl, hn, &hn->direct, &hn->nr_direct)) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_members;
	}
	hn->tier = spec->tier;
	hn->seq = cl->seq++;
	INIT_LIST_HEAD(&hn->children);
	INIT_LIST_HEAD(&hn->sibling);
	vs_htable_add(&cl->hypernode_index, &hn->hnode, vs_str_hash(hn->name));
	vs_name_tree_add(&cl->hypernode_names, hn);
	list_add_tail(&hn->list, &cl->hypernodes.list);
	cl->hypernodes.nr++;
	cl->hypernodes.gen++;
	claims_hash(cl, hn);
	parents_add(cl, hn);
	if (ent) {
		ent->obj = hn;
		vs_txn_push(cl, ent);
	}
	if (out)
		*out = hn;
	return 0;

out_members:
	vs_str_put(&cl->strs, hn->name);
	vs_str_put(&cl->strs, hn->tier_name);
	vs_labels_free(&cl->strs, hn->labels);
	members_free(cl, hn->members, spec->nr_members);
out_free:
	vs_pool_free(&cl->hypernode_pool, hn);
	vs_err_prefix(err, "hypernode %s: ", spec->name);
	return ret;
}

int vs_hypernode_update(struct vs_cluster *cl, struct vs_hypernode *hn,
			const struct vs_hypernode_spec *spec, struct vs_err *err)
{
	struct vs_hn_member *members, *old_members = hn->members;
	u32 old_nr = hn->nr_members, nr_direct;
	struct vs_txn_ent *ent;
	struct vs_labels *labels;
	const char *tier_name;
	const char **direct;
	int ret;

	/* The old spec and direct set stay the journal's until the transaction ends. */
	if (vs_txn_prep_copy(cl, VS_TXN_HYPERNODE_SPEC, hn, sizeof(*hn), &ent))
		return vs_err_set(err, ENOMEM, "hypernode %s: out of memory", hn->name);
	ret = spec_build(cl, spec, &members, &tier_name, &labels, err);
	if (ret) {
		vs_err_prefix(err, "hypernode %s: ", hn->name);
		return ret;
	}
	hn->members = members;
	hn->nr_members = spec->nr_members;
	if (direct_compute(cl, hn, &direct, &nr_direct)) {
		hn->members = old_members;
		hn->nr_members = old_nr;
		members_free(cl, members, spec->nr_members);
		vs_str_put(&cl->strs, tier_name);
		vs_labels_free(&cl->strs, labels);
		return vs_err_set(err, ENOMEM, "hypernode %s: out of memory", hn->name);
	}
	claims_unhash(cl, old_members, old_nr);
	claims_hash(cl, hn);
	if (ent) {
		vs_txn_push(cl, ent);
	} else {
		members_free(cl, old_members, old_nr);
		set_put(cl, hn->direct, hn->nr_direct);
		vs_str_put(&cl->strs, hn->tier_name);
		vs_labels_free(&cl->strs, hn->labels);
	}
	hn->labels = labels;
	hn->direct = direct;
	hn->nr_direct = nr_direct;
	hn->tier_name = tier_name;
	hn->tier = spec->tier;
	cl->hypernodes.gen++;
	leaves_up(cl, hn);
	parents_resolve(cl);
	return 0;
}

static void hypernode_free(struct vs_cluster *cl, struct vs_hypernode *hn)
{
	members_free(cl, hn->members, hn->nr_members);
	set_put(cl, hn->direct, hn->nr_direct);
	free(hn->leaves);
	vs_str_put(&cl->strs, hn->tier_name);
	vs_labels_free(&cl->strs, hn->labels);
	vs_str_put(&cl->strs, hn->name);
	vs_pool_free(&cl->hypernode_pool, hn);
}

void vs_hypernode_del(struct vs_cluster *cl, struct vs_hypernode *hn)
{
	struct vs_txn_ent *ent = vs_txn_prep_nofail(cl, VS_TXN_DEL_HYPERNODE, hn, 0);
	struct vs_hypernode *c, *tmp;

	if (ent)
		ent->place.list = hn->list.prev;
	cl->hypernodes.events++;
	cl->hypernodes.gen++;
	list_for_each_entry_safe(c, tmp, &hn->children, sibling)
		detach(cl, c);
	c = hn->parent;
	detach(cl, hn);
	leaves_up(cl, c);
	vs_htable_del(&cl->hypernode_index, &hn->hnode);
	claims_unhash(cl, hn->members, hn->nr_members);
	vs_name_tree_del(&cl->hypernode_names, hn);
	list_del(&hn->list);
	cl->hypernodes.nr--;
	if (ent)
		vs_txn_push(cl, ent);	/* kept whole, freed by the commit */
	else
		hypernode_free(cl, hn);
	parents_resolve(cl);
}

/*
 * The tree is a function of the HyperNodes (their specs and creation
 * order) and the nodes: an undo puts the objects back and resolves the
 * tree again, undoing in reverse, each on the state its change left.
 */
void vs_hypernode_undo(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	struct vs_hypernode *hn = ent->obj;
	const struct vs_hypernode *old = ent->saved;

	cl->hypernodes.gen++;
	switch (ent->kind) {
	case VS_TXN_ADD_HYPERNODE:
		vs_hypernode_del(cl, hn);
		return;
	case VS_TXN_DEL_HYPERNODE:
		list_add(&hn->list, ent->place.list);
		vs_htable_add(&cl->hypernode_index, &hn->hnode, vs_str_hash(hn->name));
		vs_name_tree_add(&cl->hypernode_names, hn);
		claims_hash(cl, hn);
		cl->hypernodes.nr++;
		leaves_compute(cl, hn);
		break;
	case VS_TXN_HYPERNODE_SPEC:
		claims_unhash(cl, hn->members, hn->nr_members);
		members_free(cl, hn->members, hn->nr_members);
		set_put(cl, hn->direct, hn->nr_direct);
		vs_str_put(&cl->strs, hn->tier_name);
		vs_labels_free(&cl->strs, hn->labels);
		hn->labels = old->labels;
		hn->members = old->members;
		hn->nr_members = old->nr_members;
		claims_hash(cl, hn);
		hn->direct = old->direct;
		hn->nr_direct = old->nr_direct;
		hn->tier = old->tier;
		hn->tier_name = old->tier_name;
		leaves_up(cl, hn);
		break;
	default:
		return;
	}
	parents_resolve(cl);
}

void vs_hypernode_forget(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	const struct vs_hypernode *old = ent->saved;

	if (ent->kind == VS_TXN_DEL_HYPERNODE) {
		hypernode_free(cl, ent->obj);
	} else if (ent->kind == VS_TXN_HYPERNODE_SPEC) {
		members_free(cl, old->members, old->nr_members);
		set_put(cl, old->direct, old->nr_direct);
		vs_str_put(&cl->strs, old->tier_name);
		vs_labels_free(&cl->strs, old->labels);
	}
}

void vs_hypernodes_init(struct vs_hypernodes *hns)
{
	INIT_LIST_HEAD(&hns->list);
	hns->nr = 0;
	hns->lost = false;
}

void vs_hypernodes_destroy(struct vs_cluster *cl)
{
	struct vs_hypernode *hn, *tmp;

	u64 gen = cl->hypernodes.gen;

	list_for_each_entry_safe(hn, tmp, &cl->hypernodes.list, list)
		hypernode_free(cl, hn);
	vs_hypernodes_init(&cl->hypernodes);
	cl->hypernodes.gen = gen + 1;
}

/* ---- the check ---- */

static int check_set(const struct vs_hypernode *hn, const char *what, const char *const *have,
		     u32 nr_have, const char *const *want, u32 nr_want, struct vs_err *err)
{
	if (nr_have != nr_want)
		return vs_err_set(err, EIO, "hypernode %s has %u %s, its definition %u",
				  hn->name, nr_have, what, nr_want);
	for (u32 i = 0; i < nr_have; i++)
		if (strcmp(have[i], want[i]))
			return vs_err_set(err, EIO, "hypernode %s: %s %u is %s, not %s",
					  hn->name, what, i, have[i], want[i]);
	return 0;
}

static int check_one(struct vs_cluster *cl, const struct vs_hypernode *hn, struct vs_err *err)
{
	const struct vs_hypernode *c;
	const char **direct, **leaves;
	u32 nr_direct, nr, n = 0;
	int ret;

	if (vs_hypernode_find(cl, hn->name) != hn)
		return vs_err_set(err, EIO, "hypernode %s is not indexed", hn->name);
	if (best_parent(cl, hn, false) != hn->parent)
		return vs_err_set(err, EIO, "hypernode %s has parent %s, not its oldest claimer",
				  hn->name, hn->parent ? hn->parent->name : "(none)");
	list_for_each_entry(c, &hn->children, sibling) {
		if (c->parent != hn)
			return vs_err_set(err, EIO, "hypernode %s lists child %s whose parent it is not",
					  hn->name, c->name);
		n++;
	}
	if (n != hn->nr_children)
		return vs_err_set(err, EIO, "hypernode %s counts %u children, lists %u",
				  hn->name, hn->nr_children, n);
	if (cl->hypernodes.lost)
		return 0;	/* a set could not be stored: ready() says so */
	if (direct_compute(cl, hn, &direct, &nr_direct))
		return 0;	/* no memory to compare: not a fault of the state */
	ret = check_set(hn, "direct nodes", hn->direct, hn->nr_direct, direct, nr_direct, err);
	set_put(cl, direct, nr_direct);
	if (ret)
		return ret;
	if (leaves_merge(hn, &leaves, &nr))
		return 0;
	ret = check_set(hn, "leaves", hn->leaves, hn->nr_leaves, leaves, nr, err);
	free(leaves);
	return ret;
}

/* The index of claims holds each HyperNode member by exactMatch, by its name. */
static int check_claims(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct vs_hypernode *hn;
	const struct vs_hn_member *m;
	size_t n = 0;

	if (vs_htable_check(&cl->hypernode_claims))
		return vs_err_set(err, EIO, "the hypernode claims index is broken");
	list_for_each_entry(hn, &cl->hypernodes.list, list) {
		for (u32 i = 0; i < hn->nr_members; i++) {
			if (!claim_member(&hn->members[i]))
				continue;
			hlist_for_each_entry(m, vs_htable_bucket(&cl->hypernode_claims,
								 vs_str_hash(hn->members[i].name)), claim)
				if (m == &hn->members[i])
					break;
			if (!m || m->by != hn)
				return vs_err_set(err, EIO, "hypernode %s: member %u %s is not indexed",
						  hn->name, i, hn->members[i].name);
			n++;
		}
	}
	if (n != vs_htable_count(&cl->hypernode_claims))
		return vs_err_set(err, EIO, "%zu hypernode claims indexed, %zu members claim",
				  vs_htable_count(&cl->hypernode_claims), n);
	return 0;
}

int vs_hypernodes_check(const struct vs_cluster *cl, struct vs_err *err)
{
	/* The check computes scratch sets: interning takes references, nothing else. */
	struct vs_cluster *mcl = (struct vs_cluster *)cl;
	const struct vs_hypernode *hn;
	u32 n = 0;
	int ret;

	list_for_each_entry(hn, &cl->hypernodes.list, list) {
		ret = check_one(mcl, hn, err);
		if (ret)
			return ret;
		n++;
	}
	if (n != cl->hypernodes.nr)
		return vs_err_set(err, EIO, "%u hypernodes listed, %u counted", n, cl->hypernodes.nr);
	return check_claims(cl, err);
}
