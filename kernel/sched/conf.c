// SPDX-License-Identifier: Apache-2.0
/*
 * The scheduler configuration loader: volcano-scheduler.conf read with
 * libyaml's document API, checked key by key, and turned into struct
 * vs_conf. See conf.h for the format and the rules.
 *
 * Argument values are typed as Go's gopkg.in/yaml.v2 types plain scalars
 * when decoding into interface{} (YAML 1.1: yes/no/on/off are booleans,
 * 0x1F is an integer, .inf a float); quoted scalars are strings. Aliases
 * are refused: Volcano's configurations do not use them, and expanding
 * them is how a small file becomes a huge one.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "sched/conf.h"

#define CONF_FILE_MAX	(4u << 20)
#define CONF_DEPTH_MAX	64

static const char *const flag_names[VS_EN_NR] = {
	[VS_EN_JOB_ORDER]		= "enableJobOrder",
	[VS_EN_HIERARCHY]		= "enableHierarchy",
	[VS_EN_JOB_READY]		= "enableJobReady",
	[VS_EN_JOB_PIPELINED]		= "enableJobPipelined",
	[VS_EN_TASK_ORDER]		= "enableTaskOrder",
	[VS_EN_PREEMPTABLE]		= "enablePreemptable",
	[VS_EN_RECLAIMABLE]		= "enableReclaimable",
	[VS_EN_PREEMPTIVE]		= "enablePreemptive",
	[VS_EN_QUEUE_ORDER]		= "enableQueueOrder",
	[VS_EN_CLUSTER_ORDER]		= "enabledClusterOrder",
	[VS_EN_PREDICATE]		= "enablePredicate",
	[VS_EN_BEST_NODE]		= "enableBestNode",
	[VS_EN_NODE_ORDER]		= "enableNodeOrder",
	[VS_EN_TARGET_JOB]		= "enableTargetJob",
	[VS_EN_RESERVED_NODES]		= "enableReservedNodes",
	[VS_EN_JOB_ENQUEUED]		= "enableJobEnqueued",
	[VS_EN_VICTIM]			= "enabledVictim",
	[VS_EN_JOB_STARVING]		= "enableJobStarving",
	[VS_EN_OVERUSED]		= "enabledOverused",
	[VS_EN_ALLOCATABLE]		= "enabledAllocatable",
	[VS_EN_HYPERNODE_ORDER]		= "enabledHyperNodeOrder",
	[VS_EN_SUBJOB_READY]		= "enabledSubJobReady",
	[VS_EN_SUBJOB_PIPELINED]	= "enabledSubJobPipelined",
	[VS_EN_SUBJOB_ORDER]		= "enabledSubJobOrder",
	[VS_EN_HYPERNODE_GRADIENT]	= "enabledHyperNodeGradient",
};

const char *vs_en_flag_name(enum vs_en_flag flag)
{
	return (unsigned int)flag < VS_EN_NR ? flag_names[flag] : "?";
}

const char vs_conf_default_text[] =
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n"
	"  - name: conformance\n"
	"- plugins:\n"
	"  - name: overcommit\n"
	"  - name: drf\n"
	"  - name: predicates\n"
	"  - name: proportion\n"
	"  - name: nodeorder\n";

/* ---- the parse state ---- */

struct parse {
	yaml_document_t doc;
	const char *source;
	const struct vs_conf_names *names;
	struct vs_err *err;
	u8 *seen;			/* per node: visited, to refuse aliases */
	size_t nr_nodes;
};

