// SPDX-License-Identifier: Apache-2.0
/*
 * Kubeconfig and in-cluster configuration: see kubeconfig.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "lib/file.h"
#include "lib/ytree.h"
#include "vskube/kubeconfig.h"

#define KC_FILE_MAX	(16u << 20)	/* a kubeconfig, a certificate, a token */
#define KC_FILES_MAX	16		/* files in $KUBECONFIG */

#define SA_DIR		"/var/run/secrets/kubernetes.io/serviceaccount"

void kc_env_default(struct kc_env *env)
{
	env->kubeconfig = getenv("KUBECONFIG");
	env->service_host = getenv("KUBERNETES_SERVICE_HOST");
	env->service_port = getenv("KUBERNETES_SERVICE_PORT");
	env->sa_dir = SA_DIR;
	env->home = getenv("HOME");
}

static void blob_free(struct kc_blob *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

void kc_config_free(struct kc_config *cfg)
{
	free(cfg->server);
	free(cfg->namespace);
	blob_free(&cfg->ca);
	blob_free(&cfg->cert);
	blob_free(&cfg->key);
	free(cfg->token);
	free(cfg->token_file);
	free(cfg->username);
	free(cfg->password);
	free(cfg->tls_server_name);
	memset(cfg, 0, sizeof(*cfg));
}

int kc_base64_decode(const char *in, struct kc_blob *out)
{
	size_t n = strlen(in), pad = 0;
	unsigned char *buf;
	int len;

	out->data = NULL;
	out->len = 0;
	if (n % 4 || n > INT_MAX)
		return -EINVAL;
	if (n && in[n - 1] == '=')
		pad = n > 1 && in[n - 2] == '=' ? 2 : 1;
	buf = malloc(n / 4 * 3 + 1);
	if (!buf)
		return -ENOMEM;
	/* EVP_DecodeBlock() refuses what is not base64, and counts padding as zeros. */
	len = n ? EVP_DecodeBlock(buf, (const unsigned char *)in, (int)n) : 0;
	if (len < 0 || (size_t)len < pad) {
		free(buf);
		return -EINVAL;
	}
	out->data = buf;
	out->len = (size_t)len - pad;
	out->data[out->len] = '\0';
	return 0;
}

/* @path as named in @file: relative to its directory, as client-go resolves it. */
static char *resolve_path(const char *file, const char *path)
{
	const char *slash = strrchr(file, '/');
	char *out;

	if (path[0] == '/' || !slash)
		return strdup(path);
	if (asprintf(&out, "%.*s/%s", (int)(slash - file), file, path) < 0)
		return NULL;
	return out;
}

static int read_blob(const char *path, struct kc_blob *out, struct vsnl_err *err)
{
	char *text;
	size_t len;
	int ret;

	ret = vsnl_read_file(path, KC_FILE_MAX, 0, &text, &len, err);
	if (ret)
		return ret;
	out->data = (unsigned char *)text;
	out->len = len;
	return 0;
}

/* A token file's text without the line break it usually ends with. */
static int read_token(const char *path, char **out, struct vsnl_err *err)
{
	struct kc_blob b = { NULL, 0 };
	int ret = read_blob(path, &b, err);

	if (ret)
		return ret;
	while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == '\r' ||
			 b.data[b.len - 1] == ' '))
		b.data[--b.len] = '\0';
	if (!b.len || memchr(b.data, '\n', b.len)) {
		blob_free(&b);
		return vsnl_err_set(err, EINVAL, "%s: not a token (empty, or several lines)", path);
	}
	*out = (char *)b.data;
	return 0;
}

int kc_reload_token(struct kc_config *cfg, struct vsnl_err *err)
{
	char *token;
	int ret;

	if (!cfg->token_file)
		return 0;
	ret = read_token(cfg->token_file, &token, err);
	if (ret)
		return ret;
	free(cfg->token);
	cfg->token = token;
	return 0;
}

/* ---- the files ---- */

struct kc_file {
	char *path;
	struct vsnl_ynode root;
};

