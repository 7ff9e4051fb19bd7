/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kselftest harness (from linux-source-6.12, see selftests/ksft-headers.sh)
 * plus the txnet netlink helpers: what every C test includes.
 */
#ifndef TXNET_HARNESS_H
#define TXNET_HARNESS_H

#include "kselftest_harness.h"
#include "txnet_nl.h"

#endif /* TXNET_HARNESS_H */
