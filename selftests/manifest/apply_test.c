// SPDX-License-Identifier: Apache-2.0
/*
 * "vsctl apply -f" and "vsctl delete -f" end to end: a real vschedd on a
 * socket of the test's own, the vsctl program built beside this test
 * binary, and the manifests of selftests/manifests/. A set is applied,
 * scheduled and read back as "vsctl task list -o json" shows it, applied
 * again, deleted; a bad set applies nothing and names its document.
 */
#include <libgen.h>
#include <limits.h>
#include <jansson.h>

#include "../daemon/dtest.h"

static struct dtest t;
static char vsctl[PATH_MAX], manifests[PATH_MAX], out[PATH_MAX], errs[PATH_MAX];

static void fini(void)
{
	dt_cleanup(&t);
}

static void init(void)
{
	struct vschedd_opts o = { .period_ms = 0 };
	char exe[PATH_MAX], src[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert_gt(n, 0);
	exe[n] = '\0';
	/* the binary is OBJ/selftests/vs-selftests, vsctl is OBJ/vsctl */
	snprintf(vsctl, sizeof(vsctl), "%s/../vsctl", dirname(exe));
	cr_assert_eq(access(vsctl, X_OK), 0, "no vsctl at %s", vsctl);
	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(manifests, sizeof(manifests), "%s/../manifests", dirname(src));
	dt_start(&t, &o);
	snprintf(out, sizeof(out), "%s/out", t.dir);
	snprintf(errs, sizeof(errs), "%s/err", t.dir);
}

TestSuite(apply, .init = init, .fini = fini, .timeout = 120);

/* Run "vsctl ARGS" against the test's daemon; its exit status. */
__printf(1, 2)
static int run(const char *fmt, ...)
{
	char args[2048], *cmd;
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	cr_assert_geq(asprintf(&cmd, "cd '%s' && VSCHED_SOCKET='%s' '%s' %s >'%s' 2>'%s'", manifests,
			       t.path, vsctl, args, out, errs), 0);
	status = system(cmd);
	free(cmd);
	cr_assert(WIFEXITED(status), "vsctl %s did not exit", args);
	return WEXITSTATUS(status);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = calloc(1, 1 << 20);
	size_t n = 0;

	cr_assert_not_null(buf);
	if (f) {
		n = fread(buf, 1, (1 << 20) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void said(const char *path, const char *what)
{
	char *text = slurp(path);

	cr_assert(strstr(text, what), "no \"%s\" in:\n%s", what, text);
	free(text);
}

/* "vsctl task list -A -o json", as a map of "ns/name" to {status, node}. */
static json_t *tasks(void)
{
	json_t *list, *map = json_object(), *v;
	json_error_t e;
	size_t i;

	cr_assert_eq(run("task list -A -o json"), 0);
	list = json_load_file(out, 0, &e);
	cr_assert_not_null(list, "%s", e.text);
	json_array_foreach(list, i, v) {
		char key[512];

		snprintf(key, sizeof(key), "%s/%s", json_string_value(json_object_get(v, "namespace")),
			 json_string_value(json_object_get(v, "name")));
		json_object_set(map, key, v);
	}
	json_decref(list);
	return map;
}

static const char *field(json_t *tasks, const char *key, const char *f)
{
	json_t *task = json_object_get(tasks, key);

	cr_assert_not_null(task, "no task %s", key);
	return json_string_value(json_object_get(task, f)) ?: "";
}

/* Nothing at all in the daemon. */
static void empty(void)
{
	cr_assert_eq(run("stats show -o json"), 0);
	said(out, "\"nrNodes\": 0");
	said(out, "\"nrQueues\": 0");
	said(out, "\"nrPodGroups\": 0");
	said(out, "\"nrTasks\": 0");
	said(out, "\"nrPriorityClasses\": 0");
}

Test(apply, a_cluster_is_applied_scheduled_applied_again_and_deleted)
{
	json_t *ts;

	cr_assert_eq(run("apply -f cluster.yaml -f workloads.yaml"), 0, "%s", slurp(errs));
	said(out, "priorityclass.scheduling.k8s.io/high-priority created\n");
	said(out, "queue.scheduling.volcano.sh/prod created\n");
	said(out, "node/n4 created\n");
	said(out, "podgroup.scheduling.volcano.sh/pg-a created\n");
	said(out, "job.batch.volcano.sh/vj created\n");
	said(out, "pod/gpu-0 created\n");
	said(out, "pod/web-pending skipped: another scheduler's, without a node\n");

	/* the job controller makes the VolcanoJob's pods once it is Inqueue */
	cr_assert_eq(run("cycle run"), 0);
	cr_assert_eq(run("cycle run"), 0);
	ts = tasks();
	cr_assert_str_eq(field(ts, "team-b/b-0", "node"), "n3", "its node selector");
	cr_assert_str_eq(field(ts, "team-a/gpu-0", "node"), "n4", "its toleration and gpu");
	cr_assert_str_eq(field(ts, "kube-system/web-7d9f8", "node"), "n2", "placed before");
	cr_assert_str_eq(field(ts, "team-a/gpu-0", "priorityClassName"), "");
	for (const char *const *k = (const char *const[]){ "team-a/a-0", "team-a/a-1",
			"team-b/b-0", "team-a/gpu-0", "team-b/solo", "kube-system/web-7d9f8",
			"team-b/vj-worker-0", "team-b/vj-worker-1", NULL }; *k; k++)
		cr_assert_str_eq(field(ts, *k, "status"), "Running", "%s", *k);
	cr_assert_null(json_object_get(ts, "kube-system/web-pending"));
	/* n5 is cordoned, n6 not ready: nothing goes there */
	json_t *v;
	const char *key;

	json_object_foreach(ts, key, v) {
		cr_assert_str_neq(field(ts, key, "node"), "n5");
		cr_assert_str_neq(field(ts, key, "node"), "n6");
	}
	json_decref(ts);

	/* again: what can change is configured, pods are left alone, phases stay */
	cr_assert_eq(run("apply -f workloads.yaml -f cluster.yaml"), 0, "%s", slurp(errs));
	said(out, "node/n1 configured\n");
	said(out, "podgroup.scheduling.volcano.sh/pg-a configured\n");
	said(out, "pod/a-0 unchanged\n");
	said(out, "job.batch.volcano.sh/vj unchanged\n");
	cr_assert_eq(run("podgroup show team-a/pg-a"), 0);
	said(out, "\"phase\": \"Running\"");

	cr_assert_eq(run("delete -f workloads.yaml -f cluster.yaml"), 0, "%s", slurp(errs));
	said(out, "pod \"a-0\" deleted\n");
	said(out, "job.batch.volcano.sh \"vj\" deleted\n");
	said(out, "queue.scheduling.volcano.sh \"prod\" deleted\n");
	empty();

	cr_assert_eq(run("delete -f cluster.yaml"), 1);
	said(errs, "vsctl: error: node \"n1\" not found\n");
	cr_assert_eq(run("delete --ignore-not-found -f cluster.yaml"), 0);
}

Test(apply, a_bad_document_applies_nothing_and_is_named)
{
	cr_assert_eq(run("apply -f cluster.yaml -f bad-quantity.yaml"), 1);
	said(errs, "vsctl: error: bad-quantity.yaml:29: document 3 (Pod ns/p1): "
		   "spec.containers[0].resources.requests.cpu: invalid quantity \"abc\": no digits\n");
	empty();
}

Test(apply, a_refusal_of_the_daemon_applies_nothing_and_names_the_document)
{
	cr_assert_eq(run("apply -f - < missing-podgroup.yaml"), 1);
	said(errs, "vsctl: error: stdin:10: document 2 (Pod ns/orphan): batch not applied: "
		   "message seq ");
	said(errs, "(VS_CMD_TASK_NEW task ns/orphan) failed: ");
	empty();
}

Test(apply, large_sets_are_summed_up)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/big.yaml", t.dir);
	f = fopen(path, "we");
	cr_assert_not_null(f);
	fprintf(f, "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"
		"metadata: {name: default}\n");
	for (int i = 0; i < 1000; i++)
		fprintf(f, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n"
			"status: {allocatable: {cpu: 8, memory: 16Gi, pods: 110}}\n", i);
	for (int i = 0; i < 1999; i++)
		fprintf(f, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-%04d, namespace: "
			"bulk}\nspec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}\n",
			i);
	fclose(f);
	cr_assert_eq(run("apply -f '%s'", path), 0, "%s", slurp(errs));
	said(out, "3000 objects applied (3000 created, 0 configured, 0 unchanged, 0 skipped)\n");
	cr_assert_eq(run("cycle run"), 0);
	cr_assert_eq(run("stats show -o json"), 0);
	said(out, "\"nrTasks\": 1999");
	said(out, "\"nrPodGroups\": 1999");
	cr_assert_eq(run("delete -f '%s'", path), 0, "%s", slurp(errs));
	said(out, "3000 objects deleted\n");
	empty();
}

Test(apply, dry_runs_do_not_connect)
{
	char cmd[PATH_MAX * 2];

	/* a socket nobody serves */
	snprintf(cmd, sizeof(cmd), "apply --socket %s/none --dry-run -f cluster.yaml", t.dir);
	cr_assert_eq(run("%s", cmd), 0, "%s", slurp(errs));
	said(out, "node/n1 created (dry run)\n");
	cr_assert_eq(run("apply --socket %s/none --dry-run -o json -f cluster.yaml", t.dir), 0);
	said(out, "\"command\": \"new\"");
	said(out, "\"name\": \"high-priority\"");
	cr_assert_eq(run("delete --socket %s/none --dry-run -f cluster.yaml", t.dir), 0);
	said(out, "node \"n1\" deleted (dry run)\n");
	empty();
}

Test(apply, server_dry_runs_are_checked_by_the_daemon_and_change_nothing)
{
	cr_assert_eq(run("apply --dry-run=server -f cluster.yaml -f workloads.yaml"), 0, "%s",
		     slurp(errs));
	said(out, "node/n1 created (server dry run)\n");
	said(out, "job.batch.volcano.sh/vj created (server dry run)\n");
	said(out, "pod/web-pending skipped: another scheduler's, without a node\n");
	empty();

	/* refused as the real batch is, with its document named */
	cr_assert_eq(run("apply --dry-run=server -f - < missing-podgroup.yaml"), 1);
	said(errs, "vsctl: error: stdin:10: document 2 (Pod ns/orphan): batch not applied: "
		   "message seq ");
	empty();

	cr_assert_eq(run("apply -f cluster.yaml -f workloads.yaml"), 0, "%s", slurp(errs));
	cr_assert_eq(run("apply --dry-run=server -f cluster.yaml"), 0, "%s", slurp(errs));
	said(out, "node/n1 configured (server dry run)\n");
	cr_assert_eq(run("delete --dry-run=server -f workloads.yaml -f cluster.yaml"), 0, "%s",
		     slurp(errs));
	said(out, "job.batch.volcano.sh \"vj\" deleted (server dry run)\n");
	said(out, "queue.scheduling.volcano.sh \"prod\" deleted (server dry run)\n");
	cr_assert_eq(run("job show team-b/vj"), 0, "the VolcanoJob is still there");
	cr_assert_eq(run("stats show -o json"), 0);
	said(out, "\"nrNodes\": 6");
}

/*
 * A delete is one batch, VolcanoJobs in it: when the batch fails, the
 * VolcanoJob is still there (they were deleted one by one before it).
 */
Test(apply, a_delete_that_fails_deletes_no_volcano_job)
{
	char path[PATH_MAX];
	FILE *f;

	cr_assert_eq(run("apply -f cluster.yaml -f workloads.yaml"), 0, "%s", slurp(errs));
	/* a PodGroup the manifests do not hold keeps queue dev from going */
	snprintf(path, sizeof(path), "%s/stay.yaml", t.dir);
	f = fopen(path, "we");
	cr_assert_not_null(f);
	fprintf(f, "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
		"metadata: {name: stay, namespace: team-b}\nspec: {minMember: 1, queue: dev}\n");
	fclose(f);
	cr_assert_eq(run("apply -f '%s'", path), 0, "%s", slurp(errs));
	cr_assert_eq(run("delete -f workloads.yaml -f cluster.yaml"), 1);
	said(errs, "batch not applied: message seq ");
	cr_assert_eq(run("job show team-b/vj"), 0, "the VolcanoJob is still there");
	cr_assert_eq(run("task show team-a/a-0"), 0);
}

Test(apply, usage_errors_exit_2)
{
	cr_assert_eq(run("apply"), 2);
	said(errs, "no manifest given");
	cr_assert_eq(run("apply cluster.yaml"), 2);
	cr_assert_eq(run("apply -o json -f cluster.yaml"), 2);
	cr_assert_eq(run("apply -o json --dry-run=server -f cluster.yaml"), 2);
	cr_assert_eq(run("apply --dry-run=maybe -f cluster.yaml"), 2);
	said(errs, "--dry-run: \"maybe\" is not client, server or none");
	cr_assert_eq(run("delete --scheduler-name x -f cluster.yaml"), 2);
	cr_assert_eq(run("apply --ignore-not-found -f cluster.yaml"), 2);
	cr_assert_eq(run("apply --help"), 0);
	said(out, "usage: vsctl apply");
	cr_assert_eq(run("apply -f /nonexistent.yaml"), 1);
	said(errs, "vsctl: error: /nonexistent.yaml: No such file or directory\n");
}

/* Write @text to @name in the test's directory; its path in @path. */
static void write_file(char *path, size_t size, const char *name, const char *text)
{
	FILE *f;

	snprintf(path, size, "%s/%s", t.dir, name);
	f = fopen(path, "we");
	cr_assert_not_null(f);
	cr_assert_geq(fputs(text, f), 0);
	cr_assert_eq(fclose(f), 0);
}

Test(apply, the_same_object_twice_is_refused_before_anything_is_sent)
{
	char path[PATH_MAX];

	write_file(path, sizeof(path), "twice.yaml",
		   "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
		   "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		   "metadata: {name: c}\nvalue: 1\n---\n"
		   "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		   "metadata: {name: c}\nvalue: 2\n");
	cr_assert_eq(run("apply -f '%s'", path), 1);
	said(errs, "twice.yaml:10: document 3 (PriorityClass c): the same object as ");
	said(errs, "twice.yaml:5: document 2 (PriorityClass c)\n");
	empty();
}

/* Kubernetes' priority admission is the daemon's: a class nowhere refuses the pod's document. */
Test(apply, a_pod_of_no_priority_class_is_refused_by_the_daemon)
{
	char path[PATH_MAX];

	write_file(path, sizeof(path), "noclass.yaml",
		   "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"
		   "metadata: {name: default}\n---\n"
		   "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n"
		   "spec: {priorityClassName: nowhere, containers: [{name: c}]}\n");
	cr_assert_eq(run("apply -f '%s'", path), 1);
	said(errs, "noclass.yaml:5: document 2 (Pod ns/p): batch not applied: message seq ");
	said(errs, "pod ns/p: no PriorityClass \"nowhere\"\n");
	empty();
	/* with the class in the same batch, the pod takes its value */
	write_file(path, sizeof(path), "class.yaml",
		   "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		   "metadata: {name: nowhere}\nvalue: 7\n");
	cr_assert_eq(run("apply -f '%s' -f '%s/noclass.yaml'", path, t.dir), 0, "%s", slurp(errs));
	cr_assert_eq(run("task show ns/p"), 0);
	said(out, "\"priority\": 7,");
}

/* A queue's state and a PodGroup's phase are status: applying a manifest without them keeps them. */
Test(apply, a_status_the_manifest_does_not_give_stays)
{
	cr_assert_eq(run("apply -f cluster.yaml"), 0, "%s", slurp(errs));
	cr_assert_eq(run("queue close dev"), 0, "%s", slurp(errs));
	cr_assert_eq(run("apply -f cluster.yaml"), 0, "%s", slurp(errs));
	said(out, "queue.scheduling.volcano.sh/dev configured\n");
	cr_assert_eq(run("queue show dev"), 0);
	said(out, "\"state\": \"Closed\"");
}

/* HyperNodes are applied after the nodes they hold, deleted before them, and make the tree. */
Test(apply, hypernodes_make_the_tree_over_the_nodes)
{
	cr_assert_eq(run("apply -f hypernodes.yaml"), 0, "%s", slurp(errs));
	said(out, "node/n2 created\nhypernode.topology.volcano.sh/leaf-a created\n");
	cr_assert_eq(run("hypernode show leaf-a"), 0);
	said(out, "\"parent\": \"spine\"");
	said(out, "\"nodeCount\": 2");
	cr_assert_eq(run("apply -f hypernodes.yaml"), 0, "%s", slurp(errs));
	said(out, "hypernode.topology.volcano.sh/spine configured\n");
	cr_assert_eq(run("delete -f hypernodes.yaml"), 0, "%s", slurp(errs));
	said(out, "hypernode.topology.volcano.sh \"spine\" deleted\n"
		  "hypernode.topology.volcano.sh \"leaf-a\" deleted\nnode \"n2\" deleted\n");
	empty();
}

/* Read, kept, shown and mapped: a PodGroup's topology request, a job's partitions. */
Test(apply, topology_requests_are_applied_and_shown)
{
	cr_assert_eq(run("apply -f topology.yaml"), 0, "%s", slurp(errs));
	said(out, "podgroup.scheduling.volcano.sh/llm created\n");
	cr_assert_eq(run("podgroup show team-a/llm"), 0);
	said(out, "\"networkTopology\": {\n    \"mode\": \"hard\",\n    \"highestTierAllowed\": 2\n");
	said(out, "\"subGroupPolicy\": [\n    {\n      \"name\": \"workers\",");
	said(out, "\"matchLabelKeys\": [\n        \"volcano.sh/partition-id\"\n");
	/* the job's PodGroup, as Volcano's job controller makes it */
	cr_assert_eq(run("podgroup show team-a/mpi"), 0);
	said(out, "\"mode\": \"soft\",\n    \"highestTierName\": \"spine\"\n");
	said(out, "\"name\": \"worker\",");
	said(out, "\"volcano.sh/task-spec\": \"worker\"");
	said(out, "\"minSubGroups\": 1,");
	cr_assert_eq(run("apply -f topology.yaml"), 0, "%s", slurp(errs));
	said(out, "podgroup.scheduling.volcano.sh/llm configured\n");
	cr_assert_eq(run("podgroup show team-a/llm"), 0);
	said(out, "\"subGroupSize\": 2,");
	cr_assert_eq(run("delete -f topology.yaml"), 0, "%s", slurp(errs));
	empty();
}
