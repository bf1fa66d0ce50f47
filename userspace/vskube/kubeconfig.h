/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the API server is and how to prove who we are: a kubeconfig file,
 * or the pod's service account (in-cluster), as client-go finds them for
 * kube-scheduler (clientcmd.BuildConfigFromFlags):
 *
 *   1. --kubeconfig FILE, else
 *   2. $KUBECONFIG (a list separated by ':'; for each map entry the first
 *      file that sets it wins, as client-go merges), else
 *   3. in-cluster: $KUBERNETES_SERVICE_HOST and $KUBERNETES_SERVICE_PORT,
 *      the service account's token and ca.crt, else
 *   4. ~/.kube/config.
 *
 * From the kubeconfig, the current context (or the one asked for) names a
 * cluster (server, certificate-authority[-data], insecure-skip-tls-verify,
 * tls-server-name) and a user (token, tokenFile, client-certificate[-data]
 * and client-key[-data], username and password). Paths are relative to the
 * file that names them. Exec plugins and auth providers are refused with a
 * message that says so. Every error names the file and the entry.
 */
#ifndef VSKUBE_KUBECONFIG_H
#define VSKUBE_KUBECONFIG_H

#include <stddef.h>

#include "lib/compiler.h"
#include "lib/vsnl.h"

/* Bytes read from a file or decoded from base64 data; NULL when not given. */
struct kc_blob {
	unsigned char *data;
	size_t len;
};

struct kc_config {
	char *server;			/* scheme://host[:port][/path], no trailing '/' */
	char *namespace;		/* the context's, or NULL */
	struct kc_blob ca;		/* PEM certificates to verify the server with */
	struct kc_blob cert, key;	/* PEM client certificate and key */
	char *token;			/* bearer token */
	char *token_file;		/* where it came from, to read it again, or NULL */
	char *username, *password;	/* basic authentication */
	bool insecure;			/* insecure-skip-tls-verify */
	char *tls_server_name;
	char origin[256];		/* "FILE, context NAME" or "in-cluster", for messages */
};

/* Where in-cluster configuration is read from; tests point it elsewhere. */
struct kc_env {
	const char *kubeconfig;		/* $KUBECONFIG */
	const char *service_host;	/* $KUBERNETES_SERVICE_HOST */
	const char *service_port;	/* $KUBERNETES_SERVICE_PORT */
	const char *sa_dir;		/* /var/run/secrets/kubernetes.io/serviceaccount */
	const char *home;		/* $HOME */
};

/* The process's environment. */
void kc_env_default(struct kc_env *env);

/*
 * The configuration from @path (--kubeconfig; NULL: the search above) and
 * @context (--context; NULL: the current one). 0, or -errno with @err
 * saying what and where; @out is then empty.
 */
int kc_load(const char *path, const char *context, const struct kc_env *env,
	    struct kc_config *out, struct vsnl_err *err);

/* One kubeconfig file, or several (":"-separated) merged. */
int kc_load_files(const char *paths, const char *context, struct kc_config *out,
		  struct vsnl_err *err);

/* The service account's configuration from @env. */
int kc_load_in_cluster(const struct kc_env *env, struct kc_config *out, struct vsnl_err *err);

/* Read the token file again (tokens are rotated); 0 or -errno. */
int kc_reload_token(struct kc_config *cfg, struct vsnl_err *err);

void kc_config_free(struct kc_config *cfg);

/* Standard base64 (RFC 4648, with or without padding, no line breaks): 0 or -EINVAL. */
int kc_base64_decode(const char *in, struct kc_blob *out);

#endif /* VSKUBE_KUBECONFIG_H */
