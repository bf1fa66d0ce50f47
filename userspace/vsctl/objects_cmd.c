// SPDX-License-Identifier: Apache-2.0
/*
 * "vsctl KIND list|show|del": the objects of a running vschedd.
 *
 *	vsctl node list [-o table|wide|json]
 *	vsctl podgroup list -n team-a --queue research
 *	vsctl task list -A --status Pending,Pipelined
 *	vsctl job list -j
 *	vsctl node show n1			(JSON, as the protocol carries it)
 *	vsctl task del team-a/job-0
 *
 * Each kind is one row of the table below: its top-level attribute, its
 * commands, its key and its columns (objects.h; edit_cmd.c changes objects
 * of the same kinds). Rows come from the daemon as netlink replies,
 * rendered to JSON by render.c; the table view picks paths out of that
 * JSON, so "-o json" and the table always agree.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <netlink/msg.h>

#include "lib/codec_gen.h"
#include "lib/compiler.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "vsctl/objects.h"
#include "vsctl/request.h"
#include "vsctl/table.h"
#include "vsctl/vsctl.h"

/* A cell computed from the object rather than read at one path. */
typedef char *(*cell_fn)(const json_t *obj);

struct vsctl_column {
	const char *header;
	const char *path;		/* "allocatable.cpu" */
	cell_fn fn;			/* instead of @path */
};

/* ---- cells ---- */

static const json_t *at(const json_t *obj, const char *path)
{
	char key[64];

	while (obj && path && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		obj = json_object_get(obj, key);
		path = dot ? dot + 1 : NULL;
	}
	return obj;
}

static char *str_of(const json_t *obj, const char *path)
{
	return vsnl_render_cell(at(obj, path));
}

static char *pair(const json_t *obj, const char *a, const char *b)
{
	char *x = str_of(obj, a), *y = str_of(obj, b), *s = NULL;

	if (x && y && asprintf(&s, "%s/%s", *x ? x : "0", *y ? y : "0") < 0)
		s = NULL;
	free(x);
	free(y);
	return s;
}

static char *node_status(const json_t *n)
{
	bool ready = json_is_true(at(n, "ready"));
	bool cordoned = json_is_true(at(n, "unschedulable"));

	return strdup(!ready ? (cordoned ? "NotReady,SchedulingDisabled" : "NotReady") :
		      cordoned ? "Ready,SchedulingDisabled" : "Ready");
}

static char *node_cpu(const json_t *n)
{
	return pair(n, "idle.cpu", "allocatable.cpu");
}

static char *node_memory(const json_t *n)
{
	return pair(n, "idle.memory", "allocatable.memory");
}

static char *node_pods(const json_t *n)
{
	return pair(n, "nrTasks", "allocatable.pods");
}

static char *count_of(const json_t *arr)
{
	char *s;

	return asprintf(&s, "%zu", json_is_array(arr) ? json_array_size(arr) : 0) < 0 ? NULL : s;
}

static char *node_taints(const json_t *n)
{
	return count_of(at(n, "taints"));
}

/* Sum of a counts object ({"Pending": 2, "Running": 3}). */
static char *sum_counts(const json_t *counts)
{
	const char *key;
	json_t *v;
	long long sum = 0;
	char *s;

	json_object_foreach((json_t *)counts, key, v)
		sum += json_integer_value(v);
	return asprintf(&s, "%lld", sum) < 0 ? NULL : s;
}

static char *queue_podgroups(const json_t *q)
{
	return sum_counts(at(q, "nrPodGroups"));
}

static char *queue_cpu(const json_t *q)
{
	return pair(q, "allocated.cpu", "deserved.cpu");
}

static char *queue_memory(const json_t *q)
{
	return pair(q, "allocated.memory", "deserved.memory");
}

