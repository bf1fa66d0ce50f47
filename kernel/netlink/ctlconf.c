// SPDX-License-Identifier: Apache-2.0
/*
 * The controllers' configuration (ctlconf.h): networkTopologyDiscovery read
 * from Volcano's volcano-controller.conf, checked whole, and label
 * discovery's sync point.
 *
 *   networkTopologyDiscovery:
 *   - source: label
 *     enabled: true
 *     config:
 *       networkTopologyTypes:
 *         NAME:
 *         - nodeLabel: KEY          # the top tier
 *         - nodeLabel: kubernetes.io/hostname
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/duration.h"
#include "core/file.h"
#include "core/log.h"
#include "netlink/ctlconf.h"
#include "netlink/handlers.h"
#include "sched/conf.h"

/* The most a controller configuration file may hold. */
#define CTLCONF_FILE_MAX	(4u << 20)

struct rd {
	const char *source;
	struct vs_err *err;
};

__printf(3, 4)
static int bad(struct rd *rd, u32 line, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vs_err_vat(rd->err, EINVAL, rd->source, line, fmt, ap);
	va_end(ap);
	return ret;
}

static const char *type_name(enum vs_arg_type t)
{
	static const char *const names[] = {
		[VS_ARG_NULL] = "null", [VS_ARG_BOOL] = "a boolean", [VS_ARG_INT] = "an integer",
		[VS_ARG_FLOAT] = "a float", [VS_ARG_STRING] = "a string", [VS_ARG_MAP] = "a map",
		[VS_ARG_SEQ] = "a list",
	};

	return names[t];
}

/* Every key of @m is one of the NULL-terminated @known; @what names the map. */
static int keys_known(struct rd *rd, const struct vs_args *m, const char *const *known,
		      const char *what)
{
	for (u32 i = 0; i < m->nr; i++) {
		const char *const *k;

		for (k = known; *k && strcmp(*k, m->kv[i].key); k++)
			;
		if (!*k)
			return bad(rd, m->kv[i].line, "unknown key \"%s\" in %s", m->kv[i].key, what);
	}
	return 0;
}

static int want(struct rd *rd, const struct vs_arg *v, enum vs_arg_type t, const char *what)
{
	if (v->type != t)
		return bad(rd, v->line, "%s must be %s, not %s", what, type_name(t),
			   type_name(v->type));
	return 0;
}

/* One type: a list of {nodeLabel: KEY}, top tier first. */
static int read_type(struct rd *rd, const struct vs_arg_kv *t, struct vs_hnctl_conf *out)
{
	static const char *const known[] = { "nodeLabel", NULL };
	const char **keys;
	u32 nr;
	int ret;

	if (t->val.type != VS_ARG_SEQ)
		return bad(rd, t->val.line, "network topology type \"%s\" must be a list of "
			   "{nodeLabel: KEY}, not %s", t->key, type_name(t->val.type));
	nr = t->val.seq.nr;
	keys = calloc(nr ? nr : 1, sizeof(*keys));
	if (!keys)
		return vs_err_set(rd->err, ENOMEM, "%s: out of memory", rd->source);
	for (u32 i = 0; i < nr; i++) {
		const struct vs_arg *item = &t->val.seq.items[i];
		const struct vs_arg *label;

		ret = want(rd, item, VS_ARG_MAP, "a tier ({nodeLabel: KEY})");
		if (!ret)
			ret = keys_known(rd, item->map, known, "a tier");
		if (ret)
			goto out;
		label = vs_args_find(item->map, "nodeLabel");
		if (!label) {
			ret = bad(rd, item->line, "network topology type \"%s\": a tier without "
				  "nodeLabel", t->key);
			goto out;
		}
		ret = want(rd, label, VS_ARG_STRING, "nodeLabel");
		if (ret)
			goto out;
		keys[i] = label->s;
	}
	ret = vs_hnctl_conf_add(out, t->key, keys, nr, rd->err);
	if (ret) {
		char msg[sizeof(rd->err->msg)];

		/* the controller's reason, at the type's line */
		memcpy(msg, rd->err->msg, sizeof(msg));
		vs_err_clear(rd->err);
		ret = vs_err_set(rd->err, -ret, "%s:%u: %s", rd->source, t->line, msg);
	}
out:
	free(keys);
	return ret;
}

static int read_label_config(struct rd *rd, const struct vs_arg *cfg, struct vs_hnctl_conf *out)
{
	static const char *const known[] = { "networkTopologyTypes", NULL };
	const struct vs_arg *types;
	int ret;

	if (cfg->type == VS_ARG_NULL)
		return 0;
	ret = want(rd, cfg, VS_ARG_MAP, "config");
	if (!ret)
		ret = keys_known(rd, cfg->map, known, "the label source's config");
	if (ret)
		return ret;
	types = vs_args_find(cfg->map, "networkTopologyTypes");
	if (!types || types->type == VS_ARG_NULL)
		return 0;
	ret = want(rd, types, VS_ARG_MAP, "networkTopologyTypes");
	for (u32 i = 0; !ret && i < types->map->nr; i++)
		ret = read_type(rd, &types->map->kv[i], out);
	return ret;
}

