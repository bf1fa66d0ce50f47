// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: scenario files, as "vsctl scenario run" reads them
 * (scenario_load_text(): the YAML, the objects into a fresh core, the
 * configuration in any of its three forms, the expectations). The input is
 * the file's text. The scenario is loaded and freed, never run.
 *
 * What must hold whatever the bytes: a refusal names the file and a line
 * of it first; what is accepted has a configuration with which the
 * framework either builds a scheduler or says why not, between 1 and 1000
 * cycles, pipelines onto listed nodes of pending tasks, only expectations
 * of known keys with their entries whole, and a core that is whole
 * (vs_cluster_check()).
 */
#include <string.h>

#include "core/cluster.h"
#include "fuzz.h"
#include "harness/scenario.h"
#include "registry/builtin.h"
#include "sched/conf.h"
#include "sched/framework.h"

#define SOURCE	"fuzz.yaml"

/*
 * The last line a message about @data may name: one after the last line
 * break, where libyaml ends a text that lacks its final one. A "conf:"
 * text is read with the scenario's lines (shifted to where it starts) and
 * may hold line breaks written as escapes: one more line per backslash,
 * and one after its own last line.
 */
static unsigned long last_line(const uint8_t *data, size_t size)
{
	return 3 + fuzz_line_breaks(data, size, true);
}

/* A refusal says why, and where: "FILE:LINE: ...", the line one of the file's. */
static void check_where(const char *msg, const uint8_t *data, size_t size)
{
	unsigned long line;
	char *end;

	FUZZ_ASSERT(!strncmp(msg, SOURCE ":", strlen(SOURCE ":")),
		    "a refusal that does not name the file first: %s", msg);
	msg += strlen(SOURCE ":");
	if (!strcmp(msg, " out of memory"))
		return;
	line = strtoul(msg, &end, 10);
	FUZZ_ASSERT(end != msg && *end == ':' && line >= 1 && line <= last_line(data, size),
		    "line %lu of %lu: %s", line, last_line(data, size), msg);
}

static void check_set(const struct scn_set *set, bool with_val)
{
	FUZZ_ASSERT(set->nr <= set->cap, "%u entries in %u", set->nr, set->cap);
	for (u32 i = 0; i < set->nr; i++) {
		FUZZ_ASSERT(set->e[i].key, "entry %u without a key", i);
		FUZZ_ASSERT(!with_val || set->e[i].val, "entry %u (%s) without a value", i,
			    set->e[i].key);
	}
}

static void check_scenario(const struct scenario *scn)
{
	const struct scn_expect *x = &scn->expect;
	struct vs_err err = { { 0 } };
	int ret;

	FUZZ_ASSERT(scn->file && !strcmp(scn->file, SOURCE), "file \"%s\"", scn->file);
	FUZZ_ASSERT(scn->cl_ready, "accepted without a core");
	FUZZ_ASSERT(scn->conf, "accepted without a configuration");
	FUZZ_ASSERT(scn->cycles >= 1 && scn->cycles <= 1000, "%u cycles", scn->cycles);
	FUZZ_ASSERT(!vs_cluster_check(&scn->cl, &err), "%s", err.msg);
	ret = vs_registry_check_conf(vs_builtin_registry(), scn->conf, &err);
	FUZZ_ASSERT(ret <= 0 && (!ret || err.msg[0]), "configuration refused (%d) without a reason",
		    ret);
	for (u32 i = 0; i < scn->nr_pipelines; i++) {
		const struct scn_pipeline *p = &scn->pipelines[i];

		FUZZ_ASSERT(p->task && p->node, "pipeline %u", i);
		FUZZ_ASSERT(p->task->status == VS_TASK_PENDING && !p->task->node,
			    "pipeline %u of a task that is not pending", i);
	}
	FUZZ_ASSERT(!(x->has & ~(((1u << SCN_NR_KEYS) - 1) | SCN_HAS_HN_LEAVES)),
		    "expect keys %#x", x->has);
	FUZZ_ASSERT(!(x->has & SCN_HAS_HN_LEAVES) || (x->has & (1u << SCN_HYPERNODES)),
		    "leaves expected without hypernodes: %#x", x->has);
	check_set(&x->binds, true);
	check_set(&x->evicts, false);
	check_set(&x->pipelined, true);
	check_set(&x->phases, true);
	check_set(&x->scores, true);
	check_set(&x->explain, true);
	check_set(&x->hypernodes, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_err err = { { 0 } };
	struct scenario scn;
	int ret;

	ret = scenario_load_text(&scn, SOURCE, (const char *)data, size, &err);
	if (ret) {
		FUZZ_ASSERT(ret < 0, "%d", ret);
		check_where(err.msg, data, size);
	} else {
		check_scenario(&scn);
	}
	/* due either way */
	scenario_free(&scn);
	return 0;
}