/* The entry named @name of the list @key ("clusters") of @f's root, or NULL. */
static const struct vsnl_ynode *named_entry(const struct kc_file *f, const char *key,
					    const char *name, const char *inner)
{
	const struct vsnl_ynode *list = vsnl_ymap_get(&f->root, key);

	if (!list || list->type != VSNL_Y_SEQ)
		return NULL;
	for (u32 i = 0; i < list->seq.nr; i++) {
		const struct vsnl_ynode *e = &list->seq.items[i], *v;
		const char *n = vsnl_ystr(vsnl_ymap_get(e, "name"));

		if (!n || strcmp(n, name))
			continue;
		v = vsnl_ymap_get(e, inner);
		return v && v->type == VSNL_Y_MAP ? v : NULL;
	}
	return NULL;
}

/* A string entry: absent is 0 with *@out untouched; another type is an error. */
static int get_string(const struct kc_file *f, const struct vsnl_ynode *m, const char *key,
		      const char *what, const char **out, struct vsnl_err *err)
{
	const struct vsnl_ynode *v = vsnl_ymap_get(m, key);

	if (!v || v->type == VSNL_Y_NULL)
		return 0;
	if (v->type != VSNL_Y_STRING)
		return vsnl_err_set(err, EINVAL, "%s:%u: %s: %s is not a string", f->path, v->line,
				    what, key);
	*out = v->text;
	return 0;
}

static int get_bool(const struct kc_file *f, const struct vsnl_ynode *m, const char *key,
		    const char *what, bool *out, struct vsnl_err *err)
{
	const struct vsnl_ynode *v = vsnl_ymap_get(m, key);

	if (!v || v->type == VSNL_Y_NULL)
		return 0;
	if (v->type != VSNL_Y_BOOL)
		return vsnl_err_set(err, EINVAL, "%s:%u: %s: %s is not true or false", f->path,
				    v->line, what, key);
	*out = v->b;
	return 0;
}

