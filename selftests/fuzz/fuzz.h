/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the fuzz targets share. Each selftests/fuzz/fuzz_NAME.c defines
 * LLVMFuzzerTestOneInput(): it takes any bytes, must neither crash nor
 * leak whatever they are, and checks what must hold of what it accepted
 * with FUZZ_ASSERT(), which aborts (a finding, as a crash is).
 */
#ifndef VS_SELFTESTS_FUZZ_H
#define VS_SELFTESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond, fmt, ...)							\
	do {										\
		if (!(cond)) {								\
			fprintf(stderr, "%s:%d: %s: " fmt "\n", __FILE__, __LINE__,	\
				#cond, ##__VA_ARGS__);					\
			abort();							\
		}									\
	} while (0)

/* @data as a string of its own, NUL-terminated (for parsers of text); free() it. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	for (size_t i = 0; i < size; i++)
		s[i] = (char)data[i];
	s[size] = '\0';
	return s;
}

#endif /* VS_SELFTESTS_FUZZ_H */
