// SPDX-License-Identifier: Apache-2.0
/*
 * What a Pod and a VolcanoJob's task template share, read from a pod spec:
 * the containers' requests and host ports, and the tolerations (see
 * kread.h). Containers are open objects (an image, a command... are taken
 * and ignored); their resources, ports and the tolerations are closed, an
 * unknown key a typo.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"


/* Where a list's items go: each a nest @type of @set; @key is the list's. */
struct item_to {
	const struct vsnl_codec_set *set;
	u16 type;
	const char *key;
};

/* ---- containers ---- */

struct container_in {
	struct kr_res req, lim;
	struct kr_containers *to;	/* where its ports go; NULL: checked, not kept */
	u32 idx;			/* its index in the list */
};

static const struct kr_field resources_fields[] = {
	KR_FIELD("requests", kr_res, struct container_in, req),
	KR_FIELD("limits", kr_res, struct container_in, lim),
	KR_IGNORE("claims"),
};

static int p_resources(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, resources_fields, ARRAY_SIZE(resources_fields), slot, NULL);
}

/* ---- a container's ports ---- */

struct port_in {
	s64 container, host;
	u32 protocol;
	bool has_protocol;
	const char *ip;
};

static int p_port_num(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	/* 0 is a hostPort's "none"; containerPort's range is checked once it is known */
	return kr_get_int(kr, kv, 0, 65535, slot);
}

static int p_protocol(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct port_in *p = slot;

	return kr_enum(kr, kv, vsnl_port_protocol_names, VSNL_NR_PORT_PROTOCOL, "protocol",
		       &p->protocol, &p->has_protocol);
}

static const struct kr_field port_fields[] = {
	KR_FIELD("containerPort", p_port_num, struct port_in, container),
	KR_FIELD("hostPort", p_port_num, struct port_in, host),
	{ .key = "protocol", .parse = p_protocol },
	KR_FIELD("hostIP", kr_str, struct port_in, ip),
	KR_IGNORE("name"),
};

static int p_ports(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct container_in *c = slot;
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	size_t old, at;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vsnl_ynode *item = &kv->val.seq.items[i];
		struct port_in p = { 0 };
		struct kr_port *out;

		at = kr_push_idx(kr, i);
		ret = kr_walk(kr, item, "a container port", port_fields, ARRAY_SIZE(port_fields),
			      &p, NULL);
		if (!ret && p.container < 1)
			ret = kr_err(kr, item->line, "%s.containerPort: required, in 1..65535",
				     kr->path);
		kr_pop(kr, at);
		if (ret || !c->to)
			continue;
		if (c->to->nr_ports == KR_PORTS_MAX) {
			ret = kr_err(kr, item->line, "%s: more than %d ports in a pod's containers",
				     kr->path, KR_PORTS_MAX);
			continue;
		}
		out = &c->to->ports[c->to->nr_ports++];
		*out = (struct kr_port){
			.container = (u32)p.container, .host = (u32)p.host,
			.protocol = p.has_protocol ? p.protocol : VS_PORT_PROTOCOL_TCP,
			.ip = p.ip && *p.ip ? p.ip : NULL, .line = item->line,
			.in_container = c->idx, .idx = i,
		};
	}
	kr_pop(kr, old);
	return ret;
}

static const struct kr_field container_fields[] = {
	{ .key = "resources", .parse = p_resources },
	{ .key = "ports", .parse = p_ports },
	KR_OPEN,
};

/*
 * Kubernetes' defaulting of a container (SetDefaults_Container): a limit
 * whose request is not written makes the request. The request list holds
 * only the names written, so the ones absent are the ones to default.
 */
static int container_default(struct container_in *c)
{
	for (u32 i = 0; i < c->lim.nr; i++) {
		struct kr_res_ent *e;

		if (kr_res_get(&c->req, c->lim.e[i].name, false))
			continue;
		e = kr_res_get(&c->req, c->lim.e[i].name, true);
		if (!e)
			return -ENOSPC;
		e->v = c->lim.e[i].v;
	}
	return 0;
}

/*
 * A list of containers, each one's request (defaulted) folded into @to by
 * @fold: kr_res_add() for the containers, kr_res_max() for the init ones.
 */
