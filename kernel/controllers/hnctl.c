// SPDX-License-Identifier: Apache-2.0
/*
 * Label discovery (hnctl.h): the configuration's types, the HyperNodes the
 * nodes' labels make, and their reconciliation with the cluster's own.
 *
 * A sync walks every node once per type and tier (a hash lookup of a label
 * each), then the controller's HyperNodes: it is called when a node or a
 * HyperNode changed since the last one (Documentation/controllers.md,
 * "Label discovery"), not per cycle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controllers/hnctl.h"
#include "core/cluster.h"
#include "core/log.h"
#include "core/names.h"
#include "core/strtab.h"

/* ---- the configuration ---- */

/* Volcano's cleanString(): lowercase letters, digits, '.' and '-'; anything else '-'. */
static void clean_name(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++) {
		char c = in[i];

		if (c >= 'A' && c <= 'Z')
			out[i] = (char)(c - 'A' + 'a');
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')
			out[i] = c;
		else
			out[i] = '-';
	}
	out[i] = '\0';
}

static int type_cmp(const void *a, const void *b)
{
	return strcmp(((const struct vs_hnctl_type *)a)->name,
		      ((const struct vs_hnctl_type *)b)->name);
}

static void type_free(struct vs_hnctl_type *t)
{
	for (u32 i = 0; i < t->nr_keys; i++)
		free(t->keys[i]);
	free(t->keys);
	free(t->name);
}

static int type_check(const struct vs_hnctl_conf *conf, const char *name,
		      const char *const *keys, u32 nr_keys, struct vs_err *err)
{
	char clean[VS_HNCTL_TYPE_NAME_MAX + 1], sample[VS_DNS_SUBDOMAIN_MAX + 1];
	size_t len = name ? strlen(name) : 0;
	int ret;

	if (!len)
		return vs_err_set(err, EINVAL, "a network topology type without a name");
	if (len > VS_HNCTL_TYPE_NAME_MAX)
		return vs_err_set(err, EINVAL, "network topology type \"%s\": a name of %zu bytes "
				  "(at most %d)", name, len, VS_HNCTL_TYPE_NAME_MAX);
	for (u32 i = 0; i < conf->nr_types; i++)
		if (!strcmp(conf->types[i].name, name))
			return vs_err_set(err, EINVAL, "network topology type \"%s\" twice", name);
	clean_name(name, clean, sizeof(clean));
	snprintf(sample, sizeof(sample), "hypernode-%s-tier%u-bcdfg", clean, nr_keys);
	ret = vs_check_dns_subdomain(sample, strlen(sample), "the hypernode name", err);
	if (ret) {
		vs_err_prefix(err, "network topology type \"%s\" makes names such as %s: ",
			      name, sample);
		return ret;
	}
	if (nr_keys < 2)
		return vs_err_set(err, EINVAL, "network topology type \"%s\": at least one node "
				  "label above %s", name, VS_HNCTL_HOSTNAME_KEY);
	if (strcmp(keys[nr_keys - 1], VS_HNCTL_HOSTNAME_KEY))
		return vs_err_set(err, EINVAL, "network topology type \"%s\": the last nodeLabel "
				  "is \"%s\", not %s (the nodes themselves)", name,
				  keys[nr_keys - 1], VS_HNCTL_HOSTNAME_KEY);
	for (u32 i = 0; i < nr_keys; i++) {
		ret = vs_check_label_key(keys[i], strlen(keys[i]), "nodeLabel", err);
		if (ret) {
			vs_err_prefix(err, "network topology type \"%s\", nodeLabel %u: ",
				      name, i);
			return ret;
		}
		for (u32 j = 0; j < i; j++)
			if (!strcmp(keys[i], keys[j]))
				return vs_err_set(err, EINVAL, "network topology type \"%s\": "
						  "nodeLabel \"%s\" twice (there are duplicate "
						  "labels)", name, keys[i]);
	}
	return 0;
}