__printf(3, 4)
static int fail(struct parse *ps, const yaml_node_t *node, const char *fmt, ...)
{
	char msg[VS_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (node)
		return vs_err_set(ps->err, EINVAL, "%s:%lu: %s", ps->source,
				  (unsigned long)node->start_mark.line + 1, msg);
	return vs_err_set(ps->err, EINVAL, "%s: %s", ps->source, msg);
}

static u32 line_of(const yaml_node_t *node)
{
	return (u32)node->start_mark.line + 1;
}

/* The node @id; refuses one reached twice, which only an alias can do. */
static yaml_node_t *node_get(struct parse *ps, int id, int *ret)
{
	yaml_node_t *node = yaml_document_get_node(&ps->doc, id);
	size_t idx = (size_t)id - 1;

	if (!node || idx >= ps->nr_nodes) {
		*ret = fail(ps, NULL, "malformed document");
		return NULL;
	}
	if (ps->seen[idx]) {
		*ret = fail(ps, node, "aliases (*name) are not supported");
		return NULL;
	}
	ps->seen[idx] = 1;
	return node;
}

static const char *scalar(const yaml_node_t *node)
{
	return (const char *)node->data.scalar.value;
}

static bool plain(const yaml_node_t *node)
{
	return node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* ---- yaml.v2's resolution of plain scalars ---- */

static bool is_null(const char *s)
{
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

static int yaml11_bool(const char *s)
{
	static const char *const yes[] = { "y", "Y", "yes", "Yes", "YES", "true", "True",
					   "TRUE", "on", "On", "ON" };
	static const char *const no[] = { "n", "N", "no", "No", "NO", "false", "False",
					  "FALSE", "off", "Off", "OFF" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcmp(s, yes[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcmp(s, no[i]))
			return 0;
	return -1;
}

/* An integer as yaml.v2 reads one: sign, 0x / 0o / 0b / leading-0 octal, underscores. */
static bool yaml11_int(const char *s, s64 *out)
{
	char buf[80];
	size_t n = 0;
	bool neg = false;
	int base = 10;
	const char *p = s;
	char *end;
	unsigned long long v;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) {
		base = 8;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
		base = 2;
		p += 2;
	} else if (p[0] == '0' && p[1]) {
		base = 8;
		p += 1;
	}
	if (!*p)
		return false;
	for (; *p; p++) {
		if (*p == '_')
			continue;
		if (n + 1 >= sizeof(buf))
			return false;
		buf[n++] = *p;
	}
	buf[n] = '\0';
	if (!n || buf[0] == '+' || buf[0] == '-')
		return false;
	errno = 0;
	v = strtoull(buf, &end, base);
	if (*end || errno)
		return false;
	if (neg ? v > (unsigned long long)INT64_MAX + 1 : v > (unsigned long long)INT64_MAX)
		return false;
	*out = neg ? (s64)(0 - v) : (s64)v;
	return true;
}

static bool yaml11_float(const char *s, double *out)
{
	const char *p = s;
	char *end;
	bool digits = false;

	if (!strcmp(s, ".inf") || !strcmp(s, ".Inf") || !strcmp(s, ".INF") ||
	    !strcmp(s, "+.inf") || !strcmp(s, "+.Inf") || !strcmp(s, "+.INF")) {
		*out = INFINITY;
		return true;
	}
	if (!strcmp(s, "-.inf") || !strcmp(s, "-.Inf") || !strcmp(s, "-.INF")) {
		*out = -INFINITY;
		return true;
	}
	if (!strcmp(s, ".nan") || !strcmp(s, ".NaN") || !strcmp(s, ".NAN")) {
		*out = NAN;
		return true;
	}
	/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
	if (*p == '+' || *p == '-')
		p++;
	while (isdigit((unsigned char)*p)) {
		p++;
		digits = true;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits = true;
		}
	}
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return false;
	*out = strtod(s, &end);
	return *end == '\0';
}

/* ---- values ---- */

static void arg_free(struct vs_arg *a);

static void args_free(struct vs_args *args)
{
	for (u32 i = 0; i < args->nr; i++) {
		free(args->kv[i].key);
		arg_free(&args->kv[i].val);
	}
	free(args->kv);
	args->kv = NULL;
	args->nr = 0;
}

static void arg_free(struct vs_arg *a)
{
	switch (a->type) {
	case VS_ARG_STRING:
		free(a->s);
		break;
	case VS_ARG_MAP:
		if (a->map) {
			args_free(a->map);
			free(a->map);
		}
		break;
	case VS_ARG_SEQ:
		for (u32 i = 0; i < a->seq.nr; i++)
			arg_free(&a->seq.items[i]);
		free(a->seq.items);
		break;
	default:
		break;
	}
	a->type = VS_ARG_NULL;
}

static int build_args(struct parse *ps, yaml_node_t *map, struct vs_args *out, int depth);

static int build_arg(struct parse *ps, yaml_node_t *node, struct vs_arg *out, int depth)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->line = line_of(node);
	if (depth > CONF_DEPTH_MAX)
		return fail(ps, node, "nested more than %d levels deep", CONF_DEPTH_MAX);

	switch (node->type) {
	case YAML_SCALAR_NODE: {
		const char *s = scalar(node);
		int b;

		if (plain(node)) {
			if (is_null(s)) {
				out->type = VS_ARG_NULL;
				return 0;
			}
			if ((b = yaml11_bool(s)) >= 0) {
				out->type = VS_ARG_BOOL;
				out->b = b;
				return 0;
			}
			if (yaml11_int(s, &out->i)) {
				out->type = VS_ARG_INT;
				return 0;
			}
			if (yaml11_float(s, &out->f)) {
				out->type = VS_ARG_FLOAT;
				return 0;
			}
		}
		out->type = VS_ARG_STRING;
		out->s = strdup(s);
		return out->s ? 0 : fail(ps, node, "out of memory");
	}
	case YAML_MAPPING_NODE:
		out->type = VS_ARG_MAP;
		out->map = calloc(1, sizeof(*out->map));
		if (!out->map)
			return fail(ps, node, "out of memory");
		out->map->source = ps->source;
		return build_args(ps, node, out->map, depth + 1);
	case YAML_SEQUENCE_NODE: {
		size_t n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);

		out->type = VS_ARG_SEQ;
		out->seq.items = calloc(n ? n : 1, sizeof(*out->seq.items));
		if (!out->seq.items)
			return fail(ps, node, "out of memory");
		for (size_t i = 0; i < n && !ret; i++) {
			yaml_node_t *item = node_get(ps, node->data.sequence.items.start[i], &ret);

			if (!item)
				break;
			ret = build_arg(ps, item, &out->seq.items[out->seq.nr], depth + 1);
			out->seq.nr++;
		}
		return ret;
	}
	default:
		return fail(ps, node, "unexpected YAML node");
	}
}

/* A mapping's key: a scalar, as a string. */
static int key_of(struct parse *ps, yaml_node_pair_t *pair, yaml_node_t **key,
		  yaml_node_t **val)
{
	int ret = 0;

	*key = node_get(ps, pair->key, &ret);
	if (!*key)
		return ret;
	if ((*key)->type != YAML_SCALAR_NODE)
		return fail(ps, *key, "a key must be a plain string");
	*val = node_get(ps, pair->value, &ret);
	return *val ? 0 : ret;
}

static int build_args(struct parse *ps, yaml_node_t *map, struct vs_args *out, int depth)
{
	size_t n;
	int ret = 0;

	out->source = ps->source;
	if (map->type == YAML_SCALAR_NODE && plain(map) && is_null(scalar(map)))
		return 0;	/* "arguments:" with nothing after it */
	if (map->type != YAML_MAPPING_NODE)
		return fail(ps, map, "expected a mapping of arguments");
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	out->kv = calloc(n ? n : 1, sizeof(*out->kv));
	if (!out->kv)
		return fail(ps, map, "out of memory");
	for (size_t i = 0; i < n && !ret; i++) {
		yaml_node_t *key, *val;

		ret = key_of(ps, &map->data.mapping.pairs.start[i], &key, &val);
		if (ret)
			break;
		for (u32 j = 0; j < out->nr; j++)
			if (!strcmp(out->kv[j].key, scalar(key)))
				return fail(ps, key, "argument \"%s\" given twice", scalar(key));
		out->kv[out->nr].key = strdup(scalar(key));
		if (!out->kv[out->nr].key)
			return fail(ps, key, "out of memory");
		out->nr++;
		ret = build_arg(ps, val, &out->kv[out->nr - 1].val, depth);
	}
	return ret;
}

/* ---- the schema ---- */

static int want_string(struct parse *ps, yaml_node_t *node, const char *what, const char **out)
{
	if (node->type != YAML_SCALAR_NODE || (plain(node) && is_null(scalar(node))))
		return fail(ps, node, "%s must be a string", what);
	*out = scalar(node);
	return 0;
}

static int want_bool(struct parse *ps, yaml_node_t *node, const char *what, bool *out)
{
	int b;

	if (node->type != YAML_SCALAR_NODE || !plain(node) || (b = yaml11_bool(scalar(node))) < 0)
		return fail(ps, node, "%s must be true or false", what);
	*out = b;
	return 0;
}

static bool name_known(const char *const *list, u32 nr, const char *name)
{
	if (!list)
		return true;
	for (u32 i = 0; i < nr; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static int unknown_name(struct parse *ps, yaml_node_t *node, const char *what,
			const char *name, const char *const *list, u32 nr)
{
	char known[160];
	size_t len = 0;

	known[0] = '\0';
	for (u32 i = 0; i < nr && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
					i ? ", " : "", list[i]);
	return fail(ps, node, "unknown %s \"%s\" (known: %s)", what, name, known);
}

static int parse_actions(struct parse *ps, yaml_node_t *node, struct vs_conf *conf)
{
	const char *text = NULL, *p;
	int ret = want_string(ps, node, "actions", &text);
	u32 nr = 1;

	if (ret || !text)
		return ret ? ret : -EINVAL;
	for (p = text; *p; p++)
		nr += *p == ',';
	conf->actions = calloc(nr, sizeof(*conf->actions));
	if (!conf->actions)
		return fail(ps, node, "out of memory");
	for (p = text;;) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		const char *b = p, *e = end;
		char *name;

		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if (b == e)
			return fail(ps, node, "empty action in \"%s\"", text);
		name = strndup(b, (size_t)(e - b));
		if (!name)
			return fail(ps, node, "out of memory");
		conf->actions[conf->nr_actions++] = name;
		if (!name_known(ps->names ? ps->names->actions : NULL,
				ps->names ? ps->names->nr_actions : 0, name))
			return unknown_name(ps, node, "action", name, ps->names->actions,
					    ps->names->nr_actions);
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

static int parse_plugin(struct parse *ps, yaml_node_t *node, struct vs_conf_plugin *cp)
{
	const char *name = NULL;
	size_t n;
	int ret = 0;

	cp->line = line_of(node);
	cp->args.source = ps->source;
	if (node->type != YAML_MAPPING_NODE)
		return fail(ps, node, "a plugin must be a mapping with a name");
	n = (size_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
	for (size_t i = 0; i < n && !ret; i++) {
		yaml_node_t *key, *val;
		const char *k;
		int f;

		ret = key_of(ps, &node->data.mapping.pairs.start[i], &key, &val);
		if (ret)
			break;
		k = scalar(key);
		if (!strcmp(k, "name")) {
			if (name)
				return fail(ps, key, "name given twice");
			ret = want_string(ps, val, "name", &name);
			if (!ret && (!name || !*name))
				ret = fail(ps, val, "a plugin name is empty");
			continue;
		}
		if (!strcmp(k, "arguments")) {
			if (cp->args.kv)
				return fail(ps, key, "arguments given twice");
			ret = build_args(ps, val, &cp->args, 1);
			continue;
		}
		for (f = 0; f < VS_EN_NR; f++)
			if (!strcmp(k, flag_names[f]))
				break;
		if (f == VS_EN_NR)
			return fail(ps, key, "unknown key \"%s\" in plugin %s", k, name ? name : "");
		if (cp->flags_set & (1u << f))
			return fail(ps, key, "%s given twice", k);
		{
			bool on = false;

			ret = want_bool(ps, val, k, &on);
			if (ret)
				break;
			cp->flags_set |= 1u << f;
			if (on)
				cp->flags_on |= 1u << f;
		}
	}
	if (ret)
		return ret;
	if (!name)
		return fail(ps, node, "a plugin has no name");
	cp->name = strdup(name);
	if (!cp->name)
		return fail(ps, node, "out of memory");
	if (!name_known(ps->names ? ps->names->plugins : NULL,
			ps->names ? ps->names->nr_plugins : 0, cp->name))
		return unknown_name(ps, node, "plugin", cp->name, ps->names->plugins,
				    ps->names->nr_plugins);
	return 0;
}

static int parse_tier(struct parse *ps, yaml_node_t *node, struct vs_conf_tier *tier)
{
	yaml_node_t *plugins = NULL;
	size_t n;
	int ret = 0;

	if (node->type != YAML_MAPPING_NODE)
		return fail(ps, node, "a tier must be a mapping with plugins");
	n = (size_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *key, *val;

		ret = key_of(ps, &node->data.mapping.pairs.start[i], &key, &val);
		if (ret)
			return ret;
		if (strcmp(scalar(key), "plugins"))
			return fail(ps, key, "unknown key \"%s\" in a tier", scalar(key));
		if (plugins)
			return fail(ps, key, "plugins given twice");
		plugins = val;
	}
	if (!plugins || (plugins->type == YAML_SCALAR_NODE && is_null(scalar(plugins))))
		return 0;
	if (plugins->type != YAML_SEQUENCE_NODE)
		return fail(ps, plugins, "plugins must be a list");
	n = (size_t)(plugins->data.sequence.items.top - plugins->data.sequence.items.start);
	tier->plugins = calloc(n ? n : 1, sizeof(*tier->plugins));
	if (!tier->plugins)
		return fail(ps, plugins, "out of memory");
	for (size_t i = 0; i < n && !ret; i++) {
		yaml_node_t *item = node_get(ps, plugins->data.sequence.items.start[i], &ret);

		if (!item)
			break;
		tier->nr++;
		ret = parse_plugin(ps, item, &tier->plugins[tier->nr - 1]);
	}
	return ret;
}

static int parse_tiers(struct parse *ps, yaml_node_t *node, struct vs_conf *conf)
{
	size_t n;
	int ret = 0;

	if (node->type == YAML_SCALAR_NODE && is_null(scalar(node)))
		return 0;
	if (node->type != YAML_SEQUENCE_NODE)
		return fail(ps, node, "tiers must be a list");
	n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
	conf->tiers = calloc(n ? n : 1, sizeof(*conf->tiers));
	if (!conf->tiers)
		return fail(ps, node, "out of memory");
	for (size_t i = 0; i < n && !ret; i++) {
		yaml_node_t *item = node_get(ps, node->data.sequence.items.start[i], &ret);

		if (!item)
			break;
		conf->nr_tiers++;
		ret = parse_tier(ps, item, &conf->tiers[conf->nr_tiers - 1]);
	}
	return ret;
}

static int parse_configurations(struct parse *ps, yaml_node_t *node, struct vs_conf *conf)
{
	size_t n;
	int ret = 0;

	if (node->type == YAML_SCALAR_NODE && is_null(scalar(node)))
		return 0;
	if (node->type != YAML_SEQUENCE_NODE)
		return fail(ps, node, "configurations must be a list");
	n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
	conf->configurations = calloc(n ? n : 1, sizeof(*conf->configurations));
	if (!conf->configurations)
		return fail(ps, node, "out of memory");
	for (size_t i = 0; i < n && !ret; i++) {
		struct vs_conf_action *ca = &conf->configurations[conf->nr_configurations];
		yaml_node_t *item = node_get(ps, node->data.sequence.items.start[i], &ret);
		const char *name = NULL;
		size_t m;

		if (!item)
			break;
		conf->nr_configurations++;
		ca->line = line_of(item);
		ca->args.source = ps->source;
		if (item->type != YAML_MAPPING_NODE)
			return fail(ps, item, "a configuration must be a mapping with a name");
		m = (size_t)(item->data.mapping.pairs.top - item->data.mapping.pairs.start);
		for (size_t j = 0; j < m && !ret; j++) {
			yaml_node_t *key, *val;

			ret = key_of(ps, &item->data.mapping.pairs.start[j], &key, &val);
			if (ret)
				break;
			if (!strcmp(scalar(key), "name")) {
				if (name)
					return fail(ps, key, "name given twice");
				ret = want_string(ps, val, "name", &name);
			} else if (!strcmp(scalar(key), "arguments")) {
				if (ca->args.kv)
					return fail(ps, key, "arguments given twice");
				ret = build_args(ps, val, &ca->args, 1);
			} else {
				return fail(ps, key, "unknown key \"%s\" in a configuration",
					    scalar(key));
			}
		}
		if (ret)
			break;
		if (!name)
			return fail(ps, item, "a configuration has no name");
		ca->name = strdup(name);
		if (!ca->name)
			return fail(ps, item, "out of memory");
		if (!name_known(ps->names ? ps->names->actions : NULL,
				ps->names ? ps->names->nr_actions : 0, name))
			return unknown_name(ps, item, "action", name, ps->names->actions,
					    ps->names->nr_actions);
		for (u32 j = 0; j + 1 < conf->nr_configurations; j++)
			if (!strcmp(conf->configurations[j].name, name))
				return fail(ps, item, "a second configuration for action %s", name);
	}
	return ret;
}

/* Volcano refuses hierarchical drf next to proportion in one tier. */
static int check_hierarchy_conflict(struct parse *ps, const struct vs_conf *conf)
{
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		const struct vs_conf_plugin *hdrf = NULL;
		bool proportion = false;

		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			const struct vs_conf_plugin *cp = &conf->tiers[t].plugins[i];

			if (!strcmp(cp->name, "drf") && (cp->flags_set & cp->flags_on &
							 (1u << VS_EN_HIERARCHY)))
				hdrf = cp;
			if (!strcmp(cp->name, "proportion"))
				proportion = true;
		}
		if (hdrf && proportion)
			return vs_err_set(ps->err, EINVAL,
					  "%s:%u: proportion and drf with hierarchy enabled conflict",
					  ps->source, hdrf->line);
	}
	return 0;
}

static int parse_root(struct parse *ps, struct vs_conf *conf)
{
	bool seen_actions = false, seen_tiers = false, seen_conf = false, seen_metrics = false;
	yaml_node_t *root;
	size_t n;
	int ret = 0;

	root = yaml_document_get_root_node(&ps->doc);
	if (!root)
		return fail(ps, NULL, "the file is empty");
	root = node_get(ps, 1, &ret);
	if (!root)
		return ret;
	if (root->type != YAML_MAPPING_NODE)
		return fail(ps, root, "expected a mapping with actions and tiers");
	n = (size_t)(root->data.mapping.pairs.top - root->data.mapping.pairs.start);
	for (size_t i = 0; i < n && !ret; i++) {
		yaml_node_t *key, *val;
		const char *k;

		ret = key_of(ps, &root->data.mapping.pairs.start[i], &key, &val);
		if (ret)
			break;
		k = scalar(key);
		if (!strcmp(k, "actions")) {
			if (seen_actions)
				return fail(ps, key, "actions given twice");
			seen_actions = true;
			ret = parse_actions(ps, val, conf);
		} else if (!strcmp(k, "tiers")) {
			if (seen_tiers)
				return fail(ps, key, "tiers given twice");
			seen_tiers = true;
			ret = parse_tiers(ps, val, conf);
		} else if (!strcmp(k, "configurations")) {
			if (seen_conf)
				return fail(ps, key, "configurations given twice");
			seen_conf = true;
			ret = parse_configurations(ps, val, conf);
		} else if (!strcmp(k, "metrics")) {
			if (seen_metrics)
				return fail(ps, key, "metrics given twice");
			seen_metrics = true;
			ret = build_args(ps, val, &conf->metrics, 1);
		} else {
			return fail(ps, key, "unknown key \"%s\"", k);
		}
	}
	if (ret)
		return ret;
	if (!seen_actions)
		return fail(ps, root, "no actions");
	return check_hierarchy_conflict(ps, conf);
}

static void apply_defaults(struct vs_conf *conf, enum vs_conf_flag_default def)
{
	u32 all = (1u << VS_EN_NR) - 1;

	for (u32 t = 0; t < conf->nr_tiers; t++) {
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			struct vs_conf_plugin *cp = &conf->tiers[t].plugins[i];

			if (def == VS_CONF_FLAGS_DEFAULT_ON)
				cp->flags_on |= all & ~cp->flags_set;
		}
	}
}

int vs_conf_parse(const char *text, size_t len, const char *source,
		  const struct vs_conf_names *names, enum vs_conf_flag_default def,
		  struct vs_conf **out, struct vs_err *err)
{
	struct parse ps = { .source = source ? source : "configuration", .names = names,
			    .err = err };
	yaml_parser_t parser;
	struct vs_conf *conf;
	int ret;

	*out = NULL;
	conf = calloc(1, sizeof(*conf));
	if (!conf)
		return vs_err_set(err, ENOMEM, "out of memory");
	conf->source = strdup(ps.source);
	conf->metrics.source = conf->source;
	if (!conf->source) {
		free(conf);
		return vs_err_set(err, ENOMEM, "out of memory");
	}
	ps.source = conf->source;

	if (!yaml_parser_initialize(&parser)) {
		vs_conf_free(conf);
		return vs_err_set(err, ENOMEM, "out of memory");
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &ps.doc)) {
		ret = vs_err_set(err, EINVAL, "%s:%lu:%lu: %s%s%s", ps.source,
				 (unsigned long)parser.problem_mark.line + 1,
				 (unsigned long)parser.problem_mark.column + 1,
				 parser.problem ? parser.problem : "malformed YAML",
				 parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		vs_conf_free(conf);
		return ret;
	}
	ps.nr_nodes = (size_t)(ps.doc.nodes.top - ps.doc.nodes.start);
	ps.seen = calloc(ps.nr_nodes ? ps.nr_nodes : 1, 1);
	ret = ps.seen ? parse_root(&ps, conf) : vs_err_set(err, ENOMEM, "out of memory");
	free(ps.seen);
	yaml_document_delete(&ps.doc);
	yaml_parser_delete(&parser);
	if (ret) {
		vs_conf_free(conf);
		return ret;
	}
	apply_defaults(conf, def);
	*out = conf;
	return 0;
}

int vs_conf_load_file(const char *path, const struct vs_conf_names *names,
		      struct vs_conf **out, struct vs_err *err)
{
	FILE *f;
	char *buf;
	size_t n;
	int ret;

	*out = NULL;
	f = fopen(path, "r");
	if (!f)
		return vs_err_set(err, errno, "%s: %s", path, strerror(errno));
	buf = malloc(CONF_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		return vs_err_set(err, ENOMEM, "out of memory");
	}
	n = fread(buf, 1, CONF_FILE_MAX + 1, f);
	if (ferror(f)) {
		ret = vs_err_set(err, EIO, "%s: read error", path);
	} else if (n > CONF_FILE_MAX) {
		ret = vs_err_set(err, EFBIG, "%s: larger than %u bytes", path, CONF_FILE_MAX);
	} else {
		ret = vs_conf_parse(buf, n, path, names, VS_CONF_FLAGS_DEFAULT_ON, out, err);
	}
	fclose(f);
	free(buf);
	return ret;
}

void vs_conf_free(struct vs_conf *conf)
{
	if (!conf)
		return;
	for (u32 i = 0; i < conf->nr_actions; i++)
		free(conf->actions[i]);
	free(conf->actions);
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			free(conf->tiers[t].plugins[i].name);
			args_free(&conf->tiers[t].plugins[i].args);
		}
		free(conf->tiers[t].plugins);
	}
	free(conf->tiers);
	for (u32 i = 0; i < conf->nr_configurations; i++) {
		free(conf->configurations[i].name);
		args_free(&conf->configurations[i].args);
	}
	free(conf->configurations);
	args_free(&conf->metrics);
	free(conf->source);
	free(conf);
}

