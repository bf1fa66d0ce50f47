// SPDX-License-Identifier: Apache-2.0
/*
 * vsbench's synthetic clusters: nodes of mixed shapes across zones,
 * weighted queues, PodGroups of equal-sized tasks (or, for vsbench run's
 * presets, gangs of sizes drawn from a distribution up to a number of
 * tasks), and a share of those tasks already running on nodes (placed
 * first-fit, as pods a real cluster reports at start-up). Everything comes
 * from one seeded generator, so the same shape and seed build the same
 * cluster.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/bench.h"

static u64 rng;

void vsbench_seed(u64 seed)
{
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
}

/* xorshift64*: a small, fast, seedable generator; quality is plenty here. */
static u64 rnd64(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

u64 vsbench_rnd(u64 n)
{
	return rnd64() % n;
}

double vsbench_rnd_unit(void)
{
	/* the top 53 bits, a double's mantissa, plus one: never 0 */
	return (double)((rnd64() >> 11) + 1) / 9007199254740992.0;
}

double vsbench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Resident set size in bytes, from /proc/self/statm; 0 if unreadable. */
u64 vsbench_rss(void)
{
	unsigned long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%lu %lu", &size, &resident);
	fclose(f);
	return n == 2 ? (u64)resident * (u64)sysconf(_SC_PAGESIZE) : 0;
}

static int fail(const char *what, const struct vs_err *err)
{
	fprintf(stderr, "vsbench: %s: %s\n", what, err->msg);
	return 1;
}

static const char *const zones[] = { "zone-a", "zone-b", "zone-c", "zone-d" };
#define ZONES	ARRAY_SIZE(zones)

static int build_nodes(struct vs_cluster *cl, const struct vsbench_shape *o, struct vs_node **nodes)
{
	/* Shapes in cores and GiB, as a mixed fleet has them. */
	static const struct { s64 cores, gib; } shapes[] = {
		{ 32, 128 }, { 64, 256 }, { 96, 384 }, { 128, 512 },
	};
	struct vs_err err = { { 0 } };
	char name[32];

	for (unsigned long i = 0; i < o->nodes; i++) {
		/* a fleet of one size draws nothing */
		u64 s = o->node_cpu ? 0 : vsbench_rnd(ARRAY_SIZE(shapes));
		struct vs_kv_spec labels[] = {
			{ "topology.kubernetes.io/zone", zones[i % ARRAY_SIZE(zones)] },
			{ "node.kubernetes.io/instance-type", s < 2 ? "standard" : "large" },
			{ VS_HOSTNAME_LABEL, name },
		};
		struct vs_taint_spec taint = { "dedicated", "infra", VS_TAINT_NO_SCHEDULE };
		struct vs_node_spec spec;

		snprintf(name, sizeof(name), "node-%06lu", i);
		vs_node_spec_init(&spec, name);
		vs_res_set(&spec.allocatable, VS_RES_CPU,
			   o->node_cpu ? o->node_cpu : shapes[s].cores * 1000);
		vs_res_set(&spec.allocatable, VS_RES_MEMORY,
			   o->node_cpu ? o->node_memory : shapes[s].gib << 30);
		vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
		spec.labels = labels;
		/* the hostname only where pods spread by it: other clusters stay as they were */
		spec.nr_labels = ARRAY_SIZE(labels) - !o->spread_pct;
		/* Spread over the fleet (not the first nodes), and the same every run. */
		if ((i * 37) % 100 < o->tainted_pct) {
			spec.taints = &taint;
			spec.nr_taints = 1;
		}
		if (vs_node_add(cl, &spec, &nodes[i], &err))
			return fail("node", &err);
	}
	return 0;
}

/*
 * The topology over the nodes: leaf l holds the nodes [l*N/L, (l+1)*N/L),
 * spine s the leaves [s*L/S, (s+1)*L/S), the root every spine; each member
 * an exactMatch, as a discovery of the fabric writes them. Made after the
 * nodes, children before parents: the tree grows by one HyperNode at a
 * time, through the core's own upkeep.
 */
static int add_hypernode(struct vs_cluster *cl, const char *name, s32 tier, const char *tier_name,
			 enum vs_hn_member_type type, const char *prefix, int digits, unsigned long from,
			 unsigned long to, struct vs_hn_member_spec *members, char (*names)[32])
{
	struct vs_hypernode_spec spec = {
		.name = name, .tier = tier, .tier_name = tier_name, .members = members,
		.nr_members = (u32)(to - from),
	};
	struct vs_err err = { { 0 } };

	for (unsigned long i = from; i < to; i++) {
		snprintf(names[i - from], sizeof(names[0]), "%s%0*lu", prefix, digits, i);
		members[i - from] = (struct vs_hn_member_spec){ .type = type, .sel = VS_HN_EXACT,
								 .name = names[i - from] };
	}
	if (vs_hypernode_add(cl, &spec, NULL, &err))
		return fail("hypernode", &err);
	return 0;
}

static int build_topology(struct vs_cluster *cl, const struct vsbench_shape *o)
{
	unsigned long n = o->nodes, nl = o->topo_leaves, ns = o->topo_spines, most;
	struct vs_hn_member_spec *members;
	char (*names)[32];
	char name[32];
	int ret = 0;

	if (!nl)
		return 0;
	/* the widest HyperNode: a leaf of ceil(n/nl) nodes, a spine, or the root */
	most = (n + nl - 1) / nl;
	most = most > nl ? most : nl;
	most = most > ns ? most : ns;
	members = calloc(most, sizeof(*members));
	names = calloc(most, sizeof(*names));
	if (!members || !names) {
		fprintf(stderr, "vsbench: out of memory\n");
		ret = 1;
		goto out;
	}
	for (unsigned long l = 0; l < nl && !ret; l++) {
		snprintf(name, sizeof(name), "leaf-%04lu", l);
		ret = add_hypernode(cl, name, 1, "leaf", VS_HN_MEMBER_NODE, "node-", 6,
				    l * n / nl, (l + 1) * n / nl, members, names);
	}
	for (unsigned long s = 0; s < ns && !ret; s++) {
		snprintf(name, sizeof(name), "spine-%03lu", s);
		ret = add_hypernode(cl, name, 2, "spine", VS_HN_MEMBER_HYPERNODE, "leaf-", 4,
				    s * nl / ns, (s + 1) * nl / ns, members, names);
	}
	if (!ret)
		ret = add_hypernode(cl, "root", 3, "root", VS_HN_MEMBER_HYPERNODE, "spine-", 3,
				    0, ns, members, names);
out:
	free(members);
	free(names);
	return ret;
}

static int build_queues(struct vs_cluster *cl, const struct vsbench_shape *o)
{
	struct vs_err err = { { 0 } };
	char name[32];

	for (unsigned long i = 0; i < o->queues; i++) {
		struct vs_queue_spec spec;

		snprintf(name, sizeof(name), "queue-%lu", i);
		vs_queue_spec_init(&spec, name);
		spec.weight = 1 + (u32)(i % 4);
		if (vs_queue_add(cl, &spec, NULL, &err))
			return fail("queue", &err);
	}
	return 0;
}

/* First fit from a cursor that moves on, so the nodes fill in turn. */
static struct vs_node *first_fit(struct vs_node **nodes, unsigned long nr,
				 unsigned long *cursor, const struct vs_res *req)
{
	for (unsigned long k = 0; k < nr; k++) {
		struct vs_node *n = nodes[(*cursor + k) % nr];

		if (n->nr_tasks < 110 && vs_res_less_equal(req, &n->idle, VS_DIM_ZERO)) {
			*cursor = (*cursor + k + 1) % nr;
			return n;
		}
	}
	return NULL;
}

unsigned long vsbench_gang_size(const struct vsbench_gangs *g, unsigned long left)
{
	u64 total = 0, r;
	unsigned int i;

	for (i = 0; i < g->nr_sizes; i++)
		total += g->sizes[i].weight;
	r = vsbench_rnd(total);
	for (i = 0; r >= g->sizes[i].weight; i++)
		r -= g->sizes[i].weight;
	return g->sizes[i].size < left ? g->sizes[i].size : left;
}

/*
 * The networkTopology of PodGroup @j: its share's, by (j * 37) % 100 (every
 * hundred jobs in an order that mixes the shares from the first ones on), or
 * none.
 */
static void set_net_topology(struct vs_job_spec *js, const struct vsbench_shape *o, unsigned long j)
{
	unsigned long at = (j * 37) % 100, from = 0;

	for (unsigned int k = 0; k < o->nr_nt; k++) {
		const struct vsbench_nt_share *sh = &o->nt[k];

		if (at < from + sh->pct) {
			js->net_topology = (struct vs_net_topology_spec){
				.set = true, .mode = sh->mode, .has_highest_tier = sh->tier > 0,
				.highest_tier = sh->tier,
			};
			return;
		}
		from += sh->pct;
	}
}

/*
 * The PodGroup @j of @size tasks, each task placed Running first-fit with
 * the shape's odds when @nodes is given, else Pending.
 */
static int build_job(struct vs_cluster *cl, const struct vsbench_shape *o, unsigned long j,
		     unsigned long size, enum vs_pg_phase phase, struct vs_node **nodes,
		     unsigned long *cursor, unsigned long *running, struct vs_job **out)
{
	struct vs_err err = { { 0 } };
	char ns[32], name[48], queue[32], tname[128];
	struct vs_job_spec js;
	struct vs_res req;
	const char *role = j % 3 ? "worker" : "ps";
	bool beyond = (j * 53) % 100 < o->spread_pct;
	struct vs_kv_spec sel, app = { "app", name };
	struct vs_label_selector_spec mine = { .match_labels = &app, .nr_match_labels = 1 };
	struct vs_pod_affinity_term_spec apart = { .selector = &mine,
						   .topology_key = VS_HOSTNAME_LABEL };
	struct vs_pod_affinity_spec anti = { .required = &apart, .nr_required = 1 };
	struct vs_affinity_spec aff = { .pod_anti_affinity = &anti };
	struct vs_spread_constraint_spec spread = {
		.max_skew = 1, .topology_key = "topology.kubernetes.io/zone",
		.when = VS_SPREAD_DO_NOT_SCHEDULE, .selector = &mine,
	};

	/*
	 * Without gangs the draws are those of the first version (min_member,
	 * then the request, then running or not per task), so that a shape and
	 * seed keep building the cluster they always built.
	 */
	snprintf(ns, sizeof(ns), "team-%lu", j % 16);
	snprintf(name, sizeof(name), "job-%07lu", j);
	snprintf(queue, sizeof(queue), "queue-%lu", j % o->queues);
	vs_job_spec_init(&js, ns, name);
	js.queue = queue;
	js.min_member = o->gangs ? (u32)size : (u32)(1 + vsbench_rnd(o->tasks_per_job));
	js.phase = phase;
	set_net_topology(&js, o, j);
	if (vs_job_add(cl, &js, out, &err))
		return fail("podgroup", &err);

	sel = (struct vs_kv_spec){ "topology.kubernetes.io/zone", zones[(j / 100) % ZONES] };
	vs_res_clear(&req);
	vs_res_set(&req, VS_RES_CPU, (s64)(500 * (1 + vsbench_rnd(8))));
	vs_res_set(&req, VS_RES_MEMORY, (s64)(1 + vsbench_rnd(8)) << 30);
	for (unsigned long t = 0; t < size; t++) {
		struct vs_task_spec ts;
		struct vs_node *node = NULL;

		snprintf(tname, sizeof(tname), "%s-%s-%lu", name, role, t);
		vs_task_spec_init(&ts, ns, tname, name);
		ts.req = req;
		ts.role = role;
		if (j % 100 < o->selector_pct) {
			ts.node_selector = &sel;
			ts.nr_node_selector = 1;
		}
		if (beyond) {
			ts.labels = &app;
			ts.nr_labels = 1;
			if (j % 2) {
				ts.affinity = &aff;
			} else {
				ts.spread = &spread;
				ts.nr_spread = 1;
			}
		}
		if (nodes && vsbench_rnd(100) < o->running_pct)
			node = first_fit(nodes, o->nodes, cursor, &req);
		if (node) {
			ts.status = VS_TASK_RUNNING;
			ts.node = node->name;
			(*running)++;
		}
		if (vs_task_add(cl, &ts, NULL, &err))
			return fail("pod", &err);
	}
	return 0;
}

int vsbench_gen_job(struct vs_cluster *cl, const struct vsbench_shape *o, unsigned long j,
		    unsigned long size, struct vs_job **out)
{
	return build_job(cl, o, j, size, VS_PG_PENDING, NULL, NULL, NULL, out);
}

static int build_jobs(struct vs_cluster *cl, const struct vsbench_shape *o, struct vs_node **nodes,
		      unsigned long *running)
{
	const struct vsbench_gangs *g = o->gangs;
	unsigned long cursor = 0, made = 0;

	for (unsigned long j = 0; g ? made < g->tasks : j < o->jobs; j++) {
		unsigned long size = g ? vsbench_gang_size(g, g->tasks - made) : o->tasks_per_job;

		if (build_job(cl, o, j, size, VS_PG_INQUEUE, nodes, &cursor, running, NULL))
			return 1;
		made += size;
	}
	return 0;
}

int vsbench_parse_ulong(const char *cmd, const char *opt, const char *s, unsigned long min,
		       unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "vsbench %s: --%s: \"%s\" is not a number from %lu to %lu\n",
			cmd, opt, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int vsbench_shape_opt(const char *cmd, int c, const char *arg, struct vsbench_shape *shape)
{
	unsigned long v;
	int ret;

	switch (c) {
	case 'n':
		return vsbench_parse_ulong(cmd, "nodes", arg, 1, 1000000, &shape->nodes);
	case 'q':
		return vsbench_parse_ulong(cmd, "queues", arg, 1, 10000, &shape->queues);
	case 'j':
		return vsbench_parse_ulong(cmd, "jobs", arg, 0, 10000000, &shape->jobs);
	case 't':
		return vsbench_parse_ulong(cmd, "tasks-per-job", arg, 1, 100000,
					   &shape->tasks_per_job);
	case 'r':
		return vsbench_parse_ulong(cmd, "running", arg, 0, 100, &shape->running_pct);
	case 's':
		ret = vsbench_parse_ulong(cmd, "seed", arg, 0, ULONG_MAX, &v);
		shape->seed = v;
		return ret;
	}
	return 1;
}

int vsbench_topology_opt(const char *cmd, const char *arg, struct vsbench_shape *shape)
{
	unsigned long spines, leaves;
	char extra;

	if (sscanf(arg, "spine=%lu,leaf=%lu%c", &spines, &leaves, &extra) != 2 ||
	    arg[0] == '-' || strchr(arg, ' ') || strstr(arg, "=-") || strstr(arg, "=+")) {
		fprintf(stderr, "vsbench %s: --topology: \"%s\" is not spine=S,leaf=L\n", cmd,
			arg);
		return -1;
	}
	if (!spines || spines > leaves) {
		fprintf(stderr, "vsbench %s: --topology: %s: needs 1 <= spines <= leaves\n", cmd,
			arg);
		return -1;
	}
	shape->topo_spines = spines;
	shape->topo_leaves = leaves;
	return 0;
}

/* One share, MODE[:TIER][=PCT[%]], @len bytes of @s; *@has_pct if it gives one. */
static int nt_share(const char *cmd, const char *s, size_t len, struct vsbench_nt_share *sh,
		    bool *has_pct)
{
	char buf[64], *eq, *colon, *end;
	struct vs_err err = { { 0 } };
	unsigned long v;

	if (!len) {
		fprintf(stderr, "vsbench %s: --network-topology: an empty share (MODE[:TIER]"
			"[=PCT%%] between commas)\n", cmd);
		return -1;
	}
	if (len >= sizeof(buf)) {
		fprintf(stderr, "vsbench %s: --network-topology: \"%.*s\": too long\n", cmd,
			(int)len, s);
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	*sh = (struct vsbench_nt_share){ .mode = VS_NT_HARD };
	*has_pct = false;
	eq = strchr(buf, '=');
	if (eq) {
		*eq++ = '\0';
		errno = 0;
		v = strtoul(eq, &end, 10);
		if (*end == '%')
			end++;
		if (!isdigit((unsigned char)*eq) || *end || errno || !v || v > 100) {
			fprintf(stderr, "vsbench %s: --network-topology: \"%.*s\": the share "
				"\"%s\" is not a percent from 1 to 100\n", cmd, (int)len, s, eq);
			return -1;
		}
		sh->pct = v;
		*has_pct = true;
	}
	colon = strchr(buf, ':');
	if (colon) {
		*colon++ = '\0';
		errno = 0;
		v = strtoul(colon, &end, 10);
		if (!isdigit((unsigned char)*colon) || *end || errno || !v || v > 100) {
			fprintf(stderr, "vsbench %s: --network-topology: \"%.*s\": the tier "
				"\"%s\" is not a number from 1 to 100\n", cmd, (int)len, s, colon);
			return -1;
		}
		sh->tier = (s32)v;
	}
	if (vs_nt_mode_parse(buf, &sh->mode, &err)) {
		fprintf(stderr, "vsbench %s: --network-topology: \"%.*s\": %s\n", cmd, (int)len,
			s, err.msg);
		return -1;
	}
	return 0;
}

int vsbench_nt_opt(const char *cmd, const char *arg, struct vsbench_shape *shape)
{
	struct vsbench_nt_share nt[VSBENCH_NT_MAX];
	unsigned long sum = 0;
	unsigned int nr = 0, rest = VSBENCH_NT_MAX;
	const char *s = arg;

	if (!strcmp(arg, "none")) {
		shape->nr_nt = 0;
		shape->nt_given = true;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(s, ",");
		bool has_pct;

		if (nr == VSBENCH_NT_MAX) {
			fprintf(stderr, "vsbench %s: --network-topology: \"%s\": more than %d "
				"shares\n", cmd, arg, VSBENCH_NT_MAX);
			return -1;
		}
		if (nt_share(cmd, s, len, &nt[nr], &has_pct))
			return -1;
		if (!has_pct && rest != VSBENCH_NT_MAX) {
			fprintf(stderr, "vsbench %s: --network-topology: \"%s\": only one share may "
				"go without =PCT%%\n", cmd, arg);
			return -1;
		}
		if (!has_pct)
			rest = nr;
		sum += nt[nr++].pct;
		if (!s[len])
			break;
		s += len + 1;
	}
	if (sum > 100) {
		fprintf(stderr, "vsbench %s: --network-topology: \"%s\": the shares add up to "
			"%lu%%, more than 100%%\n", cmd, arg, sum);
		return -1;
	}
	if (rest != VSBENCH_NT_MAX && sum == 100) {
		fprintf(stderr, "vsbench %s: --network-topology: \"%s\": the shares with a "
			"percent take 100%%, nothing is left for the one without\n", cmd, arg);
		return -1;
	}
	if (rest != VSBENCH_NT_MAX)
		nt[rest].pct = 100 - sum;
	memcpy(shape->nt, nt, sizeof(nt));
	shape->nr_nt = nr;
	shape->nt_given = true;
	return 0;
}

void vsbench_shape_usage(FILE *out, const struct vsbench_shape *def)
{
	fprintf(out,
		"  -n, --nodes N          nodes (default %lu)\n"
		"  -q, --queues N         queues (default %lu)\n"
		"  -j, --jobs N           podgroups (default %lu)\n"
		"  -t, --tasks-per-job N  tasks in each podgroup (default %lu)\n"
		"  -r, --running PCT      percent of tasks already running (default %lu)\n"
		"  -s, --seed N           generator seed (default %llu)\n",
		def->nodes, def->queues, def->jobs, def->tasks_per_job, def->running_pct,
		def->seed);
}

int vsbench_shape_check(const char *cmd, const struct vsbench_shape *shape)
{
	/* after every option: --nodes may come after --topology */
	if (shape->topo_leaves > shape->nodes) {
		fprintf(stderr, "vsbench %s: --topology: %lu leaves over %lu nodes: a leaf would "
			"be empty\n", cmd, shape->topo_leaves, shape->nodes);
		return -1;
	}
	if (shape->nt_given && !shape->topo_leaves) {
		fprintf(stderr, "vsbench %s: --network-topology needs HyperNodes: give "
			"--topology spine=S,leaf=L\n", cmd);
		return -1;
	}
	if (shape->gangs && shape->gangs->tasks > 50000000UL) {
		fprintf(stderr, "vsbench %s: %lu tasks is more than 50 million tasks\n",
			cmd, shape->gangs->tasks);
		return -1;
	}
	if (!shape->gangs && (u64)shape->jobs * shape->tasks_per_job > 50000000ULL) {
		fprintf(stderr, "vsbench %s: %lu jobs of %lu tasks is more than 50 million tasks\n",
			cmd, shape->jobs, shape->tasks_per_job);
		return -1;
	}
	return 0;
}

int vsbench_build(struct vs_cluster *cl, const struct vsbench_shape *o, unsigned long *running)
{
	struct vs_node **nodes = calloc(o->nodes, sizeof(*nodes));
	int ret;

	if (!nodes) {
		fprintf(stderr, "vsbench: out of memory\n");
		return 1;
	}
	ret = build_nodes(cl, o, nodes);
	if (!ret)
		ret = build_topology(cl, o);
	if (!ret)
		ret = build_queues(cl, o);
	if (!ret)
		ret = build_jobs(cl, o, nodes, running);
	free(nodes);
	return ret;
}

static void print_pool(const struct vs_pool *pool, void *arg)
{
	struct vs_pool_stats st;

	vs_pool_get_stats(pool, &st);
	printf("%-14s %10zu %10zu %8zu %8zu %8zu %12zu\n", pool->name, st.active_objs,
	       st.total_objs, st.obj_size, st.objs_per_slab, st.nr_slabs, st.bytes);
}

void vsbench_print_pools(void)
{
	printf("%-14s %10s %10s %8s %8s %8s %12s\n", "POOL", "ACTIVE", "TOTAL", "OBJSIZE",
	       "PERSLAB", "SLABS", "BYTES");
	vs_pools_for_each(print_pool, NULL);
}
