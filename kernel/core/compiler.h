/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compiler helpers used throughout the core: container_of, branch hints,
 * array sizes and the fixed-width types. Kept tiny on purpose; anything with
 * behaviour belongs in its own file.
 */
#ifndef VS_CORE_COMPILER_H
#define VS_CORE_COMPILER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define __must_check	__attribute__((warn_unused_result))
#define __maybe_unused	__attribute__((unused))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))
#define __cold		__attribute__((cold))
#ifndef __always_inline
#define __always_inline	inline __attribute__((always_inline))
#endif

/* Marks a deliberate fall through to the next case label, as the kernel does. */
#define fallthrough	__attribute__((__fallthrough__))

/* The number of elements of a true array; refuses to compile for a pointer. */
#define __same_type(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define __must_be_array(a) \
	(sizeof(struct { int:(-!!__same_type((a), &(a)[0])); }))
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr) * 0)

/* Get the structure that embeds @ptr as its member @member. */
#define container_of(ptr, type, member) ({				\
	const __typeof__(((type *)0)->member) *__mptr = (ptr);		\
	(type *)(void *)((char *)__mptr - offsetof(type, member)); })

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#define min_t(type, a, b) ({ type __a = (a); type __b = (b); __a < __b ? __a : __b; })
#define max_t(type, a, b) ({ type __a = (a); type __b = (b); __a > __b ? __a : __b; })

#define ALIGN_UP(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))

#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

#endif /* VS_CORE_COMPILER_H */
