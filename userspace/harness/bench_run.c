// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench run": the benchmark of named presets.
 *
 * A preset is a cluster shape (gen.c: nodes of mixed shapes, weighted
 * queues, gang PodGroups of sizes drawn from one distribution, a share of
 * the tasks already running) built from a seed. The run builds it
 * in-process, schedules it with the built-in configuration cycle by cycle,
 * as "vsbench cycle" does with the same binder sink, until a cycle places
 * nothing or --cycles ran, and measures with CLOCK_MONOTONIC: pods placed
 * per second of scheduling time, each cycle split into session open, each
 * action and session close, the peak resident set, and the bytes of the
 * node and task pools per node and per task. The same figures print as a
 * table or as one JSON object.
 *
 * --mode socket measures the whole system instead: the same cluster, built
 * in-process from the same seed, is loaded into a running vschedd through
 * load.c's batches, and the daemon schedules it cycle by cycle on request,
 * this run playing the binder (socket.c). The cycle times are then the
 * daemon's own, from its VS_A_CYCLE; what the socket cannot tell (the
 * session open and close apart, the fast path's count) is left out of the
 * report rather than made up.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "harness/bench.h"
#include "lib/vsnl.h"
#include "registry/builtin.h"
#include "sched/session.h"
#include "vsbench/vsbench.h"

/*
 * Gang sizes of every preset, by weight out of 100: many small jobs, a
 * tail of large gangs (mean 8.66 tasks). minMember is the job's size.
 */
const struct vsbench_gang_size vsbench_gang_sizes[] = {
	{ 1, 30 }, { 2, 10 }, { 4, 20 }, { 8, 20 }, { 16, 10 }, { 32, 7 }, { 64, 3 },
};
const unsigned int vsbench_nr_gang_sizes = ARRAY_SIZE(vsbench_gang_sizes);

/*
 * Gang sizes of the topology presets: 8 to 256 tasks, the "gangs
 * of 8 to 256 pods" (mean 41.6), each a gang that a leaf of 39 nodes holds.
 */
static const struct vsbench_gang_size topo_gang_sizes[] = {
	{ 8, 30 }, { 16, 25 }, { 32, 20 }, { 64, 13 }, { 128, 8 }, { 256, 4 },
};

struct run_preset {
	const char *name;
	unsigned long nodes;
	unsigned long queues;		/* weights 1, 2, 3, 4, 1, ... */
	unsigned long tasks;
	unsigned long running_pct;
	unsigned long spread_pct;	/* podgroups with anti-affinity or spread (shape's) */
	const char *note;
	/* A network topology: --topology spine=S,leaf=L and --network-topology NT */
	unsigned long spines, leaves;
	const char *nt;
};

static const struct run_preset presets[] = {
	{ .name = "tiny", .nodes = 200, .queues = 4, .tasks = 2000, .running_pct = 10,
	  .note = "for tests" },
	{ .name = "1k", .nodes = 1000, .queues = 4, .tasks = 20000, .running_pct = 10 },
	{ .name = "10k", .nodes = 10000, .queues = 8, .tasks = 100000, .running_pct = 10 },
	{ .name = "50k", .nodes = 50000, .queues = 16, .tasks = 1000000, .running_pct = 10 },
	{ .name = "100k", .nodes = 100000, .queues = 16, .tasks = 1000000, .running_pct = 10 },
	{ .name = "topology", .nodes = 10000, .queues = 8, .tasks = 10000, .spines = 16,
	  .leaves = 256, .nt = "hard:1=50%,soft",
	  .note = "16 spines, 256 leaves; gangs of 8 to 256, half hard:1, half soft" },
	{ .name = "spread", .nodes = 10000, .queues = 8, .tasks = 20000, .running_pct = 10,
	  .spread_pct = 50,
	  .note = "half the podgroups' pods with hostname anti-affinity or a zone spread" },
	{ .name = "spread-tiny", .nodes = 200, .queues = 4, .tasks = 1000, .running_pct = 10,
	  .spread_pct = 50, .note = "the same, for tests" },
	{ .name = "topology-tiny", .nodes = 200, .queues = 4, .tasks = 1000, .spines = 2,
	  .leaves = 8, .nt = "hard:1=50%,soft",
	  .note = "2 spines, 8 leaves; for tests" },
};

struct run_opts {
	const struct run_preset *preset;
	unsigned long long seed;
	unsigned long cycles;
	bool json;
	bool compare;			/* the exhaustive scan too, for speedup and exactness */
	bool socket;			/* --mode socket: a running vschedd schedules */
	const char *socket_path;	/* --socket; NULL: $VSCHED_SOCKET, else the default */
	const char *export_file;	/* --export-scenario: the cluster as a scenario file */
	const char *binds_file;		/* --binds-out: every bind, a line each */
	const char *nt;			/* --network-topology, for the preset's */
};

/* One cycle's figures; times in seconds. */
struct run_cycle {
	u64 binds;
	double open, close, total;
	double *actions;		/* one per configured action */
	u32 pending, running;		/* after the cycle, binds confirmed */
	double wall, confirm;		/* socket: the round trip, the binder's answers */
};

