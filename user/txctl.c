// SPDX-License-Identifier: GPL-2.0
/*
 * txctl: control utility of txnet.  Global options, then a command
 * dispatched through a { name, fn, usage, description } table; each
 * command lives in its own file.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "output.h"
#include "txctl.h"

static const struct command commands[] = {
	{ "create",	do_create,	usage_create,	"create a network" },
	{ "show",	do_show,	usage_show,	"show one network, or all of this network namespace" },
	{ "destroy",	do_destroy,	usage_destroy,	"destroy a network" },
	{ "set",	do_set,		usage_set,	"change the port model or tick period of a network" },
	{ "run",	do_run,		usage_run,	"run a collective exchange and print its result" },
	{ "stop",	do_stop,	usage_stop,	"stop the exchange running on a network" },
	{ "send",	do_send,	usage_send,	"send a packet from one processor's port to another's" },
	{ "recv",	do_recv,	usage_recv,	"print and remove what arrived at a processor's port" },
	{ "link",	do_link,	usage_link,	"take the cable between two nodes down, or up" },
	{ "node",	do_node,	usage_node,	"take a processor down, or up" },
	{ "monitor",	do_monitor,	usage_monitor,	"print network creation and destruction events" },
	{ "bounds",	do_bounds,	usage_bounds,	"print every operation's lower bound on a topology" },
	{ "series",	do_series,	usage_series,	"print or draw (SVG) the last run's time series" },
	{ "latin",	do_latin,	usage_latin,	"print a MIN's Latin square of configurations (paper 002)" },
	{ "import",	do_import,	usage_import,	"write another tool's algorithm (MSCCL-IR) as a schedule file" },
	{ "help",	do_help,	usage_help,	"show this help, or the usage of one command" },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void short_usage(FILE *f)
{
	fprintf(f,
		"Usage: txctl [ OPTIONS ] COMMAND [ ARGS ]\n"
		"OPTIONS := { -j[son] | -p[retty] | -h[elp] | -V[ersion] }\n"
		"COMMAND := { ");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "%s%s", i ? " | " : "", commands[i].name);
	fprintf(f, " }\nTry \"txctl help\" for more.\n");
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: txctl [ OPTIONS ] COMMAND [ ARGS ]\n"
		"OPTIONS := { -j[son] | -p[retty] | -h[elp] | -V[ersion] }\n"
		"Commands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].description);
	fputc('\n', f);
	for (i = 0; i < NR_COMMANDS; i++)
		commands[i].usage(f);
	fprintf(f,
		"\nOptions:\n"
		"  -j, --json     JSON output\n"
		"  -p, --pretty   indented JSON output (implies --json)\n"
		"  -h, --help     this help\n"
		"  -V, --version  print the version\n");
}

void usage_help(FILE *f)
{
	fprintf(f, "Usage: txctl help [ COMMAND ]\n");
}

int do_help(int argc, char **argv)
{
	const struct command *c;

	if (argc == 1) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		unknown_keyword(argv[2], usage_help);
	c = find_command(argv[1]);
	if (!c)
		usage_error(usage_help, "unknown command \"%s\".", argv[1]);
	c->usage(stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument, NULL, 'j' },
		{ "pretty",	no_argument, NULL, 'p' },
		{ "help",	no_argument, NULL, 'h' },
		{ "version",	no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct command *c;
	bool json = false, pretty = false;
	int opt;

	opterr = 0;
	/* "+": stop at the command, so "create torus -1" stays an argument */
	while ((opt = getopt_long(argc, argv, "+jphV", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = true;
			pretty = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("txctl %s (txnet generic netlink family \"%s\" version %d)\n",
			       TXCTL_VERSION, TXNET_GENL_NAME, TXNET_GENL_VERSION);
			return EXIT_OK;
		default:
			if (optopt)
				fprintf(stderr, "Error: unknown option \"-%c\".\n", optopt);
			else
				fprintf(stderr, "Error: unknown option \"%s\".\n",
					argv[optind - 1]);
			short_usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		fprintf(stderr, "Error: no command given.\n");
		short_usage(stderr);
		return EXIT_USAGE;
	}
	c = find_command(argv[0]);
	if (!c) {
		fprintf(stderr, "Error: unknown command \"%s\", try \"txctl help\".\n",
			argv[0]);
		return EXIT_USAGE;
	}
	output_init(json, pretty);
	return c->fn(argc, argv);
}
