/* SPDX-License-Identifier: GPL-2.0 */
/* The few places where 6.1 and 6.12 differ, in one file. */
#ifndef TXNET_COMPAT_H
#define TXNET_COMPAT_H

#include <linux/version.h>

/* __assign_str() lost its source argument in 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define txnet_assign_str(dst, src)	__assign_str(dst)
#else
#define txnet_assign_str(dst, src)	__assign_str(dst, src)
#endif

/* A dump's parsed request attributes moved into a struct genl_info in 6.6. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define txnet_dump_attrs(cb)	(genl_info_dump(cb)->attrs)
#else
#define txnet_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

#endif /* TXNET_COMPAT_H */
