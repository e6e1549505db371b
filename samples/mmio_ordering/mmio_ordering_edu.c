// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering demo: a driver for QEMU's "edu" PCI device (-device edu)
 * that runs one correct and one buggy locked register sequence.
 *
 * Both write the factorial register under the device lock with the class-2
 * accessor __writel(). The correct path orders the store before the unlock
 * with io_to_lock_wb(); the buggy one does not, which on a weakly ordered
 * machine lets another CPU's sequence reach the device first. With
 * CONFIG_DEBUG_MMIO_ORDERING the buggy path is reported, on any
 * architecture.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/spinlock.h>

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8

#define EDU_ID		0x00	/* 0x010000ed */
#define EDU_LIVENESS	0x04	/* reads back the bitwise inverse */
#define EDU_FACT	0x08	/* write n, read n! when done */
#define EDU_STATUS	0x20	/* bit 0: computing */

struct edu_demo {
	void __iomem *regs;
	spinlock_t lock;	/* serialises register sequences */
};

/*
 * noinline and __noclone keep the functions, and their names, in the
 * report; the two paths differ so that identical-code folding cannot
 * merge them either.
 */
static noinline __noclone void edu_demo_correct_store(struct edu_demo *edu, u32 n)
{
	__writel(n, edu->regs + EDU_FACT);
}

static noinline __noclone void edu_demo_correct_submit(struct edu_demo *edu, u32 n)
{
	spin_lock(&edu->lock);
	edu_demo_correct_store(edu, n);
	io_to_lock_wb();
	spin_unlock(&edu->lock);
}

/* Also correct: the "auto" strategy orders writel() at the unlock. */
static noinline __noclone void edu_demo_correct_ordered(struct edu_demo *edu, u32 v)
{
	spin_lock(&edu->lock);
	writel(v, edu->regs + EDU_LIVENESS);
	spin_unlock(&edu->lock);
}

static noinline __noclone void edu_demo_buggy_store(void __iomem *regs, u32 n)
{
	__writel(n, regs + EDU_FACT);
}

static noinline __noclone void edu_demo_buggy_submit(struct edu_demo *edu, u32 n)
{
	spin_lock(&edu->lock);
	edu_demo_buggy_store(edu->regs, n);
	spin_unlock(&edu->lock);	/* missing io_to_lock_wb() */
}

static u32 edu_demo_result(struct edu_demo *edu)
{
	int i;

	for (i = 0; i < 1000 && (readl(edu->regs + EDU_STATUS) & 1); i++)
		usleep_range(10, 20);
	return readl(edu->regs + EDU_FACT);
}

static int edu_demo_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct edu_demo *edu;
	int ret;

	edu = devm_kzalloc(&pdev->dev, sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	spin_lock_init(&edu->lock);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	edu->regs = pcim_iomap(pdev, 0, 0);
	if (!edu->regs)
		return -ENOMEM;
	pci_set_drvdata(pdev, edu);

	dev_info(&pdev->dev, "edu id %#x\n", readl(edu->regs + EDU_ID));

	edu_demo_correct_ordered(edu, 0x12345678);
	dev_info(&pdev->dev, "correct writel(): liveness %#x\n",
		 readl(edu->regs + EDU_LIVENESS));

	edu_demo_correct_submit(edu, 5);
	dev_info(&pdev->dev, "correct __writel() + io_to_lock_wb(): 5! = %u\n",
		 edu_demo_result(edu));

	edu_demo_buggy_submit(edu, 6);
	dev_info(&pdev->dev, "buggy __writel(): 6! = %u\n", edu_demo_result(edu));
	return 0;
}

static const struct pci_device_id edu_demo_ids[] = {
	{ PCI_DEVICE(EDU_VENDOR, EDU_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, edu_demo_ids);

static struct pci_driver edu_demo_driver = {
	.name		= "mmio_ordering_edu",
	.id_table	= edu_demo_ids,
	.probe		= edu_demo_probe,
};
module_pci_driver(edu_demo_driver);

MODULE_DESCRIPTION("MMIO ordering demo driver for QEMU's edu device");
MODULE_LICENSE("GPL");
