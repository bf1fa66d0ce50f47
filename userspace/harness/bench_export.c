// SPDX-License-Identifier: Apache-2.0
/*
 * vsbench's clusters as scenario files (/work/shared/SCENARIOS.md, with
 * vsched's keys of Documentation/vsctl.md), so that another scheduler (the
 * conformance oracle, Volcano's own) can schedule the very cluster a run
 * measured: "vsbench run --export-scenario FILE".
 *
 * The file holds what the generator (gen.c) sets and nothing else: nodes
 * (cpu, memory, pods, labels, taints), queues (weight), PodGroups
 * (namespace, queue, minMember, phase) and pods (request, role, node
 * selector, Running on a node or Pending), each list in creation order,
 * which is the order the loader creates them in and so keeps every tie
 * where the run had it. No configuration is written: the default applies,
 * which is vsbench's built-in one. Quantities are written exactly: cpu in
 * millicores, memory in bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/job.h"
#include "core/node.h"
#include "core/queue.h"
#include "core/task.h"
#include "harness/bench.h"

/* A YAML double-quoted scalar: the generator's names need no escape, but a shape could. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_labels(FILE *f, const char *key, const struct vs_labels *l)
{
	if (!vs_labels_count(l))
		return;
	fprintf(f, ", %s: {", key);
	for (u32 i = 0; i < l->nr; i++) {
		fputs(i ? ", " : "", f);
		put_str(f, l->kv[i].key);
		fputs(": ", f);
		put_str(f, l->kv[i].value);
	}
	fputc('}', f);
}

static void put_node(FILE *f, const struct vs_node *n)
{
	const struct vs_taints *t = n->taints;

	fputs("  - {name: ", f);
	put_str(f, n->name);
	fprintf(f, ", allocatable: {cpu: \"%lldm\", memory: \"%lld\", pods: \"%lld\"}",
		(long long)vs_res_get(&n->allocatable, VS_RES_CPU),
		(long long)vs_res_get(&n->allocatable, VS_RES_MEMORY),
		(long long)vs_res_get(&n->allocatable, VS_RES_PODS));
	put_labels(f, "labels", n->labels);
	if (vs_taints_count(t)) {
		fputs(", taints: [", f);
		for (u32 i = 0; i < t->nr; i++) {
			fputs(i ? ", " : "", f);
			fputs("{key: ", f);
			put_str(f, t->t[i].key);
			fputs(", value: ", f);
			put_str(f, t->t[i].value);
			fprintf(f, ", effect: %s}", vs_taint_effect_name(t->t[i].effect));
		}
		fputc(']', f);
	}
	fputs("}\n", f);
}

static void put_task(FILE *f, const struct vs_task *t)
{
	fputs("  - {name: ", f);
	put_str(f, t->name);
	fputs(", namespace: ", f);
	put_str(f, t->ns);
	fputs(", podgroup: ", f);
	put_str(f, t->job->name);
	fprintf(f, ", request: {cpu: \"%lldm\", memory: \"%lld\"}",
		(long long)vs_res_get(t->req, VS_RES_CPU),
		(long long)vs_res_get(t->req, VS_RES_MEMORY));
	if (*t->role) {
		fputs(", role: ", f);
		put_str(f, t->role);
	}
	put_labels(f, "nodeSelector", t->node_selector);
	fprintf(f, ", phase: %s", vs_task_status_name(t->status));
	if (t->node) {
		fputs(", node: ", f);
		put_str(f, t->node->name);
	}
	fputs("}\n", f);
}

/*
 * What the generator never sets has no place in the file: refuse a
 * cluster that holds it rather than write a file that schedules otherwise.
 */
static int check_exportable(const struct vs_cluster *cl, const char *file)
{
	const struct vs_task *t;
	const struct vs_job *j;

	if (!list_empty(&cl->prioclasses) || !list_empty(&cl->vjobs) ||
	    !list_empty(&cl->orphan_jobs)) {
		fprintf(stderr, "vsbench: --export-scenario %s: the cluster holds priority "
			"classes, jobs or podgroups without a queue, which the export does not "
			"write\n", file);
		return -1;
	}
	/* the topology presets' */
	if (cl->hypernodes.nr) {
		fprintf(stderr, "vsbench: --export-scenario %s: the cluster holds HyperNodes, "
			"which the export does not write yet\n", file);
		return -1;
	}
	list_for_each_entry(j, &cl->jobs, list) {
		list_for_each_entry(t, &j->tasks, job_node) {
			if (t->status != VS_TASK_PENDING && t->status != VS_TASK_RUNNING) {
				fprintf(stderr, "vsbench: --export-scenario %s: task %s/%s is %s: "
					"only Pending and Running tasks are written\n", file,
					t->ns, t->name, vs_task_status_name(t->status));
				return -1;
			}
		}
	}
	return 0;
}

int vsbench_export_scenario(const struct vs_cluster *cl, const char *file, const char *source,
			    unsigned long cycles)
{
	const struct vs_queue *q;
	const struct vs_node *n;
	const struct vs_task *t;
	const struct vs_job *j;
	FILE *f;

	if (check_exportable(cl, file))
		return 1;
	f = fopen(file, "w");
	if (!f) {
		fprintf(stderr, "vsbench: --export-scenario %s: %s\n", file, strerror(errno));
		return -1;
	}
	fputs("# A vsbench cluster as a scenario file (userspace/vsbench/export.c).\nsource: ", f);
	put_str(f, source);
	/* at least one: a run of 0 cycles still has a cluster worth scheduling elsewhere */
	fprintf(f, "\ncycles: %lu\nqueues:\n", cycles ? cycles : 1);
	list_for_each_entry(q, &cl->queues, list) {
		fputs("  - {name: ", f);
		put_str(f, q->name);
		fprintf(f, ", weight: %u}\n", q->weight);
	}
	fputs("nodes:\n", f);
	list_for_each_entry(n, &cl->nodes, list)
		put_node(f, n);
	fputs("podgroups:\n", f);
	list_for_each_entry(j, &cl->jobs, list) {
		fputs("  - {name: ", f);
		put_str(f, j->name);
		fputs(", namespace: ", f);
		put_str(f, j->ns);
		fputs(", queue: ", f);
		put_str(f, j->queue_name);
		fprintf(f, ", minMember: %u, phase: %s}\n", j->min_member,
			vs_pg_phase_name(j->phase));
	}
	fputs("pods:\n", f);
	list_for_each_entry(j, &cl->jobs, list)
		list_for_each_entry(t, &j->tasks, job_node)
			put_task(f, t);
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "vsbench: --export-scenario %s: write failed\n", file);
		return 1;
	}
	return 0;
}