static int containers(struct kr *kr, const struct vsnl_ypair *kv, struct kr_res *to,
		      struct kr_containers *ports,
		      int (*fold)(struct kr_res *to, const struct kr_res *r))
{
	struct container_in c;
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	size_t old, at;

	if (ret)
		return ret;
	memset(to, 0, sizeof(*to));
	to->line = kv->line;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vsnl_ynode *item = &kv->val.seq.items[i];

		memset(&c, 0, sizeof(c));
		c.to = ports;
		c.idx = i;
		at = kr_push_idx(kr, i);
		ret = kr_walk(kr, item, kv->key, container_fields, ARRAY_SIZE(container_fields),
			      &c, NULL);
		if (!ret && (container_default(&c) || fold(to, &c.req)))
			ret = kr_err(kr, item->line, "%s: more than %d resources", kr->path,
				     KR_RES_MAX);
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

int kr_containers(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct kr_containers *c = slot;

	c->nr_ports = 0;
	return containers(kr, kv, &c->req, c, kr_res_add);
}

int kr_init_containers(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct kr_res *r = slot;
	/* an init container's ports are checked, and take nothing on the node */
	int ret = containers(kr, kv, r, NULL, kr_res_max);

	/* no init container, no init request */
	if (!ret && !kv->val.seq.nr)
		r->line = 0;
	return ret;
}

int kr_put_images(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		  const struct vsnl_ynode *spec, const char *path)
{
	static const char *const lists[] = { "initContainers", "containers" };
	int ret = 0;

	for (u32 l = 0; !ret && l < ARRAY_SIZE(lists); l++) {
		const struct vsnl_ynode *cs = vsnl_ymap_get(spec, lists[l]);

		for (u32 i = 0; !ret && cs && cs->type == VSNL_Y_SEQ && i < cs->seq.nr; i++) {
			const struct vsnl_ynode *img = vsnl_ymap_get(&cs->seq.items[i], "image");
			char at[KR_PATH_MAX + 48];

			if (!img || img->type == VSNL_Y_NULL)
				continue;
			snprintf(at, sizeof(at), "%s.%s[%u].image", path, lists[l], i);
			if (img->type != VSNL_Y_STRING)
				return kr_err(kr, img->line, "%s must be a string, not %s", at,
					      kr_type_name(img));
			if (*img->text)
				ret = kr_put_ret(kr, img, at,
						 vsnl_codec_put_str(kr->nlh, kr->cap, set, type,
								    img->text, kr->err));
		}
	}
	return ret;
}

int kr_put_host_ports(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		      const struct kr_containers *c, bool host_network, const char *path)
{
	struct nlmsghdr *nlh = kr->nlh;

	for (u32 i = 0; i < c->nr_ports; i++) {
		const struct kr_port *p = &c->ports[i];
		/* Kubernetes' defaulting: a host-network pod's ports are its host's */
		u32 host = !p->host && host_network ? p->container : p->host;
		struct nlattr *nest;
		int ret;

		if (!host)
			continue;
		/* The API server's AccumulateUniqueHostPorts, after that defaulting. */
		for (u32 j = 0; j < i; j++) {
			const struct kr_port *q = &c->ports[j];
			u32 qhost = !q->host && host_network ? q->container : q->host;

			if (qhost == host && q->protocol == p->protocol &&
			    !strcmp(q->ip ?: "", p->ip ?: ""))
				return kr_err(kr, p->line, "%s[%u].ports[%u].hostPort: duplicate "
					      "%s/%s/%u", path, p->in_container, p->idx,
					      vsnl_port_protocol_names[p->protocol], p->ip ?: "",
					      host);
		}
		nest = vsnl_codec_nest_start(nlh, kr->cap, set, type, kr->err);
		if (!nest)
			return kr->err->err ?: -EMSGSIZE;
		ret = vsnl_host_port_put_port(nlh, kr->cap, host, kr->err) ?:
		      vsnl_host_port_put_protocol(nlh, kr->cap, p->protocol, kr->err);
		if (!ret && p->ip) {
			char at[KR_PATH_MAX];

			snprintf(at, sizeof(at), "%s[%u].ports[%u].hostIP", path, p->in_container,
				 p->idx);
			ret = kr_put_ret(kr, NULL, at,
					 vsnl_host_port_put_ip(nlh, kr->cap, p->ip, kr->err));
		}
		if (ret)
			return ret;
		mnl_attr_nest_end(nlh, nest);
	}
	return 0;
}

/* ---- tolerations ---- */

struct tol_in {
	const struct vsnl_ypair *key, *value, *seconds;
	u32 op, effect;
	bool has_op, has_effect;
	s64 secs;
};

/*
 * An enum among the spec's display names @names (the first @nr; "" is the
 * daemon's default), refused in the core's words: "unknown toleration
 * operator \"x\" (Equal or Exists)".
 */
static int tol_enum(struct kr *kr, const struct vsnl_ypair *kv, const char *const *names, u32 nr,
		    const char *what, u32 *out, bool *present)
{
	char list[128];
	size_t len = 0;
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	if (ret)
		return ret;
	*present = false;
	if (!*kv->val.text)
		return 0;
	for (u32 i = 0; i < nr; i++) {
		if (!strcmp(names[i], kv->val.text)) {
			*out = i;
			*present = true;
			return 0;
		}
	}
	list[0] = '\0';
	for (u32 i = 0; i < nr && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					!i ? "" : i + 1 < nr ? ", " : " or ", names[i]);
	return kr_err(kr, kv->line, "%s: unknown %s \"%s\" (%s)", kr_name(kr, kv), what,
		      kv->val.text, list);
}

static int p_tol_op(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct tol_in *t = slot;

	return tol_enum(kr, kv, vsnl_toleration_op_names, VSNL_NR_TOLERATION_OP,
			"toleration operator", &t->op, &t->has_op);
}

/* Every effect but the "" that means all of them, which is no effect's name. */
static int p_tol_effect(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct tol_in *t = slot;

	return tol_enum(kr, kv, vsnl_taint_effect_names, VS_TAINT_EFFECT_ANY, "taint effect",
			&t->effect, &t->has_effect);
}

static int p_tol_str(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	if (!ret)
		*(const struct vsnl_ypair **)slot = kv;
	return ret;
}

static int p_tol_seconds(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct tol_in *t = slot;
	int ret = kr_get_int(kr, kv, INT64_MIN, INT64_MAX, &t->secs);

	if (!ret)
		t->seconds = kv;
	return ret;
}

static const struct kr_field tol_fields[] = {
	KR_FIELD("key", p_tol_str, struct tol_in, key),
	{ .key = "operator", .parse = p_tol_op },
	KR_FIELD("value", p_tol_str, struct tol_in, value),
	{ .key = "effect", .parse = p_tol_effect },
	{ .key = "tolerationSeconds", .parse = p_tol_seconds },
};

/*
 * One toleration's nest: what is written, the rest the daemon's default.
 * Only the strings can be refused by the policy (their lengths); the
 * enums were read from its names.
 */
static int put_tol(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		   const struct vsnl_ynode *item, const struct tol_in *t)
{
	struct nlmsghdr *nlh = kr->nlh;
	struct nlattr *nest;
	int ret = 0;

	nest = vsnl_codec_nest_start(nlh, kr->cap, set, type, kr->err);
	if (!nest)
		return kr_put_ret(kr, item, kr->path, kr->err->err ?: -EMSGSIZE);
	if (t->key)
		ret = kr_put_ret(kr, &t->key->val, kr_name(kr, t->key),
				 vsnl_toleration_put_key(nlh, kr->cap, t->key->val.text, kr->err));
	if (!ret && t->has_op)
		ret = vsnl_toleration_put_operator(nlh, kr->cap, t->op, kr->err);
	if (!ret && t->value)
		ret = kr_put_ret(kr, &t->value->val, kr_name(kr, t->value),
				 vsnl_toleration_put_value(nlh, kr->cap, t->value->val.text,
							   kr->err));
	if (!ret && t->has_effect)
		ret = vsnl_toleration_put_effect(nlh, kr->cap, t->effect, kr->err);
	if (!ret && t->seconds)
		ret = vsnl_toleration_put_seconds(nlh, kr->cap, t->secs, kr->err);
	if (!ret)
		mnl_attr_nest_end(nlh, nest);
	return ret;
}


static int tol_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	const struct item_to *to = ctx;
	struct tol_in t = { 0 };

	return kr_walk(kr, item, to->key, tol_fields, ARRAY_SIZE(tol_fields), &t, NULL) ?:
	       put_tol(kr, to->set, to->type, item, &t);
}

