/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kinds of object vsctl's object commands know, shared by the commands
 * that read them (objects_cmd.c: list, show, del) and those that change
 * them (edit_cmd.c: add, set, cordon, open, status...): the top-level
 * attribute, the commands and the key of each, and how a key is read from
 * the command line and written into a request.
 */
#ifndef VSCTL_OBJECTS_H
#define VSCTL_OBJECTS_H

#include <stdio.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "lib/compiler.h"
#include "vsched/vsched.h"

struct vsctl_column;

struct vsctl_kind {
	const char *group;		/* "node", as on the command line */
	const char *what;		/* "node", in messages */
	u16 attr;			/* VS_A_NODE */
	u8 cmd_new, cmd_set, cmd_del, cmd_get;	/* VS_CMD_NODE_NEW... */
	u16 a_ns, a_name;		/* the key; a_ns 0 for cluster-wide objects */
	const struct vsctl_column *cols;	/* the table, NULL-terminated */
	const struct vsctl_column *wide;	/* added by -o wide */
};

/* The kind a command is for, by its argv[0] ("vsctl node add"); NULL if none. */
const struct vsctl_kind *vsctl_kind_of(const char *argv0);

/* An object's key as given: "ns/name", or "name" in a namespace (-n, else "default"). */
struct vsctl_key {
	char ns[VS_NAME_MAX];		/* "" for cluster-wide kinds */
	char name[VS_NAME_MAX];
};

/*
 * Read @arg as a key of @k, in @ns when it names none itself (NULL: the
 * "default" namespace), and check its names as Kubernetes would. 0, or
 * -EINVAL once the reason is printed, prefixed by @prog (a usage error).
 */
int vsctl_key_parse(const char *prog, const struct vsctl_kind *k, const char *ns,
		    const char *arg, struct vsctl_key *key);

/*
 * Open @k's nest in @m and put @key in it, with the generated codec: the
 * caller adds what else the request carries and closes the nest. NULL
 * with @err saying why (the message is full).
 */
struct nlattr *vsctl_key_put(struct nl_msg *m, const struct vsctl_kind *k,
			     const struct vsctl_key *key, struct vsnl_err *err);

/* One line of a command's --help: "  --cpu Q        the node's cpu". */
void vsctl_print_option(FILE *out, const char *opt, const char *help);

#endif /* VSCTL_OBJECTS_H */
