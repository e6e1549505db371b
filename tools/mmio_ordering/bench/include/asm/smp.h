/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: asm-generic/mmiowb.h includes it and needs nothing of it. */
