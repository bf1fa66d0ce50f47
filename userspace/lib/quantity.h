/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes' quantities ("500m", "1.5", "4Gi", "2e3") read into the
 * protocol's integer units, for the options that put resources in a
 * request ("vsctl node add n1 --cpu 7500m"). The core has its own reader
 * for what the daemon reads (kernel/core/res.h, vs_quantity_parse()); a
 * unit test holds the two to the same values and the same reasons.
 */
#ifndef VS_LIB_QUANTITY_H
#define VS_LIB_QUANTITY_H

#include <stddef.h>

#include "lib/compiler.h"
#include "lib/vsnl.h"

/*
 * The @len bytes at @s as an integer in units of 10^-@milli (3: milli-units,
 * 0: whole ones), rounded up as Quantity.MilliValue() and Value() round.
 * 0, or -EINVAL with @err saying why ("invalid quantity \"1x\": unknown
 * suffix \"x\""): malformed text, a negative value, one past INT64_MAX - 1
 * (INT64_MAX is the protocol's "unlimited"). *@out is left alone then.
 */
int vsnl_quantity_parse(const char *s, size_t len, unsigned int milli, s64 *out,
			struct vsnl_err *err);

/*
 * The units of resource @dim in the protocol (uapi: VS_RES_A_*): 0 for
 * memory (bytes) and pods (a count), 3 for cpu (millicores) and every
 * other resource (milli-units: "nvidia.com/gpu: 1" is 1000).
 */
unsigned int vsnl_res_milli(const char *dim);

#endif /* VS_LIB_QUANTITY_H */