int vs_hnctl_conf_add(struct vs_hnctl_conf *conf, const char *name, const char *const *keys,
		      u32 nr_keys, struct vs_err *err)
{
	struct vs_hnctl_type *types, t = { 0 };
	int ret = type_check(conf, name, keys, nr_keys, err);

	if (ret)
		return ret;
	/* tier 1 first: the hostname level goes, the rest turns over */
	t.name = strdup(name);
	t.keys = calloc(nr_keys - 1, sizeof(*t.keys));
	if (!t.name || !t.keys)
		goto out_nomem;
	for (u32 i = 0; i + 1 < nr_keys; i++) {
		t.keys[i] = strdup(keys[nr_keys - 2 - i]);
		if (!t.keys[i])
			goto out_nomem;
		t.nr_keys++;
	}
	types = realloc(conf->types, (conf->nr_types + 1) * sizeof(*types));
	if (!types)
		goto out_nomem;
	types[conf->nr_types++] = t;
	conf->types = types;
	qsort(conf->types, conf->nr_types, sizeof(*types), type_cmp);
	return 0;

out_nomem:
	type_free(&t);
	return vs_err_set(err, ENOMEM, "out of memory");
}

void vs_hnctl_conf_free(struct vs_hnctl_conf *conf)
{
	for (u32 i = 0; i < conf->nr_types; i++)
		type_free(&conf->types[i]);
	free(conf->types);
	conf->types = NULL;
	conf->nr_types = 0;
}

bool vs_hnctl_owns(const struct vs_hypernode *hn)
{
	u32 n = vs_labels_count(hn->labels);

	for (u32 i = 0; i < n; i++)
		if (!strcmp(hn->labels->kv[i].key, VS_HNCTL_SOURCE_KEY))
			return !strcmp(hn->labels->kv[i].value, VS_HNCTL_SOURCE_LABEL);
	return false;
}

/* ---- discovery ---- */

/* One discovered HyperNode: a (key, value) of a tier. */
struct disc {
	const char *key, *value;	/* interned: the node's label */
	s32 tier;
	char *name;
	const char **members;		/* node names (tier 1) or HyperNode names */
	u32 nr_members, cap_members;
};

/*
 * A pass's state: the HyperNodes found, indexed by (key, value) pointers
 * (interned, so compared as pointers) and by name.
 */
struct pass {
	struct vs_cluster *cl;
	struct disc *d;
	u32 nr, cap;
	u32 *by_kv, *by_name;		/* open addressing: index + 1, 0 empty */
	u32 mask;
	/* the controller's HyperNodes by each label but the source's: (key, value, name) order */
	struct owned *owned;
	u32 nr_owned;
};

struct owned {
	const char *key, *value;	/* interned */
	struct vs_hypernode *hn;
};

static int owned_cmp(const void *a, const void *b)
{
	const struct owned *x = a, *y = b;

	if (x->key != y->key)
		return (uintptr_t)x->key < (uintptr_t)y->key ? -1 : 1;
	if (x->value != y->value)
		return (uintptr_t)x->value < (uintptr_t)y->value ? -1 : 1;
	return strcmp(x->hn->name, y->hn->name);
}

/* The first of the controller's HyperNodes labelled @key=@value, in name order, or NULL. */
static const struct owned *owned_first(const struct pass *p, const char *key, const char *value)
{
	u32 lo = 0, hi = p->nr_owned;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		const struct owned *o = &p->owned[mid];

		if ((uintptr_t)o->key < (uintptr_t)key ||
		    (o->key == key && (uintptr_t)o->value < (uintptr_t)value))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->nr_owned && p->owned[lo].key == key && p->owned[lo].value == value)
		return &p->owned[lo];
	return NULL;
}

static u32 mix(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (u32)x;
}

static u32 kv_hash(const char *key, const char *value)
{
	return mix((u64)(uintptr_t)key * 31 + (u64)(uintptr_t)value);
}

static u32 *kv_slot(struct pass *p, const char *key, const char *value)
{
	u32 h = kv_hash(key, value) & p->mask;

	while (p->by_kv[h] && !(p->d[p->by_kv[h] - 1].key == key &&
				p->d[p->by_kv[h] - 1].value == value))
		h = (h + 1) & p->mask;
	return &p->by_kv[h];
}

static u32 *name_slot(struct pass *p, const char *name)
{
	u32 h = vs_str_hash_bytes(name, strlen(name)) & p->mask;

	while (p->by_name[h] && strcmp(p->d[p->by_name[h] - 1].name, name))
		h = (h + 1) & p->mask;
	return &p->by_name[h];
}

static struct disc *pass_find_name(struct pass *p, const char *name)
{
	u32 i = *name_slot(p, name);

	return i ? &p->d[i - 1] : NULL;
}

