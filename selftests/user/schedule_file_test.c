// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of txctl's schedule files (user/schedule_file.c): a file's
 * header and moves read into the kernel's steps, written back as the same
 * text, and every refusal with its errno, the file's name and its line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "schedule_file.h"

static int parse_text(const char *text, struct schedule_file *sf, char *msg, size_t msglen)
{
	return schedule_file_parse(text, strlen(text), "a.sched", sf, msg, msglen);
}

static const char ring_broadcast[] =
	"# a broadcast on ring 4, both ways\n"
	"txnet-schedule 1\n"
	"network ring 4   \n"
	"operation broadcast\n"
	"port-model all-port\n"
	"root 0\n"
	"tick 1\n"
	"0 1 0>*\n"
	"0 3 0>*   # the other way\n"
	"\n"
	"tick 3\n"
	"1 2 0>*\n";

TEST(reads_header_and_moves)
{
	struct schedule_file sf;
	char msg[256];

	ASSERT_EQ(0, parse_text(ring_broadcast, &sf, msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_STREQ("ring 4", sf.network);
	EXPECT_STREQ("broadcast", sf.operation);
	EXPECT_STREQ("all-port", sf.port_model);
	EXPECT_EQ(1, sf.has_root);
	EXPECT_EQ(0, sf.root);
	EXPECT_EQ(SCHEDULE_FORM_BROADCAST, sf.form);
	/* two tick marks and three moves, as the text has them */
	ASSERT_EQ(5, sf.nsteps);
	EXPECT_EQ(SCHEDULE_TICK, sf.step[0].from);
	EXPECT_EQ(1, sf.step[0].to);
	EXPECT_EQ(0, sf.step[2].from);
	EXPECT_EQ(3, sf.step[2].to);
	EXPECT_EQ(0, sf.step[2].a);
	EXPECT_EQ(SCHEDULE_NONE, sf.step[2].b);
	/* tick 3 is two ticks after tick 1 */
	EXPECT_EQ(SCHEDULE_TICK, sf.step[3].from);
	EXPECT_EQ(2, sf.step[3].to);
	EXPECT_EQ(3, sf.ticks);
	EXPECT_EQ(9, sf.line[2]);
	EXPECT_EQ(9, schedule_file_line(&sf, 1, 1));
	EXPECT_EQ(12, schedule_file_line(&sf, 3, 0));
	EXPECT_EQ(0, schedule_file_line(&sf, 2, 0));
	EXPECT_EQ(0, schedule_file_line(&sf, 3, 1));
	schedule_file_free(&sf);
}

TEST(unicast_and_toward_forms)
{
	struct schedule_file sf;
	char msg[256];

	ASSERT_EQ(0, parse_text("txnet-schedule 1\nnetwork linear 3\noperation total-exchange\n"
				"port-model single-port\ntick 1\n0 1 0>2\n", &sf, msg, sizeof(msg)))
		TH_LOG("%s", msg);
	EXPECT_EQ(0, sf.step[1].a);
	EXPECT_EQ(2, sf.step[1].b);
	schedule_file_free(&sf);
	ASSERT_EQ(0, parse_text("txnet-schedule 1\nnetwork linear 3\noperation multinode-accumulate\n"
				"port-model all-port\ntick 1\n2 1 *>0\n", &sf, msg, sizeof(msg)))
		TH_LOG("%s", msg);
	EXPECT_EQ(SCHEDULE_FORM_TOWARD, sf.form);
	EXPECT_EQ(0, sf.step[1].a);
	EXPECT_EQ(SCHEDULE_NONE, sf.step[1].b);
	schedule_file_free(&sf);
}

/* A data sum's moves name an interval of processors: "+LO-HI", "+P" for one. */
TEST(sum_form)
{
	static const char text[] = "txnet-schedule 1\nnetwork ring 4\noperation data-sum\n"
				   "port-model all-port\ntick 1\n0 1 +0\n1 2 +3-1\n";
	struct schedule_file sf;
	char msg[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(0, parse_text(text, &sf, msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_EQ(SCHEDULE_FORM_SUM, sf.form);
	EXPECT_EQ(0, sf.step[1].a);
	EXPECT_EQ(0, sf.step[1].b);
	EXPECT_EQ(3, sf.step[2].a);
	EXPECT_EQ(1, sf.step[2].b);
	f = open_memstream(&out, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, schedule_file_write(f, &sf));
	fclose(f);
	EXPECT_STREQ(text, out);
	free(out);
	schedule_file_free(&sf);
	EXPECT_EQ(-EINVAL, parse_text("txnet-schedule 1\nnetwork ring 4\noperation data-sum\n"
				      "port-model all-port\ntick 1\n0 1 +0-\n", &sf, msg,
				      sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "a.sched:6: \"+0-\": a move of a data-sum carries a copy of"
			       " the partial of an interval of processors, +LO-HI")) TH_LOG("%s", msg);
	EXPECT_EQ(-EINVAL, parse_text("txnet-schedule 1\nnetwork ring 4\noperation broadcast\n"
				      "port-model all-port\nroot 0\ntick 1\n0 1 +0\n", &sf, msg,
				      sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "a.sched:7: \"+0\": a move of a broadcast carries"))
		TH_LOG("%s", msg);
}

/* What is written reads back as the same steps, and writes as the same text. */
TEST(write_reads_back)
{
	struct schedule_file sf, again;
	char *text = NULL, *text2 = NULL, msg[256];
	size_t len = 0, len2 = 0;
	FILE *f;

	ASSERT_EQ(0, parse_text(ring_broadcast, &sf, msg, sizeof(msg)));
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, schedule_file_write(f, &sf));
	fclose(f);
	ASSERT_EQ(0, schedule_file_parse(text, len, "w", &again, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(sf.nsteps, again.nsteps);
	EXPECT_EQ(0, memcmp(sf.step, again.step, sf.nsteps * sizeof(*sf.step)));
	EXPECT_STREQ(sf.network, again.network);
	f = open_memstream(&text2, &len2);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, schedule_file_write(f, &again));
	fclose(f);
	EXPECT_EQ(len, len2);
	EXPECT_STREQ(text, text2);
	free(text);
	free(text2);
	schedule_file_free(&sf);
	schedule_file_free(&again);
}

static const char head[] = "txnet-schedule 1\nnetwork ring 4\noperation broadcast\n"
			   "port-model all-port\n";

/* @text refused with -EINVAL, the message naming line @line and containing @words. */
static void refused(struct __test_metadata *_metadata, const char *text, int line,
		    const char *words)
{
	struct schedule_file sf;
	char msg[256], at[32];

	EXPECT_EQ(-EINVAL, parse_text(text, &sf, msg, sizeof(msg))) TH_LOG("%s", text);
	if (line)
		snprintf(at, sizeof(at), "a.sched:%d: ", line);
	else
		snprintf(at, sizeof(at), "a.sched: ");
	EXPECT_EQ(0, strncmp(msg, at, strlen(at))) TH_LOG("\"%s\", not at %s", msg, at);
	EXPECT_NE(NULL, strstr(msg, words)) TH_LOG("\"%s\" lacks \"%s\"", msg, words);
	EXPECT_EQ(0, sf.nsteps);
	EXPECT_EQ(NULL, sf.step);
}

static char *cat(const char *a, const char *b)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf), "%s%s", a, b);
	return buf;
}

TEST(refusals_name_the_line)
{
	refused(_metadata, "", 0, "empty");
	refused(_metadata, "# nothing\n\n", 0, "empty");
	refused(_metadata, "tick 1\n", 1, "txnet-schedule 1");
	refused(_metadata, "txnet-schedule 2\n", 1, "version");
	refused(_metadata, head, 0, "no tick");
	refused(_metadata, "txnet-schedule 1\nnetwork ring 4\ntick 1\n", 3, "operation");
	refused(_metadata, "txnet-schedule 1\nnetwork ring 4\noperation prefix-sum\n", 3,
		"operation \"prefix-sum\"");
	refused(_metadata, "txnet-schedule 1\nnetwork ring 4\nnetwork ring 5\n", 3, "second");
	refused(_metadata, "txnet-schedule 1\nport-model half-port\n", 2, "all-port or single-port");
	refused(_metadata, "txnet-schedule 1\nnetwork ring\0014\n", 2, "not printable");
	refused(_metadata, "txnet-schedule 1\ncolour blue\n", 2, "\"colour\"");
	refused(_metadata, "txnet-schedule 1\nroot -1\n", 2, "root R");
	refused(_metadata, cat(head, "0 1 0>*\n"), 5, "\"0\" where the header");
	refused(_metadata, cat(head, "tick 0\n"), 5, "tick T");
	refused(_metadata, cat(head, "tick 2\ntick 2\n"), 6, "past the last tick (2)");
	refused(_metadata, cat(head, "tick 1099511627776\n"), 5, "2^40");
	refused(_metadata, cat(head, "tick 1\n0 1\n"), 6, "FROM TO SRC>*");
	refused(_metadata, cat(head, "tick 1\n0 1 0>* 5\n"), 6, "expected a move");
	refused(_metadata, cat(head, "tick 1\n0 1 0>1\n"), 6, "a copy of a message");
	refused(_metadata, cat(head, "tick 1\n0 1 *>0\n"), 6, "a copy of a message");
	refused(_metadata, cat(head, "tick 1\n0 1 0\n"), 6, "third word");
	refused(_metadata, cat(head, "tick 1\n0 4294967295 0>*\n"), 6, "expected a move");
	refused(_metadata, cat(head, "tick 1\n0 1 4294967295>*\n"), 6, "a copy of a message");
	refused(_metadata, cat(head, "tick 1\n0 1 0>*\nroot 0\n"), 7, "expected a move");
}

TEST_HARNESS_MAIN
