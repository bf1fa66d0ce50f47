/* SPDX-License-Identifier: Apache-2.0 */
/*
 * "vsctl scenario run --socket": a scenario the harness loaded
 * (harness/scenario.h), run against a running vschedd instead of the
 * in-process core (scenario_remote.c).
 */
#ifndef VSCTL_SCENARIO_H
#define VSCTL_SCENARIO_H

#include "harness/harness.h"

/* Two connections to the daemon, kept for a whole run. */
struct scn_remote;

/*
 * Connect to the daemon at @socket and subscribe to its decisions and
 * cycles, which makes this run the daemon's binder.
 */
int scn_remote_open(struct scn_remote **out, const char *socket, struct vs_err *err);
void scn_remote_close(struct scn_remote *r);

/*
 * What a run against the daemon cannot do for @scn, as the reason the file
 * is skipped ("nodeScores needs the in-process core"), or NULL. The expect
 * keys it cannot read back are set in @unchecked (bits of enum scn_key,
 * and SCN_HAS_HN_LEAVES): the file still runs and its other keys are compared. @runnable is false
 * when its initial state cannot be sent at all (pipelinedTo).
 */
const char *scenario_remote_limits(const struct scenario *scn, u32 *unchecked, bool *runnable);

/*
 * Reset the daemon, install the scenario's configuration, send its objects
 * as one batch, run its cycles confirming binds and deleting evicted tasks
 * between them, and record the decisions and PodGroup phases in @res
 * (scenario_result_free() it either way). Fails when a cycle ran that the
 * run did not ask for (a periodic daemon). scn->conf stays the caller's.
 */
int scenario_run_remote(struct scn_remote *r, struct scenario *scn, struct scn_result *res,
			struct vs_err *err);

#endif /* VSCTL_SCENARIO_H */