const struct vs_args *vs_conf_action_args(const struct vs_conf *conf, const char *action)
{
	for (u32 i = 0; i < conf->nr_configurations; i++)
		if (!strcmp(conf->configurations[i].name, action))
			return &conf->configurations[i].args;
	return NULL;
}

/* ---- typed getters ---- */

const struct vs_arg *vs_args_find(const struct vs_args *args, const char *key)
{
	if (!args)
		return NULL;
	for (u32 i = 0; i < args->nr; i++)
		if (!strcmp(args->kv[i].key, key))
			return &args->kv[i].val;
	return NULL;
}

static int wrong_type(const struct vs_args *args, const char *key, const struct vs_arg *a,
		      const char *expected, struct vs_err *err)
{
	static const char *const type_names[] = {
		[VS_ARG_NULL] = "null", [VS_ARG_BOOL] = "a boolean", [VS_ARG_INT] = "an integer",
		[VS_ARG_FLOAT] = "a number", [VS_ARG_STRING] = "a string", [VS_ARG_MAP] = "a mapping",
		[VS_ARG_SEQ] = "a list",
	};

	if (a->type == VS_ARG_STRING)
		return vs_err_set(err, EINVAL, "%s:%u: argument \"%s\": expected %s, got \"%s\"",
				  args->source ? args->source : "configuration", a->line, key,
				  expected, a->s);
	return vs_err_set(err, EINVAL, "%s:%u: argument \"%s\": expected %s, got %s",
			  args->source ? args->source : "configuration", a->line, key, expected,
			  type_names[a->type]);
}

