/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Go's durations (time.ParseDuration: "1s", "500ms", "1m30s", ".5h"), as
 * Kubernetes' and Volcano's flags take them, for the programs' options:
 * vskube's leader election timings. The core has its own reader for
 * vschedd's options (kernel/core/duration.h), which reports in the core's
 * terms; a unit test holds the two to the same answers.
 */
#ifndef VS_LIB_DURATION_H
#define VS_LIB_DURATION_H

#include "lib/compiler.h"
#include "lib/vsnl.h"

/*
 * @s as whole milliseconds, from 0 to @max_ms, into *@out: 0, or -EINVAL
 * (not a duration, or a fraction of a millisecond) or -ERANGE (more than
 * @max_ms), with @err saying which ("unknown unit (ns, us, ms, s, m, h)").
 * Negative durations are refused; a bare "0" is the one number without a
 * unit, as Go reads it.
 */
int vsnl_parse_duration(const char *s, u32 max_ms, u32 *out, struct vsnl_err *err);

#endif /* VS_LIB_DURATION_H */
