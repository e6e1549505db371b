/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for <linux/mmio_ordering.h>: the kernel's integer types. */
#ifndef _BENCH_SHIM_LINUX_TYPES_H
#define _BENCH_SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#endif