int kr_put_tolerations(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		       const struct vsnl_ypair *kv)
{
	struct item_to to = { set, type, kv ? kv->key : NULL };

	if (!kv || kv->val.type == VSNL_Y_NULL)
		return 0;
	return kr_each_item(kr, kv, tol_item, &to);
}

/* ---- topology spread constraints ---- */

struct spread_in {
	s32 max_skew, min_domains;
	const char *key;
	u32 when, affinity_policy, taints_policy;
	bool has_when, has_affinity_policy, has_taints_policy;
	const struct vsnl_ypair *selector, *keys;
};

static int p_spread_when(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct spread_in *s = slot;

	return kr_enum(kr, kv, vsnl_spread_action_names, VSNL_NR_SPREAD_ACTION,
		       "whenUnsatisfiable", &s->when, &s->has_when);
}

static int p_spread_affinity(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct spread_in *s = slot;

	return kr_enum(kr, kv, vsnl_inclusion_policy_names, VSNL_NR_INCLUSION_POLICY,
		       "node inclusion policy", &s->affinity_policy, &s->has_affinity_policy);
}

static int p_spread_taints(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct spread_in *s = slot;

	return kr_enum(kr, kv, vsnl_inclusion_policy_names, VSNL_NR_INCLUSION_POLICY,
		       "node inclusion policy", &s->taints_policy, &s->has_taints_policy);
}