struct run_result {
	const struct run_preset *preset;
	unsigned long long seed;
	const char *const *actions;	/* the configured actions, in order */
	u32 nr_actions;
	u32 nodes, queues, jobs, tasks;
	unsigned long running_at_start;
	double build;
	struct run_cycle *cycles;
	unsigned long nr_cycles;	/* run */
	/*
	 * In-process: one more cycle after the last, which bound nothing,
	 * with nothing changed since (its binds confirmed): the cost of a
	 * cycle with no work. Not in the sums, the percentiles or the rate.
	 */
	bool has_quiet;
	struct run_cycle quiet;
	u32 active_jobs;		/* podgroups awake after the last cycle (core/rest.h) */
	u64 binds;
	double sched;			/* sum of the cycles' times */
	u64 peak_rss;
	struct vs_pool_stats node_pool, task_pool;
	u64 fast_placements;		/* tasks placed from allocate's node indexes */
	u64 fast_dry_placements;	/* the same within HyperNode dry runs */
	u64 trace;			/* FNV-1a of every bind, in order: ns/name@node */
	/* --compare: the exhaustive scan's run of the same cluster */
	bool compared;
	double exhaustive_sched;
	u64 exhaustive_binds;
	bool exact;			/* its binds, in order, are the fast path's */
	/* --mode socket: what the daemon did, and the load into it */
	bool socket;
	const char *socket_path;
	unsigned long load_objects;
	double load;
	double wall;			/* the cycles' round trips, summed */
	double confirm;			/* the binder's answers, summed over the cycles */
	bool has_daemon_rss;
	u64 daemon_rss;
	bool has_pools;			/* the daemon's statistics carried both pools */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vsbench run --preset NAME [--mode inproc|socket] [--socket PATH]\n"
		"                   [--seed N] [--cycles N] [--json] [--compare]\n"
		"                   [--export-scenario FILE] [--binds-out FILE]\n"
		"\n"
		"Build a preset cluster in-process, schedule it with the built-in\n"
		"configuration until a cycle places nothing or --cycles ran, and report\n"
		"pods placed per second, cycle times (p50, p99, max) split into session\n"
		"open, each action and session close, peak RSS and pool bytes per node\n"
		"and per task.\n"
		"\n"
		"  -p, --preset NAME      the cluster (below)\n"
		"  -m, --mode MODE        inproc (default): the core alone, in this process;\n"
		"                         socket: the whole system: the cluster is loaded in\n"
		"                         batches into a running, freshly started vschedd\n"
		"                         --period 0, which schedules it cycle by cycle on\n"
		"                         request while this run plays the binder\n"
		"      --socket PATH      socket mode: the daemon's socket (default\n"
		"                         $VSCHED_SOCKET, else " VSCHED_SOCKET_DEFAULT ")\n"
		"  -s, --seed N           generator seed (default 1)\n"
		"  -c, --cycles N         at most N cycles (default 3); 0 builds and\n"
		"                         measures memory only\n"
		"  -j, --json             one JSON object instead of the table\n"
		"  -x, --compare          also schedule the same cluster with allocate's\n"
		"                         exhaustive scan (Volcano's search, the fast\n"
		"                         path's oracle): report the speed-up and whether\n"
		"                         every bind was the same (exact; exit 1 if\n"
		"                         not); slow at 10k; inproc only\n"
		"      --export-scenario FILE\n"
		"                         write the cluster, as built, before any cycle,\n"
		"                         as a scenario file of --cycles cycles for\n"
		"                         vsctl scenario run and the conformance oracle\n"
		"                         (Volcano's scheduler); inproc only\n"
		"      --binds-out FILE   write every bind of the run (the fast path's\n"
		"                         with --compare), \"NS/NAME NODE\" a line, in\n"
		"                         order; inproc only\n"
		"      --network-topology MODE[:TIER][=PCT%%],...|none\n"
		"                         a topology preset's podgroups with a\n"
		"                         networkTopology, instead of the preset's (as\n"
		"                         vsbench cycle --network-topology)\n"
		"  -h, --help             this text\n"
		"\n"
		"presets (gangs of 1 to 64 tasks, of 8 to 256 in the topology ones, minMember\n"
		"their size; queue weights 1-4):\n");
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++) {
		const struct run_preset *p = &presets[i];

		fprintf(out, "  %-13s %6lu nodes, %7lu tasks, %2lu queues, %lu%% running%s%s\n",
			p->name, p->nodes, p->tasks, p->queues, p->running_pct,
			p->note ? "; " : "", p->note ? p->note : "");
	}
	fprintf(out,
		"\n"
		"Socket mode reports the daemon's cycle and action times, the load's\n"
		"objects per second and the daemon's RSS and pools, without the session\n"
		"open and close split or the fast path's count. See\n"
		"Documentation/benchmarks.md.\n");
}

static const struct run_preset *preset_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

unsigned long vsbench_preset_nodes(const char *name)
{
	const struct run_preset *p = preset_lookup(name);

	return p ? p->nodes : 0;
}

void vsbench_preset_names(FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		fprintf(out, "%s%s", i ? ", " : "", presets[i].name);
}

