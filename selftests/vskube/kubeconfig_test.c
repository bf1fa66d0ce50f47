// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for vskube's configuration (userspace/vskube/kubeconfig.h): the
 * current context and --context, clusters and users by name, inline data
 * and files relative to the kubeconfig, tokens and token files, merged
 * $KUBECONFIG lists, in-cluster service accounts, the search order, and
 * refusals that name the file and the entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "vskube/kubeconfig.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/kc-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(kubeconfig, .init = setup, .fini = teardown);

/* Write @text to DIR/@name; returns the path (one of 16 kept for the test). */
static const char *put(const char *name, const char *text)
{
	static char paths[16][128];
	static int slot;
	char *path = paths[slot++ % 16];
	FILE *f;

	snprintf(path, 128, "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fputs(text, f) >= 0, true);
	cr_assert_eq(fclose(f), 0);
	return path;
}

/* "hello" and "world" in base64. */
#define B64_HELLO	"aGVsbG8="
#define B64_WORLD	"d29ybGQ="

static const char two_contexts[] =
	"apiVersion: v1\n"
	"kind: Config\n"
	"current-context: dev\n"
	"clusters:\n"
	"- name: dev-cluster\n"
	"  cluster:\n"
	"    server: https://dev.example:6443/\n"
	"    certificate-authority-data: " B64_HELLO "\n"
	"- name: prod-cluster\n"
	"  cluster:\n"
	"    server: http://127.0.0.1:8080\n"
	"    insecure-skip-tls-verify: true\n"
	"    tls-server-name: api.prod\n"
	"contexts:\n"
	"- name: dev\n"
	"  context: {cluster: dev-cluster, user: alice, namespace: team-a}\n"
	"- name: prod\n"
	"  context: {cluster: prod-cluster, user: bob}\n"
	"users:\n"
	"- name: alice\n"
	"  user:\n"
	"    client-certificate-data: " B64_HELLO "\n"
	"    client-key-data: " B64_WORLD "\n"
	"- name: bob\n"
	"  user:\n"
	"    token: s3cret\n";

Test(kubeconfig, the_current_context_names_cluster_user_and_namespace)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	const char *path = put("config", two_contexts);

	cr_assert_eq(kc_load_files(path, NULL, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "https://dev.example:6443", "the trailing / goes");
	cr_assert_str_eq(c.namespace, "team-a");
	cr_assert_eq(c.ca.len, 5);
	cr_assert_str_eq((char *)c.ca.data, "hello");
	cr_assert_str_eq((char *)c.cert.data, "hello");
	cr_assert_str_eq((char *)c.key.data, "world");
	cr_assert_null(c.token);
	cr_assert_not(c.insecure);
	cr_assert(strstr(c.origin, "context dev"), "%s", c.origin);
	kc_config_free(&c);

	cr_assert_eq(kc_load_files(path, "prod", &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "http://127.0.0.1:8080");
	cr_assert_str_eq(c.token, "s3cret");
	cr_assert(c.insecure);
	cr_assert_str_eq(c.tls_server_name, "api.prod");
	cr_assert_null(c.namespace);
	cr_assert_null(c.ca.data);
	kc_config_free(&c);
}

Test(kubeconfig, files_are_relative_to_the_kubeconfig_and_tokens_are_trimmed)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	const char *path;

	put("ca.pem", "-----BEGIN CERTIFICATE-----\n");
	put("token", "abc.def\n");
	path = put("config",
		   "current-context: x\n"
		   "clusters: [{name: c, cluster: {server: 'https://h', "
		   "certificate-authority: ca.pem}}]\n"
		   "contexts: [{name: x, context: {cluster: c, user: u}}]\n"
		   "users: [{name: u, user: {tokenFile: token}}]\n");
	cr_assert_eq(kc_load_files(path, NULL, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq((char *)c.ca.data, "-----BEGIN CERTIFICATE-----\n");
	cr_assert_str_eq(c.token, "abc.def");
	cr_assert(strstr(c.token_file, "/token"), "%s", c.token_file);

	/* Rotated. */
	put("token", "ghi\n");
	cr_assert_eq(kc_reload_token(&c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.token, "ghi");
	kc_config_free(&c);
}

Test(kubeconfig, a_list_merges_first_file_first_and_passes_over_missing_files)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	char list[512];
	const char *a = put("a",
			    "current-context: one\n"
			    "contexts: [{name: one, context: {cluster: c1, user: u}}]\n"
			    "users: [{name: u, user: {token: first}}]\n");
	const char *b = put("b",
			    "current-context: two\n"
			    "clusters: [{name: c1, cluster: {server: 'https://one'}}]\n"
			    "users: [{name: u, user: {token: second}}]\n");

	snprintf(list, sizeof(list), "%s/missing:%s:%s", dir, a, b);
	cr_assert_eq(kc_load_files(list, NULL, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "https://one", "the cluster from the second file");
	cr_assert_str_eq(c.token, "first", "the first file's user wins");
	kc_config_free(&c);
}

/*
 * The core's readers keep the first message and libvsnl's carrier keeps the
 * last: a missing file passed over must leave nothing behind for a later
 * file's error to be hidden by or mixed with.
 */
Test(kubeconfig, an_error_after_a_missing_file_is_the_later_files_own)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	char list[512];
	const char *bad = put("bad", "a: [unclosed\n");

	snprintf(list, sizeof(list), "%s/missing:%s", dir, bad);
	cr_assert_eq(kc_load_files(list, NULL, &c, &e), -EINVAL, "%s", e.msg);
	cr_assert_eq(e.err, -EINVAL);
	cr_assert(!strncmp(e.msg, bad, strlen(bad)), "the bad file named first: %s", e.msg);
	cr_assert_null(strstr(e.msg, "missing"), "%s", e.msg);
	cr_assert_null(c.server, "nothing kept");
}

static void refused(const char *text, const char *context, int errnum, const char *what)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	const char *path = put("bad", text);

	cr_assert_eq(kc_load_files(path, context, &c, &e), -errnum, "%s: %s", what, e.msg);
	cr_assert(strstr(e.msg, what), "\"%s\" not in \"%s\"", what, e.msg);
	cr_assert_null(c.server, "nothing kept");
	cr_assert_null(c.token);
}

Test(kubeconfig, bad_files_are_refused_with_the_file_and_the_entry)
{
	refused("clusters: []\n", NULL, EINVAL, "no current-context");
	refused("current-context: x\n", NULL, ENOENT, "no context named \"x\"");
	refused("current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\n", NULL, ENOENT,
		"no cluster named \"c\"");
	refused("contexts: [{name: x, context: {cluster: c}}]\n"
		"clusters: [{name: c, cluster: {server: 'ftp://h'}}]\n", "x", EINVAL,
		"is not an http:// or https:// URL");
	refused("contexts: [{name: x, context: {cluster: c}}]\n"
		"clusters: [{name: c, cluster: {}}]\n", "x", EINVAL, "cluster c has no server");
	refused("contexts: [{name: x, context: {cluster: c}}]\n"
		"clusters: [{name: c, cluster: {server: 'https://h', "
		"certificate-authority-data: 'no!'}}]\n", "x", EINVAL,
		"certificate-authority-data is not base64");
	refused("contexts: [{name: x, context: {cluster: c}}]\n"
		"clusters: [{name: c, cluster: {server: 'https://h', insecure-skip-tls-verify: 3}}]\n",
		"x", EINVAL, "insecure-skip-tls-verify is not true or false");
	refused("contexts: [{name: x, context: {cluster: c, user: u}}]\n"
		"clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
		"users: [{name: u, user: {exec: {command: aws}}}]\n", "x", EOPNOTSUPP,
		"exec plugins and auth providers are not supported");
	refused("contexts: [{name: x, context: {cluster: c, user: u}}]\n"
		"clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
		"users: [{name: u, user: {client-certificate-data: " B64_HELLO "}}]\n", "x", EINVAL,
		"a client certificate needs its key");
	refused("contexts: [{name: x, context: {cluster: c, user: u}}]\n"
		"clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
		"users: [{name: u, user: {tokenFile: nothing-here}}]\n", "x", ENOENT,
		"user u: tokenFile:");
	refused("- just\n- a list\n", NULL, EINVAL, "not a kubeconfig");
	refused("a: [unclosed\n", NULL, EINVAL, "bad");
}

/* The files are YAML 1.1 as yaml.v2 reads it, with the tree's refusals at their lines. */
Test(kubeconfig, the_yaml_is_read_as_yaml_v2_reads_it_and_refused_at_its_line)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	const char *path = put("yes", "contexts: [{name: x, context: {cluster: c}}]\n"
			       "clusters: [{name: c, cluster: {server: 'https://h',\n"
			       "  insecure-skip-tls-verify: yes}}]\n");
	char want[256];

	cr_assert_eq(kc_load_files(path, "x", &c, &e), 0, "%s", e.msg);
	cr_assert(c.insecure, "yes is true");
	kc_config_free(&c);
	refused("current-context: x\ncurrent-context: y\n", NULL, EINVAL,
		"bad:2: duplicate key \"current-context\" (first on line 1)");
	refused("a: &x 1\nb: *x\n", NULL, EINVAL, "bad:2: aliases (*x) are not supported");
	snprintf(want, sizeof(want), "%s/bad:1: cluster c: server is not a string", dir);
	refused("clusters: [{name: c, cluster: {server: 1e3}}]\n"
		"contexts: [{name: x, context: {cluster: c}}]\n", "x", EINVAL, want);
}

Test(kubeconfig, in_cluster_reads_the_service_account)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	struct kc_env env = {
		.service_host = "fd00::1", .service_port = "443", .sa_dir = dir,
	};

	cr_assert_eq(kc_load_in_cluster(&env, &c, &e), -ENOENT, "no token yet");
	cr_assert(strstr(e.msg, "in-cluster configuration: "), "%s", e.msg);
	e.msg[0] = '\0';
	put("token", "sa-token\n");
	put("ca.crt", "PEM");
	cr_assert_eq(kc_load_in_cluster(&env, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "https://[fd00::1]:443");
	cr_assert_str_eq(c.token, "sa-token");
	cr_assert_str_eq((char *)c.ca.data, "PEM");
	cr_assert_str_eq(c.origin, "in-cluster");
	kc_config_free(&c);

	env.service_host = NULL;
	e.msg[0] = '\0';
	cr_assert_eq(kc_load_in_cluster(&env, &c, &e), -ENOENT);
	cr_assert(strstr(e.msg, "KUBERNETES_SERVICE_HOST"), "%s", e.msg);
}

Test(kubeconfig, the_search_order_is_client_gos)
{
	struct kc_config c;
	struct vsnl_err e = { 0 };
	char home[128];
	const char *flag = put("flag",
			       "current-context: x\n"
			       "contexts: [{name: x, context: {cluster: c}}]\n"
			       "clusters: [{name: c, cluster: {server: 'https://flag'}}]\n");
	const char *envfile = put("env",
				  "current-context: x\n"
				  "contexts: [{name: x, context: {cluster: c}}]\n"
				  "clusters: [{name: c, cluster: {server: 'https://env'}}]\n");
	struct kc_env env = {
		.kubeconfig = envfile, .service_host = "10.0.0.1", .service_port = "443",
		.sa_dir = dir, .home = home,
	};

	put("token", "t\n");
	put("ca.crt", "PEM");
	snprintf(home, sizeof(home), "%s/home", dir);
	cr_assert_eq(mkdir(home, 0700), 0);
	strcat(home, "/.kube");
	cr_assert_eq(mkdir(home, 0700), 0);
	put("home/.kube/config",
	    "current-context: x\n"
	    "contexts: [{name: x, context: {cluster: c}}]\n"
	    "clusters: [{name: c, cluster: {server: 'https://home'}}]\n");
	snprintf(home, sizeof(home), "%s/home", dir);

	cr_assert_eq(kc_load(flag, NULL, &env, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "https://flag");
	kc_config_free(&c);
	cr_assert_eq(kc_load(NULL, NULL, &env, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "https://env");
	kc_config_free(&c);
	env.kubeconfig = NULL;
	cr_assert_eq(kc_load(NULL, NULL, &env, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "https://10.0.0.1:443");
	kc_config_free(&c);
	env.service_host = NULL;
	cr_assert_eq(kc_load(NULL, NULL, &env, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c.server, "https://home");
	kc_config_free(&c);
	env.home = NULL;
	cr_assert_eq(kc_load(NULL, NULL, &env, &c, &e), -ENOENT);
}

Test(kubeconfig, base64_with_and_without_padding)
{
	struct kc_blob b;

	cr_assert_eq(kc_base64_decode("", &b), 0);
	cr_assert_eq(b.len, 0);
	free(b.data);
	cr_assert_eq(kc_base64_decode("aA==", &b), 0);
	cr_assert_eq(b.len, 1);
	cr_assert_eq(b.data[0], 'h');
	free(b.data);
	cr_assert_eq(kc_base64_decode("aGk=", &b), 0);
	cr_assert_eq(b.len, 2);
	free(b.data);
	cr_assert_eq(kc_base64_decode("aGVs", &b), 0);
	cr_assert_eq(b.len, 3);
	cr_assert_eq(memcmp(b.data, "hel", 3), 0);
	free(b.data);
	cr_assert_eq(kc_base64_decode("aGV", &b), -EINVAL, "not a multiple of 4");
	cr_assert_eq(kc_base64_decode("a*Vs", &b), -EINVAL, "not base64");
	cr_assert_null(b.data);
}
