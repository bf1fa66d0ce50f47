// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench cycle": schedule a synthetic cluster, in-process, and measure it.
 *
 * The cluster is the one "vsbench cluster" builds (by default with every
 * task pending). Each cycle is a real scheduling cycle of the core, with a
 * configuration file or the built-in one (Volcano's default,
 * vs_conf_default_text); its binds go to a sink that plays the cluster's
 * part: between cycles every bound task is confirmed and starts running, as
 * a binder and a kubelet would report it. After the last
 * cycle every invariant of the object model is verified. The sink, the
 * configuration loader and the task counts serve "vsbench run" too.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "harness/bench.h"
#include "registry/builtin.h"
#include "sched/session.h"

void vsbench_binder_bind(void *ctx, struct vs_task *task, struct vs_node *node)
{
	struct vsbench_binder *b = ctx;

	if (b->nr == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct vs_task **p = realloc(b->bound, cap * sizeof(*p));

		if (!p)
			return;	/* the task stays Binding; the next run reports it */
		b->bound = p;
		b->cap = cap;
	}
	b->bound[b->nr++] = task;
	b->total++;
}

/*
 * The cluster's answer between cycles, the bind pipeline's standalone
 * binder's: every bound task runs, unless it is no longer Binding (evicted
 * since, in a simulation).
 */
void vsbench_binder_confirm(struct vsbench_binder *b, struct vs_cluster *cl)
{
	vs_bind_confirm_all(cl, b->bound, b->nr);
	b->nr = 0;
}

static const struct vsbench_shape cycle_shape = {
	.nodes = 1000, .queues = 4, .jobs = 2000, .tasks_per_job = 8, .running_pct = 0,
	.seed = 1,
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vsbench cycle [OPTIONS]\n"
		"\n"
		"Schedule a synthetic cluster in-process and report each cycle.\n"
		"\n");
	vsbench_shape_usage(out, &cycle_shape);
	fprintf(out,
		"      --selectors PCT    percent of podgroups whose tasks select a zone (default 0)\n"
		"      --tainted PCT      percent of nodes tainted dedicated=infra:NoSchedule\n"
		"                         (default 0)\n"
		"      --spread PCT       percent of podgroups whose tasks have a hostname pod\n"
		"                         anti-affinity or a zone spread constraint, by turns\n"
		"                         (default 0)\n"
		"      --topology spine=S,leaf=L\n"
		"                         HyperNodes over the nodes: L leaves, S spines, a root\n"
		"                         (default none)\n"
		"      --network-topology MODE[:TIER][=PCT%%],...|none\n"
		"                         podgroups with a networkTopology (hard or soft,\n"
		"                         highestTierAllowed TIER), PCT%% of them each (one\n"
		"                         share may take the rest); needs --topology, and\n"
		"                         adds network-topology-aware to the built-in\n"
		"                         configuration (none: that alone)\n"
		"  -c, --cycles N         scheduling cycles (default 3)\n"
		"  -f, --conf FILE        a volcano-scheduler.conf (default: Volcano's)\n"
		"  -h, --help             this text\n");
}

struct cycle_opts {
	struct vsbench_shape shape;
	unsigned long cycles;
	const char *conf;
};