enum { OPT_SOCKET = 0x100, OPT_EXPORT, OPT_BINDS, OPT_NT };

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "seed", required_argument, NULL, 's' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "compare", no_argument, NULL, 'x' },
		{ "export-scenario", required_argument, NULL, OPT_EXPORT },
		{ "binds-out", required_argument, NULL, OPT_BINDS },
		{ "help", no_argument, NULL, 'h' },
			{ "network-topology", required_argument, NULL, OPT_NT },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long seed;
	int c;

	*o = (struct run_opts){ .seed = 1, .cycles = 3 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:m:s:c:jxh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->preset = preset_lookup(optarg);
			if (!o->preset) {
				fprintf(stderr, "vsbench run: --preset: unknown preset \"%s\" (", optarg);
				vsbench_preset_names(stderr);
				fprintf(stderr, ")\n");
				return -1;
			}
			break;
		case 'm':
			if (strcmp(optarg, "inproc") && strcmp(optarg, "socket")) {
				fprintf(stderr, "vsbench run: --mode: unknown mode \"%s\" "
					"(inproc or socket)\n", optarg);
				return -1;
			}
			o->socket = !strcmp(optarg, "socket");
			break;
		case OPT_SOCKET:
			o->socket_path = optarg;
			break;
		case 's':
			/* JSON integers are signed 64-bit */
			if (vsbench_parse_ulong("run", "seed", optarg, 0, LLONG_MAX, &seed))
				return -1;
			o->seed = seed;
			break;
		case 'c':
			if (vsbench_parse_ulong("run", "cycles", optarg, 0, 1000000, &o->cycles))
				return -1;
			break;
		case OPT_EXPORT:
			if (!*optarg) {
				fprintf(stderr, "vsbench run: --export-scenario: the file name is "
					"empty\n");
				return -1;
			}
			o->export_file = optarg;
			break;
		case OPT_BINDS:
			if (!*optarg) {
				fprintf(stderr, "vsbench run: --binds-out: the file name is empty\n");
				return -1;
			}
			o->binds_file = optarg;
			break;
		case OPT_NT:
			o->nt = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'x':
			o->compare = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vsbench run: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (!o->preset) {
		fprintf(stderr, "vsbench run: --preset is required (");
		vsbench_preset_names(stderr);
		fprintf(stderr, ")\n");
		return -1;
	}
	if (o->nt && !o->preset->leaves) {
		fprintf(stderr, "vsbench run: --network-topology: the preset %s has no "
			"HyperNodes (a topology preset has)\n", o->preset->name);
		return -1;
	}
	/* The load sends no HyperNodes yet. */
	if (o->preset->leaves && o->socket) {
		fprintf(stderr, "vsbench run: --mode socket is refused with the topology preset %s: "
			"the load sends no HyperNodes yet\n", o->preset->name);
		return -1;
	}
	/* The oracle is the core's exhaustive scan, which only this process can run. */
	if (o->socket && o->compare) {
		fprintf(stderr, "vsbench run: --compare runs in-process only: it is refused "
			"with --mode socket (--mode inproc --compare gives the fast path's "
			"speed-up)\n");
		return -1;
	}
	/* The socket run builds its cluster for the daemon; the file is the in-process one's. */
	if (o->socket && (o->export_file || o->binds_file)) {
		fprintf(stderr, "vsbench run: --%s is for --mode inproc: the cluster and the "
			"binds written are the in-process run's\n",
			o->export_file ? "export-scenario" : "binds-out");
		return -1;
	}
	if (o->socket_path && !o->socket) {
		fprintf(stderr, "vsbench run: --socket is for --mode socket; --mode inproc talks "
			"to no daemon\n");
		return -1;
	}
	return 0;
}

/*
 * One cycle as vs_sched_run_cycle() runs it (open, vs_session_run_actions(),
 * close), with the actions called one by one, as vs_session_run_actions()
 * calls them, so that each is timed.
 */
static int run_cycle(struct vs_sched *sched, struct run_cycle *rc, struct vs_err *err)
{
	const struct vs_conf *conf = sched->conf;
	struct vs_session *ssn;
	double t0, t;
	int ret;

	t0 = vsbench_now();
	ret = vs_session_open(sched, &ssn, err);
	t = vsbench_now();
	rc->open = t - t0;
	if (ret)
		return ret;
	for (u32 i = 0; i < conf->nr_actions; i++) {
		const char *name = conf->actions[i];
		const struct vs_action_ops *action = vs_registry_action(vs_builtin_registry(), name);
		double ta = t;

		ret = action->execute(ssn, vs_conf_action_args(conf, name));
		t = vsbench_now();
		rc->actions[i] = t - ta;
		if (ret) {
			vs_err_set(err, ret, "action %s failed", name);
			break;
		}
	}
	vs_session_close(ssn);
	rc->total = vsbench_now() - t0;
	rc->close = rc->total - (t - t0);
	return ret;
}

static double sum_action(const struct run_result *r, u32 a)
{
	double s = 0;

	for (unsigned long c = 0; c < r->nr_cycles; c++)
		s += r->cycles[c].actions[a];
	return s;
}

static void sum_session(const struct run_result *r, double *open, double *close)
{
	*open = *close = 0;
	for (unsigned long c = 0; c < r->nr_cycles; c++) {
		*open += r->cycles[c].open;
		*close += r->cycles[c].close;
	}
}

/* p50, p99 and max of the cycle times, in seconds; 0 with no cycle. */
static int cycle_stats(const struct run_result *r, double out[3])
{
	double *t = calloc(r->nr_cycles ? r->nr_cycles : 1, sizeof(*t));

	if (!t)
		return -1;
	for (unsigned long c = 0; c < r->nr_cycles; c++)
		t[c] = r->cycles[c].total;
	vsbench_sort_doubles(t, r->nr_cycles);
	out[0] = vsbench_percentile(t, r->nr_cycles, 0.50);
	out[1] = vsbench_percentile(t, r->nr_cycles, 0.99);
	out[2] = t[r->nr_cycles ? r->nr_cycles - 1 : 0];
	free(t);
	return 0;
}

static double per(size_t bytes, u32 n)
{
	return n ? (double)bytes / n : 0.0;
}

static json_t *pool_json(const struct vs_pool_stats *st)
{
	return json_pack("{s:I, s:I, s:I}", "active", (json_int_t)st->active_objs,
			 "obj_size", (json_int_t)st->obj_size, "bytes", (json_int_t)st->bytes);
}

