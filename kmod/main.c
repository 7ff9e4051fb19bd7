// SPDX-License-Identifier: GPL-2.0
/*
 * txnet: module init and exit, and the limits every request is held to.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/genetlink.h>

#include "txnet.h"

#define TXNET_MAX_NODES_CEILING	(1U << 24)

unsigned int txnet_max_nodes = 65536;
unsigned long txnet_mem_budget = 256UL << 20;

/* Limits are checked on write so that a bad value is refused, not clamped later. */
static int max_nodes_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v < 2 || v > TXNET_MAX_NODES_CEILING)
		return -ERANGE;
	WRITE_ONCE(txnet_max_nodes, v);
	return 0;
}

static const struct kernel_param_ops max_nodes_ops = {
	.set = max_nodes_set,
	.get = param_get_uint,
};

static int mem_budget_set(const char *val, const struct kernel_param *kp)
{
	unsigned long v;
	int ret = kstrtoul(val, 0, &v);

	if (ret)
		return ret;
	if (v < PAGE_SIZE)
		return -ERANGE;
	WRITE_ONCE(txnet_mem_budget, v);
	return 0;
}

static const struct kernel_param_ops mem_budget_ops = {
	.set = mem_budget_set,
	.get = param_get_ulong,
};

module_param_cb(max_nodes, &max_nodes_ops, &txnet_max_nodes, 0644);
MODULE_PARM_DESC(max_nodes, "Largest vertex count of one network, switches included (2..16777216, default 65536)");
module_param_cb(mem_budget, &mem_budget_ops, &txnet_mem_budget, 0644);
MODULE_PARM_DESC(mem_budget, "Bytes all networks together may allocate (default 256 MiB)");

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
	ret = txnet_pernet_init();
	if (ret)
		goto err_sysfs;
	ret = txnet_genl_init();
	if (ret)
		goto err_pernet;
	return 0;

err_pernet:
	txnet_pernet_exit();
err_sysfs:
	txnet_sysfs_exit();
	return ret;
}

static void __exit txnet_exit(void)
{
	/* Destroy every network while the family can still announce it. */
	txnet_shutdown();
	txnet_genl_exit();
	txnet_pernet_exit();
	txnet_sysfs_exit();
}

module_init(txnet_init);
module_exit(txnet_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("txnet developers");
MODULE_DESCRIPTION("Virtual multiprocessor interconnect with optimal collective schedules");
MODULE_ALIAS_GENL_FAMILY(TXNET_GENL_NAME);