int vs_args_get_int(const struct vs_args *args, const char *key, s64 *out, struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);

	if (!a)
		return 0;
	if (a->type != VS_ARG_INT)
		return wrong_type(args, key, a, "an integer", err);
	*out = a->i;
	return 0;
}

int vs_args_get_float(const struct vs_args *args, const char *key, double *out,
		      struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);

	if (!a)
		return 0;
	if (a->type == VS_ARG_INT)
		*out = (double)a->i;
	else if (a->type == VS_ARG_FLOAT)
		*out = a->f;
	else
		return wrong_type(args, key, a, "a number", err);
	return 0;
}

/* strconv.ParseBool's spellings. */
static int parse_bool(const char *s)
{
	static const char *const t[] = { "1", "t", "T", "TRUE", "true", "True" };
	static const char *const f[] = { "0", "f", "F", "FALSE", "false", "False" };

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(s, t[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (!strcmp(s, f[i]))
			return 0;
	return -1;
}

int vs_args_get_bool(const struct vs_args *args, const char *key, bool *out, struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);
	int b;

	if (!a)
		return 0;
	if (a->type == VS_ARG_BOOL) {
		*out = a->b;
		return 0;
	}
	if (a->type == VS_ARG_STRING && (b = parse_bool(a->s)) >= 0) {
		*out = b;
		return 0;
	}
	return wrong_type(args, key, a, "true or false", err);
}

int vs_args_get_string(const struct vs_args *args, const char *key, const char **out,
		       struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);

	if (!a)
		return 0;
	if (a->type != VS_ARG_STRING)
		return wrong_type(args, key, a, "a string", err);
	*out = a->s;
	return 0;
}

