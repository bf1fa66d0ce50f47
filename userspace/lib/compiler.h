/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The few compiler helpers userspace shares with the core's style: the
 * fixed-width types, ARRAY_SIZE and the printf attribute. They are
 * libvsnl's own, as Linux's tools/include keeps its own linux/compiler.h,
 * because userspace includes no header of kernel/ (Documentation/
 * architecture.md, "Userspace"). The macros are spelled as the core's
 * are, token for token, so that the harness, which includes both, may.
 */
#ifndef VSNL_COMPILER_H
#define VSNL_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define __printf(a, b)	__attribute__((format(printf, a, b)))

/* Marks a deliberate fall through to the next case label, as the kernel does. */
#define fallthrough	__attribute__((__fallthrough__))

/* The number of elements of a true array; refuses to compile for a pointer. */
#define __same_type(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define __must_be_array(a) \
	(sizeof(struct { int:(-!!__same_type((a), &(a)[0])); }))
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr) * 0)

#endif /* VSNL_COMPILER_H */