static char *pg_tasks(const json_t *pg)
{
	const json_t *c = at(pg, "nrTasks");
	long long running = json_integer_value(json_object_get(c, "Running")) +
			    json_integer_value(json_object_get(c, "Bound")) +
			    json_integer_value(json_object_get(c, "Binding"));
	long long all = 0;
	const char *key;
	json_t *v;
	char *s;

	json_object_foreach((json_t *)c, key, v)
		all += json_integer_value(v);
	return asprintf(&s, "%lld/%lld", running, all) < 0 ? NULL : s;
}

/* The reason of the last condition, as "kubectl get podgroup" users look for it. */
static char *pg_reason(const json_t *pg)
{
	const json_t *conds = at(pg, "conditions");
	size_t n = json_is_array(conds) ? json_array_size(conds) : 0;

	return n ? str_of(json_array_get(conds, n - 1), "reason") : strdup("");
}

/* Every task the job asks for: the sum of its task groups' replicas. */
static char *vjob_replicas(const json_t *j)
{
	const json_t *t;
	long long sum = 0;
	size_t i;
	char *s;

	json_array_foreach(at(j, "tasks"), i, t)
		sum += json_integer_value(json_object_get(t, "replicas"));
	return asprintf(&s, "%lld", sum) < 0 ? NULL : s;
}

static char *vjob_retries(const json_t *j)
{
	return pair(j, "retryCount", "maxRetry");
}

/* "ps:1,worker:4", as "vcctl job view" lists the task groups. */
static char *vjob_groups(const json_t *j)
{
	const json_t *t;
	char *s = strdup(""), *next;
	size_t i;

	json_array_foreach(at(j, "tasks"), i, t) {
		if (!s || asprintf(&next, "%s%s%s:%lld", s, i ? "," : "",
				   json_string_value(json_object_get(t, "name")),
				   json_integer_value(json_object_get(t, "replicas"))) < 0)
			next = NULL;
		free(s);
		s = next;
	}
	return s;
}

/* "labels=K=V,K2=V2" of a member's matchLabels ("labels=" when it has none). */
static char *hn_labels(const json_t *labels)
{
	char *s = strdup("labels="), *next;
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)labels, key, v) {
		if (!s || asprintf(&next, "%s%s%s=%s", s, s[7] ? "," : "", key,
				   json_string_value(v)) < 0)
			next = NULL;
		free(s);
		s = next;
	}
	return s;
}

/*
 * Which discoverer made a HyperNode: its volcano.sh/network-topology-source
 * label, as Volcano marks the HyperNodes its discovery makes ("label");
 * "-" for one a user made.
 */
static char *hn_discovered(const json_t *h)
{
	const char *src = json_string_value(json_object_get(json_object_get(h, "labels"),
							    "volcano.sh/network-topology-source"));

	return strdup(src && *src ? src : "-");
}

/* A HyperNode's members as "vsctl hypernode add --member" takes them, one after the other. */
static char *hn_members(const json_t *h)
{
	const json_t *m, *labels, *re;
	char *s = strdup(""), *what, *next;
	const char *type;
	size_t i;

	json_array_foreach(at(h, "members"), i, m) {
		type = json_string_value(json_object_get(m, "type"));
		labels = json_object_get(m, "matchLabels");
		re = json_object_get(m, "regexMatch");
		if (labels)
			what = hn_labels(labels);
		else if (asprintf(&what, "%s=%s", re ? "regex" : "exact",
				  json_string_value(re ? re : json_object_get(m, "exactMatch"))) < 0)
			what = NULL;
		if (!s || !what || asprintf(&next, "%s%s%s:%s", s, i ? " " : "",
					    type && !strcmp(type, "HyperNode") ? "hypernode" : "node",
					    what) < 0)
			next = NULL;
		free(what);
		free(s);
		s = next;
	}
	return s;
}

/* ---- kinds ---- */

