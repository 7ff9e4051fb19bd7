/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kselftest harness (from linux-source-6.12, see selftests/ksft-headers.sh)
 * plus the txnet netlink helpers.  The harness itself does not build clean
 * under -Wextra (an unused signal-handler parameter), so only its own lines
 * are exempt from that warning.
 */
#ifndef TXNET_HARNESS_H
#define TXNET_HARNESS_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "txnet_nl.h"

#endif /* TXNET_HARNESS_H */
