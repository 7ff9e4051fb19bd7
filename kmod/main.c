// SPDX-License-Identifier: GPL-2.0
/*
 * txnet: module init and exit, and the limits every request is held to.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/sysfs.h>
#include <net/genetlink.h>

#include "txnet.h"

/* the core cannot represent more (core/topology.h) */
#define TXNET_MAX_NODES_CEILING	TXN_MAX_VERTICES

unsigned int txnet_max_nodes = 65536;
unsigned long txnet_mem_budget = 256UL << 20;

/*
 * Limits are checked on write so that a bad value is refused, not clamped
 * later.  Decimal only: "010" is ten, not eight.  A refusal names the
 * parameter and its range in the log, the only place a module parameter
 * can explain itself.
 */
static int max_nodes_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 10, &v);

	if (!ret && (v < 2 || v > TXNET_MAX_NODES_CEILING))
		ret = -ERANGE;
	if (ret) {
		pr_warn_ratelimited("txnet: max_nodes must be a decimal number from 2 to %u\n",
				    TXNET_MAX_NODES_CEILING);
		return ret;
	}
	WRITE_ONCE(txnet_max_nodes, v);
	return 0;
}

static const struct kernel_param_ops max_nodes_ops = {
	.set = max_nodes_set,
	.get = param_get_uint,
};

/* What the machine can hold at all: a budget past its RAM would only defer the refusal. */
static unsigned long mem_budget_ceiling(void)
{
	return totalram_pages() << PAGE_SHIFT;
}

static int mem_budget_set(const char *val, const struct kernel_param *kp)
{
	unsigned long v, ceiling = mem_budget_ceiling();
	int ret = kstrtoul(val, 10, &v);

	if (!ret && (v < PAGE_SIZE || v > ceiling))
		ret = -ERANGE;
	if (ret) {
		pr_warn_ratelimited("txnet: mem_budget must be a decimal byte count from %lu to %lu (this machine's RAM)\n",
				    PAGE_SIZE, ceiling);
		return ret;
	}
	WRITE_ONCE(txnet_mem_budget, v);
	return 0;
}

static const struct kernel_param_ops mem_budget_ops = {
	.set = mem_budget_set,
	.get = param_get_ulong,
};

static int mem_used_set(const char *val, const struct kernel_param *kp)
{
	pr_warn_ratelimited("txnet: mem_used is read-only\n");
	return -EPERM;
}

static int mem_used_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%llu\n", txnet_mem_used());
}

static const struct kernel_param_ops mem_used_ops = {
	.set = mem_used_set,
	.get = mem_used_get,
};

module_param_cb(max_nodes, &max_nodes_ops, &txnet_max_nodes, 0644);
MODULE_PARM_DESC(max_nodes, "Largest vertex count of one network, switches included (2..16777216, default 65536)");
module_param_cb(mem_budget, &mem_budget_ops, &txnet_mem_budget, 0644);
MODULE_PARM_DESC(mem_budget, "Bytes all networks together may allocate (4096..RAM, default 256 MiB)");
module_param_cb(mem_used, &mem_used_ops, NULL, 0444);
MODULE_PARM_DESC(mem_used, "Bytes of mem_budget in use now (read-only)");

const char *txnet_port_model_name(u32 model)
{
	return model == TXNET_PORT_SINGLE ? "single" : "all";
}

const char *txnet_state_name(u32 state)
{
	return state == TXNET_STATE_RUNNING ? "running" : "idle";
}

static int __init txnet_init(void)
{
	int ret;

	ret = txnet_sysfs_init();
	if (ret)
		return ret;
	txnet_debugfs_init();
	ret = txnet_pernet_init();
	if (ret)
		goto err_sysfs;
	ret = txnet_fabric_init();
	if (ret)
		goto err_pernet;
	ret = txnet_genl_init();
	if (ret)
		goto err_fabric;
	return 0;

err_fabric:
	txnet_fabric_exit();
err_pernet:
	txnet_pernet_exit();
err_sysfs:
	txnet_debugfs_exit();
	txnet_sysfs_exit();
	return ret;
}

static void __exit txnet_exit(void)
{
	/* Destroy every network while the family can still announce it. */
	txnet_shutdown();
	txnet_genl_exit();
	txnet_fabric_exit();
	txnet_pernet_exit();
	txnet_debugfs_exit();
	txnet_sysfs_exit();
}

module_init(txnet_init);
module_exit(txnet_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("txnet developers");
MODULE_DESCRIPTION("Virtual multiprocessor interconnect with optimal collective schedules");
MODULE_ALIAS_GENL_FAMILY(TXNET_GENL_NAME);