static int parse_opts(int argc, char **argv, struct cycle_opts *o)
{
	static const struct option longopts[] = {
		VSBENCH_SHAPE_LONGOPTS,
		{ "selectors", required_argument, NULL, 'S' },
		{ "tainted", required_argument, NULL, 'T' },
		{ "spread", required_argument, NULL, 'P' },
		{ "topology", required_argument, NULL, 'N' },
		{ "network-topology", required_argument, NULL, 'M' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "conf", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	*o = (struct cycle_opts){
		.shape = cycle_shape,
		.cycles = 3,
	};
	optind = 1;
	while ((c = getopt_long(argc, argv, VSBENCH_SHAPE_SHORTOPTS "c:f:h", longopts, NULL)) != -1) {
		if (c == 'c') {
			ret = vsbench_parse_ulong("cycle", "cycles", optarg, 1, 1000000, &o->cycles);
		} else if (c == 'S') {
			ret = vsbench_parse_ulong("cycle", "selectors", optarg, 0, 100,
						  &o->shape.selector_pct);
		} else if (c == 'T') {
			ret = vsbench_parse_ulong("cycle", "tainted", optarg, 0, 100,
						  &o->shape.tainted_pct);
		} else if (c == 'P') {
			ret = vsbench_parse_ulong("cycle", "spread", optarg, 0, 100,
						  &o->shape.spread_pct);
		} else if (c == 'N') {
			ret = vsbench_topology_opt("cycle", optarg, &o->shape);
		} else if (c == 'M') {
			ret = vsbench_nt_opt("cycle", optarg, &o->shape);
		} else if (c == 'f') {
			o->conf = optarg;
			ret = 0;
		} else if (c == 'h') {
			usage(stdout);
			return 1;
		} else {
			ret = vsbench_shape_opt("cycle", c, optarg, &o->shape);
			if (ret > 0) {
				usage(stderr);
				return -1;
			}
		}
		if (ret)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "vsbench cycle: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	return vsbench_shape_check("cycle", &o->shape);
}

int vsbench_conf_load(const char *file, struct vs_conf **conf, struct vs_err *err)
{
	struct vs_conf_names names;

	vs_registry_names(vs_builtin_registry(), &names);
	if (file)
		return vs_conf_load_file(file, &names, conf, err);
	return vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text), "built-in", &names,
			     VS_CONF_FLAGS_DEFAULT_ON, conf, err);
}

int vsbench_conf_default_plus(const char *tail, const char *source, struct vs_conf **conf,
			      struct vs_err *err)
{
	size_t len = strlen(vs_conf_default_text), tlen = strlen(tail);
	struct vs_conf_names names;
	char *text = malloc(len + tlen + 1);
	int ret;

	if (!text)
		return vs_err_set(err, ENOMEM, "out of memory");
	memcpy(text, vs_conf_default_text, len);
	memcpy(text + len, tail, tlen + 1);
	vs_registry_names(vs_builtin_registry(), &names);
	ret = vs_conf_parse(text, len + tlen, source, &names, VS_CONF_FLAGS_DEFAULT_ON, conf, err);
	free(text);
	return ret;
}

int vsbench_conf_pick(const char *file, const struct vsbench_shape *shape, struct vs_conf **conf,
		      struct vs_err *err)
{
	if (file || !shape->nt_given)
		return vsbench_conf_load(file, conf, err);
	/* the plugin gives allocate its HyperNode gradients; its flags are on by default */
	return vsbench_conf_default_plus("  - name: network-topology-aware\n",
					 "built-in, with network-topology-aware", conf, err);
}

u32 vsbench_count_status(const struct vs_cluster *cl, enum vs_task_status s)
{
	const struct vs_job *job;
	u32 n = 0;

	list_for_each_entry(job, &cl->jobs, list)
		n += job->nr_by_status[s];
	return n;
}

static u32 count_nt(const struct vs_cluster *cl)
{
	const struct vs_job *job;
	u32 n = 0;

	list_for_each_entry(job, &cl->jobs, list)
		n += job->net_topology.set;
	return n;
}

int vsbench_cycle(int argc, char **argv)
{
	struct vsbench_binder binder = { NULL, 0, 0, 0 };
	struct vs_err err = { { 0 } };
	struct cycle_opts o;
	struct vs_cluster cl;
	struct vs_sched sched;
	struct vs_conf *conf;
	unsigned long running = 0;
	double t0, built, spent = 0;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (vsbench_conf_pick(o.conf, &o.shape, &conf, &err)) {
		fprintf(stderr, "vsbench cycle: %s\n", err.msg);
		return 1;
	}
	if (vs_cluster_init(&cl)) {
		vs_conf_free(conf);
		fprintf(stderr, "vsbench cycle: out of memory\n");
		return 1;
	}
	vsbench_seed(o.shape.seed);
	t0 = vsbench_now();
	ret = vsbench_build(&cl, &o.shape, &running);
	built = vsbench_now() - t0;
	if (ret) {
		vs_conf_free(conf);
		goto out_cluster;
	}
	if (vs_sched_init(&sched, &cl, vs_builtin_registry(), conf, &err)) {
		fprintf(stderr, "vsbench cycle: %s\n", err.msg);
		vs_sched_destroy(&sched);
		ret = 1;
		goto out_cluster;
	}
	sched.sink = (struct vs_decision_sink){ .bind = vsbench_binder_bind, .ctx = &binder };

	printf("vsbench cycle: %lu nodes, %lu podgroups, %u tasks (%u pending), %s configuration\n",
	       o.shape.nodes, o.shape.jobs, cl.nr_tasks, vsbench_count_status(&cl, VS_TASK_PENDING),
	       o.conf ? o.conf : o.shape.nt_given ? "built-in + network-topology-aware" :
	       "built-in");
	printf("  built in %.3f ms", built * 1e3);
	if (cl.hypernodes.nr)
		printf(", with %u HyperNodes (%lu leaves, %lu spines, a root; tree %s)",
		       cl.hypernodes.nr, o.shape.topo_leaves, o.shape.topo_spines,
		       vs_hypernodes_ready(&cl) ? "ready" : "not ready");
	if (o.shape.nt_given)
		printf("; %u podgroups with a networkTopology", count_nt(&cl));
	printf("\n");
	for (unsigned long c = 1; c <= o.cycles; c++) {
		u64 before = binder.total;
		struct vs_session *ssn;
		double t, open;

		/* vs_sched_run_cycle()'s three steps, so that the session's open is timed */
		t0 = vsbench_now();
		ret = vs_session_open(&sched, &ssn, &err);
		open = vsbench_now() - t0;
		if (!ret) {
			ret = vs_session_run_actions(ssn, &err);
			vs_session_close(ssn);
		}
		t = vsbench_now() - t0;
		spent += t;
		if (ret) {
			fprintf(stderr, "vsbench cycle: cycle %lu: %s\n", c, err.msg);
			break;
		}
		printf("  cycle %3lu: %8" PRIu64 " binds in %8.3f ms, session open %.3f ms, "
		       "%u pending, %u running\n", c, binder.total - before, t * 1e3, open * 1e3,
		       vsbench_count_status(&cl, VS_TASK_PENDING),
		       vsbench_count_status(&cl, VS_TASK_RUNNING) + (u32)binder.nr);
		vsbench_binder_confirm(&binder, &cl);
	}
	if (!ret && vs_cluster_check(&cl, &err)) {
		fprintf(stderr, "vsbench cycle: invariant check: %s\n", err.msg);
		ret = 1;
	}
	if (!ret)
		printf("  %" PRIu64 " tasks bound in %.3f s of scheduling (%.0f binds/s); "
		       "invariants hold\n"
		       "  %" PRIu64 " placed from node indexes (and %" PRIu64 " in HyperNode dry "
		       "runs); %" PRIu64 " nodes kept out of indexes by their class; %u node "
		       "classes\n", binder.total, spent,
		       spent > 0 ? (double)binder.total / spent : 0.0,
		       sched.stats.fast_placements, sched.stats.fast_dry_placements,
		       sched.stats.class_out, cl.classes.nr);
	vs_sched_destroy(&sched);
out_cluster:
	vs_cluster_destroy(&cl);
	free(binder.bound);
	return ret ? 1 : 0;
}