static int print_json(const struct run_result *r)
{
	json_t *o = json_object(), *cycles = json_array(), *actions = json_object();
	double cs[3], open, close;
	int ret = -1;

	if (!o || !cycles || !actions || cycle_stats(r, cs))
		goto out;
	sum_session(r, &open, &close);
	json_object_set_new(o, "preset", json_string(r->preset->name));
	json_object_set_new(o, "mode", json_string(r->socket ? "socket" : "inproc"));
	json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(o, "nodes", json_integer(r->nodes));
	json_object_set_new(o, "queues", json_integer(r->queues));
	json_object_set_new(o, "podgroups", json_integer(r->jobs));
	json_object_set_new(o, "tasks", json_integer(r->tasks));
	json_object_set_new(o, "running_at_start", json_integer((json_int_t)r->running_at_start));
	json_object_set_new(o, "build_ms", vsbench_json_ms(r->build));
	if (r->socket) {
		json_object_set_new(o, "load_objects", json_integer((json_int_t)r->load_objects));
		json_object_set_new(o, "load_ms", vsbench_json_ms(r->load));
		json_object_set_new(o, "load_objects_per_sec", json_real(r->load > 0 ?
				    round((double)r->load_objects / r->load * 10) / 10 : 0.0));
	}
	json_object_set_new(o, "cycles_run", json_integer((json_int_t)r->nr_cycles));
	json_object_set_new(o, "binds", json_integer((json_int_t)r->binds));
	json_object_set_new(o, "pending", json_integer(r->nr_cycles ?
			    r->cycles[r->nr_cycles - 1].pending : r->tasks - r->running_at_start));
	json_object_set_new(o, "sched_ms", vsbench_json_ms(r->sched));
	/* No cycle, no figure: null rather than a zero that reads as measured. */
	if (r->nr_cycles) {
		json_object_set_new(o, "pods_per_sec", json_real(r->sched > 0 ?
				    round((double)r->binds / r->sched * 10) / 10 : 0.0));
		json_object_set_new(o, "cycle_ms", json_pack("{s:o, s:o, s:o}",
				    "p50", vsbench_json_ms(cs[0]), "p99", vsbench_json_ms(cs[1]),
				    "max", vsbench_json_ms(cs[2])));
		/* The daemon's cycle is one duration: no open and close apart. */
		if (!r->socket)
			json_object_set_new(o, "session_open_ms", vsbench_json_ms(open));
		for (u32 a = 0; a < r->nr_actions; a++)
			json_object_set_new(actions, r->actions[a],
					    vsbench_json_ms(sum_action(r, a)));
		json_object_set_new(o, "actions_ms", actions);
		actions = NULL;
		if (r->socket) {
			json_object_set_new(o, "wall_ms", vsbench_json_ms(r->wall));
			json_object_set_new(o, "confirm_ms", vsbench_json_ms(r->confirm));
		} else {
			json_object_set_new(o, "session_close_ms", vsbench_json_ms(close));
		}
	} else {
		json_object_set_new(o, "pods_per_sec", json_null());
		json_object_set_new(o, "cycle_ms", json_null());
		if (!r->socket)
			json_object_set_new(o, "session_open_ms", json_null());
		json_object_set_new(o, "actions_ms", json_null());
		if (r->socket)
			json_object_set_new(o, "wall_ms", json_null());
		json_object_set_new(o, r->socket ? "confirm_ms" : "session_close_ms", json_null());
	}
	for (unsigned long c = 0; c < r->nr_cycles; c++) {
		const struct run_cycle *rc = &r->cycles[c];
		json_t *ca = json_object();

		for (u32 a = 0; a < r->nr_actions; a++)
			json_object_set_new(ca, r->actions[a], vsbench_json_ms(rc->actions[a]));
		if (r->socket) {
			json_array_append_new(cycles, json_pack(
					      "{s:I, s:o, s:o, s:o, s:o, s:i, s:i}",
					      "binds", (json_int_t)rc->binds,
					      "ms", vsbench_json_ms(rc->total), "actions_ms", ca,
					      "wall_ms", vsbench_json_ms(rc->wall),
					      "confirm_ms", vsbench_json_ms(rc->confirm),
					      "pending", (int)rc->pending, "running",
					      (int)rc->running));
			continue;
		}
		json_array_append_new(cycles, json_pack("{s:I, s:o, s:o, s:o, s:o, s:i, s:i}",
				      "binds", (json_int_t)rc->binds,
				      "ms", vsbench_json_ms(rc->total),
				      "session_open_ms", vsbench_json_ms(rc->open), "actions_ms", ca,
				      "session_close_ms", vsbench_json_ms(rc->close),
				      "pending", (int)rc->pending, "running", (int)rc->running));
	}
	json_object_set_new(o, "cycles", cycles);
	cycles = NULL;
	if (r->has_quiet) {
		json_t *ca = json_object();

		for (u32 a = 0; ca && a < r->nr_actions; a++)
			json_object_set_new(ca, r->actions[a],
					    vsbench_json_ms(r->quiet.actions[a]));
		json_object_set_new(o, "quiet_cycle", json_pack("{s:o, s:o, s:o, s:o, s:i}",
				    "ms", vsbench_json_ms(r->quiet.total),
				    "session_open_ms", vsbench_json_ms(r->quiet.open),
				    "actions_ms", ca,
				    "session_close_ms", vsbench_json_ms(r->quiet.close),
				    "active_podgroups", (int)r->active_jobs));
	}
	/* socket: this process's memory is not the system's; the daemon's is */
	if (!r->socket)
		json_object_set_new(o, "peak_rss_bytes", json_integer((json_int_t)r->peak_rss));
	if (r->has_daemon_rss)
		json_object_set_new(o, "daemon_rss_bytes", json_integer((json_int_t)r->daemon_rss));
	if (!r->socket || r->has_pools) {
		json_object_set_new(o, "bytes_per_node",
				    json_real(per(r->node_pool.bytes, r->nodes)));
		json_object_set_new(o, "bytes_per_task",
				    json_real(per(r->task_pool.bytes, r->tasks)));
		json_object_set_new(o, "pools", json_pack("{s:o, s:o}", "vs_node",
				    pool_json(&r->node_pool), "vs_task", pool_json(&r->task_pool)));
	}
	if (!r->socket) {
		json_object_set_new(o, "fast_placements",
				    json_integer((json_int_t)r->fast_placements));
		json_object_set_new(o, "fast_dry_placements",
				    json_integer((json_int_t)r->fast_dry_placements));
	}
	if (r->compared) {
		json_object_set_new(o, "exhaustive_sched_ms", vsbench_json_ms(r->exhaustive_sched));
		json_object_set_new(o, "speedup_vs_exhaustive", json_real(r->sched > 0 ?
				    r->exhaustive_sched / r->sched : 0));
		json_object_set_new(o, "exact", json_boolean(r->exact));
	}
	if (json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) || putchar('\n') == EOF)
		goto out;
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "vsbench run: out of memory writing JSON\n");
	json_decref(actions);
	json_decref(cycles);
	json_decref(o);
	return ret;
}

