// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: test-only knobs, as netdevsim keeps its fault knobs, so that
 * the netlink ABI holds only what users use.  Not ABI.
 *
 *   txnet/<net>/fault   the rule the next run breaks on purpose in its
 *                       first tick ("none", "link-twice", "single-port",
 *                       "cut-through", "teleport", "drop", "corrupt"),
 *                       so that tests can prove the engine catches it.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "txnet.h"

static struct dentry *txnet_debugfs_root;

static ssize_t fault_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct txnet_net *tn = file->private_data;
	char buf[32];
	int len;

	len = scnprintf(buf, sizeof(buf), "%s\n", txn_fault_name(READ_ONCE(tn->fault)));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t fault_write(struct file *file, const char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	struct txnet_net *tn = file->private_data;
	char buf[32];
	int fault;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	fault = txn_fault_from_name(strim(buf));
	if (fault < 0)
		return fault;
	WRITE_ONCE(tn->fault, fault);
	return count;
}

static const struct file_operations fault_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = fault_read,
	.write = fault_write,
	.llseek = default_llseek,
};

/* debugfs errors are not txnet's: a missing knob only fails the tests that need it. */
void txnet_debugfs_add(struct txnet_net *tn)
{
	tn->debugfs = debugfs_create_dir(tn->name, txnet_debugfs_root);
	debugfs_create_file("fault", 0600, tn->debugfs, tn, &fault_fops);
}

/* Waits for readers and writers inside the files: tn outlives them. */
void txnet_debugfs_del(struct txnet_net *tn)
{
	debugfs_remove(tn->debugfs);
	tn->debugfs = NULL;
}

void txnet_debugfs_init(void)
{
	txnet_debugfs_root = debugfs_create_dir("txnet", NULL);
}

void txnet_debugfs_exit(void)
{
	debugfs_remove(txnet_debugfs_root);
}
