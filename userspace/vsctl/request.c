// SPDX-License-Identifier: Apache-2.0
/* Requests to vschedd and their failures: see request.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/render.h"
#include "vsctl/request.h"

int vsctl_fail(int ret, const struct vsnl_err *err)
{
	fprintf(stderr, "vsctl: error: %s\n",
		err && err->msg[0] ? err->msg : strerror(ret < 0 ? -ret : ret));
	return 1;
}

struct vsnl *vsctl_connect(const char *socket)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(socket, &err);

	if (!c)
		vsctl_fail(err.err ? err.err : -ENOTCONN, &err);
	return c;
}

int vsctl_request(const char *socket, struct nl_msg *m, vsnl_cb cb, void *arg)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c;
	int ret;

	if (!m)
		return vsctl_fail(-ENOMEM, NULL);
	c = vsctl_connect(socket);
	if (!c) {
		nlmsg_free(m);
		return 1;
	}
	ret = vsnl_request(c, m, cb, arg, &err);
	vsnl_close(c);
	return ret ? vsctl_fail(ret, &err) : 0;
}

int vsctl_json_output(const char *prog, const char *optarg)
{
	if (!strcmp(optarg, "json"))
		return 0;
	fprintf(stderr, "%s: -o: \"%s\" is not an output here (json)\n", prog, optarg);
	return 2;
}

int vsctl_print_json(const json_t *v)
{
	if (!v || json_dumpf(v, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', stdout) == EOF)
		return 1;
	return 0;
}

int vsctl_dump(const char *socket, struct nl_msg *m, const char *key, json_t *items)
{
	struct vsnl_collect col = { key, items };

	return vsctl_request(socket, m, vsnl_render_collect, &col);
}