static int p_spread_selector(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct spread_in *s = slot;

	s->selector = kv->val.type == VSNL_Y_NULL ? NULL : kv;
	return 0;
}

static const struct kr_field spread_fields[] = {
	KR_FIELD("maxSkew", kr_s32, struct spread_in, max_skew),
	KR_FIELD("topologyKey", kr_str, struct spread_in, key),
	{ .key = "whenUnsatisfiable", .parse = p_spread_when },
	{ .key = "labelSelector", .parse = p_spread_selector },
	KR_FIELD("minDomains", kr_s32, struct spread_in, min_domains),
	{ .key = "nodeAffinityPolicy", .parse = p_spread_affinity },
	{ .key = "nodeTaintsPolicy", .parse = p_spread_taints },
	KR_FIELD("matchLabelKeys", kr_strs, struct spread_in, keys),
};

/*
 * One constraint's nest: the three fields the API requires, then what is
 * written; the values are the core's to check (core/spread.h), as the API
 * server does.
 */
static int put_spread(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		      const struct vsnl_ynode *item, const struct spread_in *s, u64 seen)
{
	static const char *const required[] = { "maxSkew", "topologyKey", "whenUnsatisfiable" };
	struct nlmsghdr *nlh = kr->nlh;
	char at[KR_PATH_MAX + 16];
	struct nlattr *nest;
	int ret;

	for (u32 i = 0; i < ARRAY_SIZE(required); i++)
		if (!KR_HAS(spread_fields, seen, required[i]))
			return kr_err(kr, item->line, "%s.%s: required", kr->path, required[i]);
	nest = vsnl_codec_nest_start(nlh, kr->cap, set, type, kr->err);
	if (!nest)
		return kr_put_ret(kr, item, kr->path, kr->err->err ?: -EMSGSIZE);
	snprintf(at, sizeof(at), "%s.maxSkew", kr->path);
	ret = kr_put_ret(kr, item, at, vsnl_spread_put_max_skew(nlh, kr->cap, s->max_skew,
								   kr->err));
	snprintf(at, sizeof(at), "%s.topologyKey", kr->path);
	if (!ret)
		ret = kr_put_ret(kr, item, at, vsnl_spread_put_topology_key(nlh, kr->cap, s->key,
									   kr->err)) ?:
		      vsnl_spread_put_when(nlh, kr->cap, s->when, kr->err);
	if (!ret && s->selector)
		ret = kr_put_lsel(kr, &vsnl_codec_spread, VS_SPREAD_A_SELECTOR, s->selector);
	snprintf(at, sizeof(at), "%s.minDomains", kr->path);
	if (!ret && KR_HAS(spread_fields, seen, "minDomains"))
		ret = kr_put_ret(kr, item, at, vsnl_spread_put_min_domains(nlh, kr->cap,
									  s->min_domains,
									  kr->err));
	if (!ret && s->has_affinity_policy)
		ret = vsnl_spread_put_node_affinity_policy(nlh, kr->cap, s->affinity_policy,
							   kr->err);
	if (!ret && s->has_taints_policy)
		ret = vsnl_spread_put_node_taints_policy(nlh, kr->cap, s->taints_policy, kr->err);
	if (!ret && s->keys)
		ret = kr_put_strs(kr, s->keys, &vsnl_codec_spread, VS_SPREAD_A_MATCH_LABEL_KEY);
	if (!ret)
		mnl_attr_nest_end(nlh, nest);
	return ret;
}

static int spread_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	const struct item_to *to = ctx;
	struct spread_in s = { 0 };
	u64 seen = 0;

	return kr_walk(kr, item, "a topology spread constraint", spread_fields,
		       ARRAY_SIZE(spread_fields), &s, &seen) ?:
	       put_spread(kr, to->set, to->type, item, &s, seen);
}

int kr_put_spreads(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		   const struct vsnl_ypair *kv)
{
	struct item_to to = { set, type, kv ? kv->key : NULL };

	if (!kv || kv->val.type == VSNL_Y_NULL)
		return 0;
	return kr_each_item(kr, kv, spread_item, &to);
}
