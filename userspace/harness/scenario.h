/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scenarios (shared/SCENARIOS.md, Documentation/vsctl.md): a cluster, a
 * configuration and the decisions one or more cycles must take, in one YAML
 * file. The harness's scenario_load.c reads a file into a fresh in-process
 * core, its scenario_run.c runs the cycles and compares what was decided
 * with the expectations; vsctl's scenario_remote.c runs them against a
 * running vschedd instead (vsctl/scenario.h), and its scenario_cmd.c is
 * "vsctl scenario run" around them.
 */
#ifndef HARNESS_SCENARIO_H
#define HARNESS_SCENARIO_H

#include <jansson.h>
#include <stdio.h>

#include "core/cluster.h"
#include "sched/conf.h"

/*
 * One decision or expectation: a task or PodGroup ("ns/name") and what
 * happened to it (a node, a phase; NULL in lists), or a task's score on a
 * node. Strings are owned by the entry.
 */
struct scn_entry {
	char *key;
	char *val;
	double score;
	u32 line;		/* expectations: where the scenario wrote it */
};

/* A growable list of entries, in the order they were added. */
struct scn_set {
	struct scn_entry *e;
	u32 nr, cap;
};

int scn_set_add(struct scn_set *set, const char *key, const char *val, double score,
		u32 line);
void scn_set_free(struct scn_set *set);

/* The keys of "expect", as bits of struct scn_expect.has. */
enum scn_key {
	SCN_BINDS,
	SCN_BIND_COUNT,
	SCN_EVICTS,
	SCN_EVICT_COUNT,
	SCN_PIPELINED,
	SCN_PHASES,
	SCN_SCORES,
	SCN_EXPLAIN,
	SCN_HYPERNODES,
	SCN_NR_KEYS
};

/*
 * A bit of struct scn_expect.has past the keys: hypernodes names leaves,
 * which only the in-process core can read back (the protocol carries a
 * HyperNode's parent and node count, not its node names).
 */
#define SCN_HAS_HN_LEAVES	(1u << SCN_NR_KEYS)

/* "binds", "bindCount"... */
const char *scn_key_name(enum scn_key key);

struct scn_expect {
	u32 has;			/* bit k: key k was written, so it is checked */
	struct scn_set binds;		/* task -> node */
	struct scn_set evicts;		/* tasks */
	struct scn_set pipelined;	/* task -> node */
	struct scn_set phases;		/* podgroup -> phase */
	struct scn_set scores;		/* (task, node, score) */
	struct scn_set explain;		/* "task ns/p1" -> a line its explanation has */
	struct scn_set hypernodes;	/* "s0 parent", "s0 nodeCount", "s0 leaves" -> the value */
	u64 bind_count;
	u64 evict_count;
};

/* What the cycles decided, in the shape of struct scn_expect. */
struct scn_result {
	struct scn_set binds;		/* in the order they were committed */
	struct scn_set evicts;
	struct scn_set pipelined;	/* after the last cycle, before its session closed */
	struct scn_set phases;		/* every podgroup, after the last cycle */
	struct scn_set scores;		/* the expected tasks on every node */
	struct scn_set explain;		/* "task ns/p1" -> its explanation, as vsctl prints it */
	/*
	 * Every HyperNode after the last cycle, as struct scn_expect has them:
	 * parent ("" for a root) and nodeCount (decimal) always, leaves
	 * ("n1, n2": sorted, ", " between) from the in-process core only.
	 */
	struct scn_set hypernodes;
};

/* pipelinedTo: pipelined onto @node right after the first session opens. */
struct scn_pipeline {
	struct vs_task *task;
	struct vs_node *node;
};

struct scenario {
	const char *file;		/* not owned */
	u32 cycles;
	struct vs_cluster cl;
	bool cl_ready;
	struct vs_conf *conf;		/* owned until the run takes it */
	struct scn_pipeline *pipelines;
	u32 nr_pipelines;
	struct scn_expect expect;
};

/*
 * Read @file into @scn: the cluster built, the configuration parsed and
 * checked, the expectations read. On error the message in @err names the
 * file and line; scenario_free() is due either way.
 */
int scenario_load(struct scenario *scn, const char *file, struct vs_err *err);
/*
 * The same from the @len bytes of @text, read as the file @file (which
 * messages name, and which must outlive @scn).
 */
int scenario_load_text(struct scenario *scn, const char *file, const char *text, size_t len,
		       struct vs_err *err);
void scenario_free(struct scenario *scn);

/*
 * Run the cycles and record the decisions in @res (scenario_result_free()
 * it either way). Fails only when the core does (a session that cannot
 * open, an action that fails, a broken invariant).
 */
int scenario_run(struct scenario *scn, struct scn_result *res, struct vs_err *err);
void scenario_result_free(struct scn_result *res);

/*
 * Print @ex (an explanation as the VS_CMD_EXPLAIN reply renders it) as
 * vsctl explain does, into @res->explain under @key ("task ns/p1").
 */
int scn_explain_add(struct scn_result *res, const char *key, const json_t *ex);

/* explain's "scores NS/NAME": the task explained with its best nodes' scores, so many. */
#define SCN_EXPLAIN_SCORES	10

/* An explain key the loader checked ("task ns/p1", "scores ...", "job ...", "node n1"), apart. */
struct scn_explain_key {
	enum { SCN_EX_TASK, SCN_EX_SCORES, SCN_EX_JOB, SCN_EX_NODE } kind;
	char ns[256];			/* "" for a node */
	const char *name;		/* in the key: the name after "NS/" */
	const char *what;		/* "Task:", "PodGroup:", "Node:", as vsctl explain heads it */
	const char *object;		/* in the key: what follows the kind ("ns/p1") */
};

void scn_explain_key(const char *key, struct scn_explain_key *k);

/* "n1, n2": @names with ", " between, as hypernodes' leaves are kept; malloc'd. */
char *scn_join_names(const char *const *names, u32 nr);

/*
 * Compare @res with the expectations: one line per differing key, indented,
 * to @out. Returns the number of differences.
 */
unsigned int scenario_compare(const struct scenario *scn, const struct scn_result *res,
			      FILE *out);

#endif /* HARNESS_SCENARIO_H */