/* @key (a path in @f) or @key-data (base64), not both; neither leaves @out empty. */
static int get_blob(const struct kc_file *f, const struct vsnl_ynode *m, const char *key,
		    const char *what, struct kc_blob *out, struct vsnl_err *err)
{
	const char *path = NULL, *data = NULL;
	char datakey[64];
	char *full;
	int ret;

	snprintf(datakey, sizeof(datakey), "%s-data", key);
	if ((ret = get_string(f, m, key, what, &path, err)) ||
	    (ret = get_string(f, m, datakey, what, &data, err)))
		return ret;
	if (path && data)
		return vsnl_err_set(err, EINVAL, "%s: %s: both %s and %s are given", f->path, what,
				    key, datakey);
	if (data) {
		ret = kc_base64_decode(data, out);
		if (ret == -EINVAL)
			return vsnl_err_set(err, EINVAL, "%s: %s: %s is not base64", f->path, what,
					    datakey);
		return ret ? vsnl_err_set(err, ENOMEM, "out of memory") : 0;
	}
	if (!path)
		return 0;
	full = resolve_path(f->path, path);
	if (!full)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	ret = read_blob(full, out, err);
	if (ret)
		vsnl_err_prefix(err, "%s: %s: %s: ", f->path, what, key);
	free(full);
	return ret;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The first file whose list @key has an entry @name, or NULL. */
static const struct vsnl_ynode *find_entry(const struct kc_file *files, u32 nr,
					   const char *key, const char *name, const char *inner,
					   const struct kc_file **in)
{
	for (u32 i = 0; i < nr; i++) {
		const struct vsnl_ynode *m = named_entry(&files[i], key, name, inner);

		if (m) {
			*in = &files[i];
			return m;
		}
	}
	return NULL;
}

static int load_cluster(const struct kc_file *f, const struct vsnl_ynode *c, const char *name,
			struct kc_config *out, struct vsnl_err *err)
{
	const char *server = NULL, *sni = NULL;
	char what[160];
	size_t n;
	int ret;

	snprintf(what, sizeof(what), "cluster %s", name);
	if ((ret = get_string(f, c, "server", what, &server, err)) ||
	    (ret = get_string(f, c, "tls-server-name", what, &sni, err)) ||
	    (ret = get_bool(f, c, "insecure-skip-tls-verify", what, &out->insecure, err)) ||
	    (ret = get_blob(f, c, "certificate-authority", what, &out->ca, err)))
		return ret;
	if (!server || !*server)
		return vsnl_err_set(err, EINVAL, "%s: %s has no server", f->path, what);
	if (strncmp(server, "https://", 8) && strncmp(server, "http://", 7))
		return vsnl_err_set(err, EINVAL, "%s: %s: server \"%s\" is not an http:// or "
				    "https:// URL", f->path, what, server);
	out->server = strdup(server);
	out->tls_server_name = dup_or_null(sni);
	if (!out->server || (sni && !out->tls_server_name))
		return vsnl_err_set(err, ENOMEM, "out of memory");
	n = strlen(out->server);
	while (n && out->server[n - 1] == '/')
		out->server[--n] = '\0';
	return 0;
}

static int load_user(const struct kc_file *f, const struct vsnl_ynode *u, const char *name,
		     struct kc_config *out, struct vsnl_err *err)
{
	const char *token = NULL, *token_file = NULL, *user = NULL, *pass = NULL;
	char what[160];
	int ret;

	snprintf(what, sizeof(what), "user %s", name);
	if (vsnl_ymap_get(u, "exec") || vsnl_ymap_get(u, "auth-provider"))
		return vsnl_err_set(err, EOPNOTSUPP, "%s: %s: exec plugins and auth providers are "
				    "not supported: give a token, a token file or a client "
				    "certificate", f->path, what);
	if ((ret = get_string(f, u, "token", what, &token, err)) ||
	    (ret = get_string(f, u, "tokenFile", what, &token_file, err)) ||
	    (ret = get_string(f, u, "username", what, &user, err)) ||
	    (ret = get_string(f, u, "password", what, &pass, err)) ||
	    (ret = get_blob(f, u, "client-certificate", what, &out->cert, err)) ||
	    (ret = get_blob(f, u, "client-key", what, &out->key, err)))
		return ret;
	if (!out->cert.data != !out->key.data)
		return vsnl_err_set(err, EINVAL, "%s: %s: a client certificate needs its key, and "
				    "a key its certificate", f->path, what);
	/* client-go: a token given inline wins over tokenFile. */
	if (token) {
		out->token = strdup(token);
	} else if (token_file) {
		out->token_file = resolve_path(f->path, token_file);
		if (!out->token_file)
			return vsnl_err_set(err, ENOMEM, "out of memory");
		ret = read_token(out->token_file, &out->token, err);
		if (ret) {
			vsnl_err_prefix(err, "%s: %s: tokenFile: ", f->path, what);
			return ret;
		}
	}
	out->username = dup_or_null(user);
	out->password = dup_or_null(pass);
	if ((token && !out->token) || (user && !out->username) || (pass && !out->password))
		return vsnl_err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int resolve(const struct kc_file *files, u32 nr, const char *context,
		   struct kc_config *out, struct vsnl_err *err)
{
	const struct kc_file *cf = NULL, *cl = NULL, *us = NULL;
	const char *cluster = NULL, *user = NULL, *ns = NULL;
	const struct vsnl_ynode *ctx, *c, *u;
	int ret;

	/* The first file that names a current context names it. */
	for (u32 i = 0; !context && i < nr; i++) {
		const char *v = vsnl_ystr(vsnl_ymap_get(&files[i].root, "current-context"));

		if (v && *v)
			context = v;
	}
	if (!context)
		return vsnl_err_set(err, EINVAL, "%s: no current-context, and no --context",
				    files[0].path);
	ctx = find_entry(files, nr, "contexts", context, "context", &cf);
	if (!ctx)
		return vsnl_err_set(err, ENOENT, "%s: no context named \"%s\"", files[0].path,
				    context);
	if ((ret = get_string(cf, ctx, "cluster", "context", &cluster, err)) ||
	    (ret = get_string(cf, ctx, "user", "context", &user, err)) ||
	    (ret = get_string(cf, ctx, "namespace", "context", &ns, err)))
		return ret;
	if (!cluster)
		return vsnl_err_set(err, EINVAL, "%s: context %s names no cluster", cf->path,
				    context);
	c = find_entry(files, nr, "clusters", cluster, "cluster", &cl);
	if (!c)
		return vsnl_err_set(err, ENOENT, "%s: context %s: no cluster named \"%s\"",
				    cf->path, context, cluster);
	ret = load_cluster(cl, c, cluster, out, err);
	if (ret)
		return ret;
	if (user) {
		u = find_entry(files, nr, "users", user, "user", &us);
		if (!u)
			return vsnl_err_set(err, ENOENT, "%s: context %s: no user named \"%s\"",
					    cf->path, context, user);
		ret = load_user(us, u, user, out, err);
		if (ret)
			return ret;
	}
	if (ns && !(out->namespace = strdup(ns)))
		return vsnl_err_set(err, ENOMEM, "out of memory");
	snprintf(out->origin, sizeof(out->origin), "%s, context %s", cf->path, context);
	return 0;
}

int kc_load_files(const char *paths, const char *context, struct kc_config *out,
		  struct vsnl_err *err)
{
	struct kc_file files[KC_FILES_MAX];
	char *list = strdup(paths), *save = NULL;
	u32 nr = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!list)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	for (char *p = strtok_r(list, ":", &save); p && !ret; p = strtok_r(NULL, ":", &save)) {
		struct vsnl_err fe = { 0 };

		if (nr == KC_FILES_MAX) {
			ret = vsnl_err_set(err, E2BIG, "more than %u kubeconfig files",
					   KC_FILES_MAX);
			break;
		}
		files[nr].path = strdup(p);
		memset(&files[nr].root, 0, sizeof(files[nr].root));
		if (!files[nr].path) {
			ret = vsnl_err_set(err, ENOMEM, "out of memory");
			break;
		}
		nr++;
		ret = vsnl_yaml_read_file(files[nr - 1].path, KC_FILE_MAX, 0, &files[nr - 1].root,
					  &fe);
		/* As client-go: a file of a list that does not exist is passed over. */
		if (ret == -ENOENT && strchr(paths, ':')) {
			free(files[--nr].path);
			ret = 0;
			continue;
		}
		if (ret) {
			vsnl_err_set(err, ret, "%s", fe.msg);
			break;
		}
		if (files[nr - 1].root.type != VSNL_Y_MAP &&
		    files[nr - 1].root.type != VSNL_Y_NULL)
			ret = vsnl_err_set(err, EINVAL, "%s: not a kubeconfig (a map)", p);
	}
	if (!ret && !nr)
		ret = vsnl_err_set(err, EINVAL, "no kubeconfig file in \"%s\"", paths);
	if (!ret)
		ret = resolve(files, nr, context, out, err);
	for (u32 i = 0; i < nr; i++) {
		vsnl_ynode_free(&files[i].root);
		free(files[i].path);
	}
	free(list);
	if (ret)
		kc_config_free(out);
	return ret;
}

int kc_load_in_cluster(const struct kc_env *env, struct kc_config *out, struct vsnl_err *err)
{
	char *path = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!env->service_host || !*env->service_host || !env->service_port ||
	    !*env->service_port)
		return vsnl_err_set(err, ENOENT, "not in a cluster: KUBERNETES_SERVICE_HOST and "
				    "KUBERNETES_SERVICE_PORT are not set");
	/* An IPv6 address goes in brackets, as client-go's net.JoinHostPort does. */
	if (asprintf(&out->server, strchr(env->service_host, ':') ? "https://[%s]:%s" :
		     "https://%s:%s", env->service_host, env->service_port) < 0) {
		out->server = NULL;
		return vsnl_err_set(err, ENOMEM, "out of memory");
	}
	if (asprintf(&out->token_file, "%s/token", env->sa_dir) < 0) {
		out->token_file = NULL;
		ret = vsnl_err_set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	ret = read_token(out->token_file, &out->token, err);
	if (ret)
		goto out_prefix;
	if (asprintf(&path, "%s/ca.crt", env->sa_dir) < 0) {
		path = NULL;
		ret = vsnl_err_set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	ret = read_blob(path, &out->ca, err);
	free(path);
	if (ret)
		goto out_prefix;
	snprintf(out->origin, sizeof(out->origin), "in-cluster");
	return 0;

out_prefix:
	vsnl_err_prefix(err, "in-cluster configuration: ");
out_free:
	kc_config_free(out);
	return ret;
}

int kc_load(const char *path, const char *context, const struct kc_env *env,
	    struct kc_config *out, struct vsnl_err *err)
{
	char *home;
	int ret;

	if (path && *path)
		return kc_load_files(path, context, out, err);
	if (env->kubeconfig && *env->kubeconfig)
		return kc_load_files(env->kubeconfig, context, out, err);
	if (env->service_host && *env->service_host && !context)
		return kc_load_in_cluster(env, out, err);
	if (!env->home || !*env->home)
		return vsnl_err_set(err, ENOENT, "no kubeconfig: no --kubeconfig, KUBECONFIG, "
				    "in-cluster service account or HOME");
	if (asprintf(&home, "%s/.kube/config", env->home) < 0)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	ret = kc_load_files(home, context, out, err);
	free(home);
	return ret;
}