static int print_table(const struct run_result *r)
{
	double cs[3], open, close;

	if (cycle_stats(r, cs)) {
		fprintf(stderr, "vsbench run: out of memory\n");
		return -1;
	}
	sum_session(r, &open, &close);
	if (r->socket)
		printf("vsbench run: preset %s, socket %s, seed %llu: %u nodes, %u queues, "
		       "%u podgroups, %u tasks (%lu running), built in %.3f s\n\n", r->preset->name,
		       r->socket_path, r->seed, r->nodes, r->queues, r->jobs, r->tasks,
		       r->running_at_start, r->build);
	else
		printf("vsbench run: preset %s, inproc, seed %llu: %u nodes, %u queues, "
		       "%u podgroups, %u tasks (%lu running), built in %.3f s\n\n", r->preset->name,
		       r->seed, r->nodes, r->queues, r->jobs, r->tasks, r->running_at_start,
		       r->build);
	if (r->nr_cycles) {
		printf("%5s %9s %9s %9s", "CYCLE", "BINDS", "PENDING", "RUNNING");
		if (!r->socket)
			printf(" %10s", "OPEN-MS");
		for (u32 a = 0; a < r->nr_actions; a++) {
			char h[40];

			snprintf(h, sizeof(h), "%s-ms", r->actions[a]);
			for (char *p = h; *p; p++)
				*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
			printf(" %12s", h);
		}
		if (r->socket)
			printf(" %10s %10s %10s\n", "TOTAL-MS", "WALL-MS", "CONFIRM-MS");
		else
			printf(" %10s %10s\n", "CLOSE-MS", "TOTAL-MS");
	}
	for (unsigned long c = 0; c < r->nr_cycles; c++) {
		const struct run_cycle *rc = &r->cycles[c];

		printf("%5lu %9" PRIu64 " %9u %9u", c + 1, rc->binds, rc->pending, rc->running);
		if (!r->socket)
			printf(" %10.3f", rc->open * 1e3);
		for (u32 a = 0; a < r->nr_actions; a++)
			printf(" %12.3f", rc->actions[a] * 1e3);
		if (r->socket)
			printf(" %10.3f %10.3f %10.3f\n", rc->total * 1e3, rc->wall * 1e3,
			       rc->confirm * 1e3);
		else
			printf(" %10.3f %10.3f\n", rc->close * 1e3, rc->total * 1e3);
	}
	if (r->nr_cycles) {
		printf("\n  pods placed per second   %.0f (%" PRIu64 " binds in %.3f s of %s)\n",
		       r->sched > 0 ? (double)r->binds / r->sched : 0.0, r->binds, r->sched,
		       r->socket ? "the daemon's cycles" : "scheduling");
		printf("  cycle ms                 p50 %.3f, p99 %.3f, max %.3f\n", cs[0] * 1e3,
		       cs[1] * 1e3, cs[2] * 1e3);
		if (!r->socket)
			printf("  session open ms          %.3f (sums over the %lu cycles)\n",
			       open * 1e3, r->nr_cycles);
		for (u32 a = 0; a < r->nr_actions; a++)
			printf("  %-8s ms              %.3f%s\n", r->actions[a],
			       sum_action(r, a) * 1e3,
			       r->socket && !a ? " (sums over the cycles)" : "");
		if (r->socket) {
			printf("  round trip ms            %.3f (cycle asked to decisions read)\n",
			       r->wall * 1e3);
			printf("  binder ms                %.3f (binds answered bound and running, "
			       "in batches)\n", r->confirm * 1e3);
		} else {
			printf("  session close ms         %.3f\n", close * 1e3);
		}
		if (r->has_quiet)
			printf("  quiet cycle ms           %.3f (open %.3f, actions %.3f, close %.3f; "
			       "a cycle more, nothing changed; %u podgroups awake)\n",
			       r->quiet.total * 1e3, r->quiet.open * 1e3,
			       (r->quiet.total - r->quiet.open - r->quiet.close) * 1e3,
			       r->quiet.close * 1e3, r->active_jobs);
	} else {
		printf("  no cycle run (--cycles 0)\n");
	}
	if (r->socket) {
		printf("  load                     %lu objects in %.3f s, %.0f objects/s\n",
		       r->load_objects, r->load, r->load > 0 ? r->load_objects / r->load : 0.0);
		if (r->has_daemon_rss)
			printf("  daemon RSS               %.1f MiB (after the last cycle)\n",
			       (double)r->daemon_rss / (1 << 20));
		if (r->has_pools) {
			printf("  bytes per node           %.1f (the daemon's vs_node pool: %zu "
			       "bytes)\n", per(r->node_pool.bytes, r->nodes), r->node_pool.bytes);
			printf("  bytes per task           %.1f (the daemon's vs_task pool: %zu "
			       "bytes)\n", per(r->task_pool.bytes, r->tasks), r->task_pool.bytes);
		}
		return 0;
	}
	printf("  peak RSS                 %.1f MiB\n", (double)r->peak_rss / (1 << 20));
	printf("  bytes per node           %.1f (vs_node pool: %zu bytes)\n",
	       per(r->node_pool.bytes, r->nodes), r->node_pool.bytes);
	printf("  bytes per task           %.1f (vs_task pool: %zu bytes)\n",
	       per(r->task_pool.bytes, r->tasks), r->task_pool.bytes);
	printf("  fast path                %" PRIu64 " of %" PRIu64 " binds from node indexes",
	       r->fast_placements, r->binds);
	if (r->fast_dry_placements)
		printf("; %" PRIu64 " placements in HyperNode dry runs", r->fast_dry_placements);
	printf("\n");
	if (r->compared)
		printf("  exhaustive scan          %.3f s, %.1fx the fast path's time; %s\n",
		       r->exhaustive_sched, r->sched > 0 ? r->exhaustive_sched / r->sched : 0,
		       r->exact ? "the same binds in the same order (exact)" :
				  "OTHER BINDS: the fast path is not exact");
	printf("  invariants hold\n");
	return 0;
}

