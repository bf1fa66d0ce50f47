/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the fuzz targets share. Each selftests/fuzz/fuzz_NAME.c defines
 * LLVMFuzzerTestOneInput(): it takes any bytes, must neither crash nor
 * leak whatever they are, and checks what must hold of what it accepted
 * with FUZZ_ASSERT(), which aborts (a finding, as a crash is).
 */
#ifndef VS_SELFTESTS_FUZZ_H
#define VS_SELFTESTS_FUZZ_H

#include <stdbool.h>
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

/*
 * The line breaks of @data as libyaml counts them (\n, \r, \r\n, NEL, LS,
 * PS), and with @escapes each backslash too (a line break written as an
 * escape in a quoted string): what bounds the line a message may name.
 */
static inline unsigned long fuzz_line_breaks(const uint8_t *data, size_t size, bool escapes)
{
	unsigned long n = 0;

	for (size_t i = 0; i < size; i++) {
		if (data[i] == '\n' || (escapes && data[i] == '\\') ||
		    (data[i] == '\r' && (i + 1 == size || data[i + 1] != '\n')))
			n++;
		else if (i + 1 < size && data[i] == 0xc2 && data[i + 1] == 0x85)
			n++;
		else if (i + 2 < size && data[i] == 0xe2 && data[i + 1] == 0x80 &&
			 (data[i + 2] == 0xa8 || data[i + 2] == 0xa9))
			n++;
	}
	return n;
}

#endif /* VS_SELFTESTS_FUZZ_H */
