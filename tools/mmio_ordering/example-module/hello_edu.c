// SPDX-License-Identifier: GPL-2.0
/*
 * Example out-of-tree module for `make vm M=...`: binds to QEMU's "edu"
 * PCI device, reads its identification register and checks its liveness
 * register (which reads back the bitwise inverse of what was written).
 */
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/spinlock.h>

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8
#define EDU_REG_ID	0x00
#define EDU_REG_LIVE	0x04

#define LIVE_PATTERN	0x12345678u

static DEFINE_SPINLOCK(hello_edu_lock);

static int hello_edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	void __iomem *regs;
	u32 ident, live;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	regs = pcim_iomap(pdev, 0, 0);
	if (!regs)
		return -ENOMEM;

	ident = readl(regs + EDU_REG_ID);

	/* An ordered write and its read-back, serialised by a lock. */
	spin_lock(&hello_edu_lock);
	writel(LIVE_PATTERN, regs + EDU_REG_LIVE);
	live = readl(regs + EDU_REG_LIVE);
	spin_unlock(&hello_edu_lock);

	dev_info(&pdev->dev, "hello_edu: id %#x, liveness %s\n", ident,
		 live == ~LIVE_PATTERN ? "ok" : "BAD");
	return live == ~LIVE_PATTERN ? 0 : -EIO;
}

static const struct pci_device_id hello_edu_ids[] = {
	{ PCI_DEVICE(EDU_VENDOR, EDU_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, hello_edu_ids);

static struct pci_driver hello_edu_driver = {
	.name		= "hello_edu",
	.id_table	= hello_edu_ids,
	.probe		= hello_edu_probe,
};
module_pci_driver(hello_edu_driver);

MODULE_DESCRIPTION("Example module for make vm: hello, edu device");
MODULE_LICENSE("GPL");