/* FNV-1a over "KEY=VALUE" and the attempt: the five characters of a name. */
static void name_suffix(const char *key, const char *value, u32 attempt, char out[6])
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";	/* Go's rand.String's */
	u64 h = 0xcbf29ce484222325ULL;
	const char *parts[3] = { key, "=", value };

	for (int k = 0; k < 3; k++)
		for (const char *s = parts[k]; *s; s++)
			h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	h = (h ^ attempt) * 0x100000001b3ULL;
	for (int i = 0; i < 5; i++) {
		out[i] = alphabet[h % (sizeof(alphabet) - 1)];
		h /= sizeof(alphabet) - 1;
	}
	out[5] = '\0';
}

/*
 * Volcano's buildHyperNodeName(): the name of a HyperNode of ours already
 * labelled so, the first by name whose name begins with the type's and
 * tier's prefix; else the first attempt no HyperNode has.
 */
static int choose_name(struct pass *p, const char *clean, s32 tier, const char *key,
		       const char *value, char *out, size_t len, struct vs_err *err)
{
	const struct owned *o = owned_first(p, key, value);
	const struct owned *end = p->owned + p->nr_owned;
	char prefix[64], sfx[6];

	snprintf(prefix, sizeof(prefix), "hypernode-%s-tier%d", clean, tier);
	for (; o && o < end && o->key == key && o->value == value; o++) {
		if (strncmp(o->hn->name, prefix, strlen(prefix)))
			continue;
		if (pass_find_name(p, o->hn->name))
			break;	/* the first by name is taken: as Volcano, a new name */
		snprintf(out, len, "%s", o->hn->name);
		return 0;
	}
	for (u32 a = 0; a < VS_HNCTL_ATTEMPTS; a++) {
		name_suffix(key, value, a, sfx);
		snprintf(out, len, "%s-%s", prefix, sfx);
		if (vs_hypernode_find(p->cl, out) || pass_find_name(p, out))
			continue;
		return 0;
	}
	return vs_err_set(err, EEXIST, "%s=%s: unable to get unique hyperNodeName after %d "
			  "attempts", key, value, VS_HNCTL_ATTEMPTS);
}

