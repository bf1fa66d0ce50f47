// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: Kubernetes quantities ("500m", "1.5Gi", "2e3"), as every
 * resource of a request, a manifest or a Kubernetes object is read. What
 * is accepted is never negative, and prints back (vs_quantity_fmt()) as
 * text that reads again to the same value, in both units the core counts
 * in (milli and plain) and both notations (binary and decimal).
 */
#include <string.h>

#include "core/err.h"
#include "core/res.h"
#include "fuzz.h"

static void round_trip(const uint8_t *data, size_t size, unsigned int milli, bool binary)
{
	struct vs_err err = { { 0 } };
	char text[64];
	s64 v, again;
	int n;

	if (vs_quantity_parse((const char *)data, size, milli, &v, &err)) {
		FUZZ_ASSERT(err.msg[0], "a refusal without a reason");
		return;
	}
	FUZZ_ASSERT(v >= 0, "%lld", (long long)v);
	n = vs_quantity_fmt(text, sizeof(text), v, milli, binary && !milli);
	FUZZ_ASSERT(n > 0 && (size_t)n < sizeof(text), "%d", n);
	FUZZ_ASSERT(!vs_quantity_parse(text, (size_t)n, milli, &again, &err),
		    "\"%s\" (from %lld) does not read again: %s", text, (long long)v, err.msg);
	FUZZ_ASSERT(again == v, "\"%s\": %lld, was %lld", text, (long long)again, (long long)v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	round_trip(data, size, 0, false);
	round_trip(data, size, 0, true);
	round_trip(data, size, 3, false);
	return 0;
}
