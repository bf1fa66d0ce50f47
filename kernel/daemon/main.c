// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd: the scheduler daemon. See vschedd.h for its parts and
 * Documentation/vschedd.md for its use.
 */
#include <stdio.h>

#include "core/log.h"
#include "daemon/vschedd.h"

int main(int argc, char **argv)
{
	struct vs_err err = { { 0 } };
	struct vschedd_opts opts;
	struct vschedd d;
	int ret;

	switch (vschedd_parse_args(argc, argv, &opts, stdout, stderr)) {
	case VSCHEDD_ARGS_RUN:
		break;
	case VSCHEDD_ARGS_EXIT:
		return 0;
	case VSCHEDD_ARGS_USAGE:
		return 2;
	}
	vs_log_verbosity = opts.verbosity;
	if (vschedd_init(&d, &opts, &err)) {
		vs_error("vschedd cannot start: %s", err.msg);
		return 1;
	}
	ret = vschedd_run(&d);
	vschedd_destroy(&d);
	return ret ? 1 : 0;
}
