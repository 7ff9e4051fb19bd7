// SPDX-License-Identifier: GPL-2.0
/* txctl monitor: print creation and destruction events until killed. */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "nl.h"
#include "txctl.h"

void usage_monitor(FILE *f)
{
	fprintf(f, "Usage: txctl monitor\n");
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct txnet_info ni;

	(void)data;
	if (network_parse(nlh, &ni))
		return 0;
	switch (ni.cmd) {
	case TXNET_CMD_NEW:
		network_print(&ni, "created");
		break;
	case TXNET_CMD_DEL:
		network_print(&ni, "destroyed");
		break;
	}
	return 0;
}

int do_monitor(int argc, char **argv)
{
	struct sigaction sa;
	struct txnl nl;
	int err;

	if (wants_help(argc, argv)) {
		usage_monitor(stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		unknown_keyword(argv[1], usage_monitor);

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	err = txnl_subscribe(&nl);
	if (err) {
		txnl_perror(&nl, err);
		txnl_close(&nl);
		return EXIT_KERNEL;
	}
	/* no SA_RESTART: a signal interrupts the receive and ends the loop */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	err = txnl_listen(&nl, event_cb, NULL, &stop);
	if (err)
		txnl_perror(&nl, err);
	txnl_close(&nl);
	return err ? EXIT_KERNEL : EXIT_OK;
}
