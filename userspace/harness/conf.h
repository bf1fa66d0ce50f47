/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A volcano-scheduler.conf checked in-process, as the daemon checks the one
 * it is given ("vsctl conf check FILE", where no daemon runs): the core's
 * parser, then each configured action's and plugin's own checks of its
 * arguments, with the built-in registry vschedd has. And the built-in
 * configuration a daemon started without one runs ("vsbench run --mode
 * socket" notes a daemon that runs another).
 */
#ifndef HARNESS_CONF_H
#define HARNESS_CONF_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/vsnl.h"

/*
 * Check the file at @path. 0, having printed to @out what it configures
 * ("actions enqueue, allocate; 2 tiers"), or -errno with @err saying what
 * and where.
 */
int harness_conf_check(const char *path, FILE *out, struct vsnl_err *err);

/*
 * Whether @text is, byte for byte, the built-in configuration's text: what
 * VS_CONF_A_TEXT holds when the daemon runs without a configuration file.
 */
bool harness_conf_is_builtin(const char *text);

#endif /* HARNESS_CONF_H */