static const struct vsctl_column node_cols[] = {
	{ "NAME", "name", NULL },
	{ "STATUS", NULL, node_status },
	{ "CPU(IDLE/ALLOC)", NULL, node_cpu },
	{ "MEMORY(IDLE/ALLOC)", NULL, node_memory },
	{ "PODS", NULL, node_pods },
	{ "TAINTS", NULL, node_taints },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column node_wide[] = {
	{ "LABELS", "labels", NULL },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column queue_cols[] = {
	{ "NAME", "name", NULL },
	{ "WEIGHT", "weight", NULL },
	{ "STATE", "state", NULL },
	{ "PRIORITY", "priority", NULL },
	{ "CPU(ALLOC/DESERVED)", NULL, queue_cpu },
	{ "MEMORY(ALLOC/DESERVED)", NULL, queue_memory },
	{ "PODGROUPS", NULL, queue_podgroups },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column queue_wide[] = {
	{ "CAPABILITY", "capability", NULL },
	{ "GUARANTEE", "guarantee", NULL },
	{ "RECLAIMABLE", "reclaimable", NULL },
	{ "PARENT", "parent", NULL },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column pg_cols[] = {
	{ "NAMESPACE", "namespace", NULL },
	{ "NAME", "name", NULL },
	{ "QUEUE", "queue", NULL },
	{ "PHASE", "phase", NULL },
	{ "MINMEMBER", "minMember", NULL },
	{ "TASKS(RUN/ALL)", NULL, pg_tasks },
	{ "REASON", NULL, pg_reason },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column pg_wide[] = {
	{ "PRIORITYCLASS", "priorityClassName", NULL },
	{ "PREEMPTABLE", "preemptable", NULL },
	{ "ALLOCATED", "allocated", NULL },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column task_cols[] = {
	{ "NAMESPACE", "namespace", NULL },
	{ "NAME", "name", NULL },
	{ "PODGROUP", "podgroup", NULL },
	{ "STATUS", "status", NULL },
	{ "NODE", "node", NULL },
	{ "CPU", "request.cpu", NULL },
	{ "MEMORY", "request.memory", NULL },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column task_wide[] = {
	{ "ROLE", "role", NULL },
	{ "PRIORITY", "priority", NULL },
	{ "PRIORITYCLASS", "priorityClassName", NULL },
	{ "PREEMPTABLE", "preemptable", NULL },
	{ "NODESELECTOR", "nodeSelector", NULL },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column pc_cols[] = {
	{ "NAME", "name", NULL },
	{ "VALUE", "value", NULL },
	{ "GLOBAL-DEFAULT", "globalDefault", NULL },
	{ "PREEMPTIONPOLICY", "preemptionPolicy", NULL },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column vjob_cols[] = {
	{ "NAMESPACE", "namespace", NULL },
	{ "NAME", "name", NULL },
	{ "QUEUE", "queue", NULL },
	{ "PHASE", "phase", NULL },
	{ "MINAVAILABLE", "minAvailable", NULL },
	{ "REPLICAS", NULL, vjob_replicas },
	{ "RETRIES", NULL, vjob_retries },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column vjob_wide[] = {
	{ "PRIORITYCLASS", "priorityClassName", NULL },
	{ "TASKS", NULL, vjob_groups },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column hn_cols[] = {
	{ "NAME", "name", NULL },
	{ "TIER", "tier", NULL },
	{ "TIERNAME", "tierName", NULL },
	{ "PARENT", "parent", NULL },
	{ "CHILDREN", "children", NULL },
	{ "NODES", "nodeCount", NULL },
	{ "DISCOVERED", NULL, hn_discovered },
	{ NULL, NULL, NULL }
};

static const struct vsctl_column hn_wide[] = {
	{ "MEMBERS", NULL, hn_members },
	{ NULL, NULL, NULL }
};

#define KIND_CMDS(T)							\
	.cmd_new = VS_CMD_##T##_NEW, .cmd_set = VS_CMD_##T##_SET,		\
	.cmd_del = VS_CMD_##T##_DEL, .cmd_get = VS_CMD_##T##_GET

static const struct vsctl_kind kinds[] = {
	{
		.group = "node", .what = "node",
		.attr = VS_A_NODE, KIND_CMDS(NODE),
		.a_name = VS_NODE_A_NAME,
		.cols = node_cols, .wide = node_wide,
	},
	{
		.group = "queue", .what = "queue",
		.attr = VS_A_QUEUE, KIND_CMDS(QUEUE),
		.a_name = VS_QUEUE_A_NAME,
		.cols = queue_cols, .wide = queue_wide,
	},
	{
		.group = "podgroup", .what = "PodGroup",
		.attr = VS_A_PODGROUP, KIND_CMDS(PODGROUP),
		.a_ns = VS_PG_A_NAMESPACE, .a_name = VS_PG_A_NAME,
		.cols = pg_cols, .wide = pg_wide,
	},
	{
		.group = "task", .what = "task",
		.attr = VS_A_TASK, KIND_CMDS(TASK),
		.a_ns = VS_TASK_A_NAMESPACE, .a_name = VS_TASK_A_NAME,
		.cols = task_cols, .wide = task_wide,
	},
	{
		.group = "job", .what = "VolcanoJob",
		.attr = VS_A_VJOB, KIND_CMDS(VJOB),
		.a_ns = VS_VJOB_A_NAMESPACE, .a_name = VS_VJOB_A_NAME,
		.cols = vjob_cols, .wide = vjob_wide,
	},
	{
		.group = "prioclass", .what = "priority class",
		.attr = VS_A_PRIOCLASS, KIND_CMDS(PRIOCLASS),
		.a_name = VS_PC_A_NAME,
		.cols = pc_cols,
	},
	{
		.group = "hypernode", .what = "HyperNode",
		.attr = VS_A_HYPERNODE, KIND_CMDS(HYPERNODE),
		.a_name = VS_HN_A_NAME,
		.cols = hn_cols, .wide = hn_wide,
	},
};

const struct vsctl_kind *vsctl_kind_of(const char *argv0)
{
	/* argv[0] is "vsctl GROUP COMMAND" */
	const char *group = strchr(argv0, ' ');

	if (!group)
		return NULL;
	group++;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].group);

		if (!strncmp(group, kinds[i].group, n) && group[n] == ' ')
			return &kinds[i];
	}
	return NULL;
}

/* ---- keys ---- */

/*
 * One part of a key, copied into @out (VS_NAME_MAX bytes). Only what the
 * key needs to be sent is checked here: whether a name is a valid DNS name
 * is the daemon's to say (it refuses a new object's, and finds no object
 * by another), once, for every client.
 */
static int key_part(const char *prog, const char *arg, const char *what, const char *s,
		    size_t n, char *out)
{
	if (!n) {
		fprintf(stderr, "%s: \"%s\": %s is empty\n", prog, arg, what);
		return -EINVAL;
	}
	if (n >= VS_NAME_MAX) {
		fprintf(stderr, "%s: \"%s\": %s is longer than %d characters\n", prog, arg, what,
			VS_NAME_MAX - 1);
		return -EINVAL;
	}
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

int vsctl_key_parse(const char *prog, const struct vsctl_kind *k, const char *ns,
		    const char *arg, struct vsctl_key *key)
{
	const char *slash = strchr(arg, '/'), *name = slash ? slash + 1 : arg;

	memset(key, 0, sizeof(*key));
	if (slash && !k->a_ns) {
		fprintf(stderr, "%s: \"%s\": a %s has no namespace\n", prog, arg, k->what);
		return -EINVAL;
	}
	if (slash) {
		if (key_part(prog, arg, "namespace", arg, (size_t)(slash - arg), key->ns))
			return -EINVAL;
	} else if (k->a_ns) {
		ns = ns ? ns : "default";
		if (key_part(prog, arg, "namespace", ns, strlen(ns), key->ns))
			return -EINVAL;
	}
	return key_part(prog, arg, "name", name, strlen(name), key->name);
}

struct nlattr *vsctl_key_put(struct nl_msg *m, const struct vsctl_kind *k,
			     const struct vsctl_key *key, struct vsnl_err *err)
{
	const struct vsnl_codec_set *set = vsnl_codec_vsched.attrs[k->attr].nested;
	size_t cap;
	struct nlmsghdr *nlh = vsnl_msg_hdr(m, &cap);
	struct nlattr *nest = vsnl_codec_nest_start(nlh, cap, &vsnl_codec_vsched, k->attr, err);

	if (!nest || (k->a_ns && vsnl_codec_put_str(nlh, cap, set, k->a_ns, key->ns, err)) ||
	    vsnl_codec_put_str(nlh, cap, set, k->a_name, key->name, err))
		return NULL;
	return nest;
}

void vsctl_print_option(FILE *out, const char *opt, const char *help)
{
	fprintf(out, "  %-28s %s\n", opt, help);
}

/* ---- options ---- */

enum output { OUT_TABLE, OUT_WIDE, OUT_JSON };

struct opts {
	const char *socket;
	enum output output;
	const char *ns;			/* -n; NULL with -A or for cluster-wide kinds */
	const char *queue, *podgroup, *node;
	u32 status_mask;
	int optind;
};

enum { OPT_SOCKET = 0x100, OPT_QUEUE, OPT_PODGROUP, OPT_NODE, OPT_STATUS };

/* "--status Pending,Pipelined": the statuses' bits in @mask. */
static int parse_status(const char *list, u32 *mask, const char *prog)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int s;

		for (s = 0; s < VSNL_NR_TASK_STATUS; s++)
			if (!strcmp(tok, vsnl_task_status_names[s]))
				break;
		if (s == VSNL_NR_TASK_STATUS) {
			fprintf(stderr, "%s: --status: unknown task status \"%s\" (one of:", prog,
				tok);
			for (s = 0; s < VSNL_NR_TASK_STATUS; s++)
				fprintf(stderr, "%s %s", s ? "," : "", vsnl_task_status_names[s]);
			fprintf(stderr, ")\n");
			ret = -EINVAL;
			break;
		}
		*mask |= 1u << s;
	}
	free(copy);
	return ret;
}

static int parse_opts(int argc, char **argv, const struct vsctl_kind *k, bool list,
		      struct opts *o)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "namespace", required_argument, NULL, 'n' },
		{ "all-namespaces", no_argument, NULL, 'A' },
		{ "queue", required_argument, NULL, OPT_QUEUE },
		{ "podgroup", required_argument, NULL, OPT_PODGROUP },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "status", required_argument, NULL, OPT_STATUS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool all = false;
	int c;

	memset(o, 0, sizeof(*o));
	o->output = list ? OUT_TABLE : OUT_JSON;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:jn:Ah", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SOCKET:
			o->socket = optarg;
			break;
		case 'o':
			if (!strcmp(optarg, "json"))
				o->output = OUT_JSON;
			else if (list && !strcmp(optarg, "table"))
				o->output = OUT_TABLE;
			else if (list && !strcmp(optarg, "wide"))
				o->output = OUT_WIDE;
			else {
				fprintf(stderr, "%s: -o: \"%s\" is not one of %s\n", argv[0], optarg,
					list ? "table, wide, json" : "json");
				return 2;
			}
			break;
		case 'j':
			o->output = OUT_JSON;
			break;
		case 'n':
			o->ns = optarg;
			break;
		case 'A':
			all = true;
			break;
		case OPT_QUEUE:
			o->queue = optarg;
			break;
		case OPT_PODGROUP:
			o->podgroup = optarg;
			break;
		case OPT_NODE:
			o->node = optarg;
			break;
		case OPT_STATUS:
			if (parse_status(optarg, &o->status_mask, argv[0]))
				return 2;
			break;
		case 'h':
			return -1;
		default:
			return 2;
		}
	}
	if (!k->a_ns && (o->ns || all)) {
		fprintf(stderr, "%s: a %s belongs to no namespace (-n, -A)\n", argv[0], k->what);
		return 2;
	}
	if (o->queue && k->attr != VS_A_PODGROUP) {
		fprintf(stderr, "%s: --queue filters PodGroups only\n", argv[0]);
		return 2;
	}
	if ((o->podgroup || o->node || o->status_mask) && k->attr != VS_A_TASK) {
		fprintf(stderr, "%s: --podgroup, --node and --status filter tasks only\n", argv[0]);
		return 2;
	}
	if (o->podgroup && !o->ns) {
		fprintf(stderr, "%s: --podgroup needs its namespace (-n)\n", argv[0]);
		return 2;
	}
	if (!list && (all || o->queue || o->podgroup || o->node || o->status_mask)) {
		fprintf(stderr, "%s: filters are for list\n", argv[0]);
		return 2;
	}
	o->optind = optind;
	return 0;
}

/* ---- list ---- */

static void add_columns(struct vsctl_table *t, const struct vsctl_column *cols, const json_t *obj)
{
	for (const struct vsctl_column *c = cols; c && c->header; c++)
		vsctl_table_cell(t, c->fn ? c->fn(obj) : str_of(obj, c->path));
}

static int print_table(const struct vsctl_kind *k, bool wide, const json_t *items)
{
	struct vsctl_table t;
	size_t i;
	json_t *obj;
	int ret;

	vsctl_table_init(&t);
	for (const struct vsctl_column *c = k->cols; c->header; c++)
		vsctl_table_header(&t, c->header);
	for (const struct vsctl_column *c = wide ? k->wide : NULL; c && c->header; c++)
		vsctl_table_header(&t, c->header);
	json_array_foreach(items, i, obj) {
		add_columns(&t, k->cols, obj);
		if (wide)
			add_columns(&t, k->wide, obj);
	}
	ret = vsctl_table_print(&t, stdout);
	vsctl_table_free(&t);
	return ret ? 1 : 0;
}

static void list_usage(FILE *out, const char *prog, const struct vsctl_kind *k, bool full)
{
	fprintf(out, "usage: %s [--socket PATH] [-o table|wide|json | -j]%s%s%s\n", prog,
		k->a_ns ? " [-n NAMESPACE | -A]" : "",
		k->attr == VS_A_PODGROUP ? " [--queue QUEUE]" : "",
		k->attr == VS_A_TASK ? " [--podgroup PG] [--node NODE] [--status S,...]" : "");
	if (!full)
		return;
	fprintf(out, "\nList the %ss of the daemon.\n\noptions:\n", k->group);
	vsctl_print_option(out, "--socket PATH", "the daemon's socket (default $" VSCHED_SOCKET_ENV
			   ", else " VSCHED_SOCKET_DEFAULT ")");
	vsctl_print_option(out, "-o, --output FORMAT", "table (the default), wide (more columns) "
			   "or json");
	vsctl_print_option(out, "-j, --json", "the same as -o json");
	if (k->a_ns) {
		vsctl_print_option(out, "-n, --namespace NS", "one namespace only");
		vsctl_print_option(out, "-A, --all-namespaces", "every namespace (the default)");
	}
	if (k->attr == VS_A_PODGROUP)
		vsctl_print_option(out, "--queue QUEUE", "the PodGroups of one queue");
	if (k->attr == VS_A_TASK) {
		vsctl_print_option(out, "--podgroup PG", "the tasks of one PodGroup (with -n)");
		vsctl_print_option(out, "--node NODE", "the tasks on one node");
		vsctl_print_option(out, "--status S,...", "the tasks of these statuses (Pending, "
				   "Running...)");
	}
}

int vsctl_obj_list(int argc, char **argv)
{
	const struct vsctl_kind *k = vsctl_kind_of(argv[0]);
	struct vsnl_err err = { 0 };
	json_t *items;
	struct opts o;
	struct nl_msg *m;
	size_t cap;
	int ret;

	ret = parse_opts(argc, argv, k, true, &o);
	if (ret) {
		list_usage(ret < 0 ? stdout : stderr, argv[0], k, ret < 0);
		return ret < 0 ? 0 : ret;
	}
	if (o.optind != argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", argv[0], argv[o.optind]);
		return 2;
	}
	m = vsnl_msg_new(k->cmd_get, NLM_F_DUMP);
	if (m) {
		struct nlmsghdr *nlh = vsnl_msg_hdr(m, &cap);

		ret = (o.ns && vsnl_vsched_put_filter_namespace(nlh, cap, o.ns, &err)) ||
		      (o.queue && vsnl_vsched_put_filter_queue(nlh, cap, o.queue, &err)) ||
		      (o.podgroup && vsnl_vsched_put_filter_podgroup(nlh, cap, o.podgroup, &err)) ||
		      (o.node && vsnl_vsched_put_filter_node(nlh, cap, o.node, &err)) ||
		      (o.status_mask && vsnl_vsched_put_filter_status(nlh, cap, o.status_mask,
								      &err));
		if (ret) {
			nlmsg_free(m);
			return vsctl_fail(err.err, &err);
		}
	}
	items = json_array();
	if (!items) {
		nlmsg_free(m);
		return vsctl_fail(-ENOMEM, NULL);
	}
	ret = vsctl_dump(o.socket, m, vsnl_codec_reply.attrs[k->attr].name, items);
	if (!ret)
		ret = o.output == OUT_JSON ? vsctl_print_json(items) :
					     print_table(k, o.output == OUT_WIDE, items);
	json_decref(items);
	return ret;
}

/* ---- show and del ---- */

static int one_request(int argc, char **argv, bool del)
{
	const struct vsctl_kind *k = vsctl_kind_of(argv[0]);
	struct vsnl_err err = { 0 };
	struct vsctl_key key;
	json_t *items;
	struct nlattr *nest;
	struct opts o;
	struct nl_msg *m;
	int ret;

	ret = parse_opts(argc, argv, k, false, &o);
	if (ret || o.optind != argc - 1) {
		FILE *out = ret < 0 ? stdout : stderr;

		if (!ret)
			fprintf(stderr, "%s: expected one %s\n", argv[0],
				k->a_ns ? "[NAMESPACE/]NAME" : "NAME");
		fprintf(out, "usage: %s [--socket PATH]%s%s %s\n", argv[0],
			del ? "" : " [-o json | -j]", k->a_ns ? " [-n NAMESPACE]" : "",
			k->a_ns ? "[NAMESPACE/]NAME" : "NAME");
		if (ret < 0)
			fprintf(out, "\n%s %s as JSON, as the protocol carries it.\n",
				del ? "Delete one" : "Show one", k->what);
		return ret < 0 ? 0 : 2;
	}
	if (vsctl_key_parse(argv[0], k, o.ns, argv[o.optind], &key))
		return 2;
	m = vsnl_msg_new(del ? k->cmd_del : k->cmd_get, 0);
	nest = m ? vsctl_key_put(m, k, &key, &err) : NULL;
	if (nest) {
		mnl_attr_nest_end(nlmsg_hdr(m), nest);
	} else if (m) {
		nlmsg_free(m);
		return vsctl_fail(err.err, &err);
	}
	items = json_array();
	if (!items) {
		nlmsg_free(m);
		return vsctl_fail(-ENOMEM, NULL);
	}
	ret = vsctl_dump(o.socket, m, vsnl_codec_reply.attrs[k->attr].name, items);
	if (!ret && !del)
		ret = vsctl_print_json(json_array_get(items, 0));
	json_decref(items);
	return ret;
}

int vsctl_obj_show(int argc, char **argv)
{
	return one_request(argc, argv, false);
}

int vsctl_obj_del(int argc, char **argv)
{
	return one_request(argc, argv, true);
}