static u64 peak_rss(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (u64)ru.ru_maxrss * 1024;	/* Linux reports KiB */
}

/* The binder sink, with every bind folded into r->trace as it comes, and written to @out. */
struct tracing_binder {
	struct vsbench_binder binder;
	u64 *trace;
	FILE *out;			/* --binds-out, or NULL */
};

static void tracing_bind(void *ctx, struct vs_task *task, struct vs_node *node)
{
	struct tracing_binder *tb = ctx;

	vsbench_fold(tb->trace, task->ns);
	vsbench_fold(tb->trace, task->name);
	vsbench_fold(tb->trace, node->name);
	if (tb->out)
		fprintf(tb->out, "%s/%s %s\n", task->ns, task->name, node->name);
	vsbench_binder_bind(&tb->binder, task, node);
}

static int schedule(struct vs_cluster *cl, struct vs_sched *sched, const struct run_opts *o,
		    struct run_result *r, FILE *binds_out)
{
	struct tracing_binder tb = { .binder = { NULL, 0, 0, 0 }, .trace = &r->trace,
				     .out = binds_out };
	struct vsbench_binder *b = &tb.binder;
	struct vs_err err = { { 0 } };
	u32 nr_actions = sched->conf->nr_actions;
	double *times;
	int ret = 0;

	r->cycles = calloc(o->cycles ? o->cycles : 1, sizeof(*r->cycles));
	/* a slot more for the quiet cycle's actions */
	times = calloc((o->cycles + 1) * (nr_actions ? nr_actions : 1), sizeof(*times));
	if (!r->cycles || !times) {
		free(times);
		fprintf(stderr, "vsbench run: out of memory\n");
		return 1;
	}
	r->cycles[0].actions = times;	/* owns them, for vsbench_run() to free */
	r->trace = 0xcbf29ce484222325ULL;
	sched->sink = (struct vs_decision_sink){ .bind = tracing_bind, .ctx = &tb };
	for (unsigned long c = 0; c < o->cycles; c++) {
		struct run_cycle *rc = &r->cycles[c];
		u64 before = b->total;

		rc->actions = times + c * nr_actions;
		ret = run_cycle(sched, rc, &err);
		r->nr_cycles++;
		if (ret) {
			fprintf(stderr, "vsbench run: cycle %lu: %s\n", c + 1, err.msg);
			break;
		}
		rc->binds = b->total - before;
		r->sched += rc->total;
		vsbench_binder_confirm(b, cl);
		rc->pending = vsbench_count_status(cl, VS_TASK_PENDING);
		rc->running = vsbench_count_status(cl, VS_TASK_RUNNING);
		if (!rc->binds)
			break;
	}
	r->active_jobs = cl->nr_active_jobs;
	if (!ret && r->nr_cycles && !r->cycles[r->nr_cycles - 1].binds) {
		r->quiet.actions = times + o->cycles * nr_actions;
		ret = run_cycle(sched, &r->quiet, &err);
		if (ret)
			fprintf(stderr, "vsbench run: the quiet cycle: %s\n", err.msg);
		r->has_quiet = !ret;
	}
	r->binds = b->total;
	r->fast_placements = sched->stats.fast_placements;
	r->fast_dry_placements = sched->stats.fast_dry_placements;
	sched->sink = (struct vs_decision_sink){ 0 };
	free(b->bound);
	return ret ? 1 : 0;
}

/* The built-in configuration (a topology preset's) with allocate's exhaustive scan. */
static int exhaustive_conf(const struct vsbench_shape *shape, struct vs_conf **conf,
			   struct vs_err *err)
{
#define EXHAUSTIVE "\nconfigurations:\n- name: allocate\n  arguments:\n    exhaustive: true\n"
	/* a topology preset's: with network-topology-aware, as vsbench_conf_pick() */
	return vsbench_conf_default_plus(shape->nt_given ?
					 "  - name: network-topology-aware\n" EXHAUSTIVE : EXHAUSTIVE,
					 "the built-in configuration, exhaustive", conf, err);
#undef EXHAUSTIVE
}

/*
 * The preset's cluster of @shape built into @cl from its seed (the time
 * in *@build when not NULL) and a scheduler on @conf (taken, also on
 * failure): 0, or 1 with the reason said and nothing left to free.
 */