static int member_add(struct disc *d, const char *name)
{
	if (d->nr_members == d->cap_members) {
		u32 cap = d->cap_members ? 2 * d->cap_members : 4;
		const char **m = realloc(d->members, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		d->members = m;
		d->cap_members = cap;
	}
	d->members[d->nr_members++] = name;
	return 0;
}

/* The HyperNode of @key=@value, found or made (at tier @tier of type @clean). */
static int pass_get(struct pass *p, const char *clean, s32 tier, const char *key,
		    const char *value, struct disc **out, struct vs_err *err)
{
	u32 *slot = kv_slot(p, key, value);
	char name[VS_DNS_SUBDOMAIN_MAX + 1];
	struct disc *d;
	int ret;

	if (*slot) {
		*out = &p->d[*slot - 1];
		return 0;
	}
	if (p->nr == p->cap)
		return vs_err_set(err, ENOMEM, "more HyperNodes than counted");
	ret = choose_name(p, clean, tier, key, value, name, sizeof(name), err);
	if (ret)
		return ret;
	d = &p->d[p->nr];
	memset(d, 0, sizeof(*d));
	d->key = key;
	d->value = value;
	d->tier = tier;
	d->name = strdup(name);
	if (!d->name)
		return vs_err_set(err, ENOMEM, "out of memory");
	p->nr++;
	*slot = p->nr;
	*name_slot(p, d->name) = p->nr;
	*out = d;
	return 0;
}

/* Volcano's generateHyperNodeInfo(): every node, every type, tier by tier up. */
static int discover(struct pass *p, const struct vs_hnctl_conf *conf, struct vs_err *err)
{
	char clean[VS_HNCTL_TYPE_NAME_MAX + 1];
	const struct vs_node *node;
	struct disc *d = NULL;
	int ret;

	for (u32 t = 0; t < conf->nr_types; t++) {
		const struct vs_hnctl_type *type = &conf->types[t];

		clean_name(type->name, clean, sizeof(clean));
		list_for_each_entry(node, &p->cl->nodes, list) {
			const char *member = node->name;

			for (u32 i = 0; i < type->nr_keys; i++) {
				const char *key = vs_str_find(&p->cl->strs, type->keys[i],
							      strlen(type->keys[i]));
				const char *value = key ? vs_labels_get(node->labels, key) : NULL;

				if (!value)
					break;
				ret = pass_get(p, clean, (s32)i + 1, key, value, &d, err);
				if (ret)
					return ret;
				if (member_add(d, member))
					return vs_err_set(err, ENOMEM, "out of memory");
				member = d->name;
			}
		}
	}
	return 0;
}

/* ---- reconciliation ---- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Volcano's removeDuplicates() and BuildMembers()' sort. */
static void members_sort(struct disc *d)
{
	u32 n = 0;

	if (!d->nr_members)
		return;
	qsort(d->members, d->nr_members, sizeof(*d->members), name_cmp);
	for (u32 i = 1; i < d->nr_members; i++)
		if (strcmp(d->members[i], d->members[n]))
			d->members[++n] = d->members[i];
	d->nr_members = n + 1;
}

/* Whether @hn is what @spec says (its labels may hold more than @spec's). */
static bool same(const struct vs_hypernode *hn, const struct vs_hypernode_spec *spec)
{
	if (hn->tier != spec->tier || !hn->tier_name || strcmp(hn->tier_name, spec->tier_name) ||
	    hn->nr_members != spec->nr_members)
		return false;
	for (u32 i = 0; i < spec->nr_members; i++) {
		const struct vs_hn_member *m = &hn->members[i];

		if (m->type != spec->members[i].type || m->sel != VS_HN_EXACT ||
		    strcmp(m->name, spec->members[i].name))
			return false;
	}
	for (u32 i = 0; i < spec->nr_labels; i++) {
		const char *v = NULL;

		for (u32 k = 0; k < vs_labels_count(hn->labels); k++)
			if (!strcmp(hn->labels->kv[k].key, spec->labels[i].key))
				v = hn->labels->kv[k].value;
		if (!v || strcmp(v, spec->labels[i].value))
			return false;
	}
	return true;
}

/*
 * Make or update the HyperNode @d; an update keeps labels of the
 * HyperNode's that discovery does not set, as Volcano's UpdateHyperNode
 * merges them.
 */
static int apply(struct vs_ctl *ctl, struct pass *p, const struct disc *d, struct vs_err *err)
{
	struct vs_hypernode *hn = vs_hypernode_find(p->cl, d->name);
	u32 nr_old = hn ? vs_labels_count(hn->labels) : 0, nr_labels = 2;
	struct vs_hn_member_spec *m;
	struct vs_kv_spec *kv;
	struct vs_hypernode_spec spec = {
		.name = d->name, .tier = d->tier, .tier_name = d->key,
		.nr_members = d->nr_members,
	};
	int ret = -ENOMEM;

	if (hn && !vs_hnctl_owns(hn))
		return vs_err_set(err, EEXIST, "hypernode %s exists and is not discovered: left "
				  "alone", d->name);
	m = calloc(d->nr_members ? d->nr_members : 1, sizeof(*m));
	kv = calloc(nr_old + 2, sizeof(*kv));
	if (!m || !kv)
		goto out;
	kv[0] = (struct vs_kv_spec){ VS_HNCTL_SOURCE_KEY, VS_HNCTL_SOURCE_LABEL };
	kv[1] = (struct vs_kv_spec){ d->key, d->value };
	for (u32 i = 0; i < nr_old; i++) {
		const struct vs_label *l = &hn->labels->kv[i];

		if (strcmp(l->key, kv[0].key) && strcmp(l->key, kv[1].key))
			kv[nr_labels++] = (struct vs_kv_spec){ l->key, l->value };
	}
	for (u32 i = 0; i < d->nr_members; i++)
		m[i] = (struct vs_hn_member_spec){
			.type = d->tier == 1 ? VS_HN_MEMBER_NODE : VS_HN_MEMBER_HYPERNODE,
			.sel = VS_HN_EXACT, .name = d->members[i],
		};
	spec.members = m;
	spec.labels = kv;
	spec.nr_labels = nr_labels;
	if (hn && same(hn, &spec)) {
		ret = 0;
		goto out;
	}
	if (hn) {
		vs_v(3, "label discovery: updating hypernode %s", d->name);
		ret = vs_hypernode_update(p->cl, hn, &spec, err);
		if (!ret)
			vs_ctl_hypernode_changed(ctl, hn);
	} else {
		vs_v(3, "label discovery: creating hypernode %s (%s=%s, tier %d)", d->name,
		     d->key, d->value, d->tier);
		ret = vs_hypernode_add(p->cl, &spec, &hn, err);
		if (!ret)
			vs_ctl_hypernode_added(ctl, hn);
	}
out:
	if (ret == -ENOMEM && !vs_err_is_set(err))
		vs_err_set(err, ENOMEM, "hypernode %s: out of memory", d->name);
	free(m);
	free(kv);
	return ret;
}

static void pass_free(struct pass *p)
{
	for (u32 i = 0; i < p->nr; i++) {
		free(p->d[i].name);
		free(p->d[i].members);
	}
	free(p->d);
	free(p->by_kv);
	free(p->by_name);
	free(p->owned);
}

/* p->owned: the controller's HyperNodes, by their labels. */
static int owned_index(struct pass *p)
{
	struct vs_hypernode *hn;
	u32 n = 0;

	list_for_each_entry(hn, &p->cl->hypernodes.list, list)
		if (vs_hnctl_owns(hn))
			n += hn->labels->nr;
	if (!n)
		return 0;
	p->owned = calloc(n, sizeof(*p->owned));
	if (!p->owned)
		return -ENOMEM;
	list_for_each_entry(hn, &p->cl->hypernodes.list, list) {
		if (!vs_hnctl_owns(hn))
			continue;
		for (u32 i = 0; i < hn->labels->nr; i++)
			if (strcmp(hn->labels->kv[i].key, VS_HNCTL_SOURCE_KEY))
				p->owned[p->nr_owned++] = (struct owned){
					hn->labels->kv[i].key, hn->labels->kv[i].value, hn,
				};
	}
	qsort(p->owned, p->nr_owned, sizeof(*p->owned), owned_cmp);
	return 0;
}

/* Room for every HyperNode a pass can find: one per node, type and tier at most. */
static int pass_init(struct pass *p, struct vs_cluster *cl, const struct vs_hnctl_conf *conf)
{
	u64 cap = 0, slots = 16;

	memset(p, 0, sizeof(*p));
	p->cl = cl;
	for (u32 t = 0; t < conf->nr_types; t++)
		cap += (u64)cl->nr_nodes * conf->types[t].nr_keys;
	while (slots < 2 * cap + 2)
		slots *= 2;
	if (slots > UINT32_MAX)
		return -ENOMEM;
	p->cap = (u32)cap;
	p->mask = (u32)slots - 1;
	p->d = calloc(cap ? cap : 1, sizeof(*p->d));
	p->by_kv = calloc(slots, sizeof(*p->by_kv));
	p->by_name = calloc(slots, sizeof(*p->by_name));
	if (!p->d || !p->by_kv || !p->by_name)
		return -ENOMEM;
	return owned_index(p);
}

/* Collect the controller's HyperNodes that @p did not find: into *@out, *@nr. */
static int gone(struct pass *p, struct vs_hypernode ***out, u32 *nr)
{
	struct vs_hypernode *hn, **v;
	u32 n = 0;

	*out = NULL;
	*nr = 0;
	if (!p->cl->hypernodes.nr)
		return 0;
	v = calloc(p->cl->hypernodes.nr, sizeof(*v));
	if (!v)
		return -ENOMEM;
	list_for_each_entry(hn, &p->cl->hypernodes.list, list)
		if (vs_hnctl_owns(hn) && !pass_find_name(p, hn->name))
			v[n++] = hn;
	*out = v;
	*nr = n;
	return 0;
}

int vs_hnctl_sync(struct vs_ctl *ctl, const struct vs_hnctl_conf *conf, struct vs_err *err)
{
	struct vs_err e = { { 0 } };
	struct vs_hypernode **old;
	struct pass p;
	u32 nr_old;
	int ret, first = 0;

	if (pass_init(&p, ctl->cl, conf)) {
		pass_free(&p);
		return vs_err_set(err, ENOMEM, "label discovery: out of memory");
	}
	ret = discover(&p, conf, err);
	if (ret) {
		vs_err_prefix(err, "label discovery: ");
		goto out;
	}
	for (u32 i = 0; i < p.nr; i++) {
		members_sort(&p.d[i]);
		vs_err_clear(&e);
		ret = apply(ctl, &p, &p.d[i], &e);
		if (ret) {
			vs_warn("label discovery: %s", e.msg);
			if (!first) {
				first = ret;
				vs_err_set(err, -ret, "label discovery: %s", e.msg);
			}
		}
	}
	if (gone(&p, &old, &nr_old)) {
		ret = first ? first : vs_err_set(err, ENOMEM, "label discovery: out of memory");
		goto out;
	}
	for (u32 i = 0; i < nr_old; i++) {
		vs_v(3, "label discovery: deleting hypernode %s", old[i]->name);
		vs_ctl_hypernode_remove(ctl, old[i]);
	}
	free(old);
	ret = first;
out:
	pass_free(&p);
	return ret;
}
