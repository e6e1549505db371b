#!/bin/sh
# Guest side of the example (make vm ... SCRIPT=this file): the module must
# be loaded, bound to the edu device, and the device must have answered.
set -e
grep -q '^hello_edu ' /proc/modules
ls /sys/bus/pci/drivers/hello_edu | grep -q '^0000:'
dmesg | grep 'hello_edu: id 0x.*, liveness ok'
echo "example: hello_edu bound to edu and the device answered"
