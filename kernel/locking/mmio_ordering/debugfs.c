// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering debugfs interface: /sys/kernel/debug/mmio_ordering/
 *
 *   stats     counters, one "name: value" per line
 *   strategy  "auto" or "explicit"; write one of them to switch
 */

#define pr_fmt(fmt) "mmio_ordering: " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "mmio_ordering.h"

static int stats_show(struct seq_file *file, void *v)
{
	int i;

	seq_printf(file, "strategy: %s\n",
		   mmio_ordering_strategy_name(mmio_ordering_get_strategy()));
	for (i = 0; i < MMIO_ORDERING_COUNTER_COUNT; i++)
		seq_printf(file, "%s: %lu\n", mmio_ordering_counter_names[i],
			   mmio_ordering_counter_read(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int strategy_show(struct seq_file *file, void *v)
{
	seq_printf(file, "%s\n", mmio_ordering_strategy_name(mmio_ordering_get_strategy()));
	return 0;
}

static int strategy_open(struct inode *inode, struct file *file)
{
	return single_open(file, strategy_show, NULL);
}

static ssize_t strategy_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *off)
{
	char kbuf[16];
	int s;

	if (count >= sizeof(kbuf)) {
		pr_err("strategy: input too long\n");
		return -EINVAL;
	}
	if (copy_from_user(kbuf, buf, count))
		return -EFAULT;
	kbuf[count] = '\0';

	s = mmio_ordering_parse_strategy(kbuf);
	if (s < 0) {
		pr_err("strategy: unknown strategy, expected auto or explicit\n");
		return s;
	}
	mmio_ordering_set_strategy(s);
	return count;
}

static const struct file_operations strategy_fops = {
	.open		= strategy_open,
	.read		= seq_read,
	.write		= strategy_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init mmio_ordering_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("mmio_ordering", NULL);

	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	debugfs_create_file("strategy", 0644, dir, NULL, &strategy_fops);
	return 0;
}
late_initcall(mmio_ordering_debugfs_init);
