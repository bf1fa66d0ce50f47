/* SPDX-License-Identifier: Apache-2.0 */
#ifndef VS_CORE_DURATION_H
#define VS_CORE_DURATION_H

#include "core/compiler.h"

/*
 * A Go duration ("1s", "500ms", "1m30s", "0") as whole milliseconds, from 0
 * to @max_ms: 0, or -EINVAL (not a duration, a fraction of a millisecond)
 * or -ERANGE with @why saying which. As Go's time.ParseDuration, without
 * negative durations.
 */
int vs_parse_duration(const char *s, u32 max_ms, u32 *out, const char **why);

#endif /* VS_CORE_DURATION_H */