static int open_preset(const struct vsbench_shape *shape, struct vs_conf *conf,
		       struct vs_cluster *cl, struct vs_sched *sched, unsigned long *running,
		       double *build)
{
	struct vs_err err = { { 0 } };
	double t0;

	if (vs_cluster_init(cl)) {
		vs_conf_free(conf);
		fprintf(stderr, "vsbench run: out of memory\n");
		return 1;
	}
	vsbench_seed(shape->seed);
	t0 = vsbench_now();
	if (vsbench_build(cl, shape, running)) {
		vs_conf_free(conf);
		vs_cluster_destroy(cl);
		return 1;
	}
	if (build)
		*build = vsbench_now() - t0;
	if (vs_sched_init(sched, cl, vs_builtin_registry(), conf, &err)) {
		fprintf(stderr, "vsbench run: %s\n", err.msg);
		vs_cluster_destroy(cl);
		return 1;
	}
	return 0;
}

/*
 * --compare: the same cluster again (same seed), scheduled by the
 * exhaustive scan for as many cycles as the fast run ran: its time, and
 * whether it bound the same tasks to the same nodes in the same order.
 */
static int compare(const struct run_opts *o, const struct vsbench_shape *shape,
		   struct run_result *r)
{
	struct run_opts ox = *o;
	struct run_result x = { 0 };
	struct vs_err err = { { 0 } };
	unsigned long running;
	struct vs_cluster cl;
	struct vs_sched sched;
	struct vs_conf *conf;
	int ret;

	if (exhaustive_conf(shape, &conf, &err)) {
		fprintf(stderr, "vsbench run: %s\n", err.msg);
		return 1;
	}
	if (open_preset(shape, conf, &cl, &sched, &running, NULL))
		return 1;
	ox.cycles = r->nr_cycles;
	ret = schedule(&cl, &sched, &ox, &x, NULL);
	if (!ret) {
		r->compared = true;
		r->exhaustive_sched = x.sched;
		r->exhaustive_binds = x.binds;
		r->exact = x.binds == r->binds && x.trace == r->trace;
	}
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
	if (x.cycles)
		free(x.cycles[0].actions);
	free(x.cycles);
	return ret ? 1 : 0;
}

/* The daemon's figures of cycle @rc as the cycle @c of the run. */
static void remote_cycle_copy(struct run_cycle *c, const struct vsbench_remote_cycle *rc)
{
	c->binds = rc->binds;
	c->total = (double)rc->duration_ns / 1e9;
	for (u32 a = 0; a < rc->nr_actions; a++)
		c->actions[a] = (double)rc->action_ns[a] / 1e9;
	c->pending = rc->pending;
	c->wall = rc->wall;
	c->confirm = rc->confirm;
}

/* The daemon holds what was loaded, and nothing else. */
static int check_loaded(const struct vsbench_daemon_stats *st, const struct vs_cluster *cl)
{
	if (st->nodes == cl->nr_nodes && st->queues == cl->nr_queues &&
	    st->podgroups == cl->nr_jobs && st->tasks == cl->nr_tasks &&
	    st->prioclasses == cl->nr_prioclasses && !st->vjobs)
		return 0;
	fprintf(stderr, "vsbench run: after the load the daemon holds %u nodes, %u queues, %u "
		"podgroups, %u tasks, the preset %u, %u, %u, %u: does another client use it?\n",
		st->nodes, st->queues, st->podgroups, st->tasks, cl->nr_nodes, cl->nr_queues,
		cl->nr_jobs, cl->nr_tasks);
	return -EBUSY;
}

/*
 * --mode socket: the same cluster, built here from the same seed, loaded
 * into a running vschedd and scheduled there on request, this process
 * answering every bind between cycles (socket.c).
 */
static int run_socket(const struct run_opts *o, const struct vsbench_shape *shape)
{
	struct vsbench_daemon_stats st;
	struct vsbench_remote *rem;
	struct run_result r = { 0 };
	unsigned long nr = o->cycles ? o->cycles : 1;
	struct vs_cluster cl;
	u32 running;
	double t0;
	int ret;

	r.preset = o->preset;
	r.seed = o->seed;
	r.socket = true;
	r.socket_path = o->socket_path ? o->socket_path : vsnl_default_path();
	if (vsbench_remote_open(&rem, o->socket_path, "vsbench run"))
		return 1;
	ret = 1;
	if (vs_cluster_init(&cl)) {
		fprintf(stderr, "vsbench run: out of memory\n");
		goto out_remote;
	}
	vsbench_seed(shape->seed);
	t0 = vsbench_now();
	ret = vsbench_build(&cl, shape, &r.running_at_start);
	r.build = vsbench_now() - t0;
	if (ret)
		goto out_cluster;
	r.nodes = cl.nr_nodes;
	r.queues = cl.nr_queues;
	r.jobs = cl.nr_jobs;
	r.tasks = cl.nr_tasks;
	r.cycles = calloc(nr, sizeof(*r.cycles));
	if (!r.cycles || !(r.cycles[0].actions = calloc(nr * VSBENCH_REMOTE_ACTIONS,
							sizeof(double)))) {
		fprintf(stderr, "vsbench run: out of memory\n");
		ret = 1;
		goto out_cluster;
	}

	ret = vsbench_remote_load(rem, &cl, &r.load_objects, &r.load);
	if (!ret)
		ret = vsbench_remote_stats(rem, &st);
	if (!ret)
		ret = check_loaded(&st, &cl);
	running = (u32)r.running_at_start;
	for (unsigned long c = 0; !ret && c < o->cycles; c++) {
		struct run_cycle *rc = &r.cycles[c];
		struct vsbench_remote_cycle dc;

		rc->actions = r.cycles[0].actions + c * VSBENCH_REMOTE_ACTIONS;
		ret = vsbench_remote_cycle(rem, &dc);
		r.nr_cycles++;
		if (ret) {
			fprintf(stderr, "vsbench run: cycle %lu failed\n", c + 1);
			break;
		}
		remote_cycle_copy(rc, &dc);
		/* every bind answered running, and the daemon took every answer */
		running += dc.binds;
		rc->running = running;
		r.binds += dc.binds;
		r.sched += rc->total;
		r.wall += rc->wall;
		r.confirm += rc->confirm;
		if (!dc.binds)
			break;
	}
	if (ret)
		goto out_cluster;
	r.actions = vsbench_remote_actions(rem, &r.nr_actions);
	ret = vsbench_remote_stats(rem, &st);
	if (ret)
		goto out_cluster;
	r.has_daemon_rss = st.has_rss;
	r.daemon_rss = st.rss;
	r.has_pools = st.pools == 3;
	r.node_pool = st.node_pool;
	r.task_pool = st.task_pool;
	ret = o->json ? print_json(&r) : print_table(&r);

out_cluster:
	vs_cluster_destroy(&cl);
out_remote:
	vsbench_remote_close(rem);
	if (r.cycles)
		free(r.cycles[0].actions);
	free(r.cycles);
	return ret ? 1 : 0;
}

