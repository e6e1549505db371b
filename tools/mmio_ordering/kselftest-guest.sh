#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make kselftest`: vm.sh put the selftest at its installed
# place under /kselftest and the module under /lib/modules/kselftest; the
# guest has no modules.dep, so the test insmods the module itself.
export TEST_MMIO_ORDERING_KO=/lib/modules/kselftest/test_mmio_ordering.ko
sh /kselftest/mmio_ordering/mmio_ordering.sh