/* ---- formatting ---- */

struct outbuf {
	char *buf;
	size_t len, pos;
};

__printf(2, 3)
static void put(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->pos < o->len ? o->buf + o->pos : NULL,
		      o->pos < o->len ? o->len - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

/* A double-quoted YAML string with the escapes it needs. */
static void put_string(struct outbuf *o, const char *s)
{
	put(o, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else if (c < 0x20)
			put(o, "\\x%02x", c);
		else
			put(o, "%c", c);
	}
	put(o, "\"");
}

static void put_arg(struct outbuf *o, const struct vs_arg *a);

static void put_args(struct outbuf *o, const struct vs_args *args)
{
	put(o, "{");
	for (u32 i = 0; i < args->nr; i++) {
		put(o, "%s", i ? ", " : "");
		put_string(o, args->kv[i].key);
		put(o, ": ");
		put_arg(o, &args->kv[i].val);
	}
	put(o, "}");
}

static void put_arg(struct outbuf *o, const struct vs_arg *a)
{
	switch (a->type) {
	case VS_ARG_NULL:
		put(o, "null");
		break;
	case VS_ARG_BOOL:
		put(o, "%s", a->b ? "true" : "false");
		break;
	case VS_ARG_INT:
		put(o, "%lld", (long long)a->i);
		break;
	case VS_ARG_FLOAT:
		if (isnan(a->f))
			put(o, ".nan");
		else if (isinf(a->f))
			put(o, "%s.inf", a->f < 0 ? "-" : "");
		else if (a->f == floor(a->f) && fabs(a->f) < 1e15)
			put(o, "%.1f", a->f);	/* keep it a float when read back */
		else
			put(o, "%.17g", a->f);
		break;
	case VS_ARG_STRING:
		put_string(o, a->s);
		break;
	case VS_ARG_MAP:
		put_args(o, a->map);
		break;
	case VS_ARG_SEQ:
		put(o, "[");
		for (u32 i = 0; i < a->seq.nr; i++) {
			put(o, "%s", i ? ", " : "");
			put_arg(o, &a->seq.items[i]);
		}
		put(o, "]");
		break;
	}
}

size_t vs_conf_format(const struct vs_conf *conf, char *buf, size_t len)
{
	struct outbuf o = { .buf = buf, .len = len };

	if (buf && len)
		buf[0] = '\0';
	put(&o, "actions: \"");
	for (u32 i = 0; i < conf->nr_actions; i++)
		put(&o, "%s%s", i ? ", " : "", conf->actions[i]);
	put(&o, "\"\ntiers:\n");
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		put(&o, "- plugins:\n");
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			const struct vs_conf_plugin *cp = &conf->tiers[t].plugins[i];

			put(&o, "  - name: ");
			put_string(&o, cp->name);
			put(&o, "\n");
			for (int f = 0; f < VS_EN_NR; f++)
				put(&o, "    %s: %s\n", flag_names[f],
				    cp->flags_on & (1u << f) ? "true" : "false");
			if (cp->args.nr) {
				put(&o, "    arguments: ");
				put_args(&o, &cp->args);
				put(&o, "\n");
			}
		}
	}
	if (conf->nr_configurations) {
		put(&o, "configurations:\n");
		for (u32 i = 0; i < conf->nr_configurations; i++) {
			put(&o, "- name: ");
			put_string(&o, conf->configurations[i].name);
			put(&o, "\n  arguments: ");
			put_args(&o, &conf->configurations[i].args);
			put(&o, "\n");
		}
	}
	if (conf->metrics.nr) {
		put(&o, "metrics: ");
		put_args(&o, &conf->metrics);
		put(&o, "\n");
	}
	return o.pos;
}