/* One entry of networkTopologyDiscovery; *@label_line says where "label" was seen. */
static int read_source(struct rd *rd, const struct vs_arg *e, u32 *label_line,
		       struct vs_hnctl_conf *out)
{
	static const char *const known[] = {
		"source", "enabled", "interval", "credentials", "config", NULL
	};
	const struct vs_arg *src, *en, *iv, *cfg;
	bool enabled = false;
	const char *why;
	u32 ms;
	int ret;

	ret = want(rd, e, VS_ARG_MAP, "a discovery source");
	if (!ret)
		ret = keys_known(rd, e->map, known, "a discovery source");
	if (ret)
		return ret;
	src = vs_args_find(e->map, "source");
	if (!src || src->type != VS_ARG_STRING || !*src->s)
		return bad(rd, src ? src->line : e->line, "a discovery source needs a source name");
	en = vs_args_find(e->map, "enabled");
	if (en && en->type != VS_ARG_NULL) {
		ret = want(rd, en, VS_ARG_BOOL, "enabled");
		if (ret)
			return ret;
		enabled = en->b;
	}
	iv = vs_args_find(e->map, "interval");
	if (iv && iv->type != VS_ARG_NULL) {
		ret = want(rd, iv, VS_ARG_STRING, "interval");
		if (ret)
			return ret;
		if (vs_parse_duration(iv->s, UINT32_MAX, &ms, &why))
			return bad(rd, iv->line, "interval \"%s\": %s", iv->s, why);
	}
	if (strcmp(src->s, VS_HNCTL_SOURCE_LABEL)) {
		if (enabled)
			return bad(rd, src->line, "discovery source \"%s\" is not supported: vsched "
				   "discovers HyperNodes from node labels only (source: label)",
				   src->s);
		return 0;	/* off: its config is another discoverer's */
	}
	if (*label_line)
		return bad(rd, src->line, "a second discovery source \"label\" (first on line %u)",
			   *label_line);
	*label_line = src->line;
	cfg = vs_args_find(e->map, "config");
	if (!enabled || !cfg)
		return 0;
	return read_label_config(rd, cfg, out);
}

int vs_nl_ctlconf_parse(const char *text, size_t len, const char *source,
			struct vs_hnctl_conf *out, struct vs_err *err)
{
	static const char *const known[] = { "networkTopologyDiscovery", NULL };
	struct rd rd = { source, err };
	const struct vs_arg *list;
	struct vs_arg doc;
	u32 label_line = 0;
	int ret;

	ret = vs_yaml_parse(text, len, source, &doc, err);
	if (ret)
		goto out;
	if (doc.type == VS_ARG_NULL)
		goto out;
	ret = want(&rd, &doc, VS_ARG_MAP, "the controller configuration");
	if (!ret)
		ret = keys_known(&rd, doc.map, known, "the controller configuration");
	if (ret)
		goto out;
	list = vs_args_find(doc.map, "networkTopologyDiscovery");
	if (!list || list->type == VS_ARG_NULL)
		goto out;
	ret = want(&rd, list, VS_ARG_SEQ, "networkTopologyDiscovery");
	for (u32 i = 0; !ret && i < list->seq.nr; i++)
		ret = read_source(&rd, &list->seq.items[i], &label_line, out);
out:
	vs_arg_free(&doc);
	if (ret)
		vs_hnctl_conf_free(out);
	return ret;
}

int vs_nl_ctlconf_load_file(const char *path, struct vs_hnctl_conf *out, struct vs_err *err)
{
	size_t len;
	char *buf;
	int ret;

	ret = vs_read_regular_file(path, CTLCONF_FILE_MAX, &buf, &len, err);
	if (ret)
		return ret;
	ret = vs_nl_ctlconf_parse(buf, len, path, out, err);
	free(buf);
	return ret;
}

void vs_nl_topology_set(struct vs_nl_core *core, struct vs_hnctl_conf *conf)
{
	vs_hnctl_conf_free(&core->topology);
	core->topology = *conf;
	memset(conf, 0, sizeof(*conf));
	core->topology_synced = false;
}

void vs_nl_topology_release(struct vs_nl_core *core)
{
	vs_hnctl_conf_free(&core->topology);
}

int vs_nl_topology_sync(struct vs_nl_core *core, struct vs_err *err)
{
	struct vs_cluster *cl = core->cl;
	struct vs_ctl ctl;
	int ret;

	if (!core->topology.nr_types || cl->txn ||
	    (core->topology_synced && core->topology_seen == cl->hypernodes.events))
		return 0;
	vs_nl_ctl_init(core, &ctl);
	ret = vs_hnctl_sync(&ctl, &core->topology, err);
	/*
	 * Its own deletions count too: what it did is what it saw. A failure
	 * (a limit, a name it cannot find) waits for the next change of a
	 * node or HyperNode, rather than being logged at every request.
	 */
	core->topology_seen = cl->hypernodes.events;
	core->topology_synced = true;
	return ret;
}
