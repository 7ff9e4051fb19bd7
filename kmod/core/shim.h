/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only place kmod/core/ meets its host: the kernel build gets kernel
 * types and allocators, a user-space build (host tests, benchmarks,
 * fuzzers) gets libc.  Core files include this and nothing else.
 */
#ifndef TXN_CORE_SHIM_H
#define TXN_CORE_SHIM_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/prefetch.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/random.h>

/*
 * The largest array core allocates: kvmalloc() refuses more than INT_MAX
 * bytes, with a WARN unless told not to.  Callers check against it first;
 * __GFP_NOWARN because running out of memory is an answer txnet reports,
 * not a kernel bug.
 */
#define TXN_ARRAY_MAX	((u64)INT_MAX)
#define TXN_GFP		(GFP_KERNEL_ACCOUNT | __GFP_NOWARN)

static inline void *txn_alloc_array(size_t n, size_t size)
{
	return kvmalloc_array(n, size, TXN_GFP);
}

static inline void *txn_zalloc_array(size_t n, size_t size)
{
	return kvcalloc(n, size, TXN_GFP);
}

static inline void txn_free(void *p)
{
	kvfree(p);
}

/* Long loops in core call this so a large build never stalls a CPU. */
static inline void txn_cond_resched(void)
{
	cond_resched();
}

#define txn_prefetch(p)	prefetch(p)

/* A run's secret: from the kernel's random number generator, never from what a schedule sees. */
static inline u64 txn_secret(void)
{
	u64 x;

	get_random_bytes(&x, sizeof(x));
	return x;
}

/* Bits set: the kernel's, since a builtin may need libgcc's helper, which modules lack. */
static inline u32 txn_popcount(u32 x)
{
	return hweight32(x);
}

#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;

/*
 * The kernel's limit, kept in user space so host tests see the same
 * refusals, unless a host program asks for more (make bench SCALE=1: a
 * 128x128 torus needs a 3.2 GB packet array).
 */
#ifndef TXN_ARRAY_MAX
#define TXN_ARRAY_MAX	((u64)INT32_MAX)
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

#ifndef noinline
#define noinline	__attribute__((__noinline__))
#endif
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif

/*
 * kvmalloc() maps an array of 2 MiB or more with huge pages where it can
 * (VM_ALLOW_HUGE_VMAP: Debian's amd64 kernels have HAVE_ARCH_HUGE_VMALLOC),
 * and what kmalloc() gives lies in the direct map's large pages: in the
 * kernel a packet record costs no TLB miss of its own.  The same here, so
 * that the host bench runs what the kernel runs: such an array aligned to
 * a huge page and advised (Debian's transparent huge pages are madvise
 * only).  Advice: a refusal leaves small pages, not an error.
 */
#define TXN_HUGE_BYTES	((size_t)2 << 20)

static inline void *txn_alloc_huge(size_t bytes)
{
	void *p;

	if (posix_memalign(&p, TXN_HUGE_BYTES, bytes))
		return NULL;
	madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

static inline void *txn_alloc_array(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	if (n * size >= TXN_HUGE_BYTES)
		return txn_alloc_huge(n * size);
	return malloc(n && size ? n * size : 1);
}

/* txn_alloc_array()'s placement, zeroed as kvcalloc() does */
static inline void *txn_zalloc_array(size_t n, size_t size)
{
	void *p = txn_alloc_array(n, size);

	if (p)
		memset(p, 0, n && size ? n * size : 1);
	return p;
}

static inline void txn_free(void *p)
{
	free(p);
}

static inline void txn_cond_resched(void)
{
}

#define txn_prefetch(p)	__builtin_prefetch(p)

/* A run's secret: getrandom(), as the kernel's get_random_bytes(). */
static inline u64 txn_secret(void)
{
	u64 x = 0;

	if (getrandom(&x, sizeof(x), 0) != (ssize_t)sizeof(x))
		abort();	/* eight bytes never come short but on a broken system */
	return x;
}

/* Without -mpopcnt the builtin is a call into libgcc: the bit-slice count inline. */
static inline u32 txn_popcount(u32 x)
{
	x -= (x >> 1) & 0x55555555U;
	x = (x & 0x33333333U) + ((x >> 2) & 0x33333333U);
	x = (x + (x >> 4)) & 0x0f0f0f0fU;
	return (x * 0x01010101U) >> 24;
}

/* linux/math64.h's, as it is on 64-bit machines */
static inline u64 mul_u64_u64_shr(u64 a, u64 mul, unsigned int shift)
{
	return (u64)(((__uint128_t)a * mul) >> shift);
}

/* linux/compiler.h's: the compiler may assume nothing of @var's value from here on. */
#define OPTIMIZER_HIDE_VAR(var) do { __asm__ ("" : "=r" (var) : "0" (var)); } while (0)

#endif

#endif /* TXN_CORE_SHIM_H */
