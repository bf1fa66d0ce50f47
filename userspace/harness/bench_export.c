// SPDX-License-Identifier: Apache-2.0
/*
 * vsbench's clusters as scenario files (/work/shared/SCENARIOS.md, with
 * vsched's keys of Documentation/vsctl.md), so that another scheduler (the
 * conformance oracle, Volcano's own) can schedule the very cluster a run
 * measured: "vsbench run --export-scenario FILE".
 *
 * The file holds what the generator (gen.c) sets and nothing else: nodes
 * (cpu, memory, pods, labels, taints), queues (weight), PodGroups
 * (namespace, queue, minMember, phase) and pods (request, role, labels,
 * node selector, required pod anti-affinity and topology spread
 * constraints by matchLabels, Running on a node or Pending), each list in
 * creation order,
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

/* @l as a flow mapping: {"k": "v", ...}. */
static void put_map(FILE *f, const struct vs_labels *l)
{
	fputc('{', f);
	for (u32 i = 0; i < vs_labels_count(l); i++) {
		fputs(i ? ", " : "", f);
		put_str(f, l->kv[i].key);
		fputs(": ", f);
		put_str(f, l->kv[i].value);
	}
	fputc('}', f);
}

static void put_labels(FILE *f, const char *key, const struct vs_labels *l)
{
	if (!vs_labels_count(l))
		return;
	fprintf(f, ", %s: ", key);
	put_map(f, l);
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

/* A selector of matchLabels alone, as the generator makes them. */
static void put_selector(FILE *f, const struct vs_label_selector *sel)
{
	fputs(", labelSelector: {matchLabels: ", f);
	put_map(f, sel->match_labels);
	fputc('}', f);
}

static void put_anti_affinity(FILE *f, const struct vs_pod_affinity *anti)
{
	fputs(", affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [",
	      f);
	for (u32 i = 0; i < anti->nr_required; i++) {
		fputs(i ? ", {" : "{", f);
		fputs("topologyKey: ", f);
		put_str(f, anti->required[i].topology_key);
		put_selector(f, anti->required[i].selector);
		fputc('}', f);
	}
	fputs("]}}", f);
}

static void put_spread(FILE *f, const struct vs_spread_constraints *sc)
{
	fputs(", topologySpreadConstraints: [", f);
	for (u32 i = 0; i < sc->nr; i++) {
		const struct vs_spread_constraint *c = &sc->c[i];

		fprintf(f, "%s{maxSkew: %d, topologyKey: ", i ? ", " : "", c->max_skew);
		put_str(f, c->topology_key);
		fprintf(f, ", whenUnsatisfiable: %s", vs_spread_action_name(c->when));
		put_selector(f, c->selector);
		fputc('}', f);
	}
	fputc(']', f);
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
	put_labels(f, "labels", t->labels);
	put_labels(f, "nodeSelector", t->node_selector);
	if (t->affinity)
		put_anti_affinity(f, t->affinity->pod_anti_affinity);
	if (vs_task_spread(t))
		put_spread(f, vs_task_spread(t));
	fprintf(f, ", phase: %s", vs_task_status_name(t->status));
	if (t->node) {
		fputs(", node: ", f);
		put_str(f, t->node->name);
	}
	fputs("}\n", f);
}

/* A selector the file writes: matchLabels only, some. */
static bool plain_selector(const struct vs_label_selector *sel)
{
	return sel && !sel->nr_exprs && vs_labels_count(sel->match_labels);
}

/*
 * The generator's pods that look beyond their node: required pod
 * anti-affinity terms and spread constraints, each selecting by
 * matchLabels in the pod's namespace, and no policy or minDomains.
 */
static bool exportable_beyond(const struct vs_task *t)
{
	const struct vs_affinity *a = t->affinity;
	const struct vs_spread_constraints *sc = vs_task_spread(t);

	if (a && (a->node_affinity || a->pod_affinity || !a->pod_anti_affinity ||
		  a->pod_anti_affinity->nr_preferred))
		return false;
	for (u32 i = 0; a && i < a->pod_anti_affinity->nr_required; i++) {
		const struct vs_pod_affinity_term *term = &a->pod_anti_affinity->required[i];

		if (!plain_selector(term->selector) || term->all_namespaces ||
		    term->nr_namespaces)
			return false;
	}
	for (u32 i = 0; sc && i < sc->nr; i++) {
		const struct vs_spread_constraint *c = &sc->c[i];

		if (!plain_selector(c->selector) || c->min_domains || c->nr_match_label_keys ||
		    c->node_affinity_policy || c->node_taints_policy)
			return false;
	}
	return true;
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
			if (!exportable_beyond(t)) {
				fprintf(stderr, "vsbench: --export-scenario %s: task %s/%s has an "
					"affinity or spread constraint the generator does not "
					"make, which the export does not write\n", file, t->ns,
					t->name);
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
