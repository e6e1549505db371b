// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering debugfs interface: /sys/kernel/debug/mmio_ordering/
 *
 *   stats     counters, one "name: value" per line
 *   reports   every (store site, unlock site) pair reported (the checker)
 *   held      per CPU, the locks and pending stores recorded while a task
 *             holding no lock runs there: 0 unless the tracking went wrong
 *   strategy  "auto" or "explicit"; write one of them to switch
 *   mode      "portable" or "arch" (with the checker); write one to switch
 *
 * A write that is not exactly one accepted value, optionally followed by a
 * newline, fails with -EINVAL, logs one line and changes nothing.
 */

#define pr_fmt(fmt) "mmio_ordering: " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "mmio_ordering.h"

static int stats_show(struct seq_file *file, void *v)
{
	int i;

#ifdef CONFIG_DEBUG_MMIO_ORDERING
	/* Counted reports are in the log once their counters are read. */
	mmio_ordering_report_flush();
#endif
	seq_printf(file, "strategy: %s\n",
		   mmio_ordering_strategy_name(mmio_ordering_get_strategy()));
#ifdef CONFIG_DEBUG_MMIO_ORDERING
	seq_printf(file, "mode: %s\n", mmio_ordering_mode_name(READ_ONCE(mmio_ordering_mode)));
#endif
	for (i = 0; i < MMIO_ORDERING_COUNTER_COUNT; i++)
		seq_printf(file, "%s: %lu\n", mmio_ordering_counter_names[i],
			   mmio_ordering_counter_read(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

#ifdef CONFIG_DEBUG_MMIO_ORDERING
/* Run on @arg's CPU, in a task holding no lock. */
static long held_on_cpu(void *arg)
{
	struct mmiowb_state *ms;
	unsigned long flags;
	long n;

	local_irq_save(flags);
	ms = __mmiowb_state();
	n = ms->nesting_count + ms->mmiowb_pending + mmio_ordering_held_here();
	local_irq_restore(flags);
	return n;
}

static int held_show(struct seq_file *file, void *v)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		seq_printf(file, "cpu%d: %ld\n", cpu, work_on_cpu(cpu, held_on_cpu, NULL));
	cpus_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(held);

static int reports_show(struct seq_file *file, void *v)
{
	mmio_ordering_report_flush();
	mmio_ordering_report_show(file);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(reports);
#endif

/* A file holding one of a few names: how to show, parse and set it. */
struct choice_file {
	const char *name;
	const char *expected;
	const char *(*get)(void);
	int (*parse)(const char *buf);
	int (*set)(int val);
};

static int choice_show(struct seq_file *file, void *v)
{
	const struct choice_file *cf = file->private;

	seq_printf(file, "%s\n", cf->get());
	return 0;
}

static int choice_open(struct inode *inode, struct file *file)
{
	return single_open(file, choice_show, inode->i_private);
}

static ssize_t choice_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *off)
{
	const struct choice_file *cf = ((struct seq_file *)file->private_data)->private;
	char kbuf[MMIO_ORDERING_VALUE_MAX + 1];
	size_t len = min(count, sizeof(kbuf) - 1);
	int val;

	if (copy_from_user(kbuf, buf, len))
		return -EFAULT;
	kbuf[len] = '\0';

	/* An embedded NUL would let sysfs_streq() accept a longer write. */
	val = count > MMIO_ORDERING_VALUE_MAX || strlen(kbuf) != len ?
	      -EINVAL : cf->parse(kbuf);
	if (val < 0) {
		mmio_ordering_bad_value(cf->name, kbuf, count, cf->expected);
		return -EINVAL;
	}
	val = cf->set(val);
	return val < 0 ? val : count;
}

static const struct file_operations choice_fops = {
	.open		= choice_open,
	.read		= seq_read,
	.write		= choice_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static const char *strategy_get(void)
{
	return mmio_ordering_strategy_name(mmio_ordering_get_strategy());
}

static int strategy_set(int val)
{
	return mmio_ordering_set_user_strategy(val);
}

static const struct choice_file strategy_file = {
	.name		= "strategy",
	.expected	= "auto or explicit",
	.get		= strategy_get,
	.parse		= mmio_ordering_parse_strategy,
	.set		= strategy_set,
};

#ifdef CONFIG_DEBUG_MMIO_ORDERING
static const char *mode_get(void)
{
	return mmio_ordering_mode_name(READ_ONCE(mmio_ordering_mode));
}

static int mode_set(int val)
{
	return mmio_ordering_set_mode(val);
}

static const struct choice_file mode_file = {
	.name		= "mode",
	.expected	= "portable or arch",
	.get		= mode_get,
	.parse		= mmio_ordering_parse_mode,
	.set		= mode_set,
};
#endif

static int __init mmio_ordering_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("mmio_ordering", NULL);

	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	debugfs_create_file("strategy", 0644, dir, (void *)&strategy_file, &choice_fops);
#ifdef CONFIG_DEBUG_MMIO_ORDERING
	debugfs_create_file("mode", 0644, dir, (void *)&mode_file, &choice_fops);
	debugfs_create_file("reports", 0444, dir, NULL, &reports_fops);
	debugfs_create_file("held", 0444, dir, NULL, &held_fops);
#endif
	return 0;
}
late_initcall(mmio_ordering_debugfs_init);