/* The shape of the preset of @o, with its topology and --network-topology's: 0 or -1. */
static int preset_shape(const struct run_opts *o, struct vsbench_gangs *gangs,
			struct vsbench_shape *shape)
{
	const struct run_preset *p = o->preset;

	*gangs = (struct vsbench_gangs){ .tasks = p->tasks, .sizes = vsbench_gang_sizes,
					 .nr_sizes = vsbench_nr_gang_sizes };
	if (p->leaves) {
		gangs->sizes = topo_gang_sizes;
		gangs->nr_sizes = ARRAY_SIZE(topo_gang_sizes);
	}
	*shape = (struct vsbench_shape){ .nodes = p->nodes, .queues = p->queues,
					 .running_pct = p->running_pct, .seed = o->seed,
					 .spread_pct = p->spread_pct,
					 .gangs = gangs, .topo_spines = p->spines,
					 .topo_leaves = p->leaves };
	if (p->nt && vsbench_nt_opt("run", o->nt ? o->nt : p->nt, shape))
		return -1;
	return vsbench_shape_check("run", shape);
}

int vsbench_run(int argc, char **argv)
{
	struct vs_err err = { { 0 } };
	struct vsbench_gangs gangs;
	struct vsbench_shape shape;
	struct run_result r = { 0 };
	struct vs_cluster cl;
	struct vs_sched sched;
	struct vs_conf *conf;
	FILE *binds_out = NULL;
	struct run_opts o;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (preset_shape(&o, &gangs, &shape))
		return 2;
	if (o.socket)
		return run_socket(&o, &shape);
	if (vsbench_conf_pick(NULL, &shape, &conf, &err)) {
		fprintf(stderr, "vsbench run: %s\n", err.msg);
		return 1;
	}
	if (open_preset(&shape, conf, &cl, &sched, &r.running_at_start, &r.build))
		return 1;
	r.preset = o.preset;
	r.seed = o.seed;
	r.actions = (const char *const *)sched.conf->actions;
	r.nr_actions = sched.conf->nr_actions;
	r.nodes = cl.nr_nodes;
	r.queues = cl.nr_queues;
	r.jobs = cl.nr_jobs;
	r.tasks = cl.nr_tasks;

	if (o.export_file) {
		char source[96];

		snprintf(source, sizeof(source), "vsbench run --preset %s --seed %llu",
			 o.preset->name, o.seed);
		ret = vsbench_export_scenario(&cl, o.export_file, source, o.cycles);
		if (ret) {
			ret = ret < 0 ? 2 : 1;
			goto out_sched;
		}
	}
	if (o.binds_file) {
		binds_out = fopen(o.binds_file, "w");
		if (!binds_out) {
			fprintf(stderr, "vsbench run: --binds-out %s: %s\n", o.binds_file,
				strerror(errno));
			ret = 2;
			goto out_sched;
		}
	}
	ret = schedule(&cl, &sched, &o, &r, binds_out);
	if (binds_out && (ferror(binds_out) | fclose(binds_out))) {
		fprintf(stderr, "vsbench run: --binds-out %s: write failed\n", o.binds_file);
		ret = 1;
	}
	if (!ret && vs_cluster_check(&cl, &err)) {
		fprintf(stderr, "vsbench run: invariant check: %s\n", err.msg);
		ret = 1;
	}
	if (ret)
		goto out_sched;
	/* Scheduling creates no object: the pools hold what was built. */
	vs_pool_get_stats(&cl.node_pool, &r.node_pool);
	vs_pool_get_stats(&cl.task_pool, &r.task_pool);
	r.peak_rss = peak_rss();	/* before the comparison's cluster is built */
	if (o.compare && compare(&o, &shape, &r)) {
		ret = 1;
		goto out_sched;
	}
	if (o.json ? print_json(&r) : print_table(&r))
		ret = 1;
	/* A fast path that decides otherwise than its oracle is a failure, not a figure. */
	if (r.compared && !r.exact) {
		fprintf(stderr, "vsbench run: the fast path bound otherwise than the exhaustive "
			"scan\n");
		ret = 1;
	}
out_sched:
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
	if (r.cycles)
		free(r.cycles[0].actions);
	free(r.cycles);
	return ret == 2 ? 2 : ret ? 1 : 0;
}
